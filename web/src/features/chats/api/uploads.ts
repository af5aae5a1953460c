/**
 * Members' files (issue 5 "Media out"): ask the API for an upload URL (type and size checked
 * there against Meta's send limits), PUT the file straight to it with upload progress (XHR: fetch
 * reports no upload progress), then send the message `{ media: { key, filename, mimetype }, caption }`.
 * The file never passes through the API. Errors are thrown as api.ts's `ApiError`, so the composer
 * shows them like any other.
 */
import type { Message } from '#shared/message/message.schemas.ts';
import type { CreateUploadResponse } from '#shared/media/media.schemas.ts';
import { MEDIA_LIMITS, OUTBOUND_WORDS, outboundTypeFor, type OutboundMediaType } from '#shared/media/media.rules.ts';
import { ApiError } from '../../../lib/api.ts';
import { getConfig } from '../../../lib/config.ts';
import { getIdToken, SESSION_EXPIRED_MESSAGE } from '../../../lib/auth.ts';

const enc = encodeURIComponent;

/** POST JSON to the API with the member's token; the API's `{ error }` becomes an ApiError. */
async function post<T>(path: string, body: unknown): Promise<T> {
  const token = await getIdToken();
  if (!token) throw new ApiError(401, 'unauthorized', SESSION_EXPIRED_MESSAGE);
  let res: Response;
  try {
    res = await fetch(`${getConfig().apiUrl}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, accept: 'application/json', 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, 'network', 'Could not reach the Chorus server. Check your connection and try again.');
  }
  const json = (await res.json().catch(() => null)) as { error?: { code?: string; message?: string; details?: unknown } } | null;
  if (res.status === 401) throw new ApiError(401, 'unauthorized', SESSION_EXPIRED_MESSAGE);
  if (!res.ok) throw new ApiError(res.status, json?.error?.code ?? `http_${res.status}`, json?.error?.message ?? `The server answered HTTP ${res.status}. Please try again.`, json?.error?.details);
  if (json === null) throw new ApiError(res.status, 'bad_response', 'The server sent an unreadable answer. Please try again.');
  return json as T;
}

/** The MIME type to declare for a file: the browser's, else one guessed from the extension (some systems leave it empty). */
export function mimeOf(file: File): string {
  if (file.type) return file.type;
  const ext = file.name.slice(file.name.lastIndexOf('.') + 1).toLowerCase();
  const byExt: Record<string, string> = {
    jpg: 'image/jpeg', jpeg: 'image/jpeg', png: 'image/png', mp4: 'video/mp4', '3gp': 'video/3gpp',
    aac: 'audio/aac', amr: 'audio/amr', mp3: 'audio/mpeg', m4a: 'audio/mp4', ogg: 'audio/ogg', opus: 'audio/ogg',
    txt: 'text/plain', pdf: 'application/pdf', doc: 'application/msword', xls: 'application/vnd.ms-excel', ppt: 'application/vnd.ms-powerpoint',
    docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  };
  return byExt[ext] ?? 'application/octet-stream';
}

/**
 * The same checks the API makes, before anything is uploaded.
 * @returns the message type, or the reason the file cannot be sent
 */
export function checkFile(file: File): { type: OutboundMediaType } | { error: string } {
  const type = outboundTypeFor(mimeOf(file));
  if (!type) return { error: `${file.name} ${OUTBOUND_WORDS.unsupported}.` };
  if (file.size === 0) return { error: `${file.name} ${OUTBOUND_WORDS.empty}.` };
  if (file.size > MEDIA_LIMITS[type].bytes) return { error: `${file.name} ${OUTBOUND_WORDS.tooLarge(type)}.` };
  return { type };
}

/** Thrown when the member cancels an upload. */
export class UploadCancelled extends Error {
  constructor() {
    super('Upload cancelled');
    this.name = 'UploadCancelled';
  }
}

/** PUT the file to the presigned URL, reporting progress (0..1) (the composer's and the broadcast's uploads). */
export function put(target: Pick<CreateUploadResponse, 'upload_url' | 'headers'>, file: File, onProgress: (fraction: number) => void, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    const url = /^https?:/i.test(target.upload_url) ? target.upload_url : `${getConfig().apiUrl || window.location.origin}${target.upload_url}`;
    xhr.open('PUT', url);
    for (const [k, v] of Object.entries(target.headers)) xhr.setRequestHeader(k, v);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) resolve();
      else reject(new ApiError(xhr.status, 'upload.failed', xhr.status === 403 ? 'The upload link expired. Please attach the file again.' : `The file could not be uploaded (HTTP ${xhr.status}). Please try again.`));
    };
    xhr.onerror = () => reject(new ApiError(0, 'network', 'The file could not be uploaded. Check your connection and try again.'));
    xhr.onabort = () => reject(new UploadCancelled());
    signal.addEventListener('abort', () => xhr.abort(), { once: true });
    if (signal.aborted) return xhr.abort();
    xhr.send(file);
  });
}

/**
 * Upload a file for a chat and send it as a media message.
 * @throws ApiError (refused type or size, upload or send failure), UploadCancelled
 */
export async function sendFile(
  orgId: string,
  chatId: string,
  file: File,
  opts: { caption?: string; quotedMessageId?: string; /** reply privately: the group the quoted message is from */ quotedChatId?: string; onProgress: (fraction: number) => void; signal: AbortSignal },
): Promise<Message> {
  const mimetype = mimeOf(file);
  const target = await post<CreateUploadResponse>(`/api/orgs/${enc(orgId)}/chats/${enc(chatId)}/uploads`, { filename: file.name, mimetype, size: file.size });
  if (opts.signal.aborted) throw new UploadCancelled();
  await put(target, file, opts.onProgress, opts.signal);
  if (opts.signal.aborted) throw new UploadCancelled();
  const caption = opts.caption?.trim();
  const out = await post<{ message: Message }>(`/api/orgs/${enc(orgId)}/chats/${enc(chatId)}/messages`, {
    media: { key: target.key, filename: file.name, mimetype },
    ...(caption ? { caption } : {}),
    ...(opts.quotedMessageId ? { quoted_message_id: opts.quotedMessageId } : {}),
    ...(opts.quotedMessageId && opts.quotedChatId ? { quoted_chat_id: opts.quotedChatId } : {}),
  });
  return out.message;
}
