import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startTestRuntime, type TestRuntime } from '../factories/runtime.ts';
import { mirrorToOpenChat, seedIsolationWorld, storedChatId, withoutChatIds, type IsolationWorld } from '../factories/isolation-world.ts';
import { sealChatId } from '../../shared/chat/chat-id-seal.ts';
import { eventually } from '../factories/wait.ts';
import { HTTP_ROUTES } from '../../functions/routes.ts';
import { EVENTS, type EventName } from '../../events/catalog.ts';
import { publish } from '../../events/publish.ts';
import { inboundText, newWamid, statusUpdate } from '../../shared/whatsapp/cloud/payloads.ts';
import { sealContactId } from '../../shared/contact/contact-id.ts';

/**
 * The route-registry isolation suite (issue 11 part 2). Every route of functions/routes.ts is
 * called as each actor kind that applies to it, against one seeded world
 * (tests/factories/isolation-world.ts):
 *   (a) `outsider`: the admin of another org, on org A's paths: refused (404, or 403); and on its
 *       own org's paths with A's ids (chat, message, ticket, task, job ids, in path and body):
 *       whatever the status, nothing of A (no sentinel, no A org id, no A customer number);
 *   (b) `member`: a member of org A without access to chat R: refused (403/404) on anything of R
 *       (path, query or body), 2xx with nothing of R on lists and org-wide routes;
 *   (c) `member` on admin-only routes: 403;
 *   (d) no token: 401;
 *   (m) `member` on the same route with chat O (which they may see) instead of R: served (not
 *       403/404), and masked.
 * No response body of any of them may hold the sentinel planted in R's data, nor (mask_phone_numbers
 * is on) a customer's full number outside a chat id. A route of the registry without a row in
 * ROUTES fails the suite, so every new route must say here how it is isolated.
 * The same for every event type of events/catalog.ts over WebSocket: the member's socket gets
 * nothing of R (the chat list's stub `has_access: false` excepted) and only masked numbers.
 */
let rt: TestRuntime;
let w: IsolationWorld;
const enc = encodeURIComponent;

beforeAll(async () => {
  rt = await startTestRuntime();
  w = await seedIsolationWorld(rt);
}, 180_000);
afterAll(async () => {
  if (failures.length) console.log(`isolation failures (${failures.length}):\n${failures.join('\n')}`);
  const byActor = (Object.keys(ACTOR_NAMES) as ActorKind[]).map((a) => `${ACTOR_NAMES[a]}: ${pairsByActor[a] ?? 0}`).join('; ');
  console.log(`isolation coverage: ${httpPairs} route × actor checks (${Object.keys(ROUTES).length} routes, ${variantPairs} of them extra variants; ${byActor}), ${Object.keys(EVENT_CASES).length} socket event types`);
  await rt?.cleanup();
});

type ActorKind = 'a' | 'x' | 'b' | 'c' | 'd' | 'm';
const ACTOR_NAMES: Record<ActorKind, string> = {
  a: '(a) another org',
  x: "(a) another org, through its own org's path with A's ids",
  b: '(b) member without access',
  c: '(c) member, admin-only',
  d: '(d) no token',
  m: '(m) member on chat O, masked',
};
interface Res {
  status: number;
  text: string;
  json: unknown;
}
/** A check of a 2xx body beyond the sentinel and masking checks: a problem, or undefined. */
type Check = (res: Res, w: IsolationWorld) => string | undefined | Promise<string | undefined>;

interface Case {
  /** values of the path params (raw; percent-encoded here); defaults in `defaults()` */
  params?: (w: IsolationWorld) => Record<string, string>;
  query?: (w: IsolationWorld) => string;
  body?: (w: IsolationWorld) => unknown;
  /** the statuses each applicable actor kind may get; an actor kind left out does not apply (see the row's comment) */
  expect: Partial<Record<ActorKind, number[]>>;
  check?: Partial<Record<ActorKind, Check>>;
}
interface Row extends Case {
  /** the same route again with other params/body (e.g. a chat id in the body instead of the path) */
  variants?: Array<Case & { name: string }>;
}

const REFUSED = [403, 404];
const NOT_IN_ORG = [404, 403];
const UNAUTH = [401];
/** A member on chat O: served (rule refusals 400/409 allowed), never refused as if they could not see it. */
const SERVED = [200, 201, 202, 204, 400, 409];
/** Any answer but a 5xx (the body is what is checked). */
const ANY_STATUS = [200, 201, 202, 204, 400, 403, 404, 409];
const defaults = (w: IsolationWorld): Record<string, string> => ({
  org_id: w.orgId,
  chat_id: w.chatR,
  unique_id: w.rInbound,
  ticket_id: w.rTicket,
  task_id: w.rTaskMember,
  label_id: w.labelId,
  job_id: w.bulkJobId,
  phone_id: w.waWebPhoneId,
  email: w.invitedEmail,
  invite_org_id: w.orgId,
  // issue 20: REST hooks (/v1/orgs/{org_id}/hooks/…): an endpoint id and a trigger
  endpoint_id: 'ep_missing',
  event: 'ticket.created',
});

/** Something of chat R: the outsider and the member without access are refused. */
const chatLinked = (c: Omit<Case, 'expect'> = {}): Row => ({ ...c, expect: { a: NOT_IN_ORG, b: REFUSED, d: UNAUTH, m: SERVED } });
/** Admin-only: members 403 (admin-only routes on chat R may say 404 first). */
const adminOnly = (c: Omit<Case, 'expect'> = {}, member = [403]): Row => ({ ...c, expect: { a: NOT_IN_ORG, c: member, d: UNAUTH } });
/** Org-wide (not chat-linked) or a list: the member gets it (the statuses given), without anything of R. */
const orgWide = (c: Omit<Case, 'expect'> = {}, member = [200]): Row => ({ ...c, expect: { a: NOT_IN_ORG, b: member, d: UNAUTH } });
/** The caller's own (not org A's): any signed-in user gets their own answer, never anything of R. */
const own = (c: Omit<Case, 'expect'> = {}, statuses = [200]): Row => ({ ...c, expect: { a: statuses, b: statuses, d: UNAUTH } });

/** A batch write over chat ids naming R: refused, or 200 with R among `failed` and not among `chats`. */
const batchRefusesR: Check = (res, w) => {
  if (res.status !== 200) return undefined;
  const b = res.json as { chats?: Array<{ chat_id: string }>; failed?: Array<{ chat_id: string }> };
  if (b.chats?.some((c) => storedChatId(w.orgId, c.chat_id) === w.chatR)) return 'R was changed (it is among `chats`)';
  if (!b.failed?.some((f) => storedChatId(w.orgId, f.chat_id) === w.chatR)) return 'R is not among `failed`';
  return undefined;
};
const batchChat = (body: (w: IsolationWorld) => unknown): Row => ({ body, expect: { a: NOT_IN_ORG, b: [200, ...REFUSED], d: UNAUTH, m: SERVED }, check: { b: batchRefusesR } });
/** A batch write over ticket or task ids naming R's: refused, or 200 with the id among `failed` only. */
const batchIds =
  (key: 'ticket_id' | 'task_id', id: (w: IsolationWorld) => string): Check =>
  (res, w) => {
    if (res.status !== 200) return undefined;
    const b = res.json as { updated?: Array<Record<string, string>>; failed?: Array<Record<string, string>> };
    if (b.updated?.some((t) => t[key] === id(w))) return `${id(w)} was updated`;
    if (!b.failed?.some((f) => f[key] === id(w))) return `${id(w)} is not among \`failed\``;
    return undefined;
  };

/* issue 20: API keys made for the suite (before the route tests, after the world is seeded) */
const isoKeys = { aKeyId: '', aReadOnlyToken: '', aRevokedToken: '', otherToken: '', memberlessToken: '' };
/** A public API route: another org's key refused (404), no key 401. */
const v1Row = (c: Omit<Case, 'expect'> = {}): Row => ({ ...c, expect: { a: NOT_IN_ORG, d: UNAUTH } });
const mcpCall = (name: string, args: Record<string, unknown>) => ({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } });
beforeAll(async () => {
  const mk = async (token: string, orgId: string, scopes: string[]) => {
    const r = await rt.api(token, `/api/orgs/${orgId}/api-keys`, { method: 'POST', json: { name: 'isolation', scopes } });
    if (r.status !== 201) throw new Error(`api key: ${r.status} ${await r.text()}`);
    return (await r.json()) as { api_key: { key_id: string }; token: string };
  };
  const all = ['chats:write', 'messages:write', 'tickets:write', 'tasks:write', 'contacts:read', 'search:read'];
  const [a, ro, revoked, other] = await Promise.all([mk(w.admin, w.orgId, ['chats:read']), mk(w.admin, w.orgId, ['chats:read', 'messages:read', 'tickets:read']), mk(w.admin, w.orgId, all), mk(w.outsider, w.otherOrgId, all)]);
  await rt.api(w.admin, `/api/orgs/${w.orgId}/api-keys/${revoked.api_key.key_id}`, { method: 'DELETE' });
  Object.assign(isoKeys, { aKeyId: a.api_key.key_id, aReadOnlyToken: ro.token, aRevokedToken: revoked.token, otherToken: other.token, memberlessToken: '' });
}, 60_000);

const taskLink = (chatId: string) => ({ id: chatId, type: 'chat', object: { chat_id: chatId } });
const taskBody = (w: IsolationWorld) => ({ title: 'changed by someone', status: 'open', priority: 2, assignee: w.memberEmail, due_date: null, remind_at: null, reminder_setting: { remind_in: 'none' }, notes: '' });

/**
 * Per-route knowledge, keyed `METHOD path` exactly as in functions/routes.ts. Defaults for path
 * params: chat R, its first inbound message, its ticket, the member's task linked to R (see defaults()).
 */
const ROUTES: Record<string, Row> = {
  // the caller's own profile: not org data; nothing of R may be in it
  'GET /api/me': own(),
  'GET /api/me/preferences': own(),
  'PUT /api/me/preferences': own({ body: () => ({ left_sidebar_open: true }) }),
  'GET /api/me/password': own(),
  // only within 15 minutes of an email-code sign-in (these actors signed in with a password)
  'PUT /api/me/password': own({ body: () => ({ password: 'Another-long-password-2026' }) }, [403]),
  // the caller's own presence in an org: org-wide
  'PUT /api/orgs/{org_id}/me/status': orgWide({ body: () => ({ is_online: true }) }),
  // lists: R appears only as its stub (has_access: false, no name)
  'GET /api/orgs/{org_id}/chats': orgWide({
    check: {
      b: (res, w) => {
        const r = (res.json as { chats: Array<Record<string, unknown>> }).chats.find((c) => c.chat_id === w.chatR);
        return r && r.has_access !== false ? 'R is listed with has_access' : undefined;
      },
    },
  }),
  'GET /api/orgs/{org_id}/chats/{chat_id}': chatLinked(),
  'GET /api/orgs/{org_id}/chats/counts': orgWide(),
  'GET /api/orgs/{org_id}/chats/pinned': orgWide(),
  'POST /api/orgs/{org_id}/chats/assign': batchChat((w) => ({ chat_ids: [w.chatR], assigned_to: w.memberEmail })),
  'POST /api/orgs/{org_id}/chats/labels': batchChat((w) => ({ chat_ids: [w.chatR], add: [w.labelId] })),
  'POST /api/orgs/{org_id}/chats/close': batchChat((w) => ({ chat_ids: [w.chatR], is_closed: true })),
  'POST /api/orgs/{org_id}/chats/snooze': batchChat((w) => ({ chat_ids: [w.chatR], snooze_until: Date.now() + 86_400_000 })),
  'POST /api/orgs/{org_id}/chats/archive': batchChat((w) => ({ chat_ids: [w.chatR], is_archived: true })),
  'POST /api/orgs/{org_id}/chats/mute': batchChat((w) => ({ chat_ids: [w.chatR], is_muted: true })),
  'POST /api/orgs/{org_id}/chats/pin': batchChat((w) => ({ chat_ids: [w.chatR], is_pinned: true })),
  'POST /api/orgs/{org_id}/chats/{chat_id}/unread': chatLinked(),
  'PUT /api/orgs/{org_id}/chats/{chat_id}/active-phone': chatLinked({ body: () => ({ phone: rt.phone.display_phone_number }) }),
  // admins grant access (spec §6); on R a member may be told 404 first
  'PUT /api/orgs/{org_id}/chats/{chat_id}/access': adminOnly({ body: (w) => ({ chat_access: { [w.memberEmail]: true } }) }, REFUSED),
  // org labels: any member lists them, admins manage them
  'GET /api/orgs/{org_id}/labels': orgWide(),
  'POST /api/orgs/{org_id}/labels': adminOnly({ body: () => ({ name: 'Nope', color: '#123456' }) }),
  'PATCH /api/orgs/{org_id}/labels/{label_id}': adminOnly({ body: () => ({ name: 'Renamed' }) }),
  'DELETE /api/orgs/{org_id}/labels/{label_id}': adminOnly(),
  'POST /api/orgs/{org_id}/chats/{chat_id}/read': chatLinked(),
  'GET /api/orgs/{org_id}/chats/{chat_id}/messages': {
    ...chatLinked(),
    // group senders (R's and O's customers) masked
    variants: [{ name: 'group G', params: (w) => ({ chat_id: w.chatG }), expect: { m: [200] } }],
  },
  'POST /api/orgs/{org_id}/chats/{chat_id}/messages': {
    ...chatLinked({ body: () => ({ body: 'into R' }) }),
    variants: [
      // reply privately's quote-from-group: quoting a message of R from chat O
      { name: 'quoting a message of R from O', params: (w) => ({ chat_id: w.chatO }), body: (w) => ({ body: 'quote', quoted_message_id: w.rInbound, quoted_chat_id: w.chatR }), expect: { b: [400, ...REFUSED] } },
    ],
  },
  'POST /api/orgs/{org_id}/chats/{chat_id}/messages/{unique_id}/reaction': chatLinked({ body: () => ({ reaction: '👍' }) }),
  'GET /api/orgs/{org_id}/chats/{chat_id}/messages/{unique_id}/reactions': chatLinked(),
  'PUT /api/orgs/{org_id}/chats/{chat_id}/messages/{unique_id}/flag': chatLinked({ body: () => ({ flag_status: true }) }),
  'PUT /api/orgs/{org_id}/chats/{chat_id}/messages/{unique_id}/pin': chatLinked({ body: () => ({ pin: true, duration: '24h' }) }),
  'POST /api/orgs/{org_id}/chats/{chat_id}/messages/{unique_id}/refresh': chatLinked({ params: (w) => ({ unique_id: w.rOutbound }) }),
  'POST /api/orgs/{org_id}/chats/{chat_id}/messages/{unique_id}/retry': chatLinked({ params: (w) => ({ unique_id: w.rOutbound }) }),
  'POST /api/orgs/{org_id}/chats/{chat_id}/messages/{unique_id}/forward': {
    ...chatLinked({ body: (w) => ({ chat_ids: [w.chatO] }) }),
    variants: [
      {
        // issue 11: forwarding into a chat one may not see sent the message to that customer
        name: 'from O into R',
        params: (w) => ({ chat_id: w.chatO, unique_id: w.oInbound }),
        body: (w) => ({ chat_ids: [w.chatR] }),
        expect: { b: [201, ...REFUSED] },
        check: {
          b: (res, w) => {
            if (res.status !== 201) return undefined;
            const b = res.json as { messages?: Array<{ chat_id: string }>; failed?: Array<{ chat_id: string }> };
            if (b.messages?.some((m) => m.chat_id === w.chatR)) return 'forwarded into R';
            return b.failed?.some((f) => f.chat_id === w.chatR) ? undefined : 'R is not among `failed`';
          },
        },
      },
    ],
  },
  'POST /api/orgs/{org_id}/chats/{chat_id}/messages/{unique_id}/reply-privately': {
    ...chatLinked(),
    variants: [
      // issue 11: from an open group, Reply Privately opens the 1:1 chat with the sender, which is R here
      { name: "from group G to R's customer", params: (w) => ({ chat_id: w.chatG, unique_id: w.gFromR }), expect: { b: REFUSED } },
      { name: "from group G to O's customer", params: (w) => ({ chat_id: w.chatG, unique_id: w.gFromO }), expect: { m: [200, 201] } },
    ],
  },
  'PATCH /api/orgs/{org_id}/chats/{chat_id}/messages/{unique_id}': chatLinked({ params: (w) => ({ unique_id: w.rOutbound }), body: () => ({ body: 'edited' }) }),
  'DELETE /api/orgs/{org_id}/chats/{chat_id}/messages/{unique_id}': chatLinked({ params: (w) => ({ unique_id: w.rOutbound }) }),
  'PUT /api/orgs/{org_id}/chats/{chat_id}/messages/{unique_id}/ticket': {
    ...chatLinked({ params: (w) => ({ unique_id: w.rInbound2 }), body: (w) => ({ message_ticket_id: w.rTicket }) }),
    variants: [{ name: "attaching R's ticket to a message of O", params: (w) => ({ chat_id: w.chatO, unique_id: w.oInbound }), body: (w) => ({ message_ticket_id: w.rTicket }), expect: { b: [400, ...REFUSED] } }],
  },
  'GET /api/orgs/{org_id}/chats/{chat_id}/tickets': chatLinked(),
  'GET /api/orgs/{org_id}/tickets': orgWide(),
  'POST /api/orgs/{org_id}/tickets': chatLinked({ body: (w) => ({ chat_id: w.chatR, quoted_message_id: w.rInbound2, subject: 'member ticket' }) }),
  'GET /api/orgs/{org_id}/tickets/badge': orgWide(),
  'POST /api/orgs/{org_id}/tickets/bulk': {
    body: (w) => ({ ticket_ids: [w.rTicket], status: 'inprogress' }),
    expect: { a: NOT_IN_ORG, b: [200, ...REFUSED], d: UNAUTH, m: SERVED },
    check: { b: batchIds('ticket_id', (w) => w.rTicket) },
  },
  'GET /api/orgs/{org_id}/tickets/{ticket_id}': chatLinked(),
  'PATCH /api/orgs/{org_id}/tickets/{ticket_id}': chatLinked({ body: () => ({ status: 'closed' }) }),
  'GET /api/orgs/{org_id}/tickets/{ticket_id}/audit': chatLinked(),
  // ticket settings: org-wide; admins change them
  'GET /api/orgs/{org_id}/settings/tickets': orgWide(),
  'PUT /api/orgs/{org_id}/settings/tickets': adminOnly({ body: () => ({ labels: [], default_priority: 1, default_assignee: 'none' }) }),
  // the org's member directory (names, roles): org-wide
  'GET /api/orgs/{org_id}/members': orgWide(),
  // any signed-in user may create an org (their own, not A's data); the free trial limit may say 403
  'POST /api/orgs': own({ body: () => ({ org_name: 'Another Co', contact_name: 'X', phone_number: '+14155550123', referralSource: 'google' }) }, [201, 403]),
  'GET /api/orgs/{org_id}/settings/permissions': orgWide(),
  'PUT /api/orgs/{org_id}/settings/permissions': adminOnly({ body: () => ({ mask_phone_numbers: false }) }),
  // phones: any member lists them (org numbers, not customers'); admins connect them
  'GET /api/orgs/{org_id}/phones': orgWide(),
  'POST /api/orgs/{org_id}/phones': adminOnly({ body: () => ({ phone_number_id: '123456789012', waba_id: '210987654321', access_token: 'EAAG-token' }) }),
  'POST /api/orgs/{org_id}/phones/wa-web': adminOnly({ body: () => ({ phone: '15557770099' }) }),
  'GET /api/orgs/{org_id}/phones/{phone_id}/wa-web-session': adminOnly(),
  'POST /api/orgs/{org_id}/phones/{phone_id}/wa-web-session/relink': adminOnly(),
  'GET /api/orgs/{org_id}/team': adminOnly(),
  'POST /api/orgs/{org_id}/team/invites': adminOnly({ body: () => ({ email: 'sneaky@isolation.chorus', role: 'admin' }) }),
  'PATCH /api/orgs/{org_id}/team/{email}': adminOnly({ body: () => ({ role: 'admin' }) }),
  'DELETE /api/orgs/{org_id}/team/{email}': adminOnly(),
  // the caller's own pending invite to A: neither actor has one (404)
  'POST /api/invites/{invite_org_id}/join': own({ body: () => ({ member_name: 'Joiner' }) }, [404]),
  'POST /api/invites/{invite_org_id}/decline': own({}, [404]),
  'GET /api/orgs/{org_id}/tasks': {
    ...orgWide(),
    variants: [{ name: 'scope=all (admins)', query: () => 'scope=all', expect: { c: [403] } }],
  },
  'POST /api/orgs/{org_id}/tasks': {
    // a to-do of one's own: org-wide
    ...orgWide({ body: () => ({ title: 'my own to-do' }) }, [201]),
    variants: [{ name: 'linked to R (chat id in the body)', body: (w) => ({ title: 'linked', associated_object_metadata: taskLink(w.chatR) }), expect: { b: [400, ...REFUSED] } }],
  },
  'POST /api/orgs/{org_id}/tasks/bulk': {
    body: (w) => ({ task_ids: [w.rTaskMember, w.rTaskAdmin], priority: 3 }),
    expect: { a: NOT_IN_ORG, b: [200, ...REFUSED], d: UNAUTH, m: SERVED },
    check: {
      b: async (res, w) => (await batchIds('task_id', (x) => x.rTaskMember)(res, w)) ?? (await batchIds('task_id', (x) => x.rTaskAdmin)(res, w)),
    },
  },
  // tasks linked to R: refused even when assigned to the member (issue 11: every task linked to a chat goes through the guard)
  'GET /api/orgs/{org_id}/tasks/{task_id}': { ...chatLinked(), variants: [{ name: "the admin's task", params: (w) => ({ task_id: w.rTaskAdmin }), expect: { b: REFUSED } }] },
  'PUT /api/orgs/{org_id}/tasks/{task_id}': { ...chatLinked({ body: taskBody }), variants: [{ name: "the admin's task", params: (w) => ({ task_id: w.rTaskAdmin }), body: taskBody, expect: { b: REFUSED } }] },
  'POST /api/orgs/{org_id}/tasks/{task_id}/remind-in': chatLinked({ body: () => ({ remind_in: '1_hour' }) }),
  'GET /api/orgs/{org_id}/tasks/{task_id}/audit': { ...chatLinked(), variants: [{ name: "the admin's task", params: (w) => ({ task_id: w.rTaskAdmin }), expect: { b: REFUSED } }] },
  'POST /api/orgs/{org_id}/chats/{chat_id}/uploads': chatLinked({ body: () => ({ filename: 'a.pdf', mimetype: 'application/pdf', size: 100 }) }),
  'GET /api/orgs/{org_id}/chats/{chat_id}/messages/{unique_id}/media': chatLinked({ params: (w) => ({ unique_id: w.rImage }) }),
  'GET /api/orgs/{org_id}/media': {
    ...orgWide(),
    // issue 11: the check read only path parameters
    variants: [{ name: 'chat_id=R in the query', query: (w) => `chat_id=${enc(w.chatR)}`, expect: { b: REFUSED } }],
  },
  'POST /api/orgs/{org_id}/chats/{chat_id}/notes': chatLinked({ body: () => ({ body: 'member note' }) }),
  'DELETE /api/orgs/{org_id}/chats/{chat_id}/notes/{unique_id}': chatLinked({ params: (w) => ({ unique_id: w.rNote }) }),
  // the member's own notifications: the one about R's note must not show its text
  'GET /api/orgs/{org_id}/notifications': orgWide(),
  'POST /api/orgs/{org_id}/notifications/read': orgWide({ body: (w) => ({ ids: [w.rNotification] }) }),
  'POST /api/orgs/{org_id}/chats/bulk-jobs': {
    body: (w) => ({ action: 'archive', chat_ids: [w.chatR] }),
    expect: { a: NOT_IN_ORG, b: [202, ...REFUSED], d: UNAUTH },
    check: {
      // accepted: the job must skip R (checked once it ran)
      b: async (res, w) => {
        if (res.status !== 202) return undefined;
        await rt.idle();
        const chat = await rt.orgCall<{ chat: { is_archived?: boolean | null } }>(w.admin, 'GET', `/chats/${enc(w.chatR)}`);
        return chat.body.chat.is_archived ? "the member's bulk job archived R" : undefined;
      },
    },
  },
  // the admin's job (on R): not the member's
  'GET /api/orgs/{org_id}/chats/bulk-jobs/{job_id}': { expect: { a: NOT_IN_ORG, b: REFUSED, d: UNAUTH } },
  'POST /api/orgs/{org_id}/chats/bulk-jobs/{job_id}/undo': { expect: { a: NOT_IN_ORG, b: REFUSED, d: UNAUTH } },
  // CSV of the chat list: R's row carries nothing of R (statuses: members may be refused exports)
  'GET /api/orgs/{org_id}/chats/export.csv': orgWide({}, [200, 403]),
  // public: Meta's handshake with a wrong verify token
  'GET /webhooks/whatsapp': { query: () => 'hub.mode=subscribe&hub.verify_token=wrong&hub.challenge=123', expect: { d: [403] } },
  // public: a body with a wrong signature (nothing stored)
  'POST /webhooks/whatsapp': { body: (w) => inboundText(rt.phone, w.rNumber, 'forged'), expect: { d: [401] } },
  // public: always 204 for a valid email (says nothing about accounts); 429 once throttled
  'POST /api/auth/otp/prepare': { body: () => ({ email: 'someone.new@isolation.chorus' }), expect: { d: [204, 429] } },
  // --- issue 21: web push. The caller's own devices in an org: members of the org only, nothing of R ---
  'GET /api/orgs/{org_id}/notifications/vapid-public-key': orgWide(),
  'POST /api/orgs/{org_id}/notifications/subscribe': orgWide(
    {
      body: (w) => ({ email: w.memberEmail, subscription: { endpoint: 'https://fcm.googleapis.com/fcm/send/iso-device-1', keys: { p256dh: 'BOr1', auth: 'au1' } }, device_id: 'iso-device-1', device_type: 'desktop' }),
    },
    [201],
  ),
  'POST /api/orgs/{org_id}/notifications/unsubscribe': orgWide({ body: (w) => ({ email: w.memberEmail, device_id: 'iso-device-1', device_type: 'desktop' }) }),
  'POST /api/orgs/{org_id}/notifications/unsubscribe-all-for-device': orgWide({ body: () => ({ device_id: 'iso-device-2' }) }),
  // no such device of the caller: 404
  'POST /api/orgs/{org_id}/notifications/test': orgWide({ body: () => ({ device_id: 'iso-device-none' }) }, [404]),
  // --- issue 20: API keys (admin-only), the public API /v1 and /mcp ---
  // For `auth: 'apikey'` routes, (a)/(x) call with an API key of the other org (made by its admin,
  // the outsider), (d) with none; see apiKeyToken(). Revoked and read-only keys: the block at the end.
  'GET /api/orgs/{org_id}/api-keys': adminOnly(),
  'POST /api/orgs/{org_id}/api-keys': adminOnly({ body: () => ({ name: 'isolation', scopes: ['chats:read'] }) }),
  'DELETE /api/orgs/{org_id}/api-keys/{key_id}': adminOnly({ params: () => ({ key_id: isoKeys.aKeyId }) }),
  'GET /api/orgs/{org_id}/api-keys/logs': adminOnly(),
  // public: the OpenAPI document
  'GET /v1/openapi.json': { expect: { d: [200] } },
  'GET /v1/orgs/{org_id}/chats': v1Row(),
  'GET /v1/orgs/{org_id}/chats/{chat_id}': v1Row(),
  'POST /v1/orgs/{org_id}/chats/assign': v1Row({ body: (w) => ({ chat_ids: [w.chatR], assigned_to: null }) }),
  'POST /v1/orgs/{org_id}/chats/labels': v1Row({ body: (w) => ({ chat_ids: [w.chatR], add: [w.labelId] }) }),
  'POST /v1/orgs/{org_id}/chats/close': v1Row({ body: (w) => ({ chat_ids: [w.chatR], is_closed: true }) }),
  'POST /v1/orgs/{org_id}/chats/snooze': v1Row({ body: (w) => ({ chat_ids: [w.chatR], snooze_until: null }) }),
  'GET /v1/orgs/{org_id}/chats/{chat_id}/messages': v1Row(),
  'POST /v1/orgs/{org_id}/chats/{chat_id}/messages': v1Row({ body: () => ({ body: 'from another org' }) }),
  'GET /v1/orgs/{org_id}/tickets': v1Row(),
  'POST /v1/orgs/{org_id}/tickets': v1Row({ body: (w) => ({ chat_id: w.chatR, quoted_message_id: w.rInbound, subject: 'x' }) }),
  'GET /v1/orgs/{org_id}/tickets/{ticket_id}': v1Row(),
  'PATCH /v1/orgs/{org_id}/tickets/{ticket_id}': v1Row({ body: () => ({ status: 'closed' }) }),
  'GET /v1/orgs/{org_id}/tasks': v1Row(),
  'POST /v1/orgs/{org_id}/tasks': v1Row({ body: (w) => ({ title: 'x', associated_object_metadata: taskLink(w.chatR) }) }),
  'PUT /v1/orgs/{org_id}/tasks/{task_id}': v1Row({ body: (w) => taskBody(w) }),
  'GET /v1/orgs/{org_id}/contacts': v1Row(),
  'GET /v1/orgs/{org_id}/search': v1Row({ query: (w) => `q=${enc(w.sentinel)}` }),
  'POST /v1/orgs/{org_id}/hooks': v1Row({ body: () => ({ target_url: 'https://hooks.zapier.com/hooks/standard/1/sneaky', event: 'ticket.created', source: 'zapier' }) }),
  'DELETE /v1/orgs/{org_id}/hooks/{endpoint_id}': v1Row({ params: () => ({ endpoint_id: hookEndpointId }) }),
  'GET /v1/orgs/{org_id}/hooks/samples/{event}': v1Row({ params: () => ({ event: 'ticket.created' }) }),
  // the other org's key reads R by id through MCP: its own org has no such chat (a tool error), nothing of A
  'POST /mcp': { body: (w) => mcpCall('read_chat', { chat_id: w.chatR }), expect: { a: [200], d: UNAUTH } },
  'GET /mcp': { expect: { a: [405], d: UNAUTH } },
  'DELETE /mcp': { expect: { a: [405], d: UNAUTH } },
  // --- issue 20: outbound webhooks, REST hooks, Slack: admin-only (org A's endpoint `hookEndpointId`, made below) ---
  'GET /api/orgs/{org_id}/webhooks': adminOnly(),
  'POST /api/orgs/{org_id}/webhooks': adminOnly({ body: () => ({ url: 'https://hooks.example.com/sneaky', events: ['ticket.created'] }) }),
  'GET /api/orgs/{org_id}/webhooks/events': adminOnly(),
  'PATCH /api/orgs/{org_id}/webhooks/{endpoint_id}': adminOnly({ params: () => ({ endpoint_id: hookEndpointId }), body: () => ({ url: 'https://evil.example.com/x' }) }),
  'DELETE /api/orgs/{org_id}/webhooks/{endpoint_id}': adminOnly({ params: () => ({ endpoint_id: hookEndpointId }) }),
  'POST /api/orgs/{org_id}/webhooks/{endpoint_id}/rotate-secret': adminOnly({ params: () => ({ endpoint_id: hookEndpointId }) }),
  'POST /api/orgs/{org_id}/webhooks/{endpoint_id}/test': adminOnly({ params: () => ({ endpoint_id: hookEndpointId }) }),
  'GET /api/orgs/{org_id}/webhooks/{endpoint_id}/deliveries': adminOnly({ params: () => ({ endpoint_id: hookEndpointId }) }),
  'POST /api/orgs/{org_id}/webhooks/{endpoint_id}/deliveries/{delivery_id}/replay': adminOnly({ params: () => ({ endpoint_id: hookEndpointId, delivery_id: 'msg_00000000000000000000000000' }) }),
  'POST /api/orgs/{org_id}/hooks': adminOnly({ body: () => ({ target_url: 'https://hooks.zapier.com/sneaky', event: 'ticket.created', source: 'zapier' }) }),
  'GET /api/orgs/{org_id}/hooks/samples/{event}': adminOnly({ params: () => ({ event: 'ticket.created' }) }),
  'DELETE /api/orgs/{org_id}/hooks/{endpoint_id}': adminOnly({ params: () => ({ endpoint_id: hookEndpointId }) }),
  'GET /api/orgs/{org_id}/integrations/slack': adminOnly(),
  'PUT /api/orgs/{org_id}/integrations/slack': adminOnly({ body: () => ({ url: 'https://hooks.slack.com/services/T000/B000/sneaky', events: ['mention.created'] }) }),
  'DELETE /api/orgs/{org_id}/integrations/slack': adminOnly(),
  // --- end issue 20 ---
  // --- issue 19: dashboard and analytics (org-wide figures; analytics follows member_permissions.analytics), the audit log (admins only) ---
  'GET /api/orgs/{org_id}/dashboard': orgWide(),
  'GET /api/orgs/{org_id}/analytics': {
    ...orgWide({ query: () => 'from=2026-01-01&to=2026-12-31' }, [200, 403]),
    variants: [{ name: 'reversed range', query: () => 'from=2026-02-02&to=2026-02-01', expect: { b: [400, 403], d: UNAUTH } }],
  },
  'GET /api/orgs/{org_id}/analytics/export.csv': orgWide({ query: () => 'from=2026-01-01&to=2026-12-31' }, [200, 403]),
  'GET /api/orgs/{org_id}/logs/audit': adminOnly(),
  'GET /api/orgs/{org_id}/logs/webhook-rejections': adminOnly(),
  // a rejection id no org has: the admin gets 404, the member 403 (admins only), never another org's body
  'GET /api/orgs/{org_id}/logs/webhook-rejections/{rejection_id}': adminOnly({ params: () => ({ rejection_id: '01JZ0000000000000000000000' }) }),
  // groups: R's group never listed to the member (visibleChatIds); 403 on a plan without advanced analytics
  'GET /api/orgs/{org_id}/analytics/groups': orgWide({ query: () => 'from=2026-01-01&to=2026-12-31' }, [200, 403]),
  'GET /api/orgs/{org_id}/analytics/breakdown': orgWide({ query: () => 'from=2026-01-01&to=2026-12-31' }, [200, 403]),
  // --- end issue 19 ---
  // --- search (issue 14): the member gets no hit of R (its sentinel; 'caption' matches R's and O's images: O's only), bad params 400
  'GET /api/orgs/{org_id}/search': {
    ...orgWide({ query: (w) => `q=${enc(w.sentinel)}` }),
    check: { b: noSearchHitOfR },
    variants: [
      { name: "q=caption (R's and O's images)", query: () => 'q=caption', expect: { a: NOT_IN_ORG, b: [200], d: UNAUTH }, check: { b: noSearchHitOfR } },
      { name: 'q=inbound kind=messages', query: () => 'q=inbound&kind=messages', expect: { a: NOT_IN_ORG, b: [200], d: UNAUTH }, check: { b: noSearchHitOfR } },
      { name: 'bad kind', query: () => 'q=x&kind=nope', expect: { b: [400], d: UNAUTH } },
    ],
  },
  // --- issue 22: plans, billing, trial, incidents, organization settings ---
  'GET /api/orgs/{org_id}/plan': orgWide(),
  'POST /api/orgs/{org_id}/plan/checkout': adminOnly({ body: () => ({ plan_id: 'pro', frequency: 'monthly', currency: 'USD', licences: 50 }) }),
  // any member may ask for the one extension while trialing (409 once asked or when not trialing)
  'POST /api/orgs/{org_id}/plan/trial-extension': orgWide({ body: () => ({ shared_post_link: 'https://www.linkedin.com/posts/isolation' }) }, [201, 409]),
  // platform-wide, not org data: any signed-in user
  'GET /api/incident': own(),
  // public: verified by its Stripe signature (none here: 400)
  'POST /webhooks/billing': { body: () => ({ id: 'evt_forged', type: 'invoice.paid', data: { object: {} } }), expect: { d: [400] } },
  // issue 22 (plans2): organization settings: members read, admins write
  'GET /api/orgs/{org_id}/settings/general': orgWide(),
  'PUT /api/orgs/{org_id}/settings/general': adminOnly({ body: () => ({ time_zone: 'Asia/Kolkata' }) }),
  'GET /api/orgs/{org_id}/settings/config': orgWide(),
  'PUT /api/orgs/{org_id}/settings/config': adminOnly({ body: () => ({ feature_flags: { whats_new: true } }) }),
  'GET /api/orgs/{org_id}/settings/library': orgWide(),
  'PUT /api/orgs/{org_id}/settings/library': adminOnly({ body: () => ({ save_incoming: true }) }),
  // --- end issue 22 ---
  // --- issue 18: AI agent. The knowledge base and settings are org-wide (members read them and use the
  // test panel; admins change them); the audit list leaves R's decisions out; take-over is chat-linked.
  'GET /api/orgs/{org_id}/ai/faqs': orgWide({ query: () => 'q=shipping' }),
  'POST /api/orgs/{org_id}/ai/faqs': adminOnly({ body: () => ({ question: 'Do you ship abroad at all?', answer: 'Yes, we ship to most countries.', attachments: [] }) }),
  'PUT /api/orgs/{org_id}/ai/faqs/{faq_id}': adminOnly({ params: () => ({ faq_id: 'faq_missing' }), body: () => ({ question: 'Do you ship abroad at all?', answer: 'Yes, we ship to most countries.' }) }),
  'DELETE /api/orgs/{org_id}/ai/faqs/{faq_id}': adminOnly({ params: () => ({ faq_id: 'faq_missing' }) }),
  'GET /api/orgs/{org_id}/ai/settings': orgWide(),
  'PUT /api/orgs/{org_id}/ai/settings': adminOnly({ body: () => ({ enabled: false }) }),
  'POST /api/orgs/{org_id}/ai/test': orgWide({ body: (w) => ({ question: `Is there news about ${w.sentinel}?` }) }),
  'GET /api/orgs/{org_id}/ai/decisions': orgWide(),
  'POST /api/orgs/{org_id}/ai/faqs/uploads': adminOnly({ body: () => ({ filename: 'price-list.pdf', mimetype: 'application/pdf', size: 1000 }) }),
  'PUT /api/orgs/{org_id}/chats/{chat_id}/ai': chatLinked({ body: () => ({ activation_state: 'paused' }) }),
  // --- end issue 18 ---
  // --- issue 15: contacts. Masked members get sealed ids (cx_…); a contact whose 1:1 chat the
  // member may not open is hidden from lists and refused by id (its name comes from that chat) ---
  'GET /api/orgs/{org_id}/contacts': {
    ...orgWide(),
    variants: [
      { name: 'q=sentinel', query: (w) => `q=${enc(w.sentinel.toLowerCase())}`, expect: { a: NOT_IN_ORG, b: [200], d: UNAUTH } },
      { name: 'q=R number', query: (w) => `q=${w.rNumber}`, expect: { b: [200], d: UNAUTH } },
    ],
  },
  'POST /api/orgs/{org_id}/contacts': orgWide({ body: () => ({ phone: '+1 415 555 0100', name: 'Isolation contact' }) }, [201, 409]),
  'GET /api/orgs/{org_id}/contacts/{contact_id}': {
    ...chatLinked({ params: (w) => ({ contact_id: sealContactId(w.orgId, w.rNumber) }) }),
    variants: [{ name: 'raw number', params: (w) => ({ contact_id: w.rNumber }), expect: { a: NOT_IN_ORG, b: REFUSED, d: UNAUTH } }],
  },
  'PATCH /api/orgs/{org_id}/contacts/{contact_id}': chatLinked({ params: (w) => ({ contact_id: sealContactId(w.orgId, w.rNumber) }), body: () => ({ notes: 'changed by someone' }) }),
  'DELETE /api/orgs/{org_id}/contacts/{contact_id}': chatLinked({ params: (w) => ({ contact_id: sealContactId(w.orgId, w.rNumber) }) }),
  // custom properties: any member lists the definitions, admins manage them; values on a chat are chat-linked
  'GET /api/orgs/{org_id}/properties': orgWide(),
  'POST /api/orgs/{org_id}/properties': adminOnly({ body: () => ({ property_name: 'Nope', property_value_type: 'text' }) }),
  'PATCH /api/orgs/{org_id}/properties/{property_id}': adminOnly({ params: () => ({ property_id: 'prp_missing' }), body: () => ({ property_name: 'Nope', property_value_type: 'text' }) }),
  'DELETE /api/orgs/{org_id}/properties/{property_id}': adminOnly({ params: () => ({ property_id: 'prp_missing' }) }),
  'PUT /api/orgs/{org_id}/chats/{chat_id}/properties': chatLinked({ body: () => ({ custom_properties: {} }) }),
  // --- end issue 15 ---
  // --- issue 17: automation rules (member_permissions.rules unset = members allowed, spec §6); org A's rules `ruleIds`, made below ---
  'GET /api/orgs/{org_id}/rules': orgWide(),
  // members may create rules (member_permissions.rules on): 201, or 409 once the plan's rule limit
  // (ruleLimit: 2 per licence on the trial's licences) is reached
  'POST /api/orgs/{org_id}/rules': orgWide({ body: () => ({ name: 'sneaky', trigger: { type: 'task.due' }, actions: [{ type: 'close' }], enabled: false }) }, [201, 409]),
  'GET /api/orgs/{org_id}/rules/{rule_id}': orgWide({ params: () => ({ rule_id: ruleIds.keep }) }),
  'PUT /api/orgs/{org_id}/rules/{rule_id}': orgWide({ params: () => ({ rule_id: ruleIds.keep }), body: () => ({ enabled: false }) }),
  'DELETE /api/orgs/{org_id}/rules/{rule_id}': orgWide({ params: () => ({ rule_id: ruleIds.del }) }, [200, 404]),
  // the dry run shows only events of chats the member may see (the guard), never R's
  'POST /api/orgs/{org_id}/rules/{rule_id}/dry-run': orgWide({ params: () => ({ rule_id: ruleIds.keep }), body: () => ({}) }),
  'GET /api/orgs/{org_id}/logs/rules': { ...orgWide(), variants: [{ name: 'chat R', query: (w) => `chat_id=${enc(w.chatR)}`, expect: { a: NOT_IN_ORG, b: REFUSED, d: UNAUTH } }] },
  'GET /api/orgs/{org_id}/chats/{chat_id}/rule-pending': chatLinked(),
  'DELETE /api/orgs/{org_id}/chats/{chat_id}/rule-pending/{key}': { params: () => ({ key: 'fu|rule_none|none' }), expect: { a: NOT_IN_ORG, b: REFUSED, d: UNAUTH, m: [404] } },
  // --- end issue 17 ---
  // --- issue 17 §6: SLA policies (same access as rules) and the breach report (rows of chats the member may not see are filtered) ---
  'GET /api/orgs/{org_id}/sla-policies': orgWide(),
  'POST /api/orgs/{org_id}/sla-policies': orgWide({ body: () => ({ name: 'sneaky sla', targets: { first_response_minutes: 30 }, enabled: false }) }, [201, 409]),
  'PUT /api/orgs/{org_id}/sla-policies/{policy_id}': orgWide({ params: () => ({ policy_id: slaPolicyIds.keep }), body: () => ({ enabled: false }) }),
  'DELETE /api/orgs/{org_id}/sla-policies/{policy_id}': orgWide({ params: () => ({ policy_id: slaPolicyIds.del }) }, [200, 404]),
  'GET /api/orgs/{org_id}/logs/sla': orgWide({}, [200]),
  // --- end issue 17 §6 ---
  // --- issue 16 (part A): templates (synced below). Members list them; admins sync; a template
  // into a chat is a send (chat-linked, refused on R like text) ---
  'GET /api/orgs/{org_id}/templates': orgWide(),
  'POST /api/orgs/{org_id}/templates/sync': adminOnly({ body: () => ({}) }),
  'POST /api/orgs/{org_id}/chats/{chat_id}/templates': chatLinked({ body: () => ({ name: 'welcome_back', language: 'en_US' }) }),
  // scheduled messages: the member lists their own; scheduling names a chat (the guard on chat_id);
  // the admin's scheduled message (made below) is nobody else's: 404 to every member
  'GET /api/orgs/{org_id}/scheduled': orgWide(),
  'POST /api/orgs/{org_id}/scheduled': chatLinked({ body: (w) => ({ chat_id: w.chatR, body: 'later', recurrence: { kind: 'once', start_date: '2099-01-01', time: '09:00' } }) }),
  'PATCH /api/orgs/{org_id}/scheduled/{schedule_id}': { params: () => ({ schedule_id: isoSchedule.id }), body: () => ({ status: 'paused' }), expect: { a: NOT_IN_ORG, b: [404], c: [404], d: UNAUTH, m: [404] } },
  'POST /api/orgs/{org_id}/scheduled/{schedule_id}/skip': { params: () => ({ schedule_id: isoSchedule.id }), expect: { a: NOT_IN_ORG, b: [404], c: [404], d: UNAUTH, m: [404] } },
  'DELETE /api/orgs/{org_id}/scheduled/{schedule_id}': { params: () => ({ schedule_id: isoSchedule.id }), expect: { a: NOT_IN_ORG, b: [404], c: [404], d: UNAUTH, m: [404] } },
  // --- end issue 16 (part A) ---
  // --- issue 15 (contacts3): quick replies. Team replies: admins write; personal: any member, their own.
  // A reply's attachment is a library file: a member cannot attach a file of chat R ---
  'GET /api/orgs/{org_id}/replies': orgWide(),
  'POST /api/orgs/{org_id}/replies': {
    ...adminOnly({ body: () => ({ shortcut: 'isoteam', text: 'Hello {{contact.name}}', scope: 'team' }) }),
    variants: [
      { name: 'personal', body: () => ({ shortcut: `iso${Date.now()}`, text: 'Hi', scope: 'personal' }), expect: { a: NOT_IN_ORG, b: [201], d: UNAUTH } },
      { name: 'personal with a file of chat R', body: (w) => ({ shortcut: 'isofile', text: 'Hi', scope: 'personal', attachment: { chat_id: w.chatR, unique_id: w.rInbound, message_type: 'image' } }), expect: { a: NOT_IN_ORG, b: REFUSED, d: UNAUTH } },
    ],
  },
  'PATCH /api/orgs/{org_id}/replies/{reply_id}': adminOnly({ params: () => ({ reply_id: 'qr_missing' }), body: () => ({ shortcut: 'nope', text: 'Nope' }) }, [403, 404]),
  'DELETE /api/orgs/{org_id}/replies/{reply_id}': adminOnly({ params: () => ({ reply_id: 'qr_missing' }) }, [403, 404]),
  // merge / unmerge: both contacts must be visible (R's contact is refused to the member without access).
  // (m): O's contact was deleted by the DELETE row above, so 404 is its honest answer too
  'POST /api/orgs/{org_id}/contacts/{contact_id}/merge': contactAfterDelete({ params: (w) => ({ contact_id: sealContactId(w.orgId, w.rNumber) }), body: (w) => ({ other_contact_id: sealContactId(w.orgId, w.rNumber) }) }),
  'POST /api/orgs/{org_id}/contacts/{contact_id}/unmerge': contactAfterDelete({ params: (w) => ({ contact_id: sealContactId(w.orgId, w.rNumber) }), body: (w) => ({ other_contact_id: sealContactId(w.orgId, w.rNumber) }) }),
  'GET /api/orgs/{org_id}/contacts/{contact_id}/merges': contactAfterDelete({ params: (w) => ({ contact_id: sealContactId(w.orgId, w.rNumber) }) }),
  // the export holds what the list shows the member (never R's contact, numbers masked)
  'GET /api/orgs/{org_id}/contacts/export.csv': orgWide(),
  // CSV import: anyone allowed /contacts starts one; a job of another org (or another member's) is a 404
  'POST /api/orgs/{org_id}/contacts/imports': orgWide({ body: () => ({ total: 1, file_name: 'iso.csv' }) }, [201]),
  'PUT /api/orgs/{org_id}/contacts/imports/{job_id}/chunks/{seq}': orgWide({ params: () => ({ job_id: 'cimp_missing', seq: '0' }), body: () => ({ rows: [{ phone: '14155550100' }] }) }, [404]),
  'POST /api/orgs/{org_id}/contacts/imports/{job_id}/start': orgWide({ params: () => ({ job_id: 'cimp_missing' }) }, [404]),
  'GET /api/orgs/{org_id}/contacts/imports/{job_id}': orgWide({ params: () => ({ job_id: 'cimp_missing' }) }, [404]),
  'POST /api/orgs/{org_id}/contacts/imports/{job_id}/undo': orgWide({ params: () => ({ job_id: 'cimp_missing' }) }, [404]),
  // --- end issue 15 (contacts3) ---
  // --- issue 16: broadcasts (member_permissions.bulk_message unset = members allowed, spec §6). Org A's
  // broadcast `isoBroadcast.id` (made below, scheduled a day ahead: nothing is sent) reaches chat R:
  // the member sees its figures but never R in its log or export ---
  'GET /api/orgs/{org_id}/broadcasts': orgWide(),
  'POST /api/orgs/{org_id}/broadcasts': { body: (w) => ({ name: 'sneaky', audience: { kind: 'chats', chat_ids: [w.chatR] }, content: { body: 'hi' }, send_at: Date.now() + 86_400_000 }), expect: { a: NOT_IN_ORG, b: REFUSED, d: UNAUTH } },
  'POST /api/orgs/{org_id}/broadcasts/preview': {
    body: (w) => ({ audience: { kind: 'chats', chat_ids: [w.chatR] }, content: { body: 'hi {{name}} {{phone}}' } }),
    expect: { a: NOT_IN_ORG, b: REFUSED, d: UNAUTH },
    variants: [{ name: 'CSV with R’s number', body: (w) => ({ audience: { kind: 'csv', rows: [{ phone: w.rNumber }] }, content: { body: 'hi {{name}}' } }), expect: { a: NOT_IN_ORG, b: [200], d: UNAUTH } }],
  },
  // a file from the member's computer for a broadcast: no chat involved (members with bulk_message, the default, get their upload)
  'POST /api/orgs/{org_id}/broadcasts/uploads': orgWide({ body: () => ({ filename: 'sale.png', mimetype: 'image/png', size: 100 }) }, [201]),
  'GET /api/orgs/{org_id}/broadcasts/credits': orgWide(),
  'GET /api/orgs/{org_id}/broadcasts/{broadcast_id}': orgWide({ params: () => ({ broadcast_id: isoBroadcast.id }) }),
  'POST /api/orgs/{org_id}/broadcasts/{broadcast_id}/actions': orgWide({ params: () => ({ broadcast_id: isoBroadcast.id }), body: () => ({ action: 'pause' }) }, [200, 409]),
  'GET /api/orgs/{org_id}/broadcasts/{broadcast_id}/recipients': orgWide({ params: () => ({ broadcast_id: isoBroadcast.id }) }),
  'GET /api/orgs/{org_id}/broadcasts/{broadcast_id}/recipients.csv': orgWide({ params: () => ({ broadcast_id: isoBroadcast.id }) }),
  // --- end issue 16 ---
  // --- issue 15 (groups): group templates. Any member lists them; admins write them and create groups (members 403 before any lookup). ---
  'GET /api/orgs/{org_id}/group-templates': orgWide(),
  'POST /api/orgs/{org_id}/group-templates': adminOnly({ body: () => ({ name: 'Isolation group' }) }),
  'POST /api/orgs/{org_id}/group-templates/uploads': adminOnly({ body: () => ({ filename: 'logo.png', mimetype: 'image/png', size: 100 }) }),
  'PATCH /api/orgs/{org_id}/group-templates/{template_id}': adminOnly({ params: () => ({ template_id: 'gt_missing' }), body: () => ({ name: 'Nope' }) }),
  'DELETE /api/orgs/{org_id}/group-templates/{template_id}': adminOnly({ params: () => ({ template_id: 'gt_missing' }) }),
  // a member asking for a group with chat R among the participants: 403 (admins only) before R is read
  'POST /api/orgs/{org_id}/group-templates/{template_id}/groups': adminOnly({ params: () => ({ template_id: 'gt_missing' }), body: (w) => ({ phone_id: w.waWebPhoneId, chat_ids: [w.chatR] }) }),
  'GET /api/orgs/{org_id}/group-templates/{template_id}/groups/{request_id}': adminOnly({ params: () => ({ template_id: 'gt_missing', request_id: 'grq_missing' }) }),
  // --- end issue 15 (groups) ---
};

// --- issue 17 §6: org A's SLA policies for the rows above (disabled: no clock starts in this suite) ---
const slaPolicyIds = { keep: 'sla_missing', del: 'sla_missing' };
beforeAll(async () => {
  const mk = async (name: string) => {
    const res = await rt.orgCall<{ policy: { policy_id: string } }>(w.admin, 'POST', '/sla-policies', { name, targets: { first_response_minutes: 30 }, enabled: false });
    if (res.status !== 201) throw new Error(`could not make org A's SLA policy: ${res.status}`);
    return res.body.policy.policy_id;
  };
  slaPolicyIds.keep = await mk('isolation keep');
  slaPolicyIds.del = await mk('isolation delete');
});

// --- issue 16 (part A): org A's templates from the Graph stand-in, for the rows above ---
beforeAll(async () => {
  const res = await rt.orgCall(w.admin, 'POST', '/templates/sync', {});
  if (res.status !== 200) throw new Error(`could not sync org A's templates: ${res.status}`);
  const s = await rt.orgCall<{ scheduled: { schedule_id: string } }>(w.admin, 'POST', '/scheduled', { chat_id: w.chatR, body: 'admin only', recurrence: { kind: 'once', start_date: '2099-01-01', time: '09:00' } });
  if (s.status !== 201) throw new Error(`could not schedule org A's message: ${s.status}`);
  isoSchedule.id = s.body.scheduled.schedule_id;
});
const isoSchedule = { id: 'sch_missing' };

/** chatLinked, where the member on chat O may find O's contact already deleted (404). */
function contactAfterDelete(c: Omit<Case, 'expect'>): Row {
  return { ...c, expect: { a: NOT_IN_ORG, b: REFUSED, d: UNAUTH, m: [...SERVED, 404] } };
}


// --- issue 16: org A's broadcast to chats R and O for the rows above (scheduled a day ahead) ---
const isoBroadcast = { id: 'bc_01HZZZZZZZZZZZZZZZZZZZZZZZ' };
beforeAll(async () => {
  const res = await rt.orgCall<{ broadcast: { broadcast_id: string } }>(w.admin, 'POST', '/broadcasts', { name: 'isolation', audience: { kind: 'chats', chat_ids: [w.chatR, w.chatO] }, content: { body: 'hello' }, send_at: Date.now() + 86_400_000 });
  if (res.status !== 201) throw new Error(`could not make org A's broadcast: ${res.status} ${JSON.stringify(res.body)}`);
  isoBroadcast.id = res.body.broadcast.broadcast_id;
});

// --- issue 17: org A's rules for the rows above (disabled; a trigger nothing in this suite fires) ---
const ruleIds = { keep: 'rule_missing', del: 'rule_missing' };
beforeAll(async () => {
  const mk = async (name: string) => {
    const res = await rt.orgCall<{ rule: { rule_id: string } }>(w.admin, 'POST', '/rules', { name, trigger: { type: 'task.due' }, actions: [{ type: 'close' }], enabled: false });
    if (res.status !== 201) throw new Error(`could not make org A's rule: ${res.status}`);
    return res.body.rule.rule_id;
  };
  ruleIds.keep = await mk('isolation keep');
  ruleIds.del = await mk('isolation delete');
});

// --- issue 20: org A's webhook endpoint, for the rows above (an event nothing in this suite emits, so nothing is sent) ---
let hookEndpointId = 'ep_missing';
beforeAll(async () => {
  const res = await rt.orgCall<{ endpoint: { endpoint_id: string } }>(w.admin, 'POST', '/webhooks', { url: 'https://hooks.example.com/isolation', events: ['task.reminder_due'] });
  if (res.status !== 201) throw new Error(`could not make org A's webhook endpoint: ${res.status}`);
  hookEndpointId = res.body.endpoint.endpoint_id;
});

const routeKey = (r: { method: string; path: string }) => `${r.method} ${r.path}`;
const failures: string[] = [];
let httpPairs = 0;
const pairsByActor: Partial<Record<ActorKind, number>> = {};
let variantPairs = 0;

function fillPath(path: string, params: Record<string, string>): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (!(name in params)) throw new Error(`no value for path param ${name}`);
    return enc(params[name]);
  });
}

async function call(actor: ActorKind, method: string, path: string, body: unknown): Promise<Res> {
  let token = actor === 'a' || actor === 'x' ? w.outsider : actor === 'd' ? null : w.member;
  // issue 20: API-key routes are called with the other org's API key
  if (token && (path.startsWith('/v1/') || path === '/mcp')) token = actor === 'a' || actor === 'x' ? isoKeys.otherToken : isoKeys.memberlessToken;
  let r: Response;
  if (path.startsWith('/webhooks/whatsapp') && method === 'POST') r = await rt.postWebhook(body as object, 'sha256=' + '0'.repeat(64));
  else if (path === '/mcp') r = await fetch(`${rt.url}${path}`, { method, headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: body === undefined ? undefined : JSON.stringify(body) });
  else r = await rt.api(token, path, { method, json: body });
  const text = await r.text();
  let json: unknown = undefined;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: r.status, text, json };
}

/** Org A's member (masking is on for the suite): answers scanned whole for customer numbers. */
const MASKED_MEMBER = new Set<ActorKind>(['b', 'c', 'm']);

/** Problems with one response: status, the sentinel, full customer numbers, the row's own check. */
async function problems(actor: ActorKind, c: Case, res: Res): Promise<string[]> {
  const out: string[] = [];
  const allowed = c.expect[actor]!;
  if (!allowed.includes(res.status)) out.push(`status ${res.status} (expected ${allowed.join('/')}) ${res.text.slice(0, 200)}`);
  const at = res.text.indexOf(w.sentinel);
  if (at >= 0) out.push(`sentinel leaked: …${res.text.slice(Math.max(0, at - 120), at + 60)}…`);
  if (actor === 'x' && res.text.includes(w.orgId)) out.push(`org A's id in another org's answer: ${res.text.slice(0, 200)}`);
  // issue 41 §5: a masked member's answer is scanned byte for byte (chat ids included: they come sealed)
  const scrubbed = MASKED_MEMBER.has(actor) ? res.text : withoutChatIds(res.text, [w.rNumber, w.oNumber, w.uNumber]);
  for (const n of [w.rNumber, w.oNumber, w.uNumber]) {
    const i = scrubbed.indexOf(n);
    if (i >= 0) out.push(`full customer number ${n} (masking on): …${scrubbed.slice(Math.max(0, i - 120), i + 40)}…`);
  }
  if (res.status < 300 && c.check?.[actor]) {
    const p = await c.check[actor]!(res, w);
    if (p) out.push(p);
  }
  return out;
}

describe('HTTP: every route of the registry, as every actor kind that applies', () => {
  it('the planted data is there for the admin (so the refusals below are not vacuous)', async () => {
    const text = async (token: string, path: string) => {
      const r = await rt.api(token, `/api/orgs/${w.orgId}${path}`);
      expect(r.status, path).toBe(200);
      return r.text();
    };
    for (const path of [`/chats/${enc(w.chatR)}`, `/chats/${enc(w.chatR)}/messages`, `/chats/${enc(w.chatR)}/tickets`, '/tickets', `/tickets/${w.rTicket}`, '/tasks?scope=all', `/tasks/${w.rTaskMember}`, '/media', '/chats']) {
      expect(await text(w.admin, path), `admin ${path}`).toContain(w.sentinel);
    }
    // admins are never masked: the number a client stored on the member's task of O is there for them
    expect(await text(w.admin, `/tasks/${w.oTaskMember}`)).toContain(w.oNumber);
    // the member sees O, and has a notification about R (made before the restriction)
    await text(w.member, `/chats/${enc(w.chatO)}`);
    expect(await text(w.member, '/notifications')).toContain(w.rNotification);
    expect(await text(w.member, '/tasks')).toContain(w.oTaskMember);
    // U's 'assigned' notification is there (named by a masked number for the member)
    expect(await text(w.member, '/notifications')).toContain(sealChatId(w.orgId, w.chatU));
  });

  it('every route in functions/routes.ts has a row (and every row a route)', () => {
    const registered = HTTP_ROUTES.map(routeKey);
    const missing = registered.filter((k) => !(k in ROUTES));
    const stale = Object.keys(ROUTES).filter((k) => !registered.includes(k));
    expect(missing, 'routes without a row in the isolation table').toEqual([]);
    expect(stale, 'rows for routes no longer registered').toEqual([]);
  });

  for (const route of HTTP_ROUTES) {
    const key = routeKey(route);
    const row = ROUTES[key];
    if (!row) continue;
    // (a) through its own org: every route with an org_id, any status but nothing of A
    const base: Row = route.path.includes('{org_id}') ? { ...row, expect: { ...row.expect, x: ANY_STATUS } } : row;
    const cases: Array<Case & { name: string }> = [{ ...base, name: '' }, ...(row.variants ?? []).map((v) => ({ ...v, params: v.params ?? row.params, query: v.query ?? row.query, body: v.body ?? row.body }))];
    for (const c of cases) {
      for (const actor of Object.keys(c.expect) as ActorKind[]) {
        if (c.name) variantPairs++;
        httpPairs++;
        pairsByActor[actor] = (pairsByActor[actor] ?? 0) + 1;
        it(`${key}${c.name ? ` [${c.name}]` : ''} ${ACTOR_NAMES[actor]}`, async () => {
          if (route.auth === 'none' && actor !== 'd') throw new Error('public routes are called without a token only');
          if (route.auth === 'jwt' && actor === 'd' && !c.expect.d?.includes(401)) throw new Error('a JWT route must answer 401 without a token');
          // (m): the same row on chat O (the world with R's ids mirrored to O's)
          const ww = actor === 'm' ? mirrorToOpenChat(w) : w;
          const params = { ...defaults(ww), ...(c.params?.(ww) ?? {}), ...(actor === 'x' ? { org_id: w.otherOrgId } : {}) };
          const q = c.query?.(ww);
          const path = fillPath(route.path, params) + (q ? `?${q}` : '');
          const res = await call(actor, route.method, path, c.body?.(ww));
          const p = await problems(actor, c, res);
          if (p.length) {
            const line = `${key}${c.name ? ` [${c.name}]` : ''} ${ACTOR_NAMES[actor]}: ${p.join(' | ')}`;
            failures.push(line);
            throw new Error(line);
          }
        });
      }
    }
  }
});

/* ------------------------------------------------------------------------------------------ */
/* WebSocket: every event type of the catalogue                                               */
/* ------------------------------------------------------------------------------------------ */

interface Frame {
  type: string;
  properties: Record<string, unknown>;
  raw: string;
}
interface Sock {
  ws: WebSocket;
  frames: Frame[];
}

function connect(token: string, orgId: string): Promise<Sock> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${rt.port}/ws?token=${enc(token)}&org_id=${enc(orgId)}`);
    const frames: Frame[] = [];
    ws.on('message', (d) => {
      const raw = String(d);
      const j = JSON.parse(raw) as { type: string; properties: Record<string, unknown> };
      frames.push({ type: j.type, properties: j.properties, raw });
    });
    ws.on('open', () => resolve({ ws, frames }));
    ws.on('unexpected-response', (_req, res) => reject(new Error(`socket refused: ${res.statusCode}`)));
    ws.on('error', () => undefined);
  });
}

/** What a trigger did: the recipient that must see the event (control, proves the trigger worked). */
type Trigger = () => Promise<void>;
interface EventCase {
  /** an event of this type about R: the member's socket must get nothing of it */
  aboutR: Trigger;
  /** who must get the R event (control): 'admin', or 'none' when only the member would be its audience */
  rControl: 'admin' | 'none';
  /** an event of this type about O (a chat the member may see): the member gets it, masked; 'admin-only' types go only to admins / the creator */
  aboutO?: Trigger;
  /** org-wide, admin-only or creator-only types (not chat-linked): the member gets no frame of the type at all */
  memberGetsNone?: boolean;
}

const org = <T = Record<string, unknown>>(method: string, path: string, json?: unknown) =>
  rt.orgCall<T>(w.admin, method, path, json).then((r) => {
    if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  });
/** An inbound text into R or O; @returns its unique_id */
async function inbound(number: string, body: string, name: string): Promise<string> {
  expect((await rt.postWebhook(inboundText(rt.phone, number, body, { name, id: newWamid() }))).status).toBe(200);
  await rt.idle();
  const msgs = (await org<{ messages: Array<{ unique_id: string; body?: string | null }> }>('GET', `/chats/${enc(`${number}@c.us`)}/messages`)).messages;
  return msgs.find((m) => m.body === body)!.unique_id;
}
async function sendOut(chatId: string, body: string): Promise<{ unique_id: string; message_id?: string | null }> {
  const m = (await org<{ message: { unique_id: string } }>('POST', `/chats/${enc(chatId)}/messages`, { body })).message;
  await rt.idle();
  const msgs = (await org<{ messages: Array<{ unique_id: string; message_id?: string | null }> }>('GET', `/chats/${enc(chatId)}/messages`)).messages;
  return msgs.find((x) => x.unique_id === m.unique_id)!;
}
async function ticketOn(number: string, subject: string, assignee: string): Promise<string> {
  const uid = await inbound(number, `${subject} message`, number === w.rNumber ? `${w.sentinel} Rita` : 'Olive');
  return (await org<{ ticket: { ticket_id: string } }>('POST', '/tickets', { chat_id: `${number}@c.us`, quoted_message_id: uid, subject, assignee })).ticket.ticket_id;
}
async function taskOn(chatId: string, title: string, extra: Record<string, unknown> = {}): Promise<string> {
  return (await org<{ task: { task_id: string } }>('POST', '/tasks', { title, assignee: w.memberEmail, associated_object_metadata: { id: chatId, type: 'chat', object: { chat_id: chatId, ...extra } } })).task.task_id;
}
async function putTask(taskId: string): Promise<void> {
  const t = (await org<{ task: Record<string, unknown> }>('GET', `/tasks/${taskId}`)).task;
  await org('PUT', `/tasks/${taskId}`, { title: t.title, status: t.status, priority: 3, assignee: t.assignee, due_date: t.due_date, remind_at: t.remind_at, reminder_setting: t.reminder_setting, notes: 'changed' });
}
async function reminderDue(taskId: string): Promise<void> {
  // the reminder consumer's event, published as it would (the scheduler's wake-up needs the clock to pass remind_at)
  const t = (await org<{ task: Record<string, unknown> }>('GET', `/tasks/${taskId}`)).task;
  await publish('task.reminder_due', { org_id: w.orgId, task: t as never, remind_at: Date.now() }, { actor: 'system' });
}
/** Unassign, then assign to the member: an 'assigned' notification for them (whatever the table's calls left). */
async function assignToMember(chatId: string): Promise<void> {
  await org('POST', '/chats/assign', { chat_ids: [chatId], assigned_to: null });
  await org('POST', '/chats/assign', { chat_ids: [chatId], assigned_to: w.memberEmail });
}
async function noteAndDelete(chatId: string, body: string): Promise<void> {
  const m = (await org<{ message: { unique_id: string } }>('POST', `/chats/${enc(chatId)}/notes`, { body })).message;
  await org('DELETE', `/chats/${enc(chatId)}/notes/${m.unique_id}`);
}

const EVENT_CASES: Record<EventName, EventCase> = {
  'message.received': { aboutR: async () => void (await inbound(w.rNumber, `${w.sentinel} ws inbound`, `${w.sentinel} Rita`)), rControl: 'admin', aboutO: async () => void (await inbound(w.oNumber, 'ws inbound O', 'Olive')) },
  'message.sent': { aboutR: async () => void (await sendOut(w.chatR, `${w.sentinel} ws out`)), rControl: 'admin', aboutO: async () => void (await sendOut(w.chatO, 'ws out O')) },
  'message.status_updated': {
    aboutR: async () => {
      const m = await sendOut(w.chatR, `${w.sentinel} ws status`);
      await rt.postWebhook(statusUpdate(rt.phone, { id: m.message_id!, status: 'delivered', recipient: w.rNumber }));
    },
    rControl: 'admin',
    aboutO: async () => {
      const m = await sendOut(w.chatO, 'ws status O');
      await rt.postWebhook(statusUpdate(rt.phone, { id: m.message_id!, status: 'delivered', recipient: w.oNumber }));
    },
  },
  // a fresh message each time (the route table's (m) calls already pinned and flagged O's messages)
  'message.updated': {
    aboutR: async () => void (await org('PUT', `/chats/${enc(w.chatR)}/messages/${await inbound(w.rNumber, `${w.sentinel} ws flag`, `${w.sentinel} Rita`)}/flag`, { flag_status: true })),
    rControl: 'admin',
    aboutO: async () => void (await org('PUT', `/chats/${enc(w.chatO)}/messages/${await inbound(w.oNumber, 'ws flag O', 'Olive')}/flag`, { flag_status: true })),
  },
  'chat.read': { aboutR: async () => void (await org('POST', `/chats/${enc(w.chatR)}/read`)), rControl: 'admin', aboutO: async () => void (await org('POST', `/chats/${enc(w.chatO)}/read`)) },
  'chat.updated': {
    aboutR: async () => void (await org('POST', '/chats/labels', { chat_ids: [w.chatR], add: [w.labelId] })),
    rControl: 'admin',
    aboutO: async () => void (await org('POST', '/chats/labels', { chat_ids: [w.chatO], add: [w.labelId] })),
  },
  'ticket.created': { aboutR: async () => void (await ticketOn(w.rNumber, `${w.sentinel} ws ticket`, w.memberEmail)), rControl: 'admin', aboutO: async () => void (await ticketOn(w.oNumber, 'O ticket', w.memberEmail)) },
  'ticket.updated': {
    aboutR: async () => void (await org('PATCH', `/tickets/${await ticketOn(w.rNumber, `${w.sentinel} ws ticket 2`, w.adminEmail)}`, { priority: 3, assignee: w.memberEmail })),
    rControl: 'admin',
    aboutO: async () => void (await org('PATCH', `/tickets/${await ticketOn(w.oNumber, 'O ticket 2', w.adminEmail)}`, { priority: 3, assignee: w.memberEmail })),
  },
  'ticket.closed': {
    aboutR: async () => void (await org('PATCH', `/tickets/${await ticketOn(w.rNumber, `${w.sentinel} ws ticket 3`, w.memberEmail)}`, { status: 'closed' })),
    rControl: 'admin',
    aboutO: async () => void (await org('PATCH', `/tickets/${await ticketOn(w.oNumber, 'O ticket 3', w.memberEmail)}`, { status: 'closed' })),
  },
  // task events go to admins, the assignee and the creator: a task of the member linked to R must not reach them
  'task.created': { aboutR: async () => void (await taskOn(w.chatR, `${w.sentinel} ws task`)), rControl: 'admin', aboutO: async () => void (await taskOn(w.chatO, 'O task', { sender_phone: w.oNumber })) },
  'task.updated': { aboutR: async () => putTask(w.rTaskMember), rControl: 'admin', aboutO: async () => putTask(w.oTaskMember) },
  'task.reminder_due': { aboutR: async () => reminderDue(w.rTaskMember), rControl: 'admin', aboutO: async () => reminderDue(w.oTaskMember) },
  'note.created': { aboutR: async () => void (await org('POST', `/chats/${enc(w.chatR)}/notes`, { body: `${w.sentinel} ws note` })), rControl: 'admin', aboutO: async () => void (await org('POST', `/chats/${enc(w.chatO)}/notes`, { body: 'O note' })) },
  'note.deleted': { aboutR: async () => noteAndDelete(w.chatR, `${w.sentinel} ws note gone`), rControl: 'admin', aboutO: async () => noteAndDelete(w.chatO, 'O note gone') },
  // for its recipient only: the admin assigns R to the member (an 'assigned' notification about R must not reach them)
  'notification.created': {
    aboutR: async () => assignToMember(w.chatR),
    rControl: 'none',
    // U has no name: the notification must not name it by its full number
    aboutO: async () => assignToMember(w.chatU),
  },
  // its creator's only (not chat-linked for the audience): the admin's job on R
  'bulk_job.updated': { aboutR: async () => void (await org('POST', '/chats/bulk-jobs', { action: 'unmute', chat_ids: [w.chatR] })), rControl: 'admin', memberGetsNone: true },
  // admins only (WhatsApp Web linking and its QR): org-wide, not chat-linked
  'phone.session_updated': { aboutR: async () => void (await org('POST', '/phones/wa-web', { phone: '15557770002' })), rControl: 'admin', memberGetsNone: true },
  // issue 17: contact events are never pushed (the rules consumer's): nobody's socket gets a frame of them
  'contact.created': { aboutR: async () => void (await org('POST', '/contacts', { phone: '+1 415 555 0199', name: `${w.sentinel} ws contact` })), rControl: 'none', memberGetsNone: true },
  'contact.updated': { aboutR: async () => void (await org('PATCH', `/contacts/${w.rNumber}`, { name: `${w.sentinel} ws contact renamed` })), rControl: 'none', memberGetsNone: true },
  // issue 17: the reaction trigger's event is never pushed either (message.updated carries the reaction): the admin reacts to a message of R
  'message.reaction': { aboutR: async () => void (await org('POST', `/chats/${enc(w.chatR)}/messages/${await inbound(w.rNumber, `${w.sentinel} ws react`, `${w.sentinel} Rita`)}/reaction`, { reaction: '👍' })), rControl: 'none', memberGetsNone: true },
};

const STUB_KEYS = new Set(['org_id', 'chat_id', 'chat_type', 'org_phone', 'phone_id', 'latest_message_timestamp', 'inbox_state', 'has_access']);
/** Is this member frame the chat list's stub of R (chat.updated, has_access false, nothing else)? */
const isStubOfR = (f: Frame) => {
  if (f.type !== 'chat.updated') return false;
  const chat = f.properties.chat as Record<string, unknown> | undefined;
  return !!chat && storedChatId(w.orgId, String(chat.chat_id)) === w.chatR && chat.has_access === false && Object.keys(chat).every((k) => STUB_KEYS.has(k));
};

describe('WebSocket: every event type of the catalogue', () => {
  let admin: Sock;
  let member: Sock;
  let outsider: Sock;
  beforeAll(async () => {
    [admin, member, outsider] = await Promise.all([connect(w.admin, w.orgId), connect(w.member, w.orgId), connect(w.outsider, w.otherOrgId)]);
  });
  afterAll(() => {
    for (const s of [admin, member, outsider]) s?.ws.close();
  });

  it('every event type in events/catalog.ts has a case (and every case an event type)', () => {
    expect(Object.keys(EVENTS).filter((k) => !(k in EVENT_CASES))).toEqual([]);
    expect(Object.keys(EVENT_CASES).filter((k) => !(k in EVENTS))).toEqual([]);
  });

  for (const name of Object.keys(EVENTS) as EventName[]) {
    it(`${name}: the member's socket gets nothing of R, only masked numbers; another org's socket nothing`, async () => {
      const c = EVENT_CASES[name];
      if (!c) throw new Error(`no case for ${name}`);
      const mark = { admin: admin.frames.length, member: member.frames.length, outsider: outsider.frames.length };
      const problemsFound: string[] = [];
      await c.aboutR();
      await rt.idle();
      if (c.rControl === 'admin') await eventually(async () => admin.frames.slice(mark.admin).some((f) => f.type === name), 10_000, `the admin's socket got ${name} (control)`);
      if (c.aboutO) {
        await c.aboutO();
        await rt.idle();
        if (!c.memberGetsNone) await eventually(async () => member.frames.slice(mark.member).some((f) => f.type === name), 10_000, `the member's socket got ${name} about O (control)`);
      } else {
        // nothing to wait for on the member's side: let the fan-out of the R event settle on the admin's socket
        await rt.idle();
      }
      const mine = member.frames.slice(mark.member);
      for (const f of mine) {
        if (c.memberGetsNone && f.type === name) problemsFound.push(`member got ${name}: ${f.raw.slice(0, 300)}`);
        if (f.raw.includes(w.sentinel)) problemsFound.push(`member frame ${f.type} holds the sentinel: ${f.raw.slice(0, 300)}`);
        else if ((f.raw.includes(w.rNumber) || f.raw.includes(sealChatId(w.orgId, w.chatR))) && !isStubOfR(f)) problemsFound.push(`member frame ${f.type} is about R: ${f.raw.slice(0, 300)}`);
        // issue 41 §5: the member's frames byte for byte, chat ids included (they come sealed)
        const scrubbed = f.raw;
        for (const n of [w.rNumber, w.oNumber, w.uNumber]) if (scrubbed.includes(n)) problemsFound.push(`member frame ${f.type} holds the full number ${n}: ${scrubbed.slice(Math.max(0, scrubbed.indexOf(n) - 150), scrubbed.indexOf(n) + 40)}`);
      }
      for (const f of outsider.frames.slice(mark.outsider)) {
        if (f.raw.includes(w.orgId) || f.raw.includes(w.sentinel)) problemsFound.push(`another org's socket got ${f.type}: ${f.raw.slice(0, 200)}`);
      }
      if (problemsFound.length) {
        const line = `socket ${name}: ${[...new Set(problemsFound)].join(' | ')}`;
        failures.push(line);
        throw new Error(line);
      }
    });
  }
});

/* ------------------------------------------------------------------------------------------ */
/* issue 20: API keys beyond the table: revoked, read-only, org mismatch, JWT is not a key    */
/* ------------------------------------------------------------------------------------------ */
describe('API keys (issue 20)', () => {
  const v1 = (token: string | null, method: string, path: string, json?: unknown) =>
    fetch(`${rt.url}${path}`, { method, headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), 'content-type': 'application/json' }, body: json === undefined ? undefined : JSON.stringify(json) });

  it('a revoked key is 401 on every /v1 route and on /mcp', async () => {
    for (const r of HTTP_ROUTES.filter((x) => x.auth === 'apikey')) {
      const path = fillPath(r.path, defaults(w));
      const res = await v1(isoKeys.aRevokedToken, r.method, path, r.method === 'GET' ? undefined : {});
      expect(res.status, `${r.method} ${r.path}`).toBe(401);
    }
  });

  it('a read-only key is 403 on every /v1 write route and reads its own org (R included: org-level actor)', async () => {
    for (const r of HTTP_ROUTES.filter((x) => x.auth === 'apikey' && x.path.startsWith('/v1/') && x.method !== 'GET')) {
      const res = await v1(isoKeys.aReadOnlyToken, r.method, fillPath(r.path, defaults(w)), { chat_ids: [w.chatR], body: 'x', assigned_to: null, is_closed: true, snooze_until: null, add: ['x'], title: 'x', status: 'closed' });
      expect(res.status, `${r.method} ${r.path}`).toBe(403);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('api_key.scope_missing');
    }
    const read = await v1(isoKeys.aReadOnlyToken, 'GET', `/v1/orgs/${w.orgId}/chats/${enc(w.chatR)}`);
    expect(read.status).toBe(200);
  });

  it("a key of org A never reaches org B, and org B's key never reaches A (404)", async () => {
    for (const [token, org] of [[isoKeys.aReadOnlyToken, w.otherOrgId], [isoKeys.otherToken, w.orgId]] as const) {
      for (const r of HTTP_ROUTES.filter((x) => x.auth === 'apikey' && x.path.startsWith('/v1/'))) {
        const res = await v1(token, r.method, fillPath(r.path, { ...defaults(w), org_id: org }), r.method === 'GET' ? undefined : {});
        expect(res.status, `${r.method} ${r.path}`).toBe(404);
        expect(await res.text()).not.toContain(w.sentinel);
      }
    }
  });

  it('a member JWT is not an API key (401 on /v1), and members get 403 on the key routes', async () => {
    expect((await v1(w.member, 'GET', `/v1/orgs/${w.orgId}/chats`)).status).toBe(401);
    expect((await rt.api(w.member, `/api/orgs/${w.orgId}/api-keys`, { method: 'POST', json: { name: 'x', scopes: ['chats:read'] } })).status).toBe(403);
  });
});

// --- search (issue 14) ---
/** A search answer holds no item of chat R (nor of the group, through R's sender). */
function noSearchHitOfR(res: Res, w: IsolationWorld): string | undefined {
  if (res.status !== 200) return undefined;
  const b = res.json as { results: Record<string, { items: Array<{ chat_id: string }> }> };
  for (const [kind, r] of Object.entries(b.results)) if (r.items.some((i) => i.chat_id === w.chatR)) return `a ${kind} hit of R`;
  return undefined;
}

describe('search (issue 14)', () => {
  it("the admin finds R's sentinel in messages, notes, media, chats and tickets; the member finds O's caption, not R's", async () => {
    const get = async (token: string, q: string) => {
      const r = await rt.api(token, `/api/orgs/${w.orgId}/search?q=${enc(q)}`);
      expect(r.status).toBe(200);
      return (await r.json()) as { results: Record<string, { items: Array<{ chat_id: string; snippet: string }> }> };
    };
    // the index trails the writes by the event delivery
    const a = await eventually(async () => {
      const got = await get(w.admin, w.sentinel);
      return ['messages', 'notes', 'media', 'chats', 'tickets', 'contacts'].every((kind) => got.results[kind]!.items.some((i) => i.chat_id === w.chatR)) && got;
    });
    expect(a.results.messages!.items[0]!.snippet).toContain(`<mark>`);
    const admin = await get(w.admin, 'caption');
    expect(admin.results.media!.items.map((i) => i.chat_id).sort()).toEqual([w.chatO, w.chatR].sort());
    const member = await get(w.member, 'caption');
    expect(member.results.media!.items.map((i) => storedChatId(w.orgId, i.chat_id))).toEqual([w.chatO]);
    expect(member.results.media!.items[0]!.snippet).toContain('<mark>caption</mark>');
  });
});
