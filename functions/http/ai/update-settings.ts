import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from '../chats/params.ts';
import { AiSettingsInput } from '../../../shared/ai/ai.schemas.ts';
import { updateAiSettings } from '../../../shared/ai/faq.ts';

/** PUT /api/orgs/{org_id}/ai/settings `{ enabled, phones, default_activation, nickname, response_delay_seconds, shift, passive_mode, pause_after_human_minutes, answer_groups, confidence_threshold, handoff_label_id }` -> `{ settings }`; 403 for members. */
export const handler = httpHandler({ params: OrgParams, body: AiSettingsInput }, async ({ actor, body }) => ({ body: { settings: await updateAiSettings(actor, body) } }));
