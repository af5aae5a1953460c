import { config } from '../../config.ts';
import { explainGraphError } from './errors.ts';

/**
 * Outbound calls to the WhatsApp Cloud API (Graph API), Meta "Send messages":
 * `POST {WHATSAPP_GRAPH_URL}/{version}/{phone_number_id}/messages` with a Bearer token.
 * A 200 means accepted, not delivered: delivery arrives later as `statuses` webhooks.
 */

/**
 * The request body for a text message, exactly per Meta's docs (optionally a reply via
 * `context.message_id`). Groups (Cloud API Groups, whatsapp-protocols.md A.11) use
 * `recipient_type: "group"` with the group id as `to`.
 */
export function textMessageBody(to: string, body: string, replyToWamid?: string, recipientType: 'individual' | 'group' = 'individual') {
  return {
    messaging_product: 'whatsapp',
    recipient_type: recipientType,
    to,
    ...(replyToWamid ? { context: { message_id: replyToWamid } } : {}),
    type: 'text',
    text: { preview_url: false, body },
  };
}

/** A failed Graph call: Meta's code/title/details plus our reading of it. */
export class GraphApiError extends Error {
  constructor(
    readonly code: number | null,
    readonly title: string | null,
    readonly details: string | null,
    readonly reason: string,
    readonly retryable: boolean,
    readonly httpStatus: number,
  ) {
    super(`Graph API error ${code ?? httpStatus}: ${title ?? reason}`);
    this.name = 'GraphApiError';
  }
}

/**
 * Send a message body through the Graph API.
 * @returns the wamid Meta assigned (`messages[0].id`)
 * @throws GraphApiError on a Graph error response or a network failure (network and 5xx are retryable)
 */
export async function sendToGraph(phoneNumberId: string, payload: unknown): Promise<{ wamid: string }> {
  const { WHATSAPP_GRAPH_URL, WHATSAPP_GRAPH_VERSION, WHATSAPP_ACCESS_TOKEN } = config();
  const url = `${WHATSAPP_GRAPH_URL.replace(/\/$/, '')}/${WHATSAPP_GRAPH_VERSION}/${encodeURIComponent(phoneNumberId)}/messages`;
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${WHATSAPP_ACCESS_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify(payload),
      signal: AbortSignal.timeout(15_000),
    });
  } catch (e) {
    throw new GraphApiError(null, null, String((e as Error).message), 'Chorus could not reach WhatsApp. It will retry.', true, 0);
  }
  const json = (await res.json().catch(() => ({}))) as {
    messages?: Array<{ id?: string }>;
    error?: { code?: number; message?: string; error_data?: { details?: string }; type?: string };
  };
  if (res.ok && json.messages?.[0]?.id) return { wamid: json.messages[0].id };
  const code = json.error?.code ?? null;
  const title = json.error?.message ?? null;
  const info = explainGraphError(code, title);
  const retryable = info.retryable || res.status >= 500;
  throw new GraphApiError(code, title, json.error?.error_data?.details ?? null, info.reason, retryable, res.status);
}
