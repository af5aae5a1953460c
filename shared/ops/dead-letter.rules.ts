/**
 * Dead letters in words (issue 23 item 3): why a queue record was given up, for a person deciding
 * whether to redrive it. Pure; used by the local queue (scripts/local/queue.ts) when it moves a
 * record to its DLQ, and by `npm run dlq` for records that carry only the raw error.
 */

/** One issue of a ZodError as zod 3 serialises it in `error.message` (a JSON array). */
interface ZodIssueLike {
  path?: Array<string | number>;
  message?: string;
}

/**
 * The last error of a record, readable: a ZodError's JSON issue list becomes
 * `field.path: message; …`; anything else is kept, trimmed to `max` characters.
 * @param error the consumer's error message (String(e.message))
 * @param max characters kept (default 300)
 */
export function errorInWords(error: string, max = 300): string {
  const text = error.trim();
  if (text.startsWith('[')) {
    try {
      const issues = JSON.parse(text) as ZodIssueLike[];
      if (Array.isArray(issues) && issues.length && issues.every((i) => typeof i?.message === 'string')) {
        const shown = issues.slice(0, 3).map((i) => `${(i.path ?? []).join('.') || '(record)'}: ${i.message}`);
        const more = issues.length > 3 ? `; and ${issues.length - 3} more` : '';
        return clip(`the record does not match its schema (${shown.join('; ')}${more})`, max);
      }
    } catch {
      // not JSON after all: keep the text
    }
  }
  if (!text) return 'the consumer reported the record as failed without a reason';
  return clip(text, max);
}

/**
 * The sentence a dead letter carries: which queue gave it up, after how many receives, and why.
 * @param receives deliveries tried (the queue's maxReceiveCount when it is dead-lettered)
 * @example deadLetterReason('media-download', 5, 'Graph API answered 500') ->
 *   'media-download gave up after 5 attempts. Last error: Graph API answered 500'
 */
export function deadLetterReason(queue: string, receives: number, error: string): string {
  return `${queue} gave up after ${receives} attempt${receives === 1 ? '' : 's'}. Last error: ${errorInWords(error)}`;
}

const clip = (s: string, max: number) => (s.length > max ? `${s.slice(0, max - 1)}…` : s);
