import { httpHandler } from '../../lib/http.ts';
import { ChatParams } from '../chats/params.ts';
import { SendTemplateInput } from '../../../shared/template/template.schemas.ts';
import { sendTemplateMessage } from '../../../shared/template/template-send.ts';

/**
 * POST /api/orgs/{org_id}/chats/{chat_id}/templates `{ name, language, values, client_id? }` -> 201 `{ message }`
 * (a template message, ack 0, queued through the normal send path; allowed outside the 24-hour window).
 * 400 with field + reason for a WhatsApp Web chat, an unknown or unapproved template, or a missing variable.
 */
export const handler = httpHandler({ params: ChatParams, body: SendTemplateInput }, async ({ actor, guard, params, body }) => ({
  status: 201,
  body: { message: guard.viewMessage(await sendTemplateMessage(actor, params.chat_id, { name: body.name, language: body.language, values: body.values }, body.client_id)) },
}));
