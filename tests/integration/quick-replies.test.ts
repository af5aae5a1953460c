import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../factories/runtime.ts';
import { inboundImage, inboundText, newWamid } from '../../shared/whatsapp/cloud/payloads.ts';
import type { QuickReply } from '../../shared/reply/reply.schemas.ts';

/**
 * Quick replies over HTTP against the local runtime (issue 15 item 5): team replies (admins write,
 * everyone reads), personal replies (their owner only), unique shortcuts per scope, variables
 * checked on save, a media-library attachment checked against the chat, 400s with field and reason.
 */
let rt: TestRuntime;
let admin: string;
let member: string;
const CUSTOMER = '447700900123';
let imageId = '';
let textId = '';
const chat = `${CUSTOMER}@c.us`;

type Json = Record<string, unknown>;
const list = async (token: string) => (await rt.orgCall<{ replies: QuickReply[] }>(token, 'GET', '/replies')).body.replies;

beforeAll(async () => {
  rt = await startTestRuntime();
  [admin, member] = await Promise.all([rt.signIn(rt.adminEmail), rt.signIn(rt.memberEmail)]);
  await rt.postWebhook(inboundText(rt.phone, CUSTOMER, 'Hi there', { name: 'Priya Shah', id: newWamid() }));
  await rt.postWebhook(inboundImage(rt.phone, CUSTOMER, { id: 'media-qr-1', caption: 'the price list' }, { name: 'Priya Shah', id: newWamid() }));
  await rt.idle();
  const msgs = (await rt.orgCall<{ messages: Array<{ unique_id: string; message_type: string }> }>(admin, 'GET', `/chats/${encodeURIComponent(chat)}/messages`)).body.messages;
  imageId = msgs.find((m) => m.message_type === 'image')!.unique_id;
  textId = msgs.find((m) => m.message_type === 'text')!.unique_id;
}, 120_000);
afterAll(async () => rt?.cleanup());

describe('team and personal replies', () => {
  let team: QuickReply;
  it('an admin saves a team reply (shortcut normalised); every member lists it', async () => {
    const r = await rt.orgCall<{ reply: QuickReply }>(admin, 'POST', '/replies', { shortcut: '/Thanks', text: 'Thank you {{contact.first_name}}! — {{member.name}}', scope: 'team' });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    team = r.body.reply;
    expect(team).toMatchObject({ shortcut: 'thanks', scope: 'team', owner_email: null, attachment: null, created_by: rt.adminEmail });
    expect((await list(member)).map((x) => x.reply_id)).toEqual([team.reply_id]);
  });

  it('a member may not write team replies (403) but keeps personal ones nobody else sees', async () => {
    const denied = await rt.orgCall<{ error: Json }>(member, 'POST', '/replies', { shortcut: 'mine', text: 'x', scope: 'team' });
    expect(denied.status).toBe(403);
    expect((await rt.orgCall(member, 'PATCH', `/replies/${team.reply_id}`, { shortcut: 'thanks', text: 'changed' })).status).toBe(403);
    expect((await rt.orgCall(member, 'DELETE', `/replies/${team.reply_id}`)).status).toBe(403);
    const mine = await rt.orgCall<{ reply: QuickReply }>(member, 'POST', '/replies', { shortcut: 'thanks', text: 'Cheers, {{contact.name}}', scope: 'personal' });
    expect(mine.status, JSON.stringify(mine.body)).toBe(201);
    expect(mine.body.reply).toMatchObject({ scope: 'personal', owner_email: rt.memberEmail });
    expect((await list(member)).map((x) => x.scope)).toEqual(['personal', 'team']);
    // the admin does not see the member's personal reply, nor may they change it (404, not 403: not shown)
    expect((await list(admin)).map((x) => x.reply_id)).toEqual([team.reply_id]);
    expect((await rt.orgCall(admin, 'DELETE', `/replies/${mine.body.reply.reply_id}`)).status).toBe(404);
    // the owner edits and deletes it
    const edited = await rt.orgCall<{ reply: QuickReply }>(member, 'PATCH', `/replies/${mine.body.reply.reply_id}`, { shortcut: 'cheers', text: 'Cheers!', scope: 'personal' });
    expect(edited.body.reply).toMatchObject({ shortcut: 'cheers', text: 'Cheers!' });
    expect((await rt.orgCall(member, 'DELETE', `/replies/${mine.body.reply.reply_id}`)).status).toBe(200);
    expect((await list(member)).map((x) => x.reply_id)).toEqual([team.reply_id]);
  });

  it('refuses a shortcut taken in the same scope, an unknown variable and bad shortcuts with the field and reason', async () => {
    const dup = await rt.orgCall<{ error: { details: unknown } }>(admin, 'POST', '/replies', { shortcut: 'THANKS', text: 'again', scope: 'team' });
    expect(dup.status).toBe(400);
    expect(dup.body.error.details).toEqual([{ field: 'shortcut', reason: 'is already used by another team reply' }]);
    const bad = await rt.orgCall<{ error: { details: Array<{ field: string; reason: string }> } }>(admin, 'POST', '/replies', { shortcut: 'a b', text: 'Hi {{contact.phone}}' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.map((d) => d.field)).toEqual(['shortcut', 'text']);
    expect(bad.body.error.details[1]!.reason).toMatch(/unknown variable \{\{contact\.phone\}\}/);
  });
});

describe('attachments from the media library', () => {
  it('keeps a file of a chat; a text message or a missing chat is a 400 on the attachment', async () => {
    const ok = await rt.orgCall<{ reply: QuickReply }>(admin, 'POST', '/replies', { shortcut: 'prices', text: 'Here is our price list', attachment: { chat_id: chat, unique_id: imageId, message_type: 'image', filename: 'prices.jpg', mimetype: 'image/jpeg' } });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    expect(ok.body.reply.attachment).toEqual({ chat_id: chat, unique_id: imageId, message_type: 'image', filename: 'prices.jpg', mimetype: 'image/jpeg' });
    const text = await rt.orgCall<{ error: { details: unknown } }>(admin, 'POST', '/replies', { shortcut: 'p2', text: 'x', attachment: { chat_id: chat, unique_id: textId, message_type: 'image' } });
    expect(text.status).toBe(400);
    expect(text.body.error.details).toEqual([{ field: 'attachment.unique_id', reason: 'is not a file of that chat' }]);
    const gone = await rt.orgCall<{ error: { details: unknown } }>(admin, 'POST', '/replies', { shortcut: 'p3', text: 'x', attachment: { chat_id: '999@c.us', unique_id: imageId, message_type: 'image' } });
    expect(gone.status).toBe(400);
    expect(gone.body.error.details).toEqual([{ field: 'attachment.chat_id', reason: 'is not a chat of this workspace' }]);
    // editing without the attachment removes it
    const edited = await rt.orgCall<{ reply: QuickReply }>(admin, 'PATCH', `/replies/${ok.body.reply.reply_id}`, { shortcut: 'prices', text: 'Prices on request' });
    expect(edited.body.reply).toMatchObject({ text: 'Prices on request', attachment: null });
  });
});
