import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { normalizeWebhook, type NormalizedItem } from './normalize.ts';
import { inboundMessage, statusUpdate } from './payloads.ts';

const phone = { phone_number_id: '106540352242922', display_phone_number: '15550783881' };
const fixture = (name: string) => JSON.parse(readFileSync(join(import.meta.dirname, '../../../tests/fixtures/whatsapp-cloud', name), 'utf8'));
const only = (items: NormalizedItem[]) => {
  expect(items).toHaveLength(1);
  return items[0];
};
const msgOf = (type: string, fields: Record<string, unknown>, context?: Record<string, unknown>) => {
  const item = only(normalizeWebhook(inboundMessage(phone, { from: '16505551234', name: 'Sheena', id: 'wamid.X', timestampS: 1749416383, type, fields, context })));
  if (item.kind !== 'message') throw new Error(`expected a message, got ${JSON.stringify(item)}`);
  return item.message;
};

describe('normalizeWebhook: Meta fixtures', () => {
  it('text (01_text.json)', () => {
    const item = only(normalizeWebhook(fixture('01_text.json')));
    expect(item).toMatchObject({
      kind: 'message',
      phone_number_id: '106540352242922',
      message: { chat_id: '16505551234@c.us', chat_type: 'user', sender_phone: '16505551234', author: 'Sheena Nelson', message_type: 'text', body: 'Does it come in another color?', timestamp: 1749416383000 },
    });
  });

  it('image with caption (02_image_with_caption.json) keeps the Meta media id', () => {
    const item = only(normalizeWebhook(fixture('02_image_with_caption.json')));
    expect(item).toMatchObject({ kind: 'message', message: { message_type: 'image', body: 'Taj Mahal', media: { media_id: '1003383421387256', mimetype: 'image/jpeg', caption: 'Taj Mahal' } } });
  });

  it('status sent (14_status_sent.json)', () => {
    const item = only(normalizeWebhook(fixture('14_status_sent.json')));
    expect(item).toMatchObject({ kind: 'status', status: 'sent', recipient_id: '16505551234', timestamp: 1750030073 });
  });
});

describe('normalizeWebhook: every documented message type', () => {
  it('video, document, sticker', () => {
    expect(msgOf('video', { video: { id: 'v1', mime_type: 'video/mp4', caption: 'clip' } })).toMatchObject({ message_type: 'video', media: { media_id: 'v1' }, body: 'clip' });
    expect(msgOf('document', { document: { id: 'd1', mime_type: 'application/pdf', filename: 'invoice.pdf' } })).toMatchObject({ message_type: 'document', media: { filename: 'invoice.pdf' } });
    expect(msgOf('sticker', { sticker: { id: 's1', mime_type: 'image/webp', animated: true } })).toMatchObject({ message_type: 'sticker', media: { animated: true } });
  });

  it('audio vs voice note (ptt)', () => {
    expect(msgOf('audio', { audio: { id: 'a1', mime_type: 'audio/mpeg' } }).message_type).toBe('audio');
    expect(msgOf('audio', { audio: { id: 'a2', mime_type: 'audio/ogg; codecs=opus', voice: true } }).message_type).toBe('ptt');
  });

  it('location and contacts', () => {
    expect(msgOf('location', { location: { latitude: 27.17, longitude: 78.04, name: 'Taj Mahal', address: 'Agra' } })).toMatchObject({ body: 'Taj Mahal, Agra', content: { location: { latitude: 27.17 } } });
    const c = msgOf('contacts', { contacts: [{ name: { formatted_name: 'Ana Diaz', first_name: 'Ana' }, phones: [{ phone: '+1 555', wa_id: '1555', type: 'CELL' }] }] });
    expect(c).toMatchObject({ message_type: 'contacts', body: 'Ana Diaz' });
  });

  it('button and interactive replies carry the quoted business message', () => {
    expect(msgOf('button', { button: { payload: 'STOP', text: 'Stop promotions' } }, { from: '15550783881', id: 'wamid.B' })).toMatchObject({ body: 'Stop promotions', quoted_message: { message_id: 'wamid.B' } });
    expect(msgOf('interactive', { interactive: { type: 'button_reply', button_reply: { id: 'yes', title: 'Yes' } } })).toMatchObject({ body: 'Yes' });
    expect(msgOf('interactive', { interactive: { type: 'list_reply', list_reply: { id: 'r1', title: 'Red', description: 'Bright' } } })).toMatchObject({ body: 'Red' });
  });

  it('reaction add and remove (emoji omitted)', () => {
    expect(msgOf('reaction', { reaction: { message_id: 'wamid.T', emoji: '👍' } }).reaction).toEqual({ target_message_id: 'wamid.T', emoji: '👍' });
    expect(msgOf('reaction', { reaction: { message_id: 'wamid.T' } }).reaction).toEqual({ target_message_id: 'wamid.T', emoji: null });
  });

  it('replies, forwards, unsupported and unknown types are kept', () => {
    expect(msgOf('text', { text: { body: 'ok' } }, { from: '15550783881', id: 'wamid.Q' }).quoted_message).toEqual({ message_id: 'wamid.Q', from: '15550783881' });
    expect(msgOf('text', { text: { body: 'fw' } }, { frequently_forwarded: true }).forwarded).toBe('frequently_forwarded');
    const u = msgOf('unsupported', { unsupported: { type: 'edit' }, errors: [{ code: 131051, title: 'Message type unknown' }] });
    expect(u).toMatchObject({ message_type: 'unsupported', content: { unsupported: { type: 'edit' }, errors: [{ code: 131051 }] } });
    expect(msgOf('order', { order: { catalog_id: 'c1', product_items: [] } }).content).toEqual({ order: { catalog_id: 'c1', product_items: [] } });
  });

  it('group messages become @g.us chats', () => {
    expect(msgOf('text', { text: { body: 'hi all' }, group_id: 'G123' })).toMatchObject({ chat_id: 'G123@g.us', chat_type: 'group' });
  });

  it('failed status keeps Meta errors', () => {
    const item = only(normalizeWebhook(statusUpdate(phone, { id: 'wamid.F', status: 'failed', recipient: '1', errors: [{ code: 131047, title: 'Re-engagement message' }] })));
    expect(item).toMatchObject({ kind: 'status', status: 'failed', errors: [{ code: 131047 }] });
  });
});

describe('normalizeWebhook: bad input never throws and is isolated', () => {
  it.each([null, 42, 'text', [], {}, { object: 'whatsapp_business_account' }, { object: 'whatsapp_business_account', entry: 'x' }, JSON.parse('{"__proto__":{"polluted":1},"object":"x","entry":[]}')])(
    'body %j',
    (body) => {
      expect(() => normalizeWebhook(body)).not.toThrow();
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    },
  );

  it('one bad message does not hide the good one beside it', () => {
    const body = inboundMessage(phone, { from: '1', type: 'text', fields: { text: { body: 'good' } } });
    (body.entry[0].changes[0].value as unknown as { messages: unknown[] }).messages.push({ from: '1', id: 'wamid.bad', timestamp: 'yesterday', type: 'text' });
    const items = normalizeWebhook(body);
    expect(items.map((i) => i.kind)).toEqual(['message', 'rejected']);
  });

  it('a text message without its text object is rejected with the reason', () => {
    const item = only(normalizeWebhook(inboundMessage(phone, { from: '1', type: 'text', fields: {} })));
    expect(item).toMatchObject({ kind: 'rejected', reason: expect.stringContaining('text') });
  });

  it('other webhook fields are ignored', () => {
    const body = { object: 'whatsapp_business_account', entry: [{ id: '1', changes: [{ field: 'account_update', value: {} }] }] };
    expect(only(normalizeWebhook(body)).kind).toBe('ignored');
  });
});

describe('normalizeWebhook: 2026 identity shapes (issue 41; whatsapp-protocols.md §E.1)', () => {
  const U = 'BR.17730000000000000001';
  const body = (value: Record<string, unknown>) => ({ object: 'whatsapp_business_account', entry: [{ id: '102290129340398', changes: [{ field: 'messages', value: { messaging_product: 'whatsapp', metadata: phone, ...value } }] }] });
  const text = (extra: Record<string, unknown>) => ({ id: 'wamid.U1', timestamp: '1775000000', type: 'text', text: { body: 'Oi' }, ...extra });

  it('a username user with no number: a message with the BSUID, an opaque chat, the username as the name', () => {
    const item = only(normalizeWebhook(body({ contacts: [{ user_id: U, profile: { username: '@ana' } }], messages: [text({ from_user_id: U })] })));
    if (item.kind !== 'message') throw new Error(JSON.stringify(item));
    expect(item.message.chat_id).toMatch(/^cht_/);
    expect(item.message.sender_phone).toBe('');
    expect(item.message.sender_identity).toEqual({ user_id: U, username: '@ana' });
    expect(item.message.author).toBe('@ana');
  });

  it('number + BSUID + parent id: every identifier kept apart, the number chat', () => {
    const item = only(normalizeWebhook(body({ contacts: [{ wa_id: '5511988887777', user_id: U, parent_user_id: 'BR.ENT.99', profile: { name: 'Ana', username: '@ana' } }], messages: [text({ from: '5511988887777', from_user_id: U })] })));
    if (item.kind !== 'message') throw new Error(JSON.stringify(item));
    expect(item.message).toMatchObject({ chat_id: '5511988887777@c.us', sender_phone: '5511988887777', author: 'Ana', sender_identity: { wa_id: '5511988887777', user_id: U, parent_user_id: 'BR.ENT.99', username: '@ana' } });
  });

  it('a message with neither from nor from_user_id is rejected with a reason (kept, never dropped)', () => {
    const item = only(normalizeWebhook(body({ messages: [text({})] })));
    expect(item).toMatchObject({ kind: 'rejected', reason: expect.stringContaining('from or from_user_id') });
  });

  it('statuses by recipient_user_id, and failed statuses without contacts', () => {
    const items = normalizeWebhook(body({ statuses: [{ id: 'wamid.S', status: 'delivered', timestamp: '1775000001', recipient_user_id: U }, { id: 'wamid.F', status: 'failed', timestamp: '1775000002', recipient_user_id: U, errors: [{ code: 131026, title: 'Message undeliverable' }] }] }));
    expect(items).toMatchObject([
      { kind: 'status', status: 'delivered', recipient_id: '', recipient_user_id: U },
      { kind: 'status', status: 'failed', errors: [{ code: 131026 }] },
    ]);
  });

  it('user_changed_user_id and user_changed_number announce the new identifier, in words without numbers', () => {
    const [a] = normalizeWebhook(body({ contacts: [{ user_id: U }], messages: [{ id: 'wamid.S1', timestamp: '1775000003', type: 'system', from_user_id: U, system: { type: 'user_changed_user_id', body: 'User changed', new_user_id: 'BR.17730000000000000009' } }] }));
    expect(a).toMatchObject({ kind: 'message', message: { message_type: 'system', identity_change: { kind: 'bsuid', from: U, to: 'BR.17730000000000000009' } } });
    const [b] = normalizeWebhook(body({ contacts: [{ wa_id: '5511988887777' }], messages: [{ from: '5511988887777', id: 'wamid.S2', timestamp: '1775000004', type: 'system', system: { type: 'user_changed_number', body: 'Ana changed from 5511988887777 to 5511977776666', new_wa_id: '5511977776666' } }] }));
    expect(b).toMatchObject({ kind: 'message', message: { identity_change: { kind: 'phone', from: '5511988887777', to: '5511977776666' } } });
    expect(b.kind === 'message' && b.message.body).not.toContain('5511');
  });

  it('a contacts reply to a contact request shares the number', () => {
    const [c] = normalizeWebhook(body({ contacts: [{ user_id: U, profile: { username: '@ana' } }], messages: [{ id: 'wamid.C', timestamp: '1775000005', type: 'contacts', from_user_id: U, contacts: [{ origin: 'contact_request', name: { formatted_name: 'Ana' }, phones: [{ phone: '+55 11 98888-7777', wa_id: '5511988887777', type: 'CELL' }] }] }] }));
    expect(c).toMatchObject({ kind: 'message', message: { identity_change: { kind: 'phone', to: '5511988887777' } } });
  });
});
