import { createHash } from 'node:crypto';

/**
 * The ordering key of a Cloud API webhook body on the FIFO whatsapp-inbound queue (issue 23): the
 * SQS MessageGroupId `<phone_number_id>:<chat>`, so one chat's webhooks are stored one batch at a
 * time, in the order Meta sent them, while other chats go on in parallel. The chat is the
 * conversation the first update belongs to: a message's `group_id` (groups), the sender's BSUID
 * (`from_user_id` / `contacts[0].user_id`, issue 41) or `from`, a status's `recipient_user_id` or
 * `recipient_id` (its chat's customer; whatsapp-protocols.md A.5). A body without any (account
 * updates, template status, unparseable) gets the group `<phone_number_id>:-` / `-`. Pure.
 * @param body the parsed webhook body (or undefined when it did not parse)
 * @returns at most 128 characters (SQS limit); longer keys are hashed
 */
export function webhookGroupId(body: unknown): string {
  const b = body as
    | { entry?: Array<{ changes?: Array<{ value?: { metadata?: { phone_number_id?: unknown }; contacts?: Array<{ user_id?: unknown }>; messages?: Array<{ from?: unknown; from_user_id?: unknown; group_id?: unknown }>; statuses?: Array<{ recipient_id?: unknown; recipient_user_id?: unknown }> } }> }> }
    | undefined;
  const value = Array.isArray(b?.entry) ? b.entry[0]?.changes?.[0]?.value : undefined;
  const phone = typeof value?.metadata?.phone_number_id === 'string' ? value.metadata.phone_number_id : '-';
  const m = Array.isArray(value?.messages) ? value.messages[0] : undefined;
  const st = Array.isArray(value?.statuses) ? value.statuses[0] : undefined;
  // issue 41: a person's BSUID is in every 2026 webhook, with or without the number, so it orders
  // one person's bodies in one group whichever of the two a body carries
  const user = typeof m?.from_user_id === 'string' ? m.from_user_id : m && Array.isArray(value?.contacts) && typeof value.contacts[0]?.user_id === 'string' ? value.contacts[0].user_id : undefined;
  const chat =
    typeof m?.group_id === 'string' ? `${m.group_id}@g.us`
    : user ? `u:${user}`
    : typeof m?.from === 'string' ? `${m.from}@c.us`
    : typeof st?.recipient_user_id === 'string' ? `u:${st.recipient_user_id}`
    : typeof st?.recipient_id === 'string' ? `${st.recipient_id}@c.us`
    : '-';
  const key = `${phone}:${chat}`;
  return key.length <= 128 ? key : createHash('sha256').update(key).digest('hex');
}

/** The FIFO deduplication id of a body: its SHA-256 (Meta's retry of the same body within SQS's 5-minute window is dropped by SQS). */
export const webhookDedupeId = (raw: string): string => createHash('sha256').update(raw).digest('hex');
