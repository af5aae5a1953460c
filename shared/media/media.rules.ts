/**
 * Pure rules of inbound media (whatsapp-protocols.md A.7): per-type size limits, which sniffed
 * types a declared type accepts, checksum comparison, storage keys, and the words shown when a
 * file cannot be kept.
 */

/** Message types that carry a downloadable file. */
export const MEDIA_MESSAGE_TYPES = ['image', 'video', 'audio', 'ptt', 'document', 'sticker'] as const;
export type MediaMessageType = (typeof MEDIA_MESSAGE_TYPES)[number];

export const isMediaMessageType = (t: string): t is MediaMessageType => (MEDIA_MESSAGE_TYPES as readonly string[]).includes(t);

const KB = 1024;
const MB = 1024 * 1024;

/**
 * Largest file kept per message type, bytes (Meta "Media": image 5 MB, video and audio 16 MB,
 * document 100 MB, sticker 500 KB, the animated-sticker limit, static ones are 100 KB).
 * `label` and `noun` make the refusal readable.
 */
export const MEDIA_LIMITS: Record<MediaMessageType, { bytes: number; label: string; noun: string; plural: string }> = {
  image: { bytes: 5 * MB, label: '5 MB', noun: 'image', plural: 'images' },
  video: { bytes: 16 * MB, label: '16 MB', noun: 'video', plural: 'videos' },
  audio: { bytes: 16 * MB, label: '16 MB', noun: 'audio file', plural: 'audio' },
  ptt: { bytes: 16 * MB, label: '16 MB', noun: 'voice message', plural: 'voice messages' },
  document: { bytes: 100 * MB, label: '100 MB', noun: 'document', plural: 'documents' },
  sticker: { bytes: 500 * KB, label: '500 KB', noun: 'sticker', plural: 'stickers' },
};

/** Words shown on a media message that could not be kept (or is being retried). */
export const MEDIA_WORDS = {
  tooLarge: (t: MediaMessageType) => `The file is larger than WhatsApp allows (${MEDIA_LIMITS[t].label} for ${MEDIA_LIMITS[t].plural}).`,
  gone: 'WhatsApp no longer has this file (media ids expire after 7 days).',
  checksum: 'The file WhatsApp sent does not match its checksum, so Chorus did not keep it.',
  empty: 'WhatsApp sent an empty file, so there is nothing to show.',
  mismatch: (t: MediaMessageType, sniffedExt: string) => `The file is not the ${MEDIA_LIMITS[t].noun} it claims to be (it looks like a .${sniffedExt} file), so Chorus did not keep it.`,
  retrying: 'Chorus could not download this file from WhatsApp yet. It will try again.',
  gaveUp: (tries: number) => `Chorus could not download this file from WhatsApp after ${tries} tries.`,
} as const;

/** The top-level MIME type a message type's file must have ('any' for documents). */
export function familyOf(t: MediaMessageType): 'image' | 'video' | 'audio' | 'any' {
  if (t === 'image' || t === 'sticker') return 'image';
  if (t === 'video') return 'video';
  if (t === 'audio' || t === 'ptt') return 'audio';
  return 'any';
}

/**
 * Is a file whose bytes look like `sniffed` (file-type's MIME type; undefined when the bytes
 * carry no known signature) acceptable as a message of type `t`? Documents take any file.
 * Audio in an MP4 container (m4a) may sniff as video/mp4, so audio accepts it.
 * Undetectable bytes are accepted with the declared type: file-type knows every format WhatsApp
 * allows for images, video and audio, so this only lets odd-but-harmless files through, and they
 * are served with `nosniff` and never inline as a page.
 */
export function acceptsSniffed(t: MediaMessageType, sniffed: string | undefined): boolean {
  const family = familyOf(t);
  if (family === 'any' || !sniffed) return true;
  if (sniffed.startsWith(`${family}/`)) return true;
  return family === 'audio' && (sniffed === 'video/mp4' || sniffed === 'video/3gpp');
}

/**
 * Does a SHA-256 digest (given as hex and base64) match Meta's value? Meta documents base64;
 * hex (some answers show it) and unpadded or URL-safe base64 are accepted too.
 */
export function checksumMatches(digest: { hex: string; base64: string }, expected: string): boolean {
  const e = expected.trim();
  if (/^[0-9a-f]{64}$/i.test(e)) return digest.hex === e.toLowerCase();
  const norm = (b64: string) => b64.replace(/=+$/, '').replace(/-/g, '+').replace(/_/g, '/');
  return norm(digest.base64) === norm(e);
}

/** A key segment from an id: characters safe in S3 keys, URLs and file names; never '.' or '..'. */
export function safeSegment(s: string, max = 120): string {
  const cleaned = s.replace(/[^A-Za-z0-9@._+-]/g, '_').slice(0, max);
  return /^\.*$/.test(cleaned) ? cleaned.replace(/\./g, '_') || '_' : cleaned;
}

/** A customer's file name made safe as the last key segment (keeps the extension when it can). */
export function safeFilename(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  const ext = dot > 0 ? base.slice(dot + 1).replace(/[^A-Za-z0-9]/g, '').slice(0, 10) : '';
  const stem = safeSegment(dot > 0 ? base.slice(0, dot) : base, 100).replace(/^\.+/, '');
  return ext ? `${stem || 'file'}.${ext}` : stem || 'file';
}

/**
 * The name a served file is saved under (`Content-Disposition: attachment`, issue 42 §4). Every
 * inbound file is handed out as a download, so a customer's `text/html` document is never shown
 * as a page. The customer's name without folders or control characters (at most 200 characters;
 * ports/blobs.ts attachmentDisposition escapes the rest), else the blob key's last segment, which
 * mediaKey already made safe.
 * @param filename the name the customer's file came with, if any
 * @param path the file's blob key
 */
export function downloadNameOf(filename: string | null | undefined, path: string): string {
  const own = (filename ?? '').split(/[\\/]/).pop()!.replace(/[\x00-\x1f\x7f]/g, '').trim().slice(0, 200);
  return own && !/^\.+$/.test(own) ? own : safeFilename(path.slice(path.lastIndexOf('/') + 1));
}

/** File extensions of the MIME types WhatsApp carries (for files without a name). */
const EXTENSIONS: Record<string, string> = {
  'image/jpeg': 'jpg', 'image/png': 'png', 'image/webp': 'webp', 'image/gif': 'gif',
  'video/mp4': 'mp4', 'video/3gpp': '3gp',
  'audio/ogg': 'ogg', 'audio/opus': 'opus', 'audio/mpeg': 'mp3', 'audio/mp4': 'm4a', 'audio/x-m4a': 'm4a', 'audio/aac': 'aac', 'audio/amr': 'amr',
  'application/pdf': 'pdf', 'text/plain': 'txt',
};

/** Extension for a MIME type (parameters ignored), 'bin' when unknown. */
export function extensionFor(mime: string | null | undefined): string {
  const base = (mime ?? '').split(';')[0].trim().toLowerCase();
  return EXTENSIONS[base] ?? (/^[a-z]+\/([a-z0-9]{1,6})$/.exec(base)?.[1] ?? 'bin');
}

/** FNV-1a, 64 bits, as 16 hex characters (pure and browser-safe; a key segment, not a secret). */
function fnv64(s: string): string {
  let h = 0xcbf29ce484222325n;
  for (const b of new TextEncoder().encode(s)) h = BigInt.asUintN(64, (h ^ BigInt(b)) * 0x100000001b3n);
  return h.toString(16).padStart(16, '0');
}

/**
 * The chat's segment of a media key. A number chat (`<digits>@c.us`) gets `c<hash>` (issue 41 §5:
 * file URLs are handed to members who may not see the number, and a key is part of its URL); other
 * ids (opaque, groups) are used as they are. Files stored before keep the keys they have.
 */
export function chatSegment(chatId: string): string {
  return /^\d+@c\.us$/.test(chatId) ? `c${fnv64(chatId)}` : safeSegment(chatId);
}

/** Folder of a message's files: `media/<org_id>/<chat segment>/<unique_id>`. */
export function mediaFolder(orgId: string, chatId: string, uniqueId: string): string {
  return ['media', safeSegment(orgId), chatSegment(chatId), safeSegment(uniqueId)].join('/');
}

/** Key of a message's file: `media/<org_id>/<chat_id>/<unique_id>/<filename or unique_id.ext>`. */
export function mediaKey(orgId: string, chatId: string, uniqueId: string, filename: string | null | undefined, ext: string): string {
  const name = filename ? safeFilename(filename) : `${safeSegment(uniqueId)}.${ext}`;
  return `${mediaFolder(orgId, chatId, uniqueId)}/${name}`;
}

/** Thumbnail size (spec §9): 120 by 80 pixels, cropped to fill. */
export const THUMBNAIL = { width: 120, height: 80 } as const;

/** Key of a message's thumbnail (in a sub-folder, so no customer file name can collide with it). */
export function thumbnailKey(orgId: string, chatId: string, uniqueId: string): string {
  return `${mediaFolder(orgId, chatId, uniqueId)}/thumbnail/${THUMBNAIL.width}x${THUMBNAIL.height}.jpg`;
}

/** Message types a member can send with a file (Meta "Send messages"; stickers and voice notes are not offered). */
export const OUTBOUND_MEDIA_TYPES = ['image', 'video', 'audio', 'document'] as const;
export type OutboundMediaType = (typeof OUTBOUND_MEDIA_TYPES)[number];

/**
 * MIME types WhatsApp accepts per outbound type (Meta "Media" supported types, whatsapp-protocols.md
 * A.7): images JPEG/PNG; video MP4/3GPP; audio AAC, AMR, MP3, M4A, OGG (Opus); documents text, PDF
 * and Office files.
 */
export const OUTBOUND_MIME_TYPES: Record<OutboundMediaType, readonly string[]> = {
  image: ['image/jpeg', 'image/png'],
  video: ['video/mp4', 'video/3gpp'],
  audio: ['audio/aac', 'audio/amr', 'audio/mpeg', 'audio/mp4', 'audio/x-m4a', 'audio/ogg'],
  document: [
    'text/plain',
    'application/pdf',
    'application/msword',
    'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    'application/vnd.ms-excel',
    'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    'application/vnd.ms-powerpoint',
    'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  ],
};

/** `accept` value of the composer's file picker. */
export const OUTBOUND_ACCEPT = Object.values(OUTBOUND_MIME_TYPES).flat().join(',');

/** The outbound message type of a declared MIME type (parameters ignored), undefined when WhatsApp cannot send it. */
export function outboundTypeFor(mimetype: string): OutboundMediaType | undefined {
  const base = mimetype.split(';')[0].trim().toLowerCase();
  return OUTBOUND_MEDIA_TYPES.find((t) => OUTBOUND_MIME_TYPES[t].includes(base));
}

/**
 * Is a file whose bytes sniff as `sniffed` sendable as `t`? Images and video must be one of the
 * types WhatsApp takes (file-type recognises all of them, so an unrecognised file is refused);
 * audio takes any audio (m4a may sniff as video/mp4) and unrecognised bytes; documents take any file.
 */
export function outboundAcceptsSniffed(t: OutboundMediaType, sniffed: string | undefined): boolean {
  if (t === 'image' || t === 'video') return Boolean(sniffed && OUTBOUND_MIME_TYPES[t].includes(sniffed));
  return acceptsSniffed(t, sniffed);
}

/** Words shown when a member's file cannot be sent (upload and send refusals). */
export const OUTBOUND_WORDS = {
  unsupported: 'is not a file type WhatsApp can send (images: JPEG or PNG; video: MP4 or 3GP; audio: AAC, AMR, MP3, M4A or OGG; documents: TXT, PDF, Word, Excel or PowerPoint)',
  tooLarge: (t: OutboundMediaType) => `is larger than WhatsApp allows (${MEDIA_LIMITS[t].label} for ${MEDIA_LIMITS[t].plural})`,
  empty: 'is an empty file',
  notUploaded: 'was not uploaded, or the upload expired; please attach the file again',
  notThisChat: 'is not an upload of this chat',
  mismatch: (t: OutboundMediaType, sniffedExt: string | undefined) =>
    `is not the ${MEDIA_LIMITS[t].noun} it claims to be (it looks like ${sniffedExt ? `a .${sniffedExt} file` : 'an unknown kind of file'})`,
} as const;

/** Prefix of upload folders (`media/<org_id>/<chat_id>/up-<ulid>/`), so they never collide with a message's folder. */
const UPLOAD_PREFIX = 'up-';

/** Key of a member's upload: `media/<org_id>/<chat_id>/up-<upload_id>/<safe filename>`. */
export function uploadKey(orgId: string, chatId: string, uploadId: string, filename: string): string {
  return `${mediaFolder(orgId, chatId, `${UPLOAD_PREFIX}${uploadId}`)}/${safeFilename(filename)}`;
}

/** Is `key` an upload key of this org's chat (and nothing else: no other org, chat, or message file)? */
export function isUploadKeyOf(orgId: string, chatId: string, key: string): boolean {
  // the chat's segment as keys are made now, or the raw id of an upload made before issue 41
  const prefix = [chatSegment(chatId), safeSegment(chatId)].map((seg) => `${['media', safeSegment(orgId), seg].join('/')}/${UPLOAD_PREFIX}`).find((p) => key.startsWith(p));
  if (!prefix) return false;
  const rest = key.slice(prefix.length).split('/');
  return rest.length === 2 && /^[0-9A-Z]{26}$/.test(rest[0]) && rest[1] === safeFilename(rest[1]);
}
