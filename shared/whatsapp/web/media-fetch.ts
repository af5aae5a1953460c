import type { Readable } from 'node:stream';
import { MediaTooLargeError } from '../cloud/graph-client.ts';
import { checkWaMediaUrl, mediaTypeOfContentKey, WA_MEDIA_TIMEOUT_MS, waMediaByteCap, waMediaUrlOf } from './media-host.rules.ts';

/**
 * The download of a received WhatsApp Web file, in place of Baileys' `downloadMediaMessage`
 * (issue 42 §4): the location is checked against WhatsApp's media hosts (media-host.rules.ts)
 * before anything is fetched, again after a re-upload and on every redirect; the decrypted bytes
 * are capped at the type's limit and the whole download at WA_MEDIA_TIMEOUT_MS. The fetching and
 * decrypting stay Baileys' own (`downloadContentFromMessage`).
 */

/** A media location a session will not fetch. */
export class MediaHostRefusedError extends Error {
  constructor(readonly reason: string) {
    super(`media location refused: ${reason}`);
    this.name = 'MediaHostRefusedError';
  }
}

/** The parts of Baileys this download uses (injected, so tests and Lambda bundles need not load Baileys). */
export interface BaileysMedia {
  extractMessageContent(m: never): unknown;
  getContentType(m: never): string | undefined;
  downloadContentFromMessage(media: never, type: never, opts?: never): Promise<Readable>;
}

type Obj = Record<string, unknown>;
type RawMessage = { key?: unknown; message?: unknown };

/** What will be downloaded for a raw WAMessage, mirroring Baileys' `downloadMediaMessage`. */
function targetOf(B: BaileysMedia, raw: RawMessage): { media: Obj; mediaType: string; url: string; cap: number; declared?: number } {
  const content = B.extractMessageContent(raw.message as never) as Obj | undefined;
  const key = content && B.getContentType(content as never);
  const media = key ? (content[key] as Obj | undefined) : undefined;
  if (!key || !media || typeof media !== 'object' || (!('url' in media) && !('thumbnailDirectPath' in media))) throw new MediaHostRefusedError('not a media message');
  const thumbnailOnly = 'thumbnailDirectPath' in media && !('url' in media);
  const location = thumbnailOnly ? { directPath: media.thumbnailDirectPath as string } : { url: media.url as string, directPath: media.directPath as string };
  const url = waMediaUrlOf(location);
  if (!url) throw new MediaHostRefusedError('the message has no file location');
  const verdict = checkWaMediaUrl(url);
  if (!verdict.ok) throw new MediaHostRefusedError(verdict.reason);
  const cap = waMediaByteCap(thumbnailOnly ? 'image' : mediaTypeOfContentKey(key, media.ptt === true));
  const declared = Number(media.fileLength ?? NaN);
  return {
    // Baileys fetches `url || directPath`: hand it exactly the URL that was checked
    media: thumbnailOnly ? { directPath: media.thumbnailDirectPath, mediaKey: media.mediaKey } : { url: verdict.url.href, mediaKey: media.mediaKey },
    mediaType: thumbnailOnly ? 'thumbnail-link' : key.replace('Message', ''),
    url: verdict.url.href,
    cap,
    ...(Number.isFinite(declared) ? { declared } : {}),
  };
}

/**
 * Read `stream` to the end, keeping at most `maxBytes`.
 * @param maxBytes the cap, bytes; one byte more fails with MediaTooLargeError and destroys the stream
 * @param signal aborts the read (timeout): the stream is destroyed and the promise rejects with its reason
 */
export function readCapped(stream: Readable, maxBytes: number, signal?: AbortSignal): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (err: unknown, value?: Uint8Array) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      if (err) {
        stream.destroy();
        reject(err);
      } else resolve(value!);
    };
    const onAbort = () => finish(signal?.reason ?? new Error('download aborted'));
    if (signal?.aborted) return onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    stream.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) return finish(new MediaTooLargeError(maxBytes, null));
      chunks.push(chunk);
    });
    stream.once('error', (e) => finish(e));
    stream.once('end', () => finish(undefined, new Uint8Array(Buffer.concat(chunks, size))));
  });
}

/** Options of one download; the defaults are the production ones. */
export interface WaMediaDownloadOptions {
  /** whole-download budget, ms (WA_MEDIA_TIMEOUT_MS) */
  timeoutMs?: number;
  /** Baileys' re-upload request for media WhatsApp no longer holds (the socket's `updateMediaMessage`) */
  reupload?: (raw: RawMessage) => Promise<RawMessage>;
}

/** Baileys asks for a re-upload on these download answers (its REUPLOAD_REQUIRED_STATUS). */
const REUPLOAD_STATUS = [404, 410];

/**
 * Download and decrypt the file of a received WhatsApp Web message (the raw WAMessage's `key` and
 * `message`), only from WhatsApp's media hosts, at most the type's size limit (MEDIA_LIMITS) and
 * within `timeoutMs`.
 * @throws MediaHostRefusedError before any request when the location (or a redirect, or a
 *   re-uploaded location) is not a WhatsApp media host; MediaTooLargeError past the limit (also
 *   when the message declares a larger `fileLength`); the transport's error on timeout or failure
 */
export async function downloadWaWebMedia(B: BaileysMedia, raw: RawMessage, opts: WaMediaDownloadOptions = {}): Promise<Uint8Array> {
  const once = async (message: RawMessage) => {
    const target = targetOf(B, message);
    if (target.declared !== undefined && target.declared > target.cap) throw new MediaTooLargeError(target.cap, target.declared);
    const abort = new AbortController();
    const signal = AbortSignal.any([abort.signal, AbortSignal.timeout(opts.timeoutMs ?? WA_MEDIA_TIMEOUT_MS)]);
    const options = {
      signal,
      // axios (under Baileys) follows redirects: each hop must stay on WhatsApp's media hosts
      beforeRedirect: (next: { href?: string; protocol?: string; hostname?: string; port?: string | number; path?: string }) => {
        const href = next.href ?? `${next.protocol}//${next.hostname}${next.port ? `:${next.port}` : ''}${next.path ?? ''}`;
        const verdict = checkWaMediaUrl(href);
        if (!verdict.ok) throw new MediaHostRefusedError(`redirect: ${verdict.reason}`);
      },
    };
    try {
      const stream = await B.downloadContentFromMessage(target.media as never, target.mediaType as never, { options } as never);
      return await readCapped(stream, target.cap, signal);
    } finally {
      // ends the underlying request too (the decrypting stream does not pass its destruction back)
      abort.abort();
    }
  };
  try {
    return await once(raw);
  } catch (e) {
    const status = (e as { response?: { status?: number } })?.response?.status;
    if (!opts.reupload || !status || !REUPLOAD_STATUS.includes(status)) throw e;
    return once(await opts.reupload(raw));
  }
}
