import { createHash, randomBytes } from 'node:crypto';
import { appendFileSync, readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { STANDIN_TEMPLATES, checkTemplateSend } from './graph-templates.ts';
import { signBody } from '../../shared/whatsapp/cloud/signature.ts';
import { bsuidFor } from '../../shared/whatsapp/cloud/bsuid-payloads.ts';

/**
 * Local stand-in for the Graph API's send endpoint (`POST /{version}/{phone_number_id}/messages`),
 * mounted at `/__graph`. It records every request (path, bearer token, exact JSON body) so a person
 * (GET /__graph, an HTML page) or a test (GET /__graph/sent.json) can see what Chorus sent, and
 * answers like Meta: `{ messaging_product, contacts, messages: [{ id: wamid }] }`.
 * `failNext(code)` makes the next send fail with a Meta error body (tests of failure paths).
 *
 * Recipients (Meta "Business-scoped user IDs", May 2026; dualhook.com/docs/contacts-bsuid-api-changes):
 * a send names `to` (a phone number or group id) or `recipient` (a BSUID or parent BSUID); when both
 * are present `to` wins. The answer's `contacts[0]` is `{ input, wa_id }` for a number and
 * `{ input, user_id }` for a BSUID. A body with neither is refused with Meta's 400 code 100, and an
 * authentication template to a BSUID with 131062 ("Business-scoped User ID recipients are not
 * supported for this message": authentication templates need a phone number).
 *
 * Media (Meta "Media", whatsapp-protocols.md A.7): files registered with `addMedia` are resolved at
 * `GET /{version}/{media_id}` (`{ messaging_product, url, mime_type, sha256 (base64), file_size, id }`)
 * and downloaded from the URL it hands out (`GET /media-download/{token}`, bearer token required,
 * 404 once the URL has expired, by default after 5 minutes like Meta's). An unknown media id answers
 * 404 with Meta's "object does not exist" error (code 100, subcode 33).
 * Uploads (`POST /{version}/{phone_number_id}/media`, multipart `messaging_product`, `type`, `file`)
 * are kept like `addMedia` files under a new id (listed in `uploads`, and in `sent` with the file's
 * name, type, size and sha256 instead of its bytes) and answer `{ id }`. A media message whose
 * `<type>.id` is not a known media id is refused like Meta does (code 100).
 *
 * Phone numbers (Meta "Phone numbers", `GET /{version}/{phone_number_id}?fields=display_phone_number,verified_name`):
 * numbers registered with `addPhoneNumber` (two are built in, PHONE_NUMBERS below) answer
 * `{ display_phone_number, verified_name, id }` for their own token; any other token answers 401
 * OAuthException code 190 like an invalid or expired token at Meta.
 *
 * Templates (issue 16, scripts/local/graph-templates.ts): `GET /{version}/{waba_id}/message_templates?limit=&after=`
 * lists `templates` (any WABA id, bearer token required) in pages with Meta's `paging.cursors`;
 * a `type: 'template'` send is checked against them like Meta does (132001, 132000, 132012, 131008).
 *
 * Send lookup (issue 16, a capability of this stand-in only — Meta's Graph API has NO such call):
 * `GET /{version}/{phone_number_id}/messages?biz_opaque_callback_data=…` answers
 * `{ data: [{ id: wamid }] }` for each send it accepted with that callback data, or `{ data: [] }`.
 * Chorus uses it only when WHATSAPP_GRAPH_SEND_LOOKUP=1 (the local runtime and the benches), to settle
 * a broadcast send whose process died between its claim and the Graph call (shared/broadcast/broadcast.ts
 * reconcileSends). Every accepted send is remembered for it, whatever `keep` trims from `sent`, and,
 * with `ledgerFile`, appended to that file before the answer is written and read back at start: a
 * stand-in inside the runtime process (npm start) dies with it, and must still know after the
 * restart what it accepted before (else the lookup would say "never sent" and the send go twice).
 *
 * Statuses (issue 49 item 3): with `statuses` (or `simulateStatuses`), every accepted send is
 * followed, like on WhatsApp, by signed `statuses` webhooks `sent` → `delivered` → `read`, posted in
 * that order to `statuses.url` (default 1, 2.5 and 5 s after the send), so a demo reply does not sit
 * on "Pending". The bodies follow Meta's status webhook reference in the 2026 shape
 * (tests/fixtures/whatsapp-cloud/14 and 23): `recipient_id` for a send to a number,
 * `recipient_user_id` and `contacts[]` with the user id (made up from the number as `npm run simulate`
 * does, shared/whatsapp/cloud/bsuid-payloads.ts) on every status, `biz_opaque_callback_data` echoed,
 * `conversation` (`id`, `origin.type`, and `expiration_timestamp` 24 h on, on `sent` only) and
 * `pricing` (`billable`, `pricing_model: 'PMP'`, `type`, `category`) on `sent` and `delivered`, none on
 * `read`. A free-form reply is `service` / `free_customer_service` / not billable; a template send is
 * billed in its template's category (`regular`). Off unless configured: tests that assert exact
 * acks opt in (npm start turns it on; CHORUS_GRAPH_STATUSES=0 turns it off).
 */
export interface SentRecord {
  at: number;
  path: string;
  phone_number_id: string;
  authorization: string | undefined;
  body: unknown;
  wamid?: string;
  error?: unknown;
}

const META_ERRORS: Record<number, { status: number; message: string; details: string }> = {
  131047: { status: 400, message: '(#131047) Re-engagement message', details: 'Message failed to send because more than 24 hours have passed since the customer last replied to this number.' },
  130429: { status: 400, message: '(#130429) Rate limit hit', details: 'Cloud API message throughput has been reached.' },
  131026: { status: 400, message: '(#131026) Message Undeliverable', details: 'Unable to deliver message.' },
};

export interface MediaOptions {
  /** sha256 to announce instead of the real one (tests of a corrupt download) */
  sha256?: string;
  /** file_size to announce instead of the real one */
  fileSize?: number;
  /** lifetime of the download URLs, ms @default 300000 (Meta: 5 minutes) */
  expireUrlAfterMs?: number;
  /** the first N download URLs handed out are already expired (tests of re-resolving) */
  expiredUrls?: number;
  /** HTTP statuses the next resolves of this id answer with, in order (e.g. 500 = retryable) */
  failResolves?: number[];
}

interface MediaEntry {
  bytes: Buffer;
  mime: string;
  opts: MediaOptions;
  /** resolves and downloads seen (tests) */
  resolves: number;
  downloads: number;
}

/** A file uploaded for sending (`POST /{version}/{phone_number_id}/media`). */
export interface UploadRecord {
  id: string;
  phone_number_id: string;
  messaging_product: string | null;
  /** the multipart `type` field */
  type: string | null;
  filename: string | null;
  /** the file part's own content type */
  file_type: string | null;
  bytes: Buffer;
}

/** A number the stand-in knows, with the one token that may read it. */
export interface StandInPhoneNumber {
  display_phone_number: string;
  verified_name: string;
  token: string;
}

/** Built-in numbers a person can add on /settings/phones locally (token `chorus-local-phone-token`). */
export const STANDIN_PHONE_TOKEN = 'chorus-local-phone-token';
export const PHONE_NUMBERS: Record<string, StandInPhoneNumber> = {
  '109876543210987': { display_phone_number: '+1 555-012-3456', verified_name: 'Chorus Support', token: STANDIN_PHONE_TOKEN },
  '109876543210988': { display_phone_number: '+91 98765 43210', verified_name: 'Chorus India', token: STANDIN_PHONE_TOKEN },
};

const OUTBOUND_MEDIA = new Set(['image', 'video', 'audio', 'document', 'sticker']);

/** Whom a recorded send addressed, for the /__graph page: `to`, else `recipient <BSUID>`, else empty. */
function addressee(body: unknown): string {
  const b = (body ?? {}) as { to?: unknown; recipient?: unknown };
  if (typeof b.to === 'string' && b.to) return b.to;
  if (typeof b.recipient === 'string' && b.recipient) return `recipient ${b.recipient}`;
  return '';
}

/** Where and how the stand-in posts the statuses of accepted sends (see the class docstring). */
export interface StatusWebhookOptions {
  /** the webhook to POST to (the runtime's `/webhooks/whatsapp`) */
  url: string;
  /** signs each body (`X-Hub-Signature-256`), as Meta does with the app secret */
  appSecret: string;
  /** ms after the accepted send each status is posted @default { sent: 1000, delivered: 2500, read: 5000 } */
  delaysMs?: { sent: number; delivered: number; read: number };
  /** `metadata.display_phone_number` by phone_number_id (digits); unknown ids use the built-in numbers' */
  displayNumbers?: Record<string, string>;
  /** the WABA id of `entry[].id` @default the demo WABA */
  wabaId?: string;
  /** the timer (tests may inject one) @default setTimeout, unref'd */
  setTimer?: (fn: () => void, ms: number) => () => void;
}

export const DEFAULT_STATUS_DELAYS_MS = { sent: 1_000, delivered: 2_500, read: 5_000 };

/** The statuses posted for one accepted send, in order. */
const STATUS_STEPS = ['sent', 'delivered', 'read'] as const;
const CONVERSATION_S = 24 * 3600;

export class GraphStandIn {
  readonly sent: SentRecord[] = [];
  /** status webhooks posted (tests): wamid, status, the body, HTTP status of the answer (null: unreachable) */
  readonly statusesPosted: Array<{ wamid: string; status: string; body: unknown; http: number | null }> = [];
  private statusOpts: StatusWebhookOptions | null = null;
  private statusTimers = new Set<() => void>();
  /** conversation windows by phone_number_id + recipient (Meta: one id for 24 h) */
  private conversations = new Map<string, { id: string; expires: number }>();
  /** wamids of accepted sends by their biz_opaque_callback_data (the send lookup) */
  private byCallbackData = new Map<string, string[]>();
  /**
   * @param opts.keep how many records `sent` keeps, newest last (default 1000; the broadcast bench
   *   counts 10,000 sends and passes Infinity)
   * @param opts.ledgerFile where accepted sends (callback data -> wamid, one JSON line each) are kept
   *   across restarts for the send lookup
   */
  constructor(private readonly opts: { keep?: number; ledgerFile?: string; statuses?: StatusWebhookOptions } = {}) {
    this.statusOpts = opts.statuses ?? null;
    if (!opts.ledgerFile) return;
    let text = '';
    try {
      text = readFileSync(opts.ledgerFile, 'utf8');
    } catch {
      return; // no ledger yet
    }
    for (const line of text.split('\n')) {
      if (!line) continue;
      try {
        const { data, wamid } = JSON.parse(line) as { data: string; wamid: string };
        this.byCallbackData.set(data, [...(this.byCallbackData.get(data) ?? []), wamid]);
      } catch {
        // a line cut by a crash: its send was never answered
      }
    }
  }
  readonly uploads: UploadRecord[] = [];
  private failures: number[] = [];
  private presetWamids: string[] = [];
  private media = new Map<string, MediaEntry>();
  private urls = new Map<string, { id: string; expiresAt: number }>();
  private phoneNumbers = new Map<string, StandInPhoneNumber>(Object.entries(PHONE_NUMBERS));
  /** issue 16: the templates every WABA lists (tests may replace them with setTemplates) */
  templates: Array<Record<string, unknown>> = structuredClone(STANDIN_TEMPLATES);
  /** issue 16: template list requests seen (path + query), for tests of paging */
  readonly templateReads: string[] = [];

  /** Replace the templates the stand-in lists (tests of sync: a template removed, a new status). */
  setTemplates(list: Array<Record<string, unknown>>): void {
    this.templates = structuredClone(list);
  }

  /** Make a phone number id known, readable with `token` (tests of adding phones). */
  addPhoneNumber(id: string, phone: StandInPhoneNumber): void {
    this.phoneNumbers.set(id, phone);
  }

  /** Register a file under a media id, as if a customer had sent it to WhatsApp. */
  addMedia(id: string, bytes: Uint8Array, mime: string, opts: MediaOptions = {}): void {
    this.media.set(id, { bytes: Buffer.from(bytes), mime, opts: { ...opts, failResolves: [...(opts.failResolves ?? [])] }, resolves: 0, downloads: 0 });
  }

  /** How often a media id was resolved and downloaded. */
  mediaStats(id: string): { resolves: number; downloads: number } | undefined {
    const m = this.media.get(id);
    return m && { resolves: m.resolves, downloads: m.downloads };
  }

  /** Answer the next successful sends with these wamids (tests of statuses that arrive first). */
  nextWamids(...ids: string[]): void {
    this.presetWamids.push(...ids);
  }

  /**
   * Post statuses after each accepted send from now on (`null`: stop; statuses already scheduled
   * are cancelled). Tests opt in with short delays.
   */
  simulateStatuses(opts: StatusWebhookOptions | null): void {
    if (!opts) this.stop();
    this.statusOpts = opts;
  }

  /** Cancel the statuses not posted yet (the runtime stops). */
  stop(): void {
    for (const cancel of this.statusTimers) cancel();
    this.statusTimers.clear();
  }

  /** Make the next sends fail with these Meta error codes, in order. */
  failNext(...codes: number[]): void {
    this.failures.push(...codes);
  }

  async handle(req: IncomingMessage, res: ServerResponse, path: string, body: Buffer): Promise<void> {
    if (req.method === 'GET' && (path === '' || path === '/')) return this.page(res);
    if (req.method === 'GET' && path === '/sent.json') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(this.sent));
      return;
    }
    const lookup = /^\/(v\d+\.\d+)\/([^/]+)\/messages$/.exec(path);
    if (req.method === 'GET' && lookup) return this.lookupSends(req, res);
    if (req.method === 'GET' && path.startsWith('/media-download/')) return this.download(req, res, path.slice('/media-download/'.length));
    const tpl = /^\/(v\d+\.\d+)\/([^/]+)\/message_templates$/.exec(path);
    if (req.method === 'GET' && tpl) return this.listTemplates(req, res, path);
    const media = /^\/(v\d+\.\d+)\/([^/]+)$/.exec(path);
    if (req.method === 'GET' && media && this.phoneNumbers.has(decodeURIComponent(media[2]))) return this.phoneNumber(req, res, decodeURIComponent(media[2]));
    if (req.method === 'GET' && media) return this.resolveMedia(req, res, decodeURIComponent(media[2]));
    const upload = /^\/(v\d+\.\d+)\/([^/]+)\/media$/.exec(path);
    if (req.method === 'POST' && upload) return this.upload(req, res, path, decodeURIComponent(upload[2]), body);
    const m = /^\/(v\d+\.\d+)\/([^/]+)\/messages$/.exec(path);
    if (req.method !== 'POST' || !m) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'Unknown path components', type: 'OAuthException', code: 2500 } }));
      return;
    }
    let parsed: { to?: string; recipient?: string } | undefined;
    try {
      parsed = JSON.parse(body.toString('utf8'));
    } catch {
      parsed = undefined;
    }
    const rec: SentRecord = { at: Date.now(), path, phone_number_id: m[2], authorization: req.headers.authorization, body: parsed ?? body.toString('utf8') };
    this.sent.push(rec);
    if (this.sent.length > (this.opts.keep ?? 1000)) this.sent.shift();
    const code = this.failures.shift();
    if (code != null) {
      const e = META_ERRORS[code] ?? { status: 400, message: `(#${code}) Error`, details: 'Simulated error' };
      rec.error = { code, message: e.message };
      res.writeHead(e.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: e.message, type: 'OAuthException', code, error_data: { messaging_product: 'whatsapp', details: e.details }, fbtrace_id: randomBytes(8).toString('hex') } }));
      return;
    }
    // `to` wins over `recipient` (Meta); a non-string or empty value counts as absent
    const to = typeof parsed?.to === 'string' && parsed.to ? parsed.to : undefined;
    const recipient = !to && typeof parsed?.recipient === 'string' && parsed.recipient ? parsed.recipient : undefined;
    if (!req.headers.authorization?.startsWith('Bearer ') || !parsed) {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: '(#100) Invalid parameter', type: 'OAuthException', code: 100 } }));
      return;
    }
    if (!to && !recipient) {
      rec.error = { code: 100, message: '(#100) Invalid parameter' };
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: '(#100) Invalid parameter', type: 'OAuthException', code: 100, error_data: { messaging_product: 'whatsapp', details: 'Param to or recipient is required.' }, fbtrace_id: randomBytes(8).toString('hex') } }));
      return;
    }
    const type = (parsed as { type?: string }).type;
    const mediaRef = type && OUTBOUND_MEDIA.has(type) ? (parsed as Record<string, { id?: string; link?: string } | undefined>)[type] : undefined;
    if (type && OUTBOUND_MEDIA.has(type) && !mediaRef?.link && !(mediaRef?.id && this.media.has(mediaRef.id))) {
      rec.error = { code: 100, message: '(#100) Invalid parameter' };
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: '(#100) Invalid parameter', type: 'OAuthException', code: 100, error_data: { messaging_product: 'whatsapp', details: `Param ${type}['id'] is not a valid whatsapp business account media attachment ID` } } }));
      return;
    }
    if (type === 'template' && recipient && this.isAuthenticationTemplate(parsed as Record<string, unknown>)) {
      rec.error = { code: 131062, message: '(#131062) Business-scoped User ID recipients are not supported for this message' };
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: '(#131062) Business-scoped User ID recipients are not supported for this message', type: 'OAuthException', code: 131062, error_data: { messaging_product: 'whatsapp', details: 'Authentication templates need a phone number in to.' }, fbtrace_id: randomBytes(8).toString('hex') } }));
      return;
    }
    if (type === 'template') {
      const err = checkTemplateSend(parsed as Record<string, unknown>, this.templates);
      if (err) {
        rec.error = { code: err.code, message: err.message };
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: err.message, type: 'OAuthException', code: err.code, error_data: { messaging_product: 'whatsapp', details: err.details }, fbtrace_id: randomBytes(8).toString('hex') } }));
        return;
      }
    }
    rec.wamid = this.presetWamids.shift() ?? `wamid.${Buffer.from(randomBytes(24)).toString('base64')}`;
    const data = (parsed as { biz_opaque_callback_data?: unknown }).biz_opaque_callback_data;
    if (typeof data === 'string') {
      // written before the answer: what the ledger lacks was never accepted
      if (this.opts.ledgerFile) appendFileSync(this.opts.ledgerFile, `${JSON.stringify({ data, wamid: rec.wamid })}\n`);
      this.byCallbackData.set(data, [...(this.byCallbackData.get(data) ?? []), rec.wamid]);
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    const contact = to ? { input: to, wa_id: to.replace(/^\+/, '') } : { input: recipient, user_id: recipient };
    res.end(JSON.stringify({ messaging_product: 'whatsapp', contacts: [contact], messages: [{ id: rec.wamid }] }));
    if (this.statusOpts) this.scheduleStatuses(this.statusOpts, m[2], rec.wamid, parsed as Record<string, unknown>, to, recipient);
  }

  /** Post sent → delivered → read for an accepted send, each after its delay, one after the other. */
  private scheduleStatuses(o: StatusWebhookOptions, phoneNumberId: string, wamid: string, body: Record<string, unknown>, to: string | undefined, recipient: string | undefined): void {
    const delays = o.delaysMs ?? DEFAULT_STATUS_DELAYS_MS;
    const setTimer =
      o.setTimer ??
      ((fn: () => void, ms: number) => {
        const t = setTimeout(fn, ms);
        t.unref();
        return () => clearTimeout(t);
      });
    const step = (i: number, after: number) => {
      if (i >= STATUS_STEPS.length) return;
      const wait = Math.max(0, delays[STATUS_STEPS[i]] - after);
      const cancel = setTimer(() => {
        this.statusTimers.delete(cancel);
        // posted in order: the next waits for this answer (Meta's order; the inbound queue keeps it per chat)
        void this.postStatus(o, phoneNumberId, wamid, STATUS_STEPS[i], body, to, recipient).then(() => {
          if (this.statusOpts === o) step(i + 1, delays[STATUS_STEPS[i]]);
        });
      }, wait);
      this.statusTimers.add(cancel);
    };
    step(0, 0);
  }

  /** One signed `statuses` webhook, Meta's shape (class docstring). Failures are logged, not retried. */
  private async postStatus(o: StatusWebhookOptions, phoneNumberId: string, wamid: string, status: (typeof STATUS_STEPS)[number], body: Record<string, unknown>, to: string | undefined, recipient: string | undefined): Promise<void> {
    const now = Math.floor(Date.now() / 1000);
    const group = body.recipient_type === 'group';
    const number = to && !group ? to.replace(/^\+/, '') : undefined;
    const userId = group ? undefined : (recipient ?? (number ? bsuidFor(`phone:${number}`, number) : undefined));
    const tpl = body.type === 'template' ? (body.template as { name?: unknown; language?: { code?: unknown } } | undefined) : undefined;
    const category = tpl ? String(this.templates.find((x) => x.name === tpl.name && x.language === tpl.language?.code)?.category ?? 'utility').toLowerCase() : 'service';
    const key = `${phoneNumberId}:${to ?? recipient}`;
    let conv = this.conversations.get(key);
    if (!conv || conv.expires <= now) {
      conv = { id: randomBytes(16).toString('hex'), expires: now + CONVERSATION_S };
      this.conversations.set(key, conv);
    }
    const billed = status === 'sent' || status === 'delivered';
    const value = {
      messaging_product: 'whatsapp',
      metadata: { display_phone_number: this.displayNumberOf(o, phoneNumberId), phone_number_id: phoneNumberId },
      ...(userId ? { contacts: [{ ...(number ? { wa_id: number } : {}), user_id: userId }] } : {}),
      statuses: [
        {
          id: wamid,
          status,
          timestamp: String(now),
          ...(to ? { recipient_id: group ? to : number } : {}),
          ...(group ? { recipient_type: 'group' } : {}),
          ...(userId ? { recipient_user_id: userId } : {}),
          ...(typeof body.biz_opaque_callback_data === 'string' ? { biz_opaque_callback_data: body.biz_opaque_callback_data } : {}),
          ...(billed
            ? {
                conversation: { id: conv.id, ...(status === 'sent' ? { expiration_timestamp: String(conv.expires) } : {}), origin: { type: category } },
                pricing: tpl ? { billable: true, pricing_model: 'PMP', type: 'regular', category } : { billable: false, pricing_model: 'PMP', type: 'free_customer_service', category: 'service' },
              }
            : {}),
        },
      ],
    };
    const raw = JSON.stringify({ object: 'whatsapp_business_account', entry: [{ id: o.wabaId ?? '102290129340398', changes: [{ value, field: 'messages' }] }] });
    let http: number | null = null;
    try {
      const r = await fetch(o.url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-hub-signature-256': signBody(raw, o.appSecret) }, body: raw });
      http = r.status;
      await r.arrayBuffer();
    } catch {
      // the runtime is stopping: like a webhook Meta gave up on
    }
    this.statusesPosted.push({ wamid, status, body: JSON.parse(raw), http });
    if (this.statusesPosted.length > 1000) this.statusesPosted.shift();
  }

  private displayNumberOf(o: StatusWebhookOptions, phoneNumberId: string): string {
    return o.displayNumbers?.[phoneNumberId] ?? this.phoneNumbers.get(phoneNumberId)?.display_phone_number.replace(/\D/g, '') ?? '';
  }

  /** Whether a template send names one of the stand-in's AUTHENTICATION templates (by name and language). */
  private isAuthenticationTemplate(body: Record<string, unknown>): boolean {
    const t = body.template as { name?: unknown; language?: { code?: unknown } } | undefined;
    const tpl = this.templates.find((x) => x.name === t?.name && x.language === t?.language?.code);
    return String(tpl?.category ?? '').toUpperCase() === 'AUTHENTICATION';
  }

  /** The send lookup (see the class docstring): the wamids accepted with a callback data. Bearer token required. */
  private lookupSends(req: IncomingMessage, res: ServerResponse): void {
    const data = new URL(req.url ?? '/', 'http://standin').searchParams.get('biz_opaque_callback_data');
    if (!req.headers.authorization?.startsWith('Bearer ') || !data) {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: '(#100) Invalid parameter', type: 'OAuthException', code: 100 } }));
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ data: (this.byCallbackData.get(data) ?? []).map((id) => ({ id })) }));
  }

  private async upload(req: IncomingMessage, res: ServerResponse, path: string, phoneNumberId: string, body: Buffer): Promise<void> {
    const json = (status: number, payload: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(payload));
    };
    const invalid = (details: string) => json(400, { error: { message: '(#100) Invalid parameter', type: 'OAuthException', code: 100, error_data: { messaging_product: 'whatsapp', details } } });
    if (!req.headers.authorization?.startsWith('Bearer ')) return json(401, { error: { message: 'An access token is required to request this resource.', type: 'OAuthException', code: 104 } });
    let form: FormData;
    try {
      form = await new Request('http://graph.local/', { method: 'POST', headers: { 'content-type': req.headers['content-type'] ?? '' }, body: new Uint8Array(body) }).formData();
    } catch {
      return invalid('The request is not multipart/form-data.');
    }
    const file = form.get('file');
    const field = (name: string) => {
      const v = form.get(name);
      return typeof v === 'string' ? v : null;
    };
    if (field('messaging_product') !== 'whatsapp') return invalid('Param messaging_product must be whatsapp.');
    if (!file || typeof file === 'string') return invalid('Param file must be a file.');
    const bytes = Buffer.from(await file.arrayBuffer());
    const id = String(Date.now()) + String(Math.floor(Math.random() * 1e6)).padStart(6, '0');
    const type = field('type');
    const rec: UploadRecord = { id, phone_number_id: phoneNumberId, messaging_product: field('messaging_product'), type, filename: file.name || null, file_type: file.type || null, bytes };
    this.uploads.push(rec);
    if (this.uploads.length > 100) this.uploads.shift();
    this.addMedia(id, bytes, type ?? file.type ?? 'application/octet-stream');
    this.sent.push({
      at: Date.now(),
      path,
      phone_number_id: phoneNumberId,
      authorization: req.headers.authorization,
      body: { messaging_product: rec.messaging_product, type, file: { filename: rec.filename, type: rec.file_type, size: bytes.length, sha256: createHash('sha256').update(bytes).digest('base64') } },
    });
    if (this.sent.length > 1000) this.sent.shift();
    return json(200, { id });
  }

  private listTemplates(req: IncomingMessage, res: ServerResponse, path: string): void {
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (!req.headers.authorization?.startsWith('Bearer ')) return json(401, { error: { message: 'An access token is required to request this resource.', type: 'OAuthException', code: 104 } });
    const u = new URL(req.url ?? '/', 'http://graph.local');
    this.templateReads.push(`${path}?${u.searchParams}`);
    const limit = Math.min(Math.max(Number(u.searchParams.get('limit')) || 25, 1), 100);
    const after = u.searchParams.get('after');
    const start = after ? Number(Buffer.from(after, 'base64url').toString('utf8')) || 0 : 0;
    const data = this.templates.slice(start, start + limit);
    const end = start + data.length;
    const cursor = (n: number) => Buffer.from(String(n)).toString('base64url');
    const paging: Record<string, unknown> = { cursors: { before: cursor(start), after: cursor(end) } };
    if (end < this.templates.length) {
      const next = new URL(u.toString());
      next.searchParams.set('after', cursor(end));
      paging.next = `http://${req.headers.host ?? '127.0.0.1'}/__graph${path}?${next.searchParams}`;
    }
    return json(200, { data, paging });
  }

  private phoneNumber(req: IncomingMessage, res: ServerResponse, id: string): void {
    const phone = this.phoneNumbers.get(id)!;
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.headers.authorization !== `Bearer ${phone.token}`) {
      return json(401, { error: { message: 'Invalid OAuth access token - Cannot parse access token', type: 'OAuthException', code: 190, fbtrace_id: randomBytes(8).toString('hex') } });
    }
    const fields = new URL(req.url ?? '/', 'http://graph.local').searchParams.get('fields')?.split(',') ?? ['display_phone_number', 'verified_name'];
    const all: Record<string, string> = { display_phone_number: phone.display_phone_number, verified_name: phone.verified_name };
    return json(200, { ...Object.fromEntries(fields.filter((f) => f in all).map((f) => [f, all[f]])), id });
  }

  private resolveMedia(req: IncomingMessage, res: ServerResponse, id: string): void {
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const entry = this.media.get(id);
    if (!req.headers.authorization?.startsWith('Bearer ')) return json(401, { error: { message: 'An access token is required to request this resource.', type: 'OAuthException', code: 104 } });
    if (!entry) {
      return json(404, {
        error: {
          message: `Unsupported get request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
          type: 'GraphMethodException',
          code: 100,
          error_subcode: 33,
          fbtrace_id: randomBytes(8).toString('hex'),
        },
      });
    }
    entry.resolves++;
    const fail = entry.opts.failResolves?.shift();
    if (fail != null) return json(fail, { error: { message: 'An unexpected error has occurred. Please retry your request later.', type: 'OAuthException', code: 2, is_transient: true } });
    const token = randomBytes(16).toString('hex');
    const expired = (entry.opts.expiredUrls ?? 0) > 0;
    if (expired) entry.opts.expiredUrls! -= 1;
    this.urls.set(token, { id, expiresAt: expired ? 0 : Date.now() + (entry.opts.expireUrlAfterMs ?? 300_000) });
    return json(200, {
      messaging_product: 'whatsapp',
      url: `http://${req.headers.host ?? '127.0.0.1'}/__graph/media-download/${token}`,
      mime_type: entry.mime,
      sha256: entry.opts.sha256 ?? createHash('sha256').update(entry.bytes).digest('base64'),
      file_size: entry.opts.fileSize ?? entry.bytes.length,
      id,
    });
  }

  private download(req: IncomingMessage, res: ServerResponse, token: string): void {
    const url = this.urls.get(token);
    const entry = url && this.media.get(url.id);
    if (!req.headers.authorization?.startsWith('Bearer ')) {
      res.writeHead(401, { 'content-type': 'text/plain' });
      return void res.end('Unauthorized');
    }
    if (!url || !entry || url.expiresAt < Date.now()) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      return void res.end('URL signature expired');
    }
    entry.downloads++;
    res.writeHead(200, { 'content-type': entry.mime, 'content-length': String(entry.bytes.length) });
    res.end(entry.bytes);
  }

  private page(res: ServerResponse): void {
    const esc = (s: string) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
    const rows = [...this.sent]
      .reverse()
      .map((r) => `<tr><td>${new Date(r.at).toISOString()}</td><td>${esc(r.phone_number_id)}</td><td>${esc(addressee(r.body))}</td><td>${esc(r.wamid ?? JSON.stringify(r.error ?? ''))}</td><td><pre>${esc(JSON.stringify(r.body, null, 2))}</pre></td></tr>`)
      .join('');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><meta charset="utf-8"><title>Graph API stand-in</title><style>body{font:14px system-ui;margin:2rem}td,th{border-bottom:1px solid #ddd;padding:6px;vertical-align:top;text-align:left}pre{margin:0}</style>
<h1>WhatsApp Graph API stand-in</h1><p>What Chorus sent to <code>POST /{version}/{phone_number_id}/messages</code> since the local runtime started (newest first). ${this.statusOpts ? 'Each accepted send is followed by sent, delivered and read statuses a few seconds later (CHORUS_GRAPH_STATUSES=0 turns them off). ' : ''}Send a status yourself with <code>npm run simulate -- --status delivered --id &lt;wamid&gt;</code>.</p>
<table><tr><th>at</th><th>phone_number_id</th><th>to / recipient</th><th>wamid / error</th><th>body</th></tr>${rows || '<tr><td colspan=5>Nothing sent yet.</td></tr>'}</table>`);
  }
}
