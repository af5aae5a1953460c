import { db } from '../db/service.ts';
import { AppError, notFound } from '../errors.ts';
import type { Actor } from '../auth/actor.ts';
import type { Message } from '../message/message.schemas.ts';
import { sendMessage } from '../inbox/send.ts';
import { getTemplate } from './template.ts';
import { assertTemplateValues, fillTemplate } from './template.rules.ts';
import { identityOf, sendTargetOf, templateTargetProblem } from '../chat/send-target.rules.ts';
import type { TemplateRef, TemplateValues, TemplateView } from './template.schemas.ts';

/**
 * Sending a template into a chat (issue 16 item 1) through the normal send path
 * (shared/inbox/send.ts `sendMessage`: stored ack 0, outbox event, whatsapp-outbound queue, retries,
 * statuses), so the thread shows it like any message. The message is `message_type: 'template'`,
 * its `body` the filled preview, and `content.template` the snapshot the queue consumer builds
 * Meta's body from (buildTemplateSend), so a later sync cannot change what was sent.
 */

/** What a template message keeps (Message.content.template): enough to rebuild the send body. */
export interface TemplateSnapshot {
  name: string;
  language: string;
  parameter_format: 'POSITIONAL' | 'NAMED';
  category: string;
  components: TemplateView['components'];
  values: TemplateValues;
}

/**
 * Resolve and check a template for a chat's answering phone: the phone must be a Cloud API number,
 * the template synced for it, APPROVED, and every variable given; with `chat`, an authentication
 * template also needs the customer's phone number (issue 41: Meta refuses them to a BSUID, error 131062).
 * @param phoneId the chat row's `phone_id`
 * @param chat the chat row (its `chat_id` and `identity`), when the caller has it: checked for an
 *   authentication template's phone number; without it the check happens at delivery (deliverMessage)
 * @returns the snapshot to send and its filled preview text
 * @throws AppError 400 template.not_cloud (WhatsApp Web number, field `template`); 400 validation.failed
 *   (`template.name`: not synced for this number; `values.<key>`: missing/invalid; `template`: not approved);
 *   400 template.phone_number_required (field `template.name`: an authentication template to a customer
 *   whose number WhatsApp has not shared)
 */
export async function resolveTemplateSend(orgId: string, phoneId: string, ref: TemplateRef, chat?: { chat_id: string }): Promise<{ snapshot: TemplateSnapshot; preview: string }> {
  const phone = (await db().entities.phone.get({ org_id: orgId, phone_id: phoneId }).go()).data;
  if (!phone) throw notFound('phone');
  if (phone.connection_type === 'wa_web') {
    throw new AppError('template.not_cloud', 'Templates are a WhatsApp Cloud API feature; this chat answers from a WhatsApp Web number.', {
      details: [{ field: 'template', reason: 'is not available on WhatsApp Web numbers' }],
    });
  }
  const t = await getTemplate(orgId, phoneId, ref.name, ref.language);
  if (!t) {
    throw new AppError('validation.failed', 'template.name: is not a synced template of this number in that language', {
      details: [{ field: 'template.name', reason: 'is not a synced template of this number in that language' }],
    });
  }
  const problem = chat ? templateTargetProblem(t.category, sendTargetOf(chat.chat_id, identityOf(chat))) : null;
  if (problem) {
    throw new AppError('template.phone_number_required', problem, {
      details: [{ field: 'template.name', reason: 'is an authentication template, and WhatsApp needs the customer’s phone number for it' }],
    });
  }
  assertTemplateValues(t, ref.values);
  const snapshot: TemplateSnapshot = { name: t.name, language: t.language, parameter_format: t.parameter_format, category: t.category, components: t.components, values: ref.values };
  return { snapshot, preview: fillTemplate(t, ref.values).text.slice(0, 4096) };
}

/**
 * Send a template into a chat as `actor` (the chat's answering phone), e.g. when the 24-hour window
 * is closed. Chat access is checked by the caller's guard (handlers) like any send.
 * @returns the stored message (ack 0, queued)
 * @throws AppError 404 chat.not_found; the 400s of resolveTemplateSend (template.phone_number_required
 *   included: the chat row is checked)
 */
export async function sendTemplateMessage(actor: Actor, chatId: string, ref: TemplateRef, clientId?: string): Promise<Message> {
  const chat = (await db().entities.chat.get({ org_id: actor.org_id, chat_id: chatId }).go()).data;
  if (!chat) throw notFound('chat');
  const { snapshot, preview } = await resolveTemplateSend(actor.org_id, chat.phone_id, ref, chat);
  return sendMessage(actor, chatId, { body: preview, ...(clientId ? { client_id: clientId } : {}) }, { template: snapshot });
}
