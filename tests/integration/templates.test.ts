import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../factories/runtime.ts';
import { inboundText } from '../../shared/whatsapp/cloud/payloads.ts';
import { seedWaWebPhone } from '../factories/wa-web.ts';
import { db } from '../../shared/db/service.ts';
import { eventually } from '../factories/wait.ts';
import { STANDIN_TEMPLATES } from '../../scripts/local/graph-templates.ts';
import type { TemplateView } from '../../shared/template/template.schemas.ts';
import type { Message } from '../../shared/message/message.schemas.ts';

/**
 * Templates (issue 16 item 1) against the real local runtime: the sync pages the Graph stand-in's
 * `GET /{waba_id}/message_templates`, the list reads the stored rows, and a template sent into a
 * chat whose 24-hour window has closed goes through the normal send path and reaches the stand-in
 * with Meta's template body (the stand-in checks it like Meta: name, language, parameter counts).
 */
let rt: TestRuntime;
let admin: string;
let member: string;
let seq = 0;
const enc = encodeURIComponent;

beforeAll(async () => {
  rt = await startTestRuntime();
  [admin, member] = await Promise.all([rt.signIn(rt.adminEmail), rt.signIn(rt.memberEmail)]);
});
afterAll(async () => rt?.cleanup());

/** A chat whose customer last wrote `hoursAgo` hours ago. */
async function chatWrittenAgo(hoursAgo: number): Promise<string> {
  const from = `1555061${String(++seq).padStart(4, '0')}`;
  const ts = Math.floor((Date.now() - hoursAgo * 3_600_000) / 1000);
  expect((await rt.postWebhook(inboundText(rt.phone, from, 'hello', { timestampS: ts }))).status).toBe(200);
  await rt.idle();
  return `${from}@c.us`;
}

describe('sync', () => {
  it('members may not sync (403); admins sync every page from the stand-in', async () => {
    expect((await rt.orgCall(member, 'POST', '/templates/sync', {})).status).toBe(403);
    const reads = rt.graph.templateReads.length;
    // more templates than one page (100) so the sync follows the cursor
    const many = Array.from({ length: 130 }, (_, i) => ({ ...STANDIN_TEMPLATES[1], id: `9${i}`, name: `bulk_${String(i).padStart(3, '0')}` }));
    rt.graph.setTemplates([...STANDIN_TEMPLATES, ...many]);
    const r = await rt.orgCall<{ results: Array<{ synced: number; removed: number; pages: number; phone_id: string }> }>(admin, 'POST', '/templates/sync', { phone_id: rt.phone.phone_number_id });
    expect(r.status).toBe(200);
    expect(r.body.results[0]).toMatchObject({ phone_id: rt.phone.phone_number_id, synced: 134, removed: 0, pages: 2 });
    expect(rt.graph.templateReads.slice(reads)).toHaveLength(2);
    expect(rt.graph.templateReads.at(-1)).toContain('after=');
  });

  it('removes rows Meta no longer returns and lists the rest to members', async () => {
    rt.graph.setTemplates(STANDIN_TEMPLATES);
    const r = await rt.orgCall<{ results: Array<{ synced: number; removed: number }> }>(admin, 'POST', '/templates/sync', {});
    expect(r.body.results[0]).toMatchObject({ synced: 4, removed: 130 });
    const list = await rt.orgJson<{ phone_id: string; templates: TemplateView[] }>(member, `/templates?phone_id=${rt.phone.phone_number_id}`);
    expect(list.templates.map((t) => `${t.name}/${t.language}`)).toEqual(['appointment_reminder/en_US', 'follow_up/pt_BR', 'order_shipped/en_US', 'welcome_back/en_US']);
    const shipped = list.templates.find((t) => t.name === 'order_shipped')!;
    expect(shipped).toMatchObject({ status: 'APPROVED', category: 'UTILITY', parameter_format: 'POSITIONAL' });
    expect(shipped.components[0]).toMatchObject({ type: 'HEADER', format: 'IMAGE' });
    // default phone: the org's first Cloud API number
    expect((await rt.orgJson<{ phone_id: string }>(member, '/templates')).phone_id).toBe(rt.phone.phone_number_id);
  });

  it('400 with field and reason for bad input; 404 for an unknown phone', async () => {
    const bad = await rt.orgCall<{ error: { details: Array<{ field: string }> } }>(member, 'GET', '/templates?limit=0');
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0].field).toBe('query.limit');
    expect((await rt.orgCall(member, 'GET', '/templates?phone_id=999')).status).toBe(404);
    expect((await rt.orgCall(admin, 'POST', '/templates/sync', { phone_id: 5 })).status).toBe(400);
  });
});

describe('send a template into a chat', () => {
  it('a closed window still sends a template, with Meta\'s body, through the normal send path', async () => {
    const chatId = await chatWrittenAgo(30);
    const before = rt.graph.sent.length;
    const values = { 'header.media': 'https://cdn.example.com/box.jpg', 'body.1': 'Ana', 'body.2': '#10432', 'body.3': 'Friday', 'button.0.1': '10432' };
    const r = await rt.orgCall<{ message: Message }>(member, 'POST', `/chats/${enc(chatId)}/templates`, { name: 'order_shipped', language: 'en_US', values });
    expect(r.status).toBe(201);
    expect(r.body.message).toMatchObject({ message_type: 'template', ack: 0, body: 'Hi Ana, your order #10432 is on its way and should arrive by Friday.\n\nReply STOP to stop updates' });
    const sent = await eventually(async () => rt.graph.sent.slice(before).find((s) => (s.body as { type?: string }).type === 'template' && s.wamid));
    const { biz_opaque_callback_data: _cb, ...body } = sent.body as Record<string, unknown>;
    expect(body).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: chatId.split('@')[0],
      type: 'template',
      template: {
        name: 'order_shipped',
        language: { code: 'en_US' },
        components: [
          { type: 'header', parameters: [{ type: 'image', image: { link: 'https://cdn.example.com/box.jpg' } }] },
          { type: 'body', parameters: [{ type: 'text', text: 'Ana' }, { type: 'text', text: '#10432' }, { type: 'text', text: 'Friday' }] },
          { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: '10432' }] },
        ],
      },
    });
    // the thread has it with Meta's wamid (acks follow from status webhooks)
    await eventually(async () => {
      const m = (await rt.orgJson<{ messages: Message[] }>(member, `/chats/${enc(chatId)}/messages`)).messages.find((x) => x.unique_id === r.body.message.unique_id);
      return m?.message_id === sent.wamid;
    });
  });

  it('a missing variable is a 400 naming it; an unknown template names template.name', async () => {
    const chatId = await chatWrittenAgo(30);
    const r = await rt.orgCall<{ error: { details: Array<{ field: string; reason: string }> } }>(member, 'POST', `/chats/${enc(chatId)}/templates`, { name: 'appointment_reminder', language: 'en_US', values: { 'body.1': 'Ana' } });
    expect(r.status).toBe(400);
    expect(r.body.error.details).toEqual([{ field: 'values.body.2', reason: 'is required' }]);
    const u = await rt.orgCall<{ error: { details: Array<{ field: string }> } }>(member, 'POST', `/chats/${enc(chatId)}/templates`, { name: 'appointment_reminder', language: 'de_DE', values: {} });
    expect(u.status).toBe(400);
    expect(u.body.error.details[0].field).toBe('template.name');
  });

  it('a WhatsApp Web chat refuses templates with a 400', async () => {
    const p = await seedWaWebPhone(rt.orgId, 'waweb-tpl-1', '15557770199');
    await db().entities.chat.create({ org_id: rt.orgId, chat_id: '15550009999@c.us', chat_type: 'user', org_phone: p.org_phone, phone_id: p.phone_id, chat_org_phones: [p.org_phone], latest_message_timestamp: Date.now() }).go();
    const r = await rt.orgCall<{ error: { code: string; details: Array<{ field: string }> } }>(admin, 'POST', `/chats/${enc('15550009999@c.us')}/templates`, { name: 'welcome_back', language: 'en_US' });
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe('template.not_cloud');
    expect((await rt.orgCall(admin, 'POST', '/templates/sync', { phone_id: 'waweb-tpl-1' })).status).toBe(400);
  });
});
