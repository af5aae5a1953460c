import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { startTestRuntime, type TestRuntime } from '../factories/runtime.ts';
import { eventually } from '../factories/wait.ts';
import { customerWrites, linkWaWebNumber } from '../factories/wa-web.ts';
import type { GroupRequest, GroupTemplate } from '../../shared/group-template/group-template.schemas.ts';
import type { Message } from '../../shared/message/message.schemas.ts';
import type { WaWebCommand } from '../../shared/whatsapp/web/commands.ts';

/**
 * Group templates and "Create group" (issue 15 item 6) on the local runtime: admins write templates
 * (members may read, not write), a picture uploaded with a presigned PUT, and a group created from
 * a template on a WhatsApp Web number through the session worker's create-group command: the
 * stand-in really creates it (participants, description, admin-only settings, picture) and
 * delivers WhatsApp's "group created" notification, so the group chat appears in the inbox with
 * its subject. A redelivered command creates nothing twice; a Cloud API number is refused in words.
 */
let rt: TestRuntime;
let admin: string;
let member: string;
const PHONE = 'waweb_groups_1';
const OWN = '15550007777';
const A = '919800000001';
const B = '919800000002';
const C = '919800000003';
const enc = encodeURIComponent;

beforeAll(async () => {
  rt = await startTestRuntime();
  admin = await rt.signIn(rt.adminEmail);
  member = await rt.signIn(rt.memberEmail);
  await linkWaWebNumber(rt, PHONE, OWN);
}, 120_000);

afterAll(async () => {
  await rt?.cleanup();
});

const png = () => sharp({ create: { width: 64, height: 64, channels: 3, background: { r: 20, g: 120, b: 200 } } }).png().toBuffer();

async function uploadPicture(bytes: Buffer): Promise<string> {
  const up = await rt.orgCall<{ upload_url: string; upload_key: string; headers: Record<string, string> }>(admin, 'POST', '/group-templates/uploads', { filename: 'team logo.png', mimetype: 'image/png', size: bytes.length });
  expect(up.status).toBe(201);
  expect((await fetch(`${rt.url}${up.body.upload_url}`, { method: 'PUT', headers: up.body.headers, body: new Uint8Array(bytes) })).status).toBe(200);
  return up.body.upload_key;
}

describe('group templates', () => {
  let picture: Buffer;
  let tpl: GroupTemplate;

  it('admins create one with a picture and the admin-only settings; members can list but not write; bad input is a 400 with the field', async () => {
    picture = await png();
    const upload_key = await uploadPicture(picture);
    const res = await rt.orgCall<{ group_template: GroupTemplate }>(admin, 'POST', '/group-templates', { name: 'VIP customers', description: 'Early access for our best customers.', picture: { upload_key }, only_admins_send: true, only_admins_edit_info: true });
    expect(res.status).toBe(201);
    tpl = res.body.group_template;
    expect(tpl).toMatchObject({ name: 'VIP customers', description: 'Early access for our best customers.', only_admins_send: true, only_admins_edit_info: true, picture: { path: upload_key, mimetype: 'image/png' } });
    expect(tpl.template_id).toMatch(/^gt_/);
    // the picture URL serves the uploaded bytes
    const img = await fetch(tpl.picture!.url!.startsWith('http') ? tpl.picture!.url! : `${rt.url}${tpl.picture!.url}`);
    expect(Buffer.from(await img.arrayBuffer()).equals(picture)).toBe(true);

    const list = await rt.orgCall<{ group_templates: GroupTemplate[] }>(member, 'GET', '/group-templates');
    expect(list.status).toBe(200);
    expect(list.body.group_templates.map((t) => t.name)).toEqual(['VIP customers']);
    expect((await rt.orgCall(member, 'POST', '/group-templates', { name: 'Mine' })).status).toBe(403);
    expect((await rt.orgCall(member, 'PATCH', `/group-templates/${tpl.template_id}`, { name: 'Mine' })).status).toBe(403);
    expect((await rt.orgCall(member, 'DELETE', `/group-templates/${tpl.template_id}`)).status).toBe(403);

    const empty = await rt.orgCall<{ error: { details: Array<{ field: string; reason: string }> } }>(admin, 'POST', '/group-templates', { name: '  ' });
    expect(empty.status).toBe(400);
    expect(empty.body.error.details[0]).toMatchObject({ field: 'name', reason: 'must not be empty' });
    const dup = await rt.orgCall<{ error: { details: Array<{ field: string; reason: string }> } }>(admin, 'POST', '/group-templates', { name: 'vip CUSTOMERS' });
    expect(dup.status).toBe(400);
    expect(dup.body.error.details[0]).toMatchObject({ field: 'name', reason: 'is already used by another template' });
    const foreign = await rt.orgCall<{ error: { details: Array<{ field: string }> } }>(admin, 'POST', '/group-templates', { name: 'Foreign', picture: { upload_key: 'group-templates/other_org/uploads/x.png' } });
    expect(foreign.status).toBe(400);
    expect(foreign.body.error.details[0]!.field).toBe('picture.upload_key');
    const gif = await rt.orgCall(admin, 'POST', '/group-templates/uploads', { filename: 'a.gif', mimetype: 'image/gif', size: 10 });
    expect(gif.status).toBe(400);
  });

  it('PATCH changes the template and keeps the picture when it is not sent', async () => {
    const res = await rt.orgCall<{ group_template: GroupTemplate }>(admin, 'PATCH', `/group-templates/${tpl.template_id}`, { name: 'VIP customers', description: 'Early access, first news.', only_admins_send: true, only_admins_edit_info: true });
    expect(res.status).toBe(200);
    expect(res.body.group_template).toMatchObject({ description: 'Early access, first news.', picture: { path: tpl.picture!.path } });
    tpl = res.body.group_template;
  });

  it('Create group on a Cloud API number is refused in plain words', async () => {
    const res = await rt.orgCall<{ error: { details: Array<{ field: string; reason: string }> } }>(admin, 'POST', `/group-templates/${tpl.template_id}/groups`, { phone_id: rt.phone.phone_number_id, chat_ids: [`${A}@c.us`] });
    expect(res.status).toBe(400);
    expect(res.body.error.details[0]!.field).toBe('phone_id');
    expect(res.body.error.details[0]!.reason).toContain('WhatsApp Cloud API number, which cannot create WhatsApp groups');
    const none = await rt.orgCall<{ error: { details: Array<{ field: string }> } }>(admin, 'POST', `/group-templates/${tpl.template_id}/groups`, { phone_id: PHONE });
    expect(none.status).toBe(400);
    expect(none.body.error.details[0]!.field).toBe('chat_ids');
    const group = await rt.orgCall<{ error: { details: Array<{ field: string }> } }>(admin, 'POST', `/group-templates/${tpl.template_id}/groups`, { phone_id: PHONE, chat_ids: ['123@g.us'] });
    expect(group.status).toBe(400);
    expect(group.body.error.details[0]!.field).toBe('chat_ids.0');
    expect((await rt.orgCall(member, 'POST', `/group-templates/${tpl.template_id}/groups`, { phone_id: PHONE, chat_ids: [`${A}@c.us`] })).status).toBe(403);
  });

  it('Create group on a WhatsApp Web number: the worker creates it with the template, and the group chat appears in the inbox', async () => {
    const phone = { org_id: rt.orgId, phone_id: PHONE, org_phone: OWN };
    await customerWrites(phone, A, 'Hello', { name: 'Asha' });
    await customerWrites(phone, B, 'Hi there', { name: 'Bilal' });
    const contact = await rt.orgCall<{ contact: { contact_id: string } }>(admin, 'POST', '/contacts', { phone: `+${C}`, name: 'Chen' });
    expect(contact.status).toBe(201);

    const res = await rt.orgCall<{ request: GroupRequest }>(admin, 'POST', `/group-templates/${tpl.template_id}/groups`, { phone_id: PHONE, chat_ids: [`${A}@c.us`, `${B}@c.us`], contact_ids: [contact.body.contact.contact_id] });
    expect(res.status).toBe(202);
    expect(res.body.request).toMatchObject({ status: 'requested', subject: 'VIP customers', participant_count: 3, phone_id: PHONE });
    const reqPath = `/group-templates/${tpl.template_id}/groups/${res.body.request.request_id}`;
    const done = await eventually(async () => {
      const r = (await rt.orgCall<{ request: GroupRequest }>(admin, 'GET', reqPath)).body.request;
      return r.status === 'created' || r.status === 'failed' ? r : undefined;
    }, 20_000, 'the group request to settle');
    expect(done).toMatchObject({ status: 'created', detail: null });
    const gid = done.group_chat_id!;
    expect(gid).toMatch(/@g\.us$/);

    // WhatsApp (the stand-in) has the group as the template says
    const created = rt.waWeb.created.get(gid)!;
    expect(created).toMatchObject({ phone_id: PHONE, subject: 'VIP customers', description: 'Early access, first news.', settings: ['announcement', 'locked'] });
    expect(created.participants.sort()).toEqual([A, B, C].map((d) => `${d}@s.whatsapp.net`));
    expect(Buffer.from(created.picture!).equals(picture)).toBe(true);

    // ...and its "group created" notification put the group chat in the inbox, named by its subject
    const chat = await eventually(async () => {
      await rt.waWebWorker.idle();
      await rt.idle();
      const r = await rt.orgCall<{ chat: { chat_id: string; chat_type: string; chat_name?: string } }>(admin, 'GET', `/chats/${enc(gid)}`);
      return r.status === 200 && r.body.chat.chat_name === 'VIP customers' ? r.body.chat : undefined;
    }, 20_000, 'the group chat in the inbox');
    expect(chat).toMatchObject({ chat_id: gid, chat_type: 'group' });
    const msgs = (await rt.orgCall<{ messages: Message[] }>(admin, 'GET', `/chats/${enc(gid)}/messages`)).body.messages;
    expect(msgs.map((m) => [m.message_type, m.body])).toContainEqual(['system', 'Group “VIP customers” created']);

    // a redelivered command creates no second group
    const before = rt.waWeb.created.size;
    const cmd: WaWebCommand = { kind: 'create-group', org_id: rt.orgId, phone_id: PHONE, request_id: done.request_id, subject: 'VIP customers', description: '', participants: [`${A}@s.whatsapp.net`], only_admins_send: false, only_admins_edit_info: false };
    expect(await rt.waWebWorker.handleCommand(cmd)).toBe('done');
    expect(rt.waWeb.created.size).toBe(before);
    expect((await rt.orgCall<{ request: GroupRequest }>(admin, 'GET', reqPath)).body.request.status).toBe('created');
  });

  it('a failure of WhatsApp settles the request as failed with words', async () => {
    rt.waWeb.failNext(PHONE, new Error('participants refused'));
    const res = await rt.orgCall<{ request: GroupRequest }>(admin, 'POST', `/group-templates/${tpl.template_id}/groups`, { phone_id: PHONE, chat_ids: [`${A}@c.us`], name: 'Second try' });
    expect(res.status).toBe(202);
    const r = await eventually(async () => {
      const x = (await rt.orgCall<{ request: GroupRequest }>(admin, 'GET', `/group-templates/${tpl.template_id}/groups/${res.body.request.request_id}`)).body.request;
      return x.status === 'failed' || x.status === 'created' ? x : undefined;
    }, 20_000, 'the failed request');
    expect(r.status).toBe('failed');
    expect(r.detail).toContain('WhatsApp did not create the group (participants refused)');
  });

  it('DELETE removes the template (admins)', async () => {
    expect((await rt.orgCall(admin, 'DELETE', `/group-templates/${tpl.template_id}`)).status).toBe(200);
    expect((await rt.orgCall(admin, 'DELETE', `/group-templates/${tpl.template_id}`)).status).toBe(404);
    expect((await rt.orgCall<{ group_templates: GroupTemplate[] }>(admin, 'GET', '/group-templates')).body.group_templates).toEqual([]);
  });
});
