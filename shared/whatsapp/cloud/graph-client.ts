import { config } from '../../config.ts';
import type { SendTarget } from '../../chat/send-target.rules.ts';
import { explainGraphError } from './errors.ts';

/**
 * Outbound calls to the WhatsApp Cloud API (Graph API), Meta "Send messages":
 * `POST {WHATSAPP_GRAPH_URL}/{version}/{phone_number_id}/messages` with a Bearer token.
 * A 200 means accepted, not delivered: delivery arrives later as `statuses` webhooks.
 */

/**
 * The request body for a text message, exactly per Meta's docs (optionally a reply via
 * `context.message_id`). `target` (chat/send-target.rules.ts sendTargetOf) addresses it: `to` a
 * number, `recipient` a BSUID when no number is known (Meta "Business-scoped user IDs", May 2026),
 * or a group (Cloud API Groups, whatsapp-protocols.md A.11: `recipient_type: "group"`, the group id as `to`).
 */
export function textMessageBody(target: SendTarget, body: string, replyToWamid?: string) {
  return {
    messaging_product: 'whatsapp',
    ...target,
    ...(replyToWamid ? { context: { message_id: replyToWamid } } : {}),
    type: 'text',
    text: { preview_url: false, body },
  };
}

/** What a media message refers to: Meta's media id from `uploadMedia`, plus caption and (documents) file name. */
export interface OutboundMediaRef {
  id: string;
  caption?: string | null;
  filename?: string | null;
}

/**
 * The request body for an image, video, audio or document message by uploaded media id, per
 * Meta's docs (whatsapp-protocols.md A.6): caption on image, video and document (audio has none),
 * filename on documents only; a reply adds `context.message_id` like text; `target` addresses it like text.
 */
export function mediaMessageBody(target: SendTarget, type: 'image' | 'video' | 'audio' | 'document', media: OutboundMediaRef, replyToWamid?: string) {
  const caption = type !== 'audio' && media.caption ? { caption: media.caption } : {};
  const filename = type === 'document' && media.filename ? { filename: media.filename } : {};
  return {
    messaging_product: 'whatsapp',
    ...target,
    ...(replyToWamid ? { context: { message_id: replyToWamid } } : {}),
    type,
    [type]: { id: media.id, ...caption, ...filename },
  };
}

/** Connection errors that happen before a request is written: nothing reached Meta. */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ERR_INVALID_URL', 'UND_ERR_CONNECT_TIMEOUT']);

/**
 * Whether a failed `fetch` certainly sent nothing: undici reports the socket error as `cause.code`
 * (Node's fetch: `TypeError: fetch failed` with `cause`). Timeouts and resets are not certain.
 */
export function neverSent(e: unknown): boolean {
  const cause = (e as { cause?: { code?: string; cause?: { code?: string } } } | undefined)?.cause;
  const code = cause?.code ?? cause?.cause?.code;
  return code !== undefined && NOT_SENT_CODES.has(code);
}

/** A failed Graph call: Meta's code/title/details plus our reading of it. */
export class GraphApiError extends Error {
  constructor(
    readonly code: number | null,
    readonly title: string | null,
    readonly details: string | null,
    readonly reason: string,
    readonly retryable: boolean,
    readonly httpStatus: number,
    /**
     * true when the request may have reached Meta although no answer came back (a timeout, a
     * connection reset after the body was written): a send may then have gone out, so it must not be
     * repeated blindly (issue 23 item 4). false for every answer Meta gave, and for failures that
     * happen before anything is sent (connection refused, DNS).
     */
    readonly mayHaveBeenSent = false,
  ) {
    super(`Graph API error ${code ?? httpStatus}: ${title ?? reason}`);
    this.name = 'GraphApiError';
  }
}

/**
 * Send a message body through the Graph API, with the phone's own token when given (phones added
 * on /settings/phones) and the global WHATSAPP_ACCESS_TOKEN otherwise.
 * @returns the wamid Meta assigned (`messages[0].id`)
 * @throws GraphApiError on a Graph error response or a network failure (network and 5xx are retryable)
 */
export async function sendToGraph(phoneNumberId: string, payload: unknown, accessToken?: string): Promise<{ wamid: string }> {
  const { WHATSAPP_GRAPH_URL, WHATSAPP_GRAPH_VERSION } = config();
  const WHATSAPP_ACCESS_TOKEN = accessToken || config().WHATSAPP_ACCESS_TOKEN;
  const url = `${WHATSAPP_GRAPH_URL.replace(/\/$/, '')}/${WHATSAPP_GRAPH_VERSION}/${encodeURIComponent(phoneNumberId)}/messages`;
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${WHATSAPP_ACCESS_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify(payload),
      signal: AbortSignal.timeout(15_000),
    });
  } catch (e) {
    throw new GraphApiError(null, null, String((e as Error).message), 'Chorus could not reach WhatsApp. It will retry.', true, 0, !neverSent(e));
  }
  const json = (await res.json().catch(() => ({}))) as {
    messages?: Array<{ id?: string }>;
    error?: { code?: number; message?: string; error_data?: { details?: string }; type?: string };
  };
  if (res.ok && json.messages?.[0]?.id) return { wamid: json.messages[0].id };
  const code = json.error?.code ?? null;
  const title = json.error?.message ?? null;
  const info = explainGraphError(code, title);
  const retryable = info.retryable || res.status >= 500;
  throw new GraphApiError(code, title, json.error?.error_data?.details ?? null, info.reason, retryable, res.status);
}

/**
 * The wamids WhatsApp accepted for a send with this `biz_opaque_callback_data`, when the Graph
 * endpoint can say (WHATSAPP_GRAPH_SEND_LOOKUP=1: the local stand-in's lookup,
 * `GET {WHATSAPP_GRAPH_URL}/{version}/{phone_number_id}/messages?biz_opaque_callback_data=…`).
 * Meta's Graph API has no such call: there it is 'unsupported', and only Meta's status webhooks
 * (which carry the callback data back, send-reconcile.rules.ts) can tell that a send went out.
 * @returns the wamids (empty: nothing was accepted with that data), or 'unsupported'
 * @throws GraphApiError when the lookup fails (network, an error answer): the caller must not conclude anything
 */
export async function lookupSentByCallbackData(phoneNumberId: string, callbackData: string, accessToken?: string): Promise<string[] | 'unsupported'> {
  const { WHATSAPP_GRAPH_URL, WHATSAPP_GRAPH_VERSION, WHATSAPP_GRAPH_SEND_LOOKUP } = config();
  if (WHATSAPP_GRAPH_SEND_LOOKUP !== '1') return 'unsupported';
  const token = accessToken || config().WHATSAPP_ACCESS_TOKEN;
  const url = `${WHATSAPP_GRAPH_URL.replace(/\/$/, '')}/${WHATSAPP_GRAPH_VERSION}/${encodeURIComponent(phoneNumberId)}/messages?biz_opaque_callback_data=${encodeURIComponent(callbackData)}`;
  let res: Response;
  try {
    res = await fetch(url, { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(15_000) });
  } catch (e) {
    throw new GraphApiError(null, null, String((e as Error).message), 'Chorus could not reach WhatsApp. It will retry.', true, 0);
  }
  const json = (await res.json().catch(() => ({}))) as { data?: Array<{ id?: string }>; error?: { code?: number; message?: string } };
  if (!res.ok || !Array.isArray(json.data)) {
    throw new GraphApiError(json.error?.code ?? null, json.error?.message ?? null, null, 'The send lookup failed.', true, res.status);
  }
  return json.data.map((d) => d.id).filter((id): id is string => typeof id === 'string');
}

/**
 * Upload a file for sending: `POST {WHATSAPP_GRAPH_URL}/{version}/{phone_number_id}/media`,
 * multipart `messaging_product=whatsapp`, `type=<mime>`, `file` (Meta "Media": upload; the id
 * works for 30 days). `accessToken`: the phone's own token, else the global one.
 * @returns Meta's media id
 * @throws GraphApiError on a Graph error response or a network failure (network, 5xx and rate limits are retryable)
 */
export async function uploadMedia(phoneNumberId: string, bytes: Uint8Array, mime: string, filename: string, accessToken?: string): Promise<{ id: string }> {
  const { WHATSAPP_GRAPH_URL, WHATSAPP_GRAPH_VERSION } = config();
  const WHATSAPP_ACCESS_TOKEN = accessToken || config().WHATSAPP_ACCESS_TOKEN;
  const url = `${WHATSAPP_GRAPH_URL.replace(/\/$/, '')}/${WHATSAPP_GRAPH_VERSION}/${encodeURIComponent(phoneNumberId)}/media`;
  const form = new FormData();
  form.set('messaging_product', 'whatsapp');
  form.set('type', mime);
  form.set('file', new Blob([bytes as Uint8Array<ArrayBuffer>], { type: mime }), filename);
  let res: Response;
  try {
    // a 100 MB document on a slow link: generous, but below the consumer's timeout
    res = await fetch(url, { method: 'POST', headers: { authorization: `Bearer ${WHATSAPP_ACCESS_TOKEN}` }, body: form, signal: AbortSignal.timeout(120_000) });
  } catch (e) {
    throw new GraphApiError(null, null, String((e as Error).message), 'Chorus could not reach WhatsApp to upload the file. It will retry.', true, 0);
  }
  const json = (await res.json().catch(() => ({}))) as { id?: string; error?: { code?: number; message?: string; error_data?: { details?: string } } };
  if (res.ok && typeof json.id === 'string') return { id: json.id };
  const code = json.error?.code ?? null;
  const title = json.error?.message ?? null;
  const info = explainGraphError(code, title);
  const retryable = info.retryable || res.status >= 500 || res.status === 429;
  throw new GraphApiError(code, title, json.error?.error_data?.details ?? null, info.reason, retryable, res.status);
}

/** What Meta answers for a media id (whatsapp-protocols.md A.7 "Resolve"). The URL lives 5 minutes. */
export interface ResolvedMedia {
  id: string;
  url: string;
  mime_type?: string;
  /** SHA-256 of the file, base64 (Meta's docs); hex is accepted by the checkers too */
  sha256?: string;
  /** bytes */
  file_size?: number;
}

/** The media id is unknown to Meta: expired (ids from webhooks live 7 days), deleted, or of another number. */
export class MediaGoneError extends GraphApiError {
  constructor(code: number | null, title: string | null, httpStatus: number) {
    super(code, title, null, 'WhatsApp no longer has this file (media ids expire after 7 days).', false, httpStatus);
    this.name = 'MediaGoneError';
  }
}

/** A download stopped because the file is larger than the caller allows. */
export class MediaTooLargeError extends Error {
  constructor(readonly limitBytes: number, readonly sizeBytes: number | null) {
    super(`media larger than ${limitBytes} bytes`);
    this.name = 'MediaTooLargeError';
  }
}

/** The download URL no longer works (expired after 5 minutes, or refused): resolve the id again. */
export class MediaUrlExpiredError extends GraphApiError {
  constructor(httpStatus: number) {
    super(null, null, null, 'The download link from WhatsApp expired before Chorus could use it. It will try again.', true, httpStatus);
    this.name = 'MediaUrlExpiredError';
  }
}

const unreachable = (e: unknown) =>
  new GraphApiError(null, null, String((e as Error)?.message ?? e), 'Chorus could not reach WhatsApp to download this file. It will try again.', true, 0);

/**
 * Resolve a media id: `GET {WHATSAPP_GRAPH_URL}/{version}/{media_id}?phone_number_id=…` (Meta
 * "Media": retrieve URL). Passing phone_number_id makes Meta refuse media of another number.
 * @throws MediaGoneError when Meta does not know the id (HTTP 404, or code 100 subcode 33 "object does not exist")
 * @throws GraphApiError otherwise (network, 5xx and rate limits are retryable)
 */
export async function resolveMedia(mediaId: string, phoneNumberId: string, accessToken?: string): Promise<ResolvedMedia> {
  const { WHATSAPP_GRAPH_URL, WHATSAPP_GRAPH_VERSION } = config();
  const WHATSAPP_ACCESS_TOKEN = accessToken || config().WHATSAPP_ACCESS_TOKEN;
  const url = `${WHATSAPP_GRAPH_URL.replace(/\/$/, '')}/${WHATSAPP_GRAPH_VERSION}/${encodeURIComponent(mediaId)}?phone_number_id=${encodeURIComponent(phoneNumberId)}`;
  let res: Response;
  try {
    res = await fetch(url, { headers: { authorization: `Bearer ${WHATSAPP_ACCESS_TOKEN}` }, signal: AbortSignal.timeout(15_000) });
  } catch (e) {
    throw unreachable(e);
  }
  const json = (await res.json().catch(() => ({}))) as Partial<ResolvedMedia> & {
    error?: { code?: number; error_subcode?: number; message?: string; error_data?: { details?: string } };
  };
  if (res.ok && typeof json.url === 'string') {
    return { id: json.id ?? mediaId, url: json.url, mime_type: json.mime_type, sha256: json.sha256, file_size: json.file_size != null ? Number(json.file_size) : undefined };
  }
  const code = json.error?.code ?? null;
  const title = json.error?.message ?? null;
  if (res.status === 404 || (code === 100 && json.error?.error_subcode === 33)) throw new MediaGoneError(code, title, res.status);
  const info = explainGraphError(code, title);
  const retryable = info.retryable || res.status >= 500 || res.status === 429;
  const reason = retryable ? 'WhatsApp could not hand over this file just now. Chorus will try again.' : info.reason;
  throw new GraphApiError(code, title, json.error?.error_data?.details ?? null, reason, retryable, res.status);
}

/**
 * Download a resolved media URL with the same bearer token (Meta: "If you omit your token, the
 * request will fail"), reading at most `maxBytes`: a larger `Content-Length` is refused before
 * reading, and reading stops as soon as the body grows past the limit.
 * @throws MediaTooLargeError past the limit; MediaUrlExpiredError on 401/403/404/410 (resolve again);
 *   GraphApiError otherwise (network and 5xx retryable)
 */
export async function downloadMedia(url: string, maxBytes: number, accessToken?: string): Promise<{ bytes: Uint8Array; contentType: string | null }> {
  const WHATSAPP_ACCESS_TOKEN = accessToken || config().WHATSAPP_ACCESS_TOKEN;
  let res: Response;
  try {
    // large documents (100 MB) on a slow link: generous, but below the consumer's timeout
    res = await fetch(url, { headers: { authorization: `Bearer ${WHATSAPP_ACCESS_TOKEN}` }, signal: AbortSignal.timeout(120_000) });
  } catch (e) {
    throw unreachable(e);
  }
  if ([401, 403, 404, 410].includes(res.status)) {
    await res.body?.cancel().catch(() => undefined);
    throw new MediaUrlExpiredError(res.status);
  }
  if (!res.ok) {
    await res.body?.cancel().catch(() => undefined);
    const retryable = res.status >= 500 || res.status === 429;
    throw new GraphApiError(null, null, `download answered HTTP ${res.status}`, retryable ? 'WhatsApp could not hand over this file just now. Chorus will try again.' : 'WhatsApp refused to hand over this file.', retryable, res.status);
  }
  const declared = Number(res.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await res.body?.cancel().catch(() => undefined);
    throw new MediaTooLargeError(maxBytes, declared);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    const reader = res.body?.getReader();
    while (reader) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel().catch(() => undefined);
        throw new MediaTooLargeError(maxBytes, null);
      }
      chunks.push(value);
    }
  } catch (e) {
    if (e instanceof MediaTooLargeError) throw e;
    throw unreachable(e);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.byteLength;
  }
  return { bytes, contentType: res.headers.get('content-type') };
}

/** What Meta answers for a phone number id (Meta "Phone numbers": `GET /{phone_number_id}`). */
export interface GraphPhoneNumber {
  id: string;
  display_phone_number: string;
  verified_name: string | null;
}

/**
 * Check a phone's access token before it is saved: `GET {WHATSAPP_GRAPH_URL}/{version}/{phone_number_id}?fields=display_phone_number,verified_name`
 * with that token (Meta "Phone numbers" API). A bad or expired token answers 401 with an
 * OAuthException (code 190); an id the token cannot see answers code 100.
 * @throws GraphApiError with Meta's code and message (network and 5xx are retryable)
 */
export async function fetchPhoneNumber(phoneNumberId: string, accessToken: string): Promise<GraphPhoneNumber> {
  const { WHATSAPP_GRAPH_URL, WHATSAPP_GRAPH_VERSION } = config();
  const url = `${WHATSAPP_GRAPH_URL.replace(/\/$/, '')}/${WHATSAPP_GRAPH_VERSION}/${encodeURIComponent(phoneNumberId)}?fields=display_phone_number,verified_name`;
  let res: Response;
  try {
    res = await fetch(url, { headers: { authorization: `Bearer ${accessToken}` }, signal: AbortSignal.timeout(15_000) });
  } catch (e) {
    throw new GraphApiError(null, null, String((e as Error).message), 'Chorus could not reach WhatsApp to check the phone. Please try again.', true, 0);
  }
  const json = (await res.json().catch(() => ({}))) as { id?: string; display_phone_number?: string; verified_name?: string; error?: { code?: number; message?: string; error_data?: { details?: string } } };
  if (res.ok && typeof json.display_phone_number === 'string') {
    return { id: json.id ?? phoneNumberId, display_phone_number: json.display_phone_number, verified_name: json.verified_name ?? null };
  }
  const code = json.error?.code ?? null;
  const title = json.error?.message ?? null;
  const info = explainGraphError(code, title);
  throw new GraphApiError(code, title, json.error?.error_data?.details ?? null, info.reason, info.retryable || res.status >= 500, res.status);
}
