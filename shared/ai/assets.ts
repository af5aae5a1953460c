import { ulid } from 'ulid';
import { AppError } from '../errors.ts';
import { log } from '../log.ts';
import { blobPort } from '../ports/blobs.ts';
import { chatSegment, MEDIA_LIMITS, outboundTypeFor, safeSegment, uploadKey } from '../media/media.rules.ts';
import { chatGuard } from '../access/guard.ts';
import type { Actor } from '../auth/actor.ts';
import { FAQ_UPLOAD_FAILED_MESSAGE, faqAssetKey, faqAssetPrefix, isAudioAttachment } from './faq.rules.ts';
import type { FaqAttachment, FaqUploadInput, FaqUploadResponse } from './ai.schemas.ts';

export { FaqUploadInput } from './ai.schemas.ts';

/**
 * FAQ pair attachments in blob storage (issue 18; spec §7 'file upload to the org-assets storage
 * under {org_id}/ai_assets/{context_id}/', §5 one attachment, no audio, §8 'Unable to upload file').
 *
 * Same blob port as chat media (shared/ports/blobs.ts: S3 bucket MEDIA_BUCKET in AWS, the local
 * file store in the local runtime); the pair's files live under `faqAssetPrefix(org, context_id)`.
 * The browser asks for a presigned PUT (`createFaqUpload`), PUTs the file, then saves the pair with
 * `attachments: [{ url: <key>, type: <mimetype>, name }]`; `resolveFaqAttachments` refuses keys of
 * another pair or org and files that were never uploaded, and copies a chat message's file in. The agent sends a pair's file with its
 * reply by copying it to an upload key of the chat and using the normal send path (`chatUploadOf`).
 */

/** How long an upload URL works, seconds. */
export const FAQ_UPLOAD_TTL_S = 900;

const invalid = (field: string, reason: string) => new AppError('validation.failed', `${field}: ${reason}`, { details: [{ field, reason }] });

/**
 * Which files a pair may carry: what WhatsApp can send as an image, video or document (the agent
 * sends it), never audio (spec §5).
 * @returns the reason a file is refused, or null
 */
export function faqFileRefusal(filename: string, mimetype: string, size: number): { field: string; reason: string } | null {
  if (isAudioAttachment({ type: mimetype, name: filename })) return { field: 'mimetype', reason: 'Audio attachments are not supported' };
  const type = outboundTypeFor(mimetype);
  if (!type || type === 'audio') return { field: 'mimetype', reason: 'is not a file type the agent can send (images: JPEG or PNG; video: MP4 or 3GP; documents: TXT, PDF, Word, Excel or PowerPoint)' };
  if (size > MEDIA_LIMITS[type].bytes) return { field: 'size', reason: `is larger than WhatsApp allows (${MEDIA_LIMITS[type].label} for ${MEDIA_LIMITS[type].plural})` };
  return null;
}

/**
 * POST /ai/faqs/uploads: a presigned PUT for a pair's file under `{org_id}/ai_assets/{context_id}/`.
 * @throws AppError 403 ai.forbidden (members); 400 validation.failed (audio, type, size);
 *   502 ai.upload_failed 'Unable to upload file' (spec §8) when the store cannot sign the upload
 */
export async function createFaqUpload(actor: Actor, input: FaqUploadInput): Promise<FaqUploadResponse> {
  if (actor.role !== 'admin') throw new AppError('ai.forbidden', 'Only admins can change the AI agent.', { status: 403 });
  const refused = faqFileRefusal(input.filename, input.mimetype, input.size);
  if (refused) throw invalid(refused.field, refused.reason);
  const faqId = input.faq_id ?? ulid();
  const key = faqAssetKey(actor.org_id, faqId, input.filename);
  const contentType = input.mimetype.split(';')[0]!.trim().toLowerCase();
  try {
    const upload_url = await (await blobPort()).uploadUrl(key, contentType, input.size, FAQ_UPLOAD_TTL_S);
    return { faq_id: faqId, upload_url, key, headers: { 'content-type': contentType }, expires_at: Date.now() + FAQ_UPLOAD_TTL_S * 1000, attachment: { url: key, type: contentType, name: input.filename } };
  } catch (e) {
    log('error', 'ai.upload_failed', { org_id: actor.org_id, faq_id: faqId, error: String(e) });
    throw new AppError('ai.upload_failed', FAQ_UPLOAD_FAILED_MESSAGE, { status: 502 });
  }
}

/**
 * The attachments a pair is saved with, checked and stored: a key under this pair's folder must
 * be in the store; a chat message's file ('Add to FAQs' on an image or document message, spec §5:
 * `media/<org_id>/<chat_id>/…`, the chat checked through the access guard) is copied into the
 * pair's folder. Anything else is refused.
 * @returns the attachments to store (urls are keys under `{org_id}/ai_assets/{context_id}/`)
 * @throws AppError 400 validation.failed on `attachments.<i>.url` / `.type`; 403/404 from the guard
 */
export async function resolveFaqAttachments(actor: Actor, faqId: string, attachments: FaqAttachment[]): Promise<FaqAttachment[]> {
  if (!attachments.length) return [];
  const orgId = actor.org_id;
  const prefix = faqAssetPrefix(orgId, faqId);
  const chatMedia = `media/${safeSegment(orgId)}/`;
  const blobs = await blobPort();
  const out: FaqAttachment[] = [];
  for (const [i, a] of attachments.entries()) {
    const field = `attachments.${i}.url`;
    if (a.url.startsWith(chatMedia)) {
      // the key's chat segment is the chat id itself (groups, opaque chats, files stored before issue 41)
      // or a hash of a number chat's id, which the attachment's `chat_id` must match
      const segment = a.url.split('/')[2] ?? '';
      const chatId = a.chat_id ?? segment;
      if (chatSegment(chatId) !== segment && safeSegment(chatId) !== segment) throw invalid(field, 'is not a file of that chat');
      await (await chatGuard(actor)).requireChat(chatId);
      const blob = await blobs.get(a.url);
      if (!blob) throw invalid(field, `${FAQ_UPLOAD_FAILED_MESSAGE}: the message's file is not stored`);
      const type = (blob.contentType || a.type).split(';')[0]!.trim().toLowerCase();
      const refused = faqFileRefusal(a.name, type, blob.bytes.length);
      if (refused) throw invalid(`attachments.${i}.type`, refused.reason);
      const key = faqAssetKey(orgId, faqId, a.name);
      try {
        await blobs.put(key, blob.bytes, type);
      } catch (e) {
        log('error', 'ai.upload_failed', { org_id: orgId, faq_id: faqId, error: String(e) });
        throw new AppError('ai.upload_failed', FAQ_UPLOAD_FAILED_MESSAGE, { status: 502 });
      }
      out.push({ url: key, type, name: a.name });
      continue;
    }
    if (!a.url.startsWith(prefix) || a.url.slice(prefix.length).includes('/')) throw invalid(field, 'is not a file uploaded for this pair');
    const head = await blobs.head(a.url);
    if (!head) throw invalid(field, `${FAQ_UPLOAD_FAILED_MESSAGE}: the file was not uploaded, or the upload expired`);
    out.push(a);
  }
  return out;
}

/** Remove stored files of a pair that are no longer attached (best effort; logged). */
export async function removeFaqFiles(orgId: string, faqId: string, before: FaqAttachment[], after: FaqAttachment[] = []): Promise<void> {
  const keep = new Set(after.map((a) => a.url));
  const prefix = faqAssetPrefix(orgId, faqId);
  const gone = before.filter((a) => a.url.startsWith(prefix) && !keep.has(a.url));
  if (!gone.length) return;
  const blobs = await blobPort();
  await Promise.all(gone.map((a) => blobs.delete(a.url).catch((e) => log('warn', 'ai.asset_delete_failed', { org_id: orgId, key: a.url, error: String(e) }))));
}

/**
 * Copy a pair's stored file to a fresh upload key of a chat, so the normal send path
 * (sendMessage `{ media: { key, filename, mimetype } }`) can send it.
 * @returns the media input, or null when the attachment is not a stored file of this org or is gone
 */
export async function chatUploadOf(orgId: string, chatId: string, a: FaqAttachment): Promise<{ key: string; filename: string; mimetype: string } | null> {
  if (!a.url.startsWith(`${orgId}/ai_assets/`)) return null;
  const blobs = await blobPort();
  const blob = await blobs.get(a.url);
  if (!blob) return null;
  const key = uploadKey(orgId, chatId, ulid(), a.name);
  await blobs.put(key, blob.bytes, blob.contentType || a.type);
  return { key, filename: a.name, mimetype: blob.contentType || a.type };
}
