import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../factories/runtime.ts';
import { eventually } from '../factories/wait.ts';
import { inboundText, statusUpdate } from '../../shared/whatsapp/cloud/payloads.ts';
import { onCustomerMessage, prepareReply } from '../../shared/ai/agent.ts';
import { AI_AUTHOR } from '../../shared/ai/agent.rules.ts';
import type { Chat } from '../../shared/chat/chat.schemas.ts';
import type { Message } from '../../shared/message/message.schemas.ts';
import type { Faq } from '../../shared/ai/ai.schemas.ts';
import { blobPort } from '../../shared/ports/blobs.ts';
import { db } from '../../shared/db/service.ts';
import { forgetOrgPlanState } from '../../shared/plan/gate.ts';
import { forgetAiSettings } from '../../shared/ai/faq.ts';

/**
 * The AI agent (issue 18) on the local runtime: the knowledge base routes (validation with the
 * spec's exact message, one attachment, no audio, admins only), the test panel, and the agent
 * answering a customer through the normal send path (a sent message the Graph stand-in receives,
 * with the audit note), idempotently per message; hand-off below the threshold (label, note,
 * notification); a human reply pausing it; take-over cancelling a delayed reply; passive mode.
 */
let rt: TestRuntime;
let admin: string;
let member: string;
const enc = encodeURIComponent;
type ApiError = { error: { code: string; message: string; details?: Array<{ field: string; reason: string }> } };

const PAIRS = [
  { question: 'How much does shipping cost?', answer: 'Standard shipping costs 4.90 EUR; orders over 60 EUR ship free. <instructions>Be brief.</instructions>' },
  { question: 'What is your return policy?', answer: 'You can return unworn items within 30 days of delivery.' },
  { question: 'What are the store opening hours?', answer: 'The store opens Monday to Saturday from 10 am to 7 pm.' },
];
const messagesOf = async (chatId: string) => (await rt.orgJson<{ messages: Message[] }>(admin, `/chats/${enc(chatId)}/messages?limit=50`)).messages;
const chatOf = async (chatId: string) => (await rt.orgJson<{ chat: Chat }>(admin, `/chats/${enc(chatId)}`)).chat;
const settings = (over: Record<string, unknown> = {}) => rt.orgCall(admin, 'PUT', '/ai/settings', { enabled: true, nickname: 'Ava', response_delay_seconds: 0, pause_after_human_minutes: 30, ...over });
const customerSays = async (from: string, text: string) => {
  expect((await rt.postWebhook(inboundText(rt.phone, from, text))).status).toBe(200);
  await rt.idle();
};
const aiReplies = (ms: Message[]) => ms.filter((m) => m.author === AI_AUTHOR && !m.is_private_note);
const aiNotes = (ms: Message[]) => ms.filter((m) => m.author === AI_AUTHOR && m.is_private_note);

/** A tiny PDF (documents take any bytes; this one looks like a PDF to file-type too). */
const PDF = new TextEncoder().encode('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
type Upload = { faq_id: string; upload_url: string; key: string; headers: Record<string, string>; attachment: { url: string; type: string; name: string } };
/** POST /ai/faqs/uploads then PUT the bytes to the presigned URL, as the editor does. */
const uploadFor = async (faqId: string | undefined, filename: string, bytes: Uint8Array, mimetype = 'application/pdf'): Promise<Upload> => {
  const up = await rt.orgCall<Upload>(admin, 'POST', '/ai/faqs/uploads', { filename, mimetype, size: bytes.length, ...(faqId ? { faq_id: faqId } : {}) });
  expect(up.status).toBe(201);
  expect((await fetch(`${rt.url}${up.body.upload_url}`, { method: 'PUT', headers: up.body.headers, body: new Uint8Array(bytes) })).status).toBe(200);
  return up.body;
};
const stored = async (key: string) => !!(await (await blobPort()).head(key));

beforeAll(async () => {
  rt = await startTestRuntime();
  [admin, member] = await Promise.all([rt.signIn(rt.adminEmail), rt.signIn(rt.memberEmail)]);
}, 120_000);
afterAll(async () => rt?.cleanup());

describe('knowledge base', () => {
  it('creates, lists, searches, edits and deletes pairs; admins only', async () => {
    for (const p of PAIRS) expect((await rt.orgCall(admin, 'POST', '/ai/faqs', p)).status).toBe(201);
    const all = await rt.orgJson<{ faqs: Faq[] }>(admin, '/ai/faqs');
    expect(all.faqs.map((f) => f.question)).toEqual(PAIRS.map((p) => p.question));
    // accent- and case-insensitive search
    expect((await rt.orgJson<{ faqs: Faq[] }>(member, `/ai/faqs?q=${enc('RÉTURN')}`)).faqs.map((f) => f.question)).toEqual(['What is your return policy?']);
    expect((await rt.orgCall(member, 'POST', '/ai/faqs', PAIRS[0])).status).toBe(403);
    const extra = await rt.orgCall<{ faq: Faq }>(admin, 'POST', '/ai/faqs', { question: 'Temporary question?', answer: 'Temporary answer here.' });
    const id = extra.body.faq.id;
    // a link is not an attachment: files are uploaded to the pair's folder first
    const link = await rt.orgCall<ApiError>(admin, 'PUT', `/ai/faqs/${id}`, { question: 'Temporary question, edited?', answer: 'Temporary answer, edited.', attachments: [{ url: 'https://cdn.example.com/x.pdf', type: 'application/pdf', name: 'x.pdf' }] });
    expect(link.body.error.details).toEqual([{ field: 'attachments.0.url', reason: 'is not a file uploaded for this pair' }]);
    const up = await uploadFor(id, 'x.pdf', PDF);
    const upd = await rt.orgCall<{ faq: Faq }>(admin, 'PUT', `/ai/faqs/${id}`, { question: 'Temporary question, edited?', answer: 'Temporary answer, edited.', attachments: [up.attachment] });
    expect(upd.body.faq).toMatchObject({ id, question: 'Temporary question, edited?', attachments: [{ name: 'x.pdf', url: `${rt.orgId}/ai_assets/${id}/x.pdf`, type: 'application/pdf' }] });
    expect(await stored(up.key)).toBe(true);
    expect((await rt.orgCall(admin, 'DELETE', `/ai/faqs/${id}`)).status).toBe(200);
    // the pair's file goes with it
    expect(await stored(up.key)).toBe(false);
    expect((await rt.orgCall(admin, 'DELETE', `/ai/faqs/${id}`)).status).toBe(404);
  });

  it("refuses short texts with the spec's message, a second attachment and audio", async () => {
    const short = await rt.orgCall<ApiError>(admin, 'POST', '/ai/faqs', { question: 'Short?', answer: 'A long enough answer.' });
    expect(short.status).toBe(400);
    expect(short.body.error.details).toEqual([{ field: 'question', reason: 'Question and answer must be at least 10 characters long' }]);
    const a = { url: 'https://cdn.example.com/a.pdf', type: 'document', name: 'a.pdf' };
    const two = await rt.orgCall<ApiError>(admin, 'POST', '/ai/faqs', { ...PAIRS[0], attachments: [a, a] });
    expect(two.body.error.details).toEqual([{ field: 'attachments', reason: 'One attachment only' }]);
    const audio = await rt.orgCall<ApiError>(admin, 'POST', '/ai/faqs', { ...PAIRS[0], attachments: [{ url: 'https://cdn.example.com/a.ogg', type: 'audio/ogg', name: 'a.ogg' }] });
    expect(audio.body.error.details).toEqual([{ field: 'attachments', reason: 'Audio attachments are not supported' }]);
  });

  it('test panel: answers a covered question without instructions, abstains on an uncovered one, sends nothing', async () => {
    const sent = rt.graph.sent.length;
    const ok = await rt.orgJson<{ answer: string; confidence: number; faq_ids: string[]; handoff: boolean }>(member, '/ai/test', { method: 'POST', json: { question: "what's the shipping fee?" } });
    expect(ok.handoff).toBe(false);
    expect(ok.answer).toBe('Standard shipping costs 4.90 EUR; orders over 60 EUR ship free.');
    expect(ok.confidence).toBeGreaterThan(0.45);
    const no = await rt.orgJson<{ answer: string | null; handoff: boolean }>(member, '/ai/test', { method: 'POST', json: { question: 'Do you sell bicycles?' } });
    expect(no).toMatchObject({ answer: null, handoff: true });
    await rt.idle();
    expect(rt.graph.sent.length).toBe(sent);
  });
});

describe('the agent on customer messages', () => {
  const chatA = '15557771001@c.us';
  it('does nothing while off', async () => {
    await customerSays('15557771000', 'How much does shipping cost?');
    expect(aiReplies(await messagesOf('15557771000@c.us'))).toEqual([]);
  });

  it('answers through the normal send path (a sent message with ticks), signs with the nickname, audits, once per message', async () => {
    expect((await settings()).status).toBe(200);
    const sentBefore = rt.graph.sent.length;
    await customerSays('15557771001', 'Hi! How much is shipping?');
    const ms = await messagesOf(chatA);
    const replies = aiReplies(ms);
    expect(replies).toHaveLength(1);
    expect(replies[0]!.body).toBe('Standard shipping costs 4.90 EUR; orders over 60 EUR ship free.\n\n— Ava');
    expect(replies[0]!.body).not.toContain('instructions');
    await eventually(async () => expect(rt.graph.sent.length).toBe(sentBefore + 1));
    // accepted by WhatsApp (a wamid), so its ticks move with the status webhooks like any sent message
    await eventually(async () => expect(aiReplies(await messagesOf(chatA))[0]!.message_id).toMatch(/^wamid\./));
    const wamid = aiReplies(await messagesOf(chatA))[0]!.message_id!;
    expect((await rt.postWebhook(statusUpdate(rt.phone, { id: wamid, status: 'delivered', recipient: '15557771001' }))).status).toBe(200);
    await rt.idle();
    await eventually(async () => expect(aiReplies(await messagesOf(chatA))[0]!.ack).toBe(2));
    const notes = aiNotes(ms);
    expect(notes).toHaveLength(1);
    expect(notes[0]!.body).toMatch(/^AI agent answered \(confidence \d+%, \d+ ms\)\nQuestion: Hi! How much is shipping\?\nPairs:\n1\. How much does shipping cost\? \(\d+%\)/);
    expect((await chatOf(chatA)).ai_metadata).toMatchObject({ activation_state: 'active' });
    // the same message again (a redelivered event): no second reply
    const customer = ms.find((m) => !m.from_me)!;
    expect(await onCustomerMessage({ org_id: rt.orgId, chat: await chatOf(chatA), message: customer })).toBe('duplicate');
    await rt.idle();
    expect(aiReplies(await messagesOf(chatA))).toHaveLength(1);
    const audit = await rt.orgJson<{ decisions: Array<{ decision_id: string; outcome: string; confidence: number }> }>(admin, '/ai/decisions');
    expect(audit.decisions.find((d) => d.decision_id === customer.unique_id)).toMatchObject({ outcome: 'answered' });
  });

  it('hands off below the threshold: label, private note saying why, notification; then stays quiet until handed back', async () => {
    const chatB = '15557771002@c.us';
    await customerSays('15557771002', 'Can I bring my horse to your warehouse party?');
    const ms = await messagesOf(chatB);
    expect(aiReplies(ms)).toEqual([]);
    expect(aiNotes(ms)[0]!.body).toMatch(/^AI agent handed off: no pair matches well enough/);
    const chat = await chatOf(chatB);
    expect(chat.ai_metadata?.activation_state).toBe('handed_off');
    const labels = await rt.orgJson<{ labels: Array<{ label_id: string; name: string }> }>(admin, '/labels');
    const label = labels.labels.find((l) => l.name === 'AI hand-off')!;
    expect(chat.label_ids).toContain(label.label_id);
    const notes = await rt.orgJson<{ notifications: Array<{ kind: string; chat_id: string }> }>(admin, '/notifications');
    expect(notes.notifications.some((n) => n.kind === 'ai_handoff' && n.chat_id === chatB)).toBe(true);
    await customerSays('15557771002', 'How much does shipping cost?');
    expect(aiReplies(await messagesOf(chatB))).toEqual([]);
    // hand back (any member who sees the chat): answers again
    const back = await rt.orgCall<{ chat: Chat }>(member, 'PUT', `/chats/${enc(chatB)}/ai`, { activation_state: 'active' });
    expect(back.body.chat.ai_metadata?.activation_state).toBe('active');
    await customerSays('15557771002', 'And how much does shipping cost?');
    expect(aiReplies(await messagesOf(chatB))).toHaveLength(1);
  });

  it("a human's reply takes over: the agent pauses on that chat", async () => {
    const r = await rt.orgCall(admin, 'POST', `/chats/${enc(chatA)}/messages`, { body: 'Hi, Maria here, I will help you.' });
    expect(r.status).toBe(201);
    await rt.idle();
    const meta = (await chatOf(chatA)).ai_metadata!;
    expect(meta).toMatchObject({ activation_state: 'paused', reason: 'human_reply' });
    expect(meta.paused_until! - Date.now()).toBeGreaterThan(29 * 60_000);
    await customerSays('15557771001', 'What is your return policy?');
    expect(aiReplies(await messagesOf(chatA))).toHaveLength(1);
  });

  it('Take over cancels the reply being prepared (response delay), and nothing is sent', async () => {
    expect((await settings({ response_delay_seconds: 600 })).status).toBe(200);
    const chatC = '15557771003@c.us';
    await customerSays('15557771003', 'What are the store opening hours?');
    const chat = await chatOf(chatC);
    expect(chat.ai_metadata).toMatchObject({ activation_state: 'thinking' });
    const pending = chat.ai_metadata!.pending!.unique_id;
    const t = await rt.orgCall<{ chat: Chat }>(admin, 'PUT', `/chats/${enc(chatC)}/ai`, { activation_state: 'paused' });
    expect(t.body.chat.ai_metadata).toMatchObject({ activation_state: 'paused', reason: 'take_over', pending: null });
    // the wake-up comes anyway (a late schedule): nothing is sent
    expect(await prepareReply({ org_id: rt.orgId, chat_id: chatC, unique_id: pending })).toMatch(/gone|cancelled/);
    await rt.idle();
    expect(aiReplies(await messagesOf(chatC))).toEqual([]);
    const audit = await rt.orgJson<{ decisions: Array<{ decision_id: string; outcome: string }> }>(admin, '/ai/decisions');
    expect(audit.decisions.find((d) => d.decision_id === pending)?.outcome).toBe('cancelled');
  });

  it('turned off: a team reply writes nothing on the chat, and a reply that was waiting is not sent', async () => {
    expect((await settings({ response_delay_seconds: 600 })).status).toBe(200);
    const chatD = '15557771004@c.us';
    await customerSays('15557771004', 'Do you ship to Porto?');
    const waiting = (await chatOf(chatD)).ai_metadata!;
    expect(waiting).toMatchObject({ activation_state: 'thinking' });
    expect((await settings({ enabled: false, response_delay_seconds: 600 })).status).toBe(200);
    expect((await rt.orgCall(admin, 'POST', `/chats/${enc(chatD)}/messages`, { body: 'Yes we do.' })).status).toBe(201);
    await rt.idle();
    // the consumer skipped it: no pause written for an agent that is off
    expect((await chatOf(chatD)).ai_metadata).toEqual(waiting);
    expect(await prepareReply({ org_id: rt.orgId, chat_id: chatD, unique_id: waiting.pending!.unique_id })).toBe('cancelled');
    await rt.idle();
    expect(aiReplies(await messagesOf(chatD))).toEqual([]);
    const audit = await rt.orgJson<{ decisions: Array<{ decision_id: string; outcome: string; reason?: string | null }> }>(admin, '/ai/decisions');
    expect(audit.decisions.find((d) => d.decision_id === waiting.pending!.unique_id)).toMatchObject({ outcome: 'cancelled', reason: 'disabled' });
  });

  it('passive mode writes the suggested answer as a private note only', async () => {
    expect((await settings({ passive_mode: true })).status).toBe(200);
    const chatD = '15557771004@c.us';
    const sent = rt.graph.sent.length;
    await customerSays('15557771004', 'What is your return policy?');
    const ms = await messagesOf(chatD);
    expect(aiReplies(ms)).toEqual([]);
    expect(aiNotes(ms)[0]!.body).toMatch(/^AI agent suggests an answer \(passive mode/);
    expect(aiNotes(ms)[0]!.body).toContain('Answer: You can return unworn items within 30 days of delivery.');
    expect(rt.graph.sent.length).toBe(sent);
  });

  it('a member without access to a chat cannot take it over (the guard)', async () => {
    await rt.orgCall(admin, 'PUT', `/chats/${enc(chatA)}/access`, { chat_access: { [rt.adminEmail]: true } });
    expect((await rt.orgCall(member, 'PUT', `/chats/${enc(chatA)}/ai`, { activation_state: 'paused' })).status).toBe(403);
    const list = await rt.orgJson<{ decisions: Array<{ chat_id: string }> }>(member, '/ai/decisions');
    expect(list.decisions.some((d) => d.chat_id === chatA)).toBe(false);
  });
});

describe('attachments (spec §5, §7, §8)', () => {
  it('uploads one file under {org_id}/ai_assets/{context_id}/, refuses audio, members and foreign keys; the agent sends the file with its answer', async () => {
    // refusals first: audio (by type or name), a type WhatsApp cannot send, members
    const audio = await rt.orgCall<ApiError>(admin, 'POST', '/ai/faqs/uploads', { filename: 'hello.ogg', mimetype: 'audio/ogg', size: 100 });
    expect(audio.status).toBe(400);
    expect(audio.body.error.details).toEqual([{ field: 'mimetype', reason: 'Audio attachments are not supported' }]);
    expect((await rt.orgCall<ApiError>(admin, 'POST', '/ai/faqs/uploads', { filename: 'a.exe', mimetype: 'application/x-msdownload', size: 100 })).body.error.details?.[0]?.field).toBe('mimetype');
    expect((await rt.orgCall(member, 'POST', '/ai/faqs/uploads', { filename: 'a.pdf', mimetype: 'application/pdf', size: 100 })).status).toBe(403);

    // a new pair: the upload mints its context_id, the pair is created with it
    const up = await uploadFor(undefined, 'Size guide.pdf', PDF);
    expect(up.key).toBe(`${rt.orgId}/ai_assets/${up.faq_id}/Size_guide.pdf`);
    expect(up.attachment).toEqual({ url: up.key, type: 'application/pdf', name: 'Size guide.pdf' });
    const pair = { question: 'Do you have a size guide for shoes?', answer: 'Yes: our shoe size guide is attached. Shoes run true to size.' };
    // another pair's file, or a file never uploaded, is refused
    const other = await rt.orgCall<ApiError>(admin, 'POST', '/ai/faqs', { ...pair, attachments: [up.attachment] });
    expect(other.body.error.details).toEqual([{ field: 'attachments.0.url', reason: 'is not a file uploaded for this pair' }]);
    const ghost = await rt.orgCall<ApiError>(admin, 'POST', '/ai/faqs', { ...pair, id: up.faq_id, attachments: [{ ...up.attachment, url: `${rt.orgId}/ai_assets/${up.faq_id}/missing.pdf` }] });
    expect(ghost.body.error.details?.[0]).toMatchObject({ field: 'attachments.0.url', reason: expect.stringContaining('Unable to upload file') });
    const created = await rt.orgCall<{ faq: Faq }>(admin, 'POST', '/ai/faqs', { ...pair, id: up.faq_id, attachments: [up.attachment] });
    expect(created.status).toBe(201);
    expect(created.body.faq).toMatchObject({ id: up.faq_id, attachments: [up.attachment] });
    expect((await rt.orgCall(admin, 'POST', '/ai/faqs', { ...pair, id: up.faq_id })).status).toBe(409);

    // the agent answers with the text, then the file, both through the normal send path
    expect((await settings()).status).toBe(200);
    const sentBefore = rt.graph.sent.length;
    await customerSays('15557771005', 'Is there a size guide for shoes?');
    const replies = aiReplies(await messagesOf('15557771005@c.us')).sort((a, b) => a.timestamp - b.timestamp);
    expect(replies.map((m) => m.message_type)).toEqual(['text', 'document']);
    expect(replies[0]!.body).toBe('Yes: our shoe size guide is attached. Shoes run true to size.\n\n— Ava');
    expect(replies[1]!.media).toMatchObject({ filename: 'Size guide.pdf', mimetype: 'application/pdf', size: PDF.length });
    // WhatsApp got the text, the file's bytes (media upload) and the document message naming it
    await eventually(async () => {
      const sent = rt.graph.sent.slice(sentBefore).map((r) => r.body as { type?: string; to?: string; document?: { filename?: string }; file?: { size: number } });
      expect(sent.filter((b) => b.to === '15557771005').map((b) => b.type)).toEqual(['text', 'document']);
      expect(sent.find((b) => b.type === 'document' && b.to)?.document?.filename).toBe('Size guide.pdf');
      expect(sent.some((b) => b.file?.size === PDF.length)).toBe(true);
      return true;
    });
    await eventually(async () => expect(aiReplies(await messagesOf('15557771005@c.us')).every((m) => m.message_id?.startsWith('wamid.'))).toBe(true));
    // the pair keeps its own file (the chat got a copy)
    expect(await stored(up.key)).toBe(true);
  });

  it("'Add to FAQs' on a document message: the message's file is copied into the new pair's folder", async () => {
    const chat = '15557771005@c.us';
    const up = await rt.orgCall<{ upload_url: string; key: string; headers: Record<string, string> }>(admin, 'POST', `/chats/${enc(chat)}/uploads`, { filename: 'returns-form.pdf', mimetype: 'application/pdf', size: PDF.length });
    expect((await fetch(`${rt.url}${up.body.upload_url}`, { method: 'PUT', headers: up.body.headers, body: new Uint8Array(PDF) })).status).toBe(200);
    const sent = await rt.orgCall<{ message: Message }>(admin, 'POST', `/chats/${enc(chat)}/messages`, { media: { key: up.body.key, filename: 'returns-form.pdf', mimetype: 'application/pdf' } });
    expect(sent.status).toBe(201);
    const media = sent.body.message.media!;
    const created = await rt.orgCall<{ faq: Faq }>(admin, 'POST', '/ai/faqs', { question: 'Where is the returns form?', answer: 'Fill in the attached returns form and put it in the parcel.', attachments: [{ url: media.path, type: 'application/pdf', name: 'returns-form.pdf', chat_id: chat }] });
    expect(created.status).toBe(201);
    // issue 41 §5: the key holds a hash of the chat id, so the file must come with the chat it is of
    const otherChat = await rt.orgCall<ApiError>(admin, 'POST', '/ai/faqs', { question: 'Q?', answer: 'A.', attachments: [{ url: media.path, type: 'application/pdf', name: 'returns-form.pdf', chat_id: '15557771006@c.us' }] });
    expect(otherChat.status).toBe(400);
    const id = created.body.faq.id;
    expect(created.body.faq.attachments).toEqual([{ url: `${rt.orgId}/ai_assets/${id}/returns-form.pdf`, type: 'application/pdf', name: 'returns-form.pdf' }]);
    expect(await stored(created.body.faq.attachments[0]!.url)).toBe(true);
    // another org's or an unknown chat's file is not taken
    const foreign = await rt.orgCall<ApiError>(admin, 'POST', '/ai/faqs', { question: 'Where is the returns form?', answer: 'Fill in the attached returns form.', attachments: [{ url: `media/${rt.orgId}/nobody@c.us/x/y.pdf`, type: 'application/pdf', name: 'y.pdf' }] });
    expect(foreign.status).toBe(404);
    await rt.orgCall(admin, 'DELETE', `/ai/faqs/${id}`);
  });
});

describe('internal contacts (issue 15 Contact)', () => {
  it("never answers a contact labelled 'Internal'", async () => {
    expect((await settings()).status).toBe(200);
    await customerSays('15557771006', 'How much does shipping cost?');
    expect(aiReplies(await messagesOf('15557771006@c.us'))).toHaveLength(1);
    const label = (await rt.orgJson<{ label: { label_id: string } }>(admin, '/labels', { method: 'POST', json: { name: 'Internal', color: '#1f7a8c' } })).label;
    expect((await rt.orgCall(admin, 'PATCH', '/contacts/15557771006', { label_ids: [label.label_id] })).status).toBe(200);
    await customerSays('15557771006', 'What is your return policy?');
    expect(aiReplies(await messagesOf('15557771006@c.us'))).toHaveLength(1);
    // the chat has two decisions (answered, then skipped), listed in the order they were recorded: look for the skip
    const decisions = await eventually(
      async () => {
        const audit = await rt.orgJson<{ decisions: Array<{ chat_id: string; outcome: string; reason: string | null }> }>(admin, '/ai/decisions');
        const mine = audit.decisions.filter((d) => d.chat_id === '15557771006@c.us');
        return mine.some((d) => d.outcome === 'skipped') ? mine : null;
      },
      15_000,
      'the skip decision',
    );
    expect(decisions.map((d) => `${d.outcome}:${d.reason ?? ''}`).sort()).toEqual(['answered:', 'skipped:internal_contact']);
  });
});

describe('plan gate (spec §9: Starter lacks the AI autoresponder)', () => {
  it('a Starter org cannot turn the agent on, and the agent does not answer for it', async () => {
    expect((await settings()).status).toBe(200);
    const org = (await db().entities.organization.get({ org_id: rt.orgId }).go()).data!;
    const end = Math.floor(Date.now() / 1000) + 30 * 86400;
    await db().entities.organization.patch({ org_id: rt.orgId }).set({ is_free_trial: false, subscription_status: 'active', org_plan: { plan_id: 'starter', current_period_end: end } } as never).go();
    forgetOrgPlanState();
    try {
      const on = await rt.orgCall<ApiError>(admin, 'PUT', '/ai/settings', { enabled: true });
      expect(on.status).toBe(403);
      expect(on.body.error).toMatchObject({ code: 'plan_feature', details: [{ field: 'plan', reason: 'ai_autoresponder', plan_needed: 'pro' }] });
      // turning it off stays allowed
      expect((await rt.orgCall(admin, 'PUT', '/ai/settings', { enabled: false })).status).toBe(200);
      // settings saved while on Pro stay, but the agent is silent on Starter
      await db().entities.aiSettings.patch({ org_id: rt.orgId }).set({ settings: { enabled: true, nickname: 'Ava' } }).go();
      forgetAiSettings(rt.orgId);
      await customerSays('15557771007', 'How much does shipping cost?');
      expect(aiReplies(await messagesOf('15557771007@c.us'))).toEqual([]);
      const customer = (await messagesOf('15557771007@c.us')).find((m) => !m.from_me)!;
      expect(await onCustomerMessage({ org_id: rt.orgId, chat: await chatOf('15557771007@c.us'), message: customer })).toBe('skipped:plan');
    } finally {
      await db().entities.organization.put(org as never).go();
      forgetOrgPlanState();
    }
  });
});
