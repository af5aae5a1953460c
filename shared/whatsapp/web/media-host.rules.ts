import { MEDIA_LIMITS, type MediaMessageType } from '../../media/media.rules.ts';

/**
 * Where a WhatsApp Web session may download a received file from, and how much of it (issue 42 §4).
 * A WhatsApp Web message carries the file's location (`url`, else `directPath` on Baileys'
 * `DEF_HOST`) as the sender's client wrote it, so a sender can point it anywhere. Baileys 6.17.16
 * (the newest release; 7.x is still a release candidate) fetches it with no host check and no size
 * limit, so the worker checks it first. Pure.
 */

/**
 * Baileys' `DEF_HOST` (node_modules/baileys/lib/Utils/messages-media.js): the host a `directPath`
 * is fetched from when a message has no `url`.
 */
export const WA_MEDIA_DEFAULT_HOST = 'mmg.whatsapp.net';

/**
 * The domain of WhatsApp's media servers: `mmg.whatsapp.net` and the CDN hosts handed out in
 * `media_conn` (`media-<pop>.cdn.whatsapp.net`, `media.<pop>.fna.whatsapp.net`). A file is
 * downloaded only from this domain or a name under it.
 */
export const WA_MEDIA_DOMAIN = 'whatsapp.net';

/** Longest a download may take, ms (the same budget as Cloud API downloads, graph-client.ts). */
export const WA_MEDIA_TIMEOUT_MS = 120_000;

/** Why a media location is refused, for the log. */
export type MediaUrlVerdict = { ok: true; url: URL } | { ok: false; reason: string };

/**
 * May a session fetch `raw`? Only `https:` on the default port, with no user name or password, on
 * `whatsapp.net` or a name under it (never an IP address, which cannot end in that name).
 * @param raw an absolute URL as a message carries it
 */
export function checkWaMediaUrl(raw: string): MediaUrlVerdict {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'not a URL' };
  }
  if (url.protocol !== 'https:') return { ok: false, reason: `scheme ${url.protocol} is not https:` };
  if (url.username || url.password) return { ok: false, reason: 'the URL carries credentials' };
  if (url.port !== '') return { ok: false, reason: `port ${url.port} is not the https default` };
  const host = url.hostname.toLowerCase().replace(/\.$/, '');
  if (host !== WA_MEDIA_DOMAIN && !host.endsWith(`.${WA_MEDIA_DOMAIN}`)) return { ok: false, reason: `host ${host} is not a WhatsApp media host` };
  return { ok: true, url };
}

/**
 * The URL Baileys fetches for a media message's file: its `url`, else `https://mmg.whatsapp.net`
 * followed by its `directPath` (Baileys `getUrlFromDirectPath`; a path that does not start with
 * `/` would change the host, and is then refused by checkWaMediaUrl).
 */
export function waMediaUrlOf(media: { url?: string | null; directPath?: string | null }): string | undefined {
  if (media.url) return media.url;
  if (media.directPath) return `https://${WA_MEDIA_DEFAULT_HOST}${media.directPath}`;
  return undefined;
}

/**
 * Our media type of a Baileys content key (`imageMessage`, `audioMessage` with `ptt`, …), for the
 * size limit; undefined when the key is not one of the file-carrying kinds we keep.
 */
export function mediaTypeOfContentKey(key: string, ptt = false): MediaMessageType | undefined {
  switch (key) {
    case 'imageMessage':
      return 'image';
    case 'videoMessage':
    case 'ptvMessage':
      return 'video';
    case 'audioMessage':
      return ptt ? 'ptt' : 'audio';
    case 'documentMessage':
      return 'document';
    case 'stickerMessage':
      return 'sticker';
    default:
      return undefined;
  }
}

/**
 * Most bytes read of a decrypted file of type `type` (MEDIA_LIMITS, Meta's per-type limits):
 * anything larger is refused later anyway (shared/media checkAndStoreMedia), so reading stops there.
 * Unknown kinds get the smallest limit that still holds a preview image (the image limit, 5 MB).
 */
export function waMediaByteCap(type: MediaMessageType | undefined): number {
  return MEDIA_LIMITS[type ?? 'image'].bytes;
}
