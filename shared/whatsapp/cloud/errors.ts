/**
 * Meta error codes -> what an agent reads and whether to retry (whatsapp-protocols.md A.9;
 * Meta "Error codes" page). Branch on the code, never on the title.
 */
export interface GraphErrorInfo {
  reason: string;
  retryable: boolean;
}

const KNOWN: Record<number, GraphErrorInfo> = {
  131047: { reason: 'More than 24 hours have passed since the customer last wrote. Only an approved template can be sent now.', retryable: false },
  131026: { reason: 'The message could not be delivered: the number may not be on WhatsApp or uses an old app version.', retryable: false },
  130429: { reason: 'WhatsApp rate limit reached for this number. Chorus will retry shortly.', retryable: true },
  131056: { reason: 'Too many messages to this customer in a short time. Chorus will retry shortly.', retryable: true },
  131049: { reason: 'WhatsApp held this message back to protect engagement with this customer. Try again tomorrow.', retryable: false },
  131057: { reason: 'The WhatsApp account is in maintenance. Chorus will retry shortly.', retryable: true },
  131009: { reason: 'WhatsApp refused a value in the message (for example a reply to a message that is too old).', retryable: false },
  131051: { reason: 'WhatsApp does not support this message type.', retryable: false },
  131053: { reason: 'The attached media could not be processed by WhatsApp.', retryable: false },
  131031: { reason: 'The WhatsApp account is locked. An admin needs to check it in Meta Business Manager.', retryable: false },
  368: { reason: 'The WhatsApp account is temporarily blocked for policy reasons.', retryable: false },
  190: { reason: 'The WhatsApp access token has expired or was revoked. An admin needs to reconnect the number.', retryable: false },
  100: { reason: 'WhatsApp refused the request as invalid.', retryable: false },
  131000: { reason: 'WhatsApp had an internal error. Chorus will retry.', retryable: true },
  131016: { reason: 'WhatsApp is temporarily unavailable. Chorus will retry.', retryable: true },
  // issue 41: a send by BSUID (`recipient`) that needs a phone number (authentication templates); Meta "Business-scoped user IDs"
  131062: { reason: 'This customer has not shared their phone number, and WhatsApp needs one for this message.', retryable: false },
};

/** Explain a Meta error code. Unknown codes are not retried and say so plainly. */
export function explainGraphError(code: number | null | undefined, title?: string | null): GraphErrorInfo {
  if (code != null && KNOWN[code]) return KNOWN[code];
  if (code != null && code >= 200 && code <= 299) return { reason: 'WhatsApp refused the request: the access token lacks a permission. An admin needs to check the number\'s setup.', retryable: false };
  if (code === 4 || code === 80007) return { reason: 'WhatsApp API rate limit reached. Chorus will retry shortly.', retryable: true };
  return { reason: `WhatsApp could not send this message${title ? ` (${title})` : ''}.`, retryable: false };
}
