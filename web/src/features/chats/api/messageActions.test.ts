import { describe, expect, it } from 'vitest';
import type { Message } from '#shared/message/message.schemas.ts';
import { maskPhone } from '#shared/chat/chat-access.rules.ts';
import { actionContext, allowedActions } from './messageActions.ts';

const NOW = 1_795_000_000_000;
const OWN = '15550008888';
const GROUP = '120363000000000001@g.us';
const msg = (over: Partial<Message> = {}): Message =>
  ({ org_id: 'o', chat_id: GROUP, unique_id: 'U1', message_id: 'G-1', org_phone: OWN, phone_id: 'p1', from_me: false, ack: 0, timestamp: NOW - 60_000, message_type: 'text', body: 'hi', sender_phone: '447700900111', ...over }) as Message;
const actor = { email: 'm@x.co', role: 'member' as const, phones: [{ phone_id: 'p1', org_phone: OWN, connection_type: 'wa_web' }] };
const chat = (admins: string[] | null) => ({ chat_type: 'group' as const, group_metadata: admins ? { subject: 'g', admins, fetched_at: NOW } : null });

describe('the menu offers Delete in a group as spec §5 allows (from the chat group_metadata)', () => {
  it("another participant's message: only when our number is an admin, or the sender is", () => {
    expect(allowedActions(actionContext(msg(), chat(['447700900222']), actor, [], NOW)).has('delete')).toBe(false);
    expect(allowedActions(actionContext(msg(), chat([OWN]), actor, [], NOW)).has('delete')).toBe(true);
    expect(allowedActions(actionContext(msg(), chat(['447700900111']), actor, [], NOW)).has('delete')).toBe(true);
    expect(allowedActions(actionContext(msg(), chat(null), actor, [], NOW)).has('delete')).toBe(false);
  });

  it('with masked numbers: a masked sender matches the masked admin; our number is compared as is', () => {
    const masked = msg({ sender_phone: maskPhone('447700900111') });
    expect(actionContext(masked, chat([maskPhone('447700900111')]), actor, [], NOW).group).toEqual({ phoneIsAdmin: false, senderIsAdmin: true });
    expect(actionContext(masked, chat([OWN, maskPhone('447700900222')]), actor, [], NOW).group).toEqual({ phoneIsAdmin: true, senderIsAdmin: false });
  });
});
