/**
 * 'Add to FAQs' from a message's menu (issue 18; spec §5): the FAQ editor prefilled with the
 * customer's message as the question and the team's reply as the answer. From a customer message,
 * the answer is the next reply of the team (not a note); from a team reply, the question is the
 * customer message before it. A file (image or document) of the reply becomes the attachment link
 * when it has one.
 */
import type { Message } from '#shared/message/message.schemas.ts';
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

export function AddToFaqDialog({ message, messages, onClose }: { message: Message; messages: readonly Message[]; onClose: () => void }) {
  const toast = useToast();
  const initial = faqPrefill(message, messages);
  return <FaqEditor faq={null} initial={{ ...initial, attachments: [] }} onClose={onClose} onSaved={() => (toast.show('Added to the FAQs', 'success'), onClose())} />;
}
