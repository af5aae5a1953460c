/**
 * 'Add to FAQs' from a message's menu (issue 18; spec §5): the FAQ editor prefilled with the
 * customer's message as the question and the team's reply as the answer. From a customer message,
 * the answer is the next reply of the team (not a note); from a team reply, the question is the
 * customer message before it. The file of an image or document message (the one the menu was
 * opened on, else the team's reply) becomes the pair's attachment: the API copies it into the
 * pair's folder `{org_id}/ai_assets/{context_id}/` when the pair is saved (spec §5, §7).
 */
import type { Message } from '#shared/message/message.schemas.ts';
import type { FaqAttachment } from '#shared/ai/ai.schemas.ts';
import { FaqEditor } from './AiPage.tsx';
import { useToast } from '../../../app/toast.tsx';

/** The question and answer a message suggests, from the thread around it (pure). */
export function faqPrefill(m: Message, messages: readonly Message[]): { question: string; answer: string } {
  const sorted = [...messages].filter((x) => !x.is_private_note && !x.is_deleted).sort((a, b) => a.timestamp - b.timestamp);
  const i = sorted.findIndex((x) => x.unique_id === m.unique_id);
  if (!m.from_me) {
    const reply = sorted.slice(i + 1).find((x) => x.from_me);
    return { question: m.body ?? '', answer: reply?.body ?? '' };
  }
  const asked = sorted.slice(0, Math.max(0, i)).reverse().find((x) => !x.from_me);
  return { question: asked?.body ?? '', answer: m.body ?? '' };
}

/** The stored file of an image or document message, as a FAQ attachment (its chat media key; the API copies it). */
export function fileOf(m: Message | undefined): FaqAttachment | null {
  if (!m || (m.message_type !== 'image' && m.message_type !== 'document') || !m.media?.path || m.media.status === 'failed') return null;
  const type = m.media.mimetype ?? (m.message_type === 'image' ? 'image/jpeg' : 'application/octet-stream');
  const name = m.media.filename || m.media.path.split('/').pop() || 'file';
  return { url: m.media.path, type, name, chat_id: m.chat_id };
}

/** The reply that a customer message's prefill uses (or the message itself when it is the team's). */
function replyOf(m: Message, messages: readonly Message[]): Message | undefined {
  if (m.from_me) return m;
  const sorted = [...messages].filter((x) => !x.is_private_note && !x.is_deleted).sort((a, b) => a.timestamp - b.timestamp);
  const i = sorted.findIndex((x) => x.unique_id === m.unique_id);
  return sorted.slice(i + 1).find((x) => x.from_me);
}

export function AddToFaqDialog({ message, messages, onClose }: { message: Message; messages: readonly Message[]; onClose: () => void }) {
  const toast = useToast();
  const initial = faqPrefill(message, messages);
  const file = fileOf(message) ?? fileOf(replyOf(message, messages));
  return <FaqEditor faq={null} initial={{ ...initial, attachments: file ? [file] : [] }} onClose={onClose} onSaved={() => (toast.show('Added to the FAQs', 'success'), onClose())} />;
}
