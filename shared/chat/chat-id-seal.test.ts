import { describe, expect, it } from 'vitest';
import { isSealedChatId, openChatId, openChatIdsIn, sealChatId, sealChatIdsIn } from './chat-id-seal.ts';
import { isOpaqueChatId } from '../contact/identity.rules.ts';

describe('sealed chat ids (issue 41 §5)', () => {
  it('are stable per org, open only in their org, and read as opaque chat ids', () => {
    const s = sealChatId('org_a', '447700900123@c.us');
    expect(s).toBe(sealChatId('org_a', '447700900123@c.us'));
    expect(s).not.toContain('447700900123');
    expect(isSealedChatId(s) && isOpaqueChatId(s)).toBe(true);
    expect(openChatId('org_a', s)).toBe('447700900123@c.us');
    expect(openChatId('org_b', s)).toBeNull();
    expect(openChatId('org_a', `${s.slice(0, -2)}xx`)).toBeNull();
  });

  it('seals every number chat id in an answer (values, inside text, percent-encoded), and leaves the rest as it was', () => {
    const body = { chat: { chat_id: '447700900123@c.us', chat_name: 'Ana' }, url: '/chats/447700900123%40c.us', note: 'moved from 447700900123@c.us', group: '120363000000000001@g.us', n: 3, ok: true, keep: ['cht_abc'] };
    const out = sealChatIdsIn('org_a', body);
    expect(JSON.stringify(out)).not.toContain('447700900123');
    expect(out.chat.chat_id).toBe(sealChatId('org_a', '447700900123@c.us'));
    expect(out.url).toBe(`/chats/${sealChatId('org_a', '447700900123@c.us')}`);
    expect(out.group).toBe(body.group);
    expect(out.keep).toBe(body.keep);
    const plain = { a: 'x', b: [1] };
    expect(sealChatIdsIn('org_a', plain)).toBe(plain);
  });

  it('opens sealed ids a request names, a few levels deep, and leaves foreign ones as sent', () => {
    const s = sealChatId('org_a', '447700900123@c.us');
    expect(openChatIdsIn('org_a', { chat_ids: [s, 'cht_x'], link: { id: s } })).toEqual({ chat_ids: ['447700900123@c.us', 'cht_x'], link: { id: '447700900123@c.us' } });
    expect(openChatIdsIn('org_b', { chat_id: s })).toEqual({ chat_id: s });
    let deep: unknown = s;
    for (let i = 0; i < 10_000; i++) deep = { d: deep };
    expect(() => openChatIdsIn('org_a', deep)).not.toThrow();
  });
});
