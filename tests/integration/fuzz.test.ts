import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { startTestRuntime, type TestRuntime } from '../factories/runtime.ts';
import { seedIsolationWorld, type IsolationWorld } from '../factories/isolation-world.ts';
import { HTTP_ROUTES, type HttpRoute } from '../../functions/routes.ts';
import { signBody } from '../../shared/whatsapp/cloud/signature.ts';
import { routeQueries, type RouteQuery } from '../factories/route-queries.ts';
import { API_SCOPES } from '../../shared/apikey/api-key.rules.ts';

/**
 * Property-based fuzzing of every route of functions/routes.ts (issue 11 part 3) with fast-check:
 * path params, query strings and bodies, random and hostile (wrong types, huge strings, prototype
 * keys, bad cursors, bad percent-encodings, deep nesting, unicode), sent as the org's admin (the
 * caller who gets furthest into each handler) or, one time in four, as a member without access to
 * chat R (the access guard's refusals), over the local gateway. Properties:
 *   - no response is a 5xx;
 *   - every 4xx a handler gives has the error shape `{ error: { code, message, details? } }`, and
 *     a 400 has `details: [{ field, reason }, …]`.
 * The local gateway's own answers (no route matched: 404, body over its limit: 413), which stand
 * for API Gateway's and are `{ message }` as in AWS, are told apart by their exact bodies.
 * Deterministic: one seed per route (from its key), bounded runs (CASES_PER_ROUTE).
 */
let rt: TestRuntime;
let w: IsolationWorld;
let cases = 0;
/** statuses seen, for the summary (how deep the cases got) */
const statuses = new Map<number, number>();
const failuresSeen: string[] = [];

/** Runs per route: a few thousand in all, about 2–3 minutes on a busy 2-core machine. */
const CASES_PER_ROUTE = 48;

beforeAll(async () => {
  rt = await startTestRuntime();
  w = await seedIsolationWorld(rt);
}, 180_000);
afterAll(async () => {
  const hist = [...statuses].sort((a, b) => a[0] - b[0]).map(([s, n]) => `${s}: ${n}`).join(', ');
  console.log(`fuzz: ${cases} cases over ${HTTP_ROUTES.length} routes (statuses ${hist})${failuresSeen.length ? `; failing:\n${failuresSeen.join('\n')}` : ''}`);
  await rt?.cleanup();
});

/* ---- hostile values --------------------------------------------------------------------- */

const b64 = (s: string) => Buffer.from(s).toString('base64');
const b64url = (s: string) => Buffer.from(s).toString('base64url');
const HOSTILE_STRINGS = [
  '',
  ' ',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'null',
  'undefined',
  'NaN',
  'Infinity',
  '-1',
  '0',
  '1e309',
  '9'.repeat(400),
  '!!x',
  'zzz',
  '%',
  '%%',
  '%zz',
  '%E0%A4%A',
  '..',
  '../../etc/passwd',
  '\u0000',
  '\u202e\u0627\u0644',
  '😀'.repeat(20),
  'Z̤͔ͧ̑̓ä͖̭̈̇lͮ̒ͫǵ̼̱o',
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '{"$ne":null}',
  '[]',
  '{}',
  'a@b',
  'x'.repeat(5000),
  b64('{"__proto__":{"polluted":1}}'),
  b64url('{"__proto__":{"polluted":1}}'),
  b64('null'),
  b64('[]'),
  b64('"x"'),
  b64url('{"pk":1,"sk":{"$gt":""}}'),
  b64url('{"org_id":"other","chat_id":"x"}'),
  'eyJ',
];
/** A cursor as the lists hand them out is base64url JSON: random and broken ones. */
const badCursor = fc.oneof(
  fc.constantFrom('!!x', 'zzz', '====', 'eyJ', b64('{'), b64url('{"a":'), b64url('{"__proto__":{"x":1}}'), b64url('{"constructor":{"prototype":{"x":1}}}'), b64url('1'), b64url('"str"')),
  fc.base64String({ maxLength: 60 }),
  fc.jsonValue({ maxDepth: 3 }).map((v) => b64url(JSON.stringify(v) ?? 'null')),
);
const hostileString = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  { weight: 2, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 30 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
  { weight: 1, arbitrary: fc.string({ minLength: 2000, maxLength: 70_000, size: 'max' }) },
  { weight: 1, arbitrary: badCursor },
);
/** Any JSON value, some deep. */
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: hostileString },
  { weight: 2, arbitrary: fc.constantFrom(null, true, false, 0, -1, 1.5, 2 ** 53 + 1, -(2 ** 63), 1e308, [], {}, [null], [''], { __proto__: null }) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 4 }) },
  { weight: 1, arbitrary: fc.array(hostileString, { maxLength: 6 }) },
  { weight: 1, arbitrary: fc.integer({ min: 50, max: 3000 }).map((d) => deep(d)) },
);
function deep(depth: number): unknown {
  let v: unknown = 'bottom';
  for (let i = 0; i < depth; i++) v = i % 2 ? [v] : { a: v };
  return v;
}

/* ---- valid starting points -------------------------------------------------------------- */

/** A body each route accepts (the fuzz mutates it); routes without one get random bodies only. */
const VALID_BODIES: Record<string, (w: IsolationWorld) => Record<string, unknown>> = {
  'PUT /api/me/preferences': () => ({ left_sidebar_open: true, notifications: { enable_notifications: true } }),
  'PUT /api/me/password': () => ({ password: 'Another-long-password-2026' }),
  'PUT /api/orgs/{org_id}/me/status': () => ({ is_online: true }),
  'POST /api/orgs/{org_id}/chats/assign': (w) => ({ chat_ids: [w.chatO], assigned_to: w.memberEmail }),
  'POST /api/orgs/{org_id}/chats/labels': (w) => ({ chat_ids: [w.chatO], add: [w.labelId] }),
  'POST /api/orgs/{org_id}/chats/close': (w) => ({ chat_ids: [w.chatO], is_closed: false, type: 'all' }),
  'POST /api/orgs/{org_id}/chats/snooze': (w) => ({ chat_ids: [w.chatO], snooze_until: null }),
  'POST /api/orgs/{org_id}/chats/archive': (w) => ({ chat_ids: [w.chatO], is_archived: false }),
  'POST /api/orgs/{org_id}/chats/mute': (w) => ({ chat_ids: [w.chatO], is_muted: false }),
  'POST /api/orgs/{org_id}/chats/pin': (w) => ({ chat_ids: [w.chatO], is_pinned: false }),
  'PUT /api/orgs/{org_id}/chats/{chat_id}/active-phone': () => ({ phone: rt.phone.display_phone_number }),
  'PUT /api/orgs/{org_id}/chats/{chat_id}/access': (w) => ({ chat_access: { [w.adminEmail]: true } }),
  'POST /api/orgs/{org_id}/labels': () => ({ name: 'Fuzz', color: '#123456' }),
  'PATCH /api/orgs/{org_id}/labels/{label_id}': () => ({ name: 'Fuzzed', color: '#654321' }),
  'POST /api/orgs/{org_id}/chats/{chat_id}/messages': () => ({ body: 'hello', quoted_message_id: 'x', client_id: 'c1' }),
  'POST /api/orgs/{org_id}/chats/{chat_id}/messages/{unique_id}/reaction': () => ({ reaction: '👍' }),
  'PUT /api/orgs/{org_id}/chats/{chat_id}/messages/{unique_id}/flag': () => ({ flag_status: true }),
  'PUT /api/orgs/{org_id}/chats/{chat_id}/messages/{unique_id}/pin': () => ({ pin: true, duration: '24h' }),
  'POST /api/orgs/{org_id}/chats/{chat_id}/messages/{unique_id}/forward': (w) => ({ chat_ids: [w.chatO] }),
  'PATCH /api/orgs/{org_id}/chats/{chat_id}/messages/{unique_id}': () => ({ body: 'edited' }),
  'PUT /api/orgs/{org_id}/chats/{chat_id}/messages/{unique_id}/ticket': (w) => ({ message_ticket_id: w.rTicket }),
  'POST /api/orgs/{org_id}/tickets': (w) => ({ chat_id: w.chatO, quoted_message_id: w.oInbound, subject: 'fuzz', priority: 2, assignee: null, due_date: null, labels: [] }),
  'POST /api/orgs/{org_id}/tickets/bulk': (w) => ({ ticket_ids: [w.rTicket], status: 'inprogress', assignee: null }),
  'PATCH /api/orgs/{org_id}/tickets/{ticket_id}': () => ({ subject: 'fuzz', priority: 2, due_date: null, labels: [] }),
  'PUT /api/orgs/{org_id}/settings/tickets': () => ({ labels: [{ name: 'L', color: '#123456' }], default_priority: 1, default_assignee: 'none' }),
  'POST /api/orgs': () => ({ org_name: 'Fuzz Co', contact_name: 'F', phone_number: '+14155550123', referralSource: 'google', currency: 'USD' }),
  'PUT /api/orgs/{org_id}/settings/permissions': () => ({ mask_phone_numbers: true, member_permissions: { analytics: true } }),
  'POST /api/orgs/{org_id}/phones': () => ({ phone_number_id: '123456789012', waba_id: '210987654321', access_token: 'EAAG-token' }),
  'POST /api/orgs/{org_id}/phones/wa-web': () => ({ phone: '15557770123' }),
  'POST /api/orgs/{org_id}/team/invites': () => ({ email: 'fuzz@isolation.chorus', role: 'member' }),
  'PATCH /api/orgs/{org_id}/team/{email}': () => ({ role: 'member' }),
  'POST /api/invites/{invite_org_id}/join': () => ({ member_name: 'Joiner' }),
  'POST /api/orgs/{org_id}/tasks': (w) => ({ title: 'fuzz', status: 'open', priority: 2, assignee: w.memberEmail, due_date: Date.now() + 3_600_000, reminder_setting: { remind_in: 'none' }, notes: '', time_zone: 'Asia/Kolkata', associated_object_metadata: { id: w.chatO, type: 'chat', object: { chat_id: w.chatO } } }),
  'POST /api/orgs/{org_id}/tasks/bulk': (w) => ({ task_ids: [w.oTaskMember], priority: 3 }),
  'PUT /api/orgs/{org_id}/tasks/{task_id}': (w) => ({ title: 't', status: 'open', priority: 2, assignee: w.memberEmail, due_date: null, remind_at: null, reminder_setting: { remind_in: 'none' }, notes: '' }),
  'POST /api/orgs/{org_id}/tasks/{task_id}/remind-in': () => ({ remind_in: '1_hour' }),
  'POST /api/orgs/{org_id}/chats/{chat_id}/uploads': () => ({ filename: 'a.pdf', mimetype: 'application/pdf', size: 100 }),
  'POST /api/orgs/{org_id}/chats/{chat_id}/notes': (w) => ({ body: 'note', mentions: [w.memberEmail], client_id: 'n1' }),
  'POST /api/orgs/{org_id}/notifications/read': (w) => ({ ids: [w.rNotification] }),
  'POST /api/orgs/{org_id}/chats/bulk-jobs': (w) => ({ action: 'label', params: { label_ids: [w.labelId] }, filter: { state: 'open' } }),
  'POST /api/auth/otp/prepare': () => ({ email: 'fuzz@isolation.chorus' }),
  // --- issue 21: web push ---
  'POST /api/orgs/{org_id}/notifications/subscribe': (w) => ({ email: w.memberEmail, subscription: { endpoint: 'https://fcm.googleapis.com/fcm/send/fuzz-device', expirationTime: null, keys: { p256dh: 'BOr1', auth: 'au1' } }, device_id: 'fuzz-device', device_type: 'desktop' }),
  'POST /api/orgs/{org_id}/notifications/unsubscribe': (w) => ({ email: w.memberEmail, device_id: 'fuzz-device', device_type: 'desktop' }),
  'POST /api/orgs/{org_id}/notifications/unsubscribe-all-for-device': () => ({ device_id: 'fuzz-device' }),
  'POST /api/orgs/{org_id}/notifications/test': () => ({ device_id: 'fuzz-device' }),
  // --- issue 20: API keys, /v1 (called with the admin's JWT: 401, the key is checked first), /mcp, webhooks ---
  'POST /api/orgs/{org_id}/api-keys': () => ({ name: 'fuzz', scopes: ['chats:read'], rate_limit: 60 }),
  'POST /v1/orgs/{org_id}/chats/assign': (w) => ({ chat_ids: [w.chatO], assigned_to: null }),
  'POST /v1/orgs/{org_id}/chats/labels': (w) => ({ chat_ids: [w.chatO], add: [w.labelId] }),
  'POST /v1/orgs/{org_id}/chats/close': (w) => ({ chat_ids: [w.chatO], is_closed: false }),
  'POST /v1/orgs/{org_id}/chats/snooze': (w) => ({ chat_ids: [w.chatO], snooze_until: null }),
  'POST /v1/orgs/{org_id}/chats/{chat_id}/messages': () => ({ body: 'hello' }),
  'POST /v1/orgs/{org_id}/tickets': (w) => ({ chat_id: w.chatO, quoted_message_id: w.oInbound, subject: 'fuzz' }),
  'PATCH /v1/orgs/{org_id}/tickets/{ticket_id}': () => ({ status: 'inprogress' }),
  'POST /v1/orgs/{org_id}/tasks': () => ({ title: 'fuzz' }),
  'PUT /v1/orgs/{org_id}/tasks/{task_id}': (w) => ({ title: 't', status: 'open', priority: 2, assignee: w.memberEmail, due_date: null, remind_at: null, reminder_setting: { remind_in: 'none' }, notes: '' }),
  'POST /v1/orgs/{org_id}/hooks': () => ({ target_url: 'https://hooks.zapier.com/hooks/standard/1/fuzz', event: 'ticket.created', source: 'zapier' }),
  'POST /mcp': () => ({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  'POST /api/orgs/{org_id}/webhooks': () => ({ url: 'https://hooks.example.com/fuzz', events: ['ticket.created'] }),
  'PATCH /api/orgs/{org_id}/webhooks/{endpoint_id}': () => ({ url: 'https://hooks.example.com/fuzzed', enabled: true }),
  'POST /api/orgs/{org_id}/hooks': () => ({ target_url: 'https://hooks.zapier.com/fuzz', event: 'ticket.created', source: 'zapier' }),
  'PUT /api/orgs/{org_id}/integrations/slack': () => ({ url: 'https://hooks.slack.com/services/T000/B000/fuzz', events: ['mention.created'] }),
  // --- issue 22: plans ---
  'POST /api/orgs/{org_id}/plan/checkout': () => ({ plan_id: 'pro', frequency: 'monthly', currency: 'USD', licences: 50, addon_phones: 0 }),
  'POST /api/orgs/{org_id}/plan/trial-extension': () => ({ shared_post_link: 'https://www.linkedin.com/posts/fuzz' }),
  'POST /webhooks/billing': () => ({ id: 'evt_fuzz', type: 'invoice.paid', data: { object: {} } }),
  // issue 22 (plans2): organization settings
  'PUT /api/orgs/{org_id}/settings/general': () => ({ org_name: 'Fuzz Co', org_image: 'https://cdn.example.com/logo.png', display_language: 'en', time_zone: 'Asia/Kolkata', business_hours: { sun: null, mon: { open: '09:00', close: '18:00' }, tue: null, wed: null, thu: null, fri: null, sat: null } }),
  'PUT /api/orgs/{org_id}/settings/config': () => ({ feature_flags: { onboarding_cards: false, whats_new: true, phones_disconnected_banner: true } }),
  'PUT /api/orgs/{org_id}/settings/library': () => ({ save_incoming: true, save_outgoing: false, retention_days: 90, default_type: 'image' }),
  // --- issue 18: AI agent ---
  'POST /api/orgs/{org_id}/ai/faqs': () => ({ question: 'How much is shipping?', answer: 'Shipping costs 4.90 EUR.', attachments: [] }),
  'POST /api/orgs/{org_id}/ai/faqs/uploads': () => ({ filename: 'price-list.pdf', mimetype: 'application/pdf', size: 1000 }),
  'PUT /api/orgs/{org_id}/ai/faqs/{faq_id}': () => ({ question: 'How much is shipping?', answer: 'Shipping costs 4.90 EUR.', attachments: [] }),
  'PUT /api/orgs/{org_id}/ai/settings': () => ({ enabled: true, phones: {}, default_activation: 'auto', nickname: 'Ava', response_delay_seconds: 0, shift: { enabled: true, timezone: 'Europe/Lisbon', days: [1, 2], start: '09:00', end: '18:00' }, passive_mode: false, pause_after_human_minutes: 30, answer_groups: false, confidence_threshold: 0.5, handoff_label_id: null }),
  'POST /api/orgs/{org_id}/ai/test': () => ({ question: 'How much is shipping?' }),
  'PUT /api/orgs/{org_id}/chats/{chat_id}/ai': () => ({ activation_state: 'paused' }),
  // issue 15: contacts
  'POST /api/orgs/{org_id}/contacts': () => ({ phone: '+1 415 555 0101', name: 'Fuzz', label_ids: ['lbl_x'], custom_properties: { prp_x: 'v' }, notes: 'n' }),
  'PATCH /api/orgs/{org_id}/contacts/{contact_id}': () => ({ name: 'Fuzzed', notes: 'n' }),
  'POST /api/orgs/{org_id}/properties': () => ({ property_name: 'Fuzz tier', property_value_type: 'dropdown', options: ['Gold', 'Silver'] }),
  'PATCH /api/orgs/{org_id}/properties/{property_id}': () => ({ property_name: 'Fuzzed', property_value_type: 'text' }),
  'PUT /api/orgs/{org_id}/chats/{chat_id}/properties': () => ({ custom_properties: {} }),
  // --- issue 17: automation rules ---
  'POST /api/orgs/{org_id}/rules': () => ({ name: 'fuzz', trigger: { type: 'task.due' }, conditions: { match: 'all', items: [{ field: 'message.body', op: 'contains', value: 'x' }] }, actions: [{ type: 'close' }], enabled: false }),
  'PUT /api/orgs/{org_id}/rules/{rule_id}': () => ({ name: 'fuzzed', enabled: false }),
  'POST /api/orgs/{org_id}/rules/{rule_id}/dry-run': () => ({ conditions: { match: 'any', items: [] } }),
  // --- issue 17 §6: SLA policies ---
  'POST /api/orgs/{org_id}/sla-policies': () => ({ name: 'fuzz sla', scope: { label_ids: [], phone_ids: [] }, targets: { first_response_minutes: 30, resolution_minutes: 600 }, business_hours: true, near_breach_percent: 80, near_breach_actions: [], breach_actions: [{ type: 'notify', member: 'nobody@example.com', text: 'x' }], enabled: false }),
  'PUT /api/orgs/{org_id}/sla-policies/{policy_id}': () => ({ name: 'fuzzed', enabled: false }),
  // --- issue 16 (part A): templates ---
  'POST /api/orgs/{org_id}/templates/sync': () => ({ phone_id: '106540352242922' }),
  'POST /api/orgs/{org_id}/chats/{chat_id}/templates': () => ({ name: 'appointment_reminder', language: 'en_US', values: { 'body.1': 'Ana', 'body.2': 'Tuesday' } }),
  'POST /api/orgs/{org_id}/scheduled': (w) => ({ chat_id: w.chatO, body: 'later', recurrence: { kind: 'weekly', start_date: '2099-01-01', time: '09:00', weekdays: [1, 3], end: { type: 'after', count: 3 } } }),
  'PATCH /api/orgs/{org_id}/scheduled/{schedule_id}': () => ({ status: 'paused', body: 'changed' }),
  // --- issue 15 (contacts3): quick replies ---
  'POST /api/orgs/{org_id}/replies': () => ({ shortcut: 'fuzz', text: 'Hi {{contact.name}}', scope: 'team', attachment: null }),
  'PATCH /api/orgs/{org_id}/replies/{reply_id}': () => ({ shortcut: 'fuzzed', text: 'Hi {{member.name}}', scope: 'personal' }),
  'POST /api/orgs/{org_id}/contacts/{contact_id}/merge': () => ({ other_contact_id: '15550009999' }),
  'POST /api/orgs/{org_id}/contacts/{contact_id}/unmerge': () => ({ other_contact_id: '15550009999' }),
  'POST /api/orgs/{org_id}/contacts/imports': () => ({ total: 3, file_name: 'fuzz.csv' }),
  'PUT /api/orgs/{org_id}/contacts/imports/{job_id}/chunks/{seq}': () => ({ rows: [{ phone: '14155550100', name: 'Fuzz', notes: 'n', custom_properties: {} }] }),
  // --- issue 16: broadcasts (scheduled a day ahead: a valid sample sends nothing during the run) ---
  'POST /api/orgs/{org_id}/broadcasts': () => ({ name: 'Fuzz', audience: { kind: 'chats', chat_ids: ['15550001111@c.us'] }, content: { body: 'Hi {{name}}' }, send_at: Date.now() + 86_400_000, options: { pace_ms: 1000, quiet_hours: { start: '22:00', end: '08:00' }, opt_out_keyword: 'STOP' } }),
  'POST /api/orgs/{org_id}/broadcasts/preview': () => ({ audience: { kind: 'csv', rows: [{ phone: '+1 555 000 1111', vars: { order: 'A1' } }] }, content: { body: 'Order {{order}}' } }),
  'POST /api/orgs/{org_id}/broadcasts/uploads': () => ({ filename: 'sale.png', mimetype: 'image/png', size: 1000 }),
  'POST /api/orgs/{org_id}/broadcasts/{broadcast_id}/actions': () => ({ action: 'pause' }),
  // --- issue 15 (groups): group templates ---
  'POST /api/orgs/{org_id}/group-templates': () => ({ name: 'Fuzz group', description: 'd', picture: null, only_admins_send: true, only_admins_edit_info: false }),
  'POST /api/orgs/{org_id}/group-templates/uploads': () => ({ filename: 'logo.png', mimetype: 'image/png', size: 1000 }),
  'PATCH /api/orgs/{org_id}/group-templates/{template_id}': () => ({ name: 'Fuzzed group', description: '', only_admins_send: false, only_admins_edit_info: true }),
  'POST /api/orgs/{org_id}/group-templates/{template_id}/groups': () => ({ phone_id: 'waweb_fuzz', chat_ids: ['15550001111@c.us'], contact_ids: [], name: 'Fuzz' }),
};

/** Query keys the routes read (all GETs get some of them, with hostile values). */
const QUERY_KEYS = ['cursor', 'limit', 'state', 'unread', 'assignee', 'label_id', 'phone', 'type', 'scope', 'chat_id', 'from', 'to', 'status', 'priority', 'label', 'phone_id', 'due_from', 'due_to', 'q', 'sort', 'hub.mode', 'hub.verify_token', 'hub.challenge'];
const queryArb = fc.array(
  fc.tuple(fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...QUERY_KEYS) }, { weight: 1, arbitrary: fc.constantFrom('__proto__', 'constructor', 'constructor[prototype][x]', '__proto__[x]', '', '%zz') }), fc.oneof(hostileString, badCursor)),
  { maxLength: 3 },
);

/**
 * Longest encoded path segment or query key/value: the whole request line stays under API
 * Gateway's 10 KiB (and Node's 16 KiB header limit, which answers 431 before any handler). Huge
 * strings go in bodies. A cut may split a `%XX`: one more bad encoding.
 */
const MAX_SEGMENT = 700;
/** Percent-encode, or (sometimes) leave a raw bad encoding in the URL. Lone surrogates become their bytes. */
function encodeSegment(v: string, raw: boolean): string {
  if (raw && /^[\x21-\x7e]*$/.test(v) && !v.includes('/') && !v.includes('?') && !v.includes('#')) return v.slice(0, MAX_SEGMENT);
  let out: string;
  try {
    out = encodeURIComponent(v);
  } catch {
    out = [...Buffer.from(v, 'utf8')].map((b) => `%${b.toString(16).padStart(2, '0').toUpperCase()}`).join('');
  }
  return out.slice(0, MAX_SEGMENT);
}

interface FuzzInput {
  /** sent as the member (1 in 4) instead of the admin: the access guard's refusals are fuzzed too */
  asMember: boolean;
  params: Record<string, { value: string; raw: boolean } | null>;
  query: Array<[string, string]>;
  body: { kind: 'none' } | { kind: 'json'; value: unknown } | { kind: 'raw'; text: string } | { kind: 'mutated'; key: string; value: unknown } | { kind: 'proto'; key: string };
}

const defaultsOf = (w: IsolationWorld): Record<string, string> => ({
  org_id: w.orgId,
  chat_id: w.chatO,
  unique_id: w.oInbound,
  ticket_id: w.rTicket,
  task_id: w.oTaskMember,
  label_id: w.labelId,
  job_id: w.bulkJobId,
  phone_id: w.waWebPhoneId,
  email: w.invitedEmail,
  invite_org_id: w.orgId,
});

function inputArb(route: HttpRoute): fc.Arbitrary<FuzzInput> {
  const names = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
  // each param valid 3 times in 4, so bodies and queries reach the handlers' deeper checks too
  const paramArb = fc.oneof({ weight: 3, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.record({ value: hostileString, raw: fc.boolean() }) });
  const params = fc.record(Object.fromEntries(names.map((n) => [n, paramArb])) as Record<string, typeof paramArb>);
  const valid = VALID_BODIES[`${route.method} ${route.path}`] as ((w: IsolationWorld) => Record<string, unknown>) | undefined;
  const hasValid = valid !== undefined;
  const keys = valid ? Object.keys(valid(w)) : ['body'];
  const choices: Array<fc.WeightedArbitrary<FuzzInput['body']>> = [
    { weight: 1, arbitrary: fc.constant({ kind: 'none' } as const) },
    { weight: 2, arbitrary: hostileValue.map((value) => ({ kind: 'json', value }) as const) },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom('{', '[', '{"a":', 'null', '"str"', '1', '{"__proto__":{"polluted":true}}', '{"constructor":{"prototype":{"polluted":true}}}', '\u0000', '\ufeff{}', '['.repeat(5000) + ']'.repeat(5000), `{"x":"${'y'.repeat(1_100_000)}"}`)
        .map((text) => ({ kind: 'raw', text }) as const),
    },
  ];
  if (hasValid) {
    choices.push({ weight: 4, arbitrary: fc.record({ key: fc.constantFrom(...keys), value: hostileValue }).map((m) => ({ kind: 'mutated', ...m }) as const) });
    choices.push({ weight: 1, arbitrary: fc.constantFrom('__proto__', 'constructor', 'prototype').map((key) => ({ kind: 'proto', key }) as const) });
  }
  const bodyArb = fc.oneof(...choices);
  const asMember = fc.oneof({ weight: 3, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) });
  return fc.record({ asMember, params, query: queryArb, body: bodyArb }) as fc.Arbitrary<FuzzInput>;
}

function bodyText(route: HttpRoute, b: FuzzInput['body']): string | undefined {
  const valid = VALID_BODIES[`${route.method} ${route.path}`];
  switch (b.kind) {
    case 'none':
      return undefined;
    case 'json':
      return JSON.stringify(b.value) ?? 'null';
    case 'raw':
      return b.text;
    case 'mutated':
      return JSON.stringify({ ...valid!(w), [b.key]: b.value });
    case 'proto': {
      // a prototype key as an own property of the JSON text (an object literal would set the prototype)
      const text = JSON.stringify(valid!(w));
      return `{"${b.key}":{"polluted":true,"chat_ids":["x"],"role":"admin"},${text.slice(1)}`;
    }
  }
}

const GATEWAY_BODIES = new Set(['{"message":"Not Found"}', '{"message":"Request Entity Too Large"}']);

/** Problems with one answer (none: the property holds). */
function check(status: number, text: string): string | undefined {
  if (status >= 500) return `status ${status}`;
  if (status < 400) return undefined;
  if ((status === 404 || status === 413) && GATEWAY_BODIES.has(text)) return undefined;
  let j: { error?: { code?: unknown; message?: unknown; details?: unknown } };
  try {
    j = JSON.parse(text);
  } catch {
    return `${status} body is not JSON: ${text.slice(0, 100)}`;
  }
  const e = j?.error;
  if (!e || typeof e.code !== 'string' || typeof e.message !== 'string') return `${status} without the error shape: ${text.slice(0, 200)}`;
  if (e.details !== undefined && e.details !== null && !Array.isArray(e.details)) return `${status} details is not a list`;
  if (status === 400) {
    const d = e.details as Array<{ field?: unknown; reason?: unknown }> | undefined;
    if (!Array.isArray(d) || d.length === 0) return `400 without details: ${text.slice(0, 200)}`;
    if (!d.every((x) => typeof x.field === 'string' && typeof x.reason === 'string')) return `400 details without field/reason: ${text.slice(0, 200)}`;
  }
  return undefined;
}

/** A stable seed per route, so every run sends the same cases. */
const seedOf = (key: string) => [...key].reduce((h, ch) => (Math.imul(h, 31) + ch.charCodeAt(0)) | 0, 7);

describe('fuzzing every route: no 5xx, every 4xx in the error shape', () => {
  it('covers every route of the registry', () => {
    expect(HTTP_ROUTES.length).toBeGreaterThan(0);
    // bodies of every body-taking route are known (a new route with a body needs one here)
    const bodyless = new Set(['GET', 'DELETE']);
    const noSample = HTTP_ROUTES.filter((r) => !bodyless.has(r.method) && !VALID_BODIES[`${r.method} ${r.path}`])
      .map((r) => `${r.method} ${r.path}`)
      .filter((k) => !BODYLESS_WRITES.has(k));
    expect(noSample, 'routes with a body but no valid sample to mutate').toEqual([]);
  });

  for (const route of HTTP_ROUTES) {
    const key = `${route.method} ${route.path}`;
    it(key, async () => {
      const d = defaultsOf(w);
      await fc.assert(
        fc.asyncProperty(inputArb(route), async (input) => {
          cases++;
          const path = route.path.replace(/\{(\w+)\}/g, (_, n: string) => {
            const p = input.params[n];
            return p ? encodeSegment(p.value, p.raw) : encodeURIComponent(d[n]);
          });
          const qs = input.query.map(([k, v]) => `${encodeSegment(k, false)}=${encodeSegment(v, false)}`).join('&');
          const url = `${rt.url}${path}${qs ? `?${qs}` : ''}`;
          const body = bodyText(route, input.body);
          const headers: Record<string, string> = {};
          if (route.auth === 'jwt') headers.authorization = `Bearer ${input.asMember ? w.member : w.admin}`;
          if (body !== undefined) headers['content-type'] = 'application/json';
          // half the webhook bodies signed (parsed by the consumer), half not (401)
          if (route.path === '/webhooks/whatsapp' && body !== undefined && cases % 2) headers['x-hub-signature-256'] = signBody(body, rt.env.WHATSAPP_APP_SECRET);
          const res = await fetch(url, { method: route.method, headers, body: route.method === 'GET' ? undefined : body });
          const text = await res.text();
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          const problem = check(res.status, text);
          if (problem) {
            failuresSeen.push(`${key}: ${problem} <- ${route.method} ${url.slice(0, 200)} body ${String(body).slice(0, 120)}`);
            throw new Error(problem);
          }
        }),
        { numRuns: CASES_PER_ROUTE, seed: seedOf(key), endOnFailure: true },
      );
    });
  }
});

/** Writes that take no body (the fuzz still sends random ones). */
const BODYLESS_WRITES = new Set([
  // issue 20: webhooks actions on an endpoint or a delivery (no body)
  'POST /api/orgs/{org_id}/webhooks/{endpoint_id}/rotate-secret',
  'POST /api/orgs/{org_id}/webhooks/{endpoint_id}/test',
  'POST /api/orgs/{org_id}/webhooks/{endpoint_id}/deliveries/{delivery_id}/replay',
  'POST /api/orgs/{org_id}/chats/{chat_id}/unread',
  'POST /api/orgs/{org_id}/chats/{chat_id}/read',
  'POST /api/orgs/{org_id}/chats/{chat_id}/messages/{unique_id}/refresh',
  'POST /api/orgs/{org_id}/chats/{chat_id}/messages/{unique_id}/retry',
  'POST /api/orgs/{org_id}/chats/{chat_id}/messages/{unique_id}/reply-privately',
  'POST /api/orgs/{org_id}/phones/{phone_id}/wa-web-session/relink',
  'POST /api/invites/{invite_org_id}/decline',
  'POST /api/orgs/{org_id}/chats/bulk-jobs/{job_id}/undo',
  'POST /webhooks/whatsapp',
  // issue 16: skip the next occurrence of a scheduled message (no body)
  'POST /api/orgs/{org_id}/scheduled/{schedule_id}/skip',
  // issue 15 (contacts3): contact CSV import actions
  'POST /api/orgs/{org_id}/contacts/imports/{job_id}/start',
  'POST /api/orgs/{org_id}/contacts/imports/{job_id}/undo',
]);

/* ---- every query parameter of every list route (issue 42 §3, §4) ------------------------- */

/** Cursors no list handed out: garbage, broken base64/JSON, and well-formed keys of another partition. */
const BAD_CURSORS = [
  'zzz',
  '!!x',
  '====',
  'eyJ',
  '%zz',
  b64url('{'),
  b64url('1'),
  b64url('"str"'),
  b64url('[]'),
  b64url('{"__proto__":{"x":1}}'),
  b64url('{"pk":"x","sk":"y"}'),
  b64url('{"pk":"$chorus#org_id_someone_else","sk":"$x"}'),
  b64url(JSON.stringify({ pk: 1, sk: { $gt: '' } })),
  'x'.repeat(700),
];
/** Hostile values of every other query parameter (sent one parameter at a time, with the route's defaults). */
const BAD_VALUES = ['', ' ', 'zzz', '-1', '0', '1e309', '9'.repeat(400), 'NaN', '__proto__', 'constructor', '%zz', '%E0%A4%A', '\u0000', '<script>', '{"$ne":null}', '[]', 'a,b,c', 'x'.repeat(700), '😀'.repeat(20), '2026-02-30T25:61:00Z'];

describe('every query parameter of every list route (issue 42): no 5xx, a bad cursor is a 400 on query.cursor', () => {
  let queries: RouteQuery[];
  let unresolved: string[];
  let apiKey: string;
  const extra: Record<string, string> = {};
  /** requests sent by this block, and (route, parameter) pairs covered */
  const covered = { requests: 0, routes: 0, params: 0, cursorRoutes: 0 };

  beforeAll(async () => {
    ({ routes: queries, unresolved } = await routeQueries());
    // a key for /v1 (every scope, the highest rate), a broadcast and a webhook endpoint for their lists
    const created = async <T>(path: string, body: unknown, pick: (b: T) => string | undefined) => {
      const r = await rt.orgCall<T>(w.admin, 'POST', path, body);
      const v = r.status < 300 ? pick(r.body) : undefined;
      if (!v) throw new Error(`POST ${path} for the list fuzz: ${r.status} ${JSON.stringify(r.body)}`);
      return v;
    };
    apiKey = await created<{ token: string }>('/api-keys', { name: 'fuzz lists', scopes: API_SCOPES, rate_limit: 6000 }, (b) => b.token);
    const broadcast = { ...VALID_BODIES['POST /api/orgs/{org_id}/broadcasts']!(w), audience: { kind: 'chats', chat_ids: [w.chatO] } };
    extra.broadcast_id = await created<{ broadcast: { broadcast_id: string } }>('/broadcasts', broadcast, (b) => b.broadcast?.broadcast_id);
    extra.endpoint_id = await created<{ endpoint: { endpoint_id: string } }>('/webhooks', VALID_BODIES['POST /api/orgs/{org_id}/webhooks']!(w), (b) => b.endpoint?.endpoint_id);
    extra.event = 'ticket.created';
  }, 60_000);

  afterAll(() => {
    console.log(`fuzz lists: ${covered.requests} requests over ${covered.routes} GET routes, ${covered.params} (route, query parameter) pairs, cursor on ${covered.cursorRoutes} routes`);
  });

  const pathOf = (route: HttpRoute) => {
    const d: Record<string, string> = { ...defaultsOf(w), ...extra };
    return route.path.replace(/\{(\w+)\}/g, (_, n: string) => encodeURIComponent(d[n] ?? 'x'));
  };
  const get = async (route: HttpRoute, qs: string): Promise<{ status: number; text: string }> => {
    const auth = route.auth === 'apikey' ? apiKey : w.admin;
    for (let attempt = 0; ; attempt++) {
      covered.requests++;
      const res = await fetch(`${rt.url}${pathOf(route)}${qs ? `?${qs}` : ''}`, { headers: auth ? { authorization: `Bearer ${auth}` } : {} });
      const text = await res.text();
      // the key's rate limit is not what is fuzzed here: wait as long as the answer says, then ask again
      const retryAfterS = Number(res.headers.get('retry-after'));
      if (res.status !== 429 || attempt === 5 || !(retryAfterS >= 0)) return { status: res.status, text };
      await new Promise((r) => setTimeout(r, Math.min(retryAfterS, 5) * 1000 + 50));
    }
  };

  it('finds the query schema of every GET route', () => {
    expect(unresolved).toEqual([]);
    expect(queries.length).toBe(HTTP_ROUTES.filter((r) => r.method === 'GET').length);
    expect(apiKey, 'an API key for /v1').toMatch(/^chk_/);
  });

  it('every parameter of every GET route, one at a time: no 5xx, 4xx in the error shape', async () => {
    const problems: string[] = [];
    for (const { route, keys } of queries) {
      covered.routes++;
      // parameters the schema does not know are sent too: they must be ignored or refused, never a 500
      for (const k of [...keys, ...(keys.includes('cursor') ? [] : ['cursor']), 'junk_param']) {
        covered.params += keys.includes(k) ? 1 : 0;
        const values = k === 'cursor' ? BAD_CURSORS : BAD_VALUES;
        const one = async (v: string) => {
          const raw = v.startsWith('%') ? v : encodeURIComponent(v);
          const { status, text } = await get(route, `${encodeURIComponent(k)}=${raw}`);
          // MCP answers in JSON-RPC (a GET: 405 with a JSON-RPC error), not in the API's error shape
          const problem = route.path === '/mcp' ? (status >= 500 ? `status ${status}` : undefined) : check(status, text);
          if (problem) problems.push(`GET ${route.path}?${k}=${raw.slice(0, 60)}: ${problem}`);
        };
        // a key's requests one at a time (its token bucket), the rest a parameter's values at once
        if (route.auth === 'apikey') for (const v of values) await one(v);
        else await Promise.all(values.map(one));
      }
    }
    expect(problems).toEqual([]);
  });

  it('a bad cursor is a 400 with field query.cursor and a reason, on every list that takes one', async () => {
    const problems: string[] = [];
    for (const { route, keys } of queries.filter((q) => q.keys.includes('cursor'))) {
      covered.cursorRoutes++;
      for (const c of BAD_CURSORS) {
        const raw = c.startsWith('%') ? c : encodeURIComponent(c);
        const { status, text } = await get(route, `cursor=${raw}`);
        const details = (JSON.parse(text || '{}') as { error?: { details?: Array<{ field?: string; reason?: string }> } }).error?.details ?? [];
        const field = details.find((d) => d.field === 'query.cursor' || d.field === 'cursor');
        if (status !== 400 || !field?.reason) problems.push(`GET ${route.path}?cursor=${raw.slice(0, 40)}: ${status} ${text.slice(0, 160)}`);
      }
      expect(keys).toContain('cursor');
    }
    expect(problems).toEqual([]);
  });
});
