import { httpHandler } from '../../lib/http.ts';
import { ChatParams } from '../chats/params.ts';
import { SetPropertiesInput } from '../../../shared/property/property.schemas.ts';
import { setChatProperties } from '../../../shared/chat/chat-workflow.ts';

/** PUT /api/orgs/{org_id}/chats/{chat_id}/properties `{ custom_properties: { [property_id]: value | '' } }` -> `{ chat }`. */
export const handler = httpHandler({ params: ChatParams, body: SetPropertiesInput }, async ({ actor, params, body }) => ({ body: { chat: await setChatProperties(actor, params.chat_id, body.custom_properties) } }));
