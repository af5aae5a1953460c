/**
 * Pure rules of FAQ pairs (spec §3 FAQ pair, §5 limits, §8 messages; issue 18).
 *
 * Instructions for the agent live inside the answer, wrapped in the tag pair
 * `<instructions>…</instructions>` (spec §3: "Instructions are stored inside the answer text
 * wrapped in a tag pair"). They shape what the agent does (e.g. 'hand off when the customer is
 * angry') and are never sent to customers: `customerText` removes every pair, and an unclosed
 * opening tag hides the rest of the answer (fail closed).
 */

export const INSTRUCTIONS_OPEN = '<instructions>';
export const INSTRUCTIONS_CLOSE = '</instructions>';

/** spec §5: question and answer at least 10 characters each. */
export const FAQ_MIN_LENGTH = 10;
export const FAQ_MAX_QUESTION = 1000;
export const FAQ_MAX_ANSWER = 4000;
/** spec §5 / §8 exact wording */
export const FAQ_TOO_SHORT_MESSAGE = 'Question and answer must be at least 10 characters long';
export const FAQ_SAVE_FAILED_MESSAGE = 'Failed to save Q&A pair';
export const FAQ_UPLOAD_FAILED_MESSAGE = 'Unable to upload file';
/** spec §5: one attachment only */
export const FAQ_MAX_ATTACHMENTS = 1;
/** most pairs one org keeps (the local ranker indexes them all per question) */
export const FAQ_MAX_PAIRS = 2000;

const OPEN_RE = /<instructions>/i;
const PAIR_RE = /<instructions>([\s\S]*?)<\/instructions>/gi;

/** The answer as a customer may see it: instruction blocks removed, whitespace tidied. */
export function customerText(answer: string): string {
  let out = answer.replace(PAIR_RE, ' ');
  const open = out.search(OPEN_RE);
  if (open >= 0) out = out.slice(0, open); // unclosed tag: hide everything after it
  return out.replace(/[ \t]+\n/g, '\n').replace(/\n{3,}/g, '\n\n').replace(/[ \t]{2,}/g, ' ').trim();
}

/** The instruction texts of an answer (trimmed, empty ones dropped). */
export function instructionsOf(answer: string): string[] {
  return [...answer.matchAll(PAIR_RE)].map((m) => m[1]!.trim()).filter(Boolean);
}

/**
 * What an instruction block asks the local agent to do. A sentence mentioning 'hand off' /
 * 'handoff' / 'human' / 'transfer' asks for a hand-off: always, or, when it is conditional
 * ('If the customer asks about a stain, hand off…'), when the question shares a meaningful term
 * with the condition (`conditionMet(conditionText)`, given by the caller; without it a condition
 * counts as not met).
 */
export function instructionFlags(answer: string, conditionMet?: (condition: string) => boolean): { handoff: boolean } {
  for (const block of instructionsOf(answer)) {
    for (const sentence of block.split(/(?<=[.!?])\s+|\n+/)) {
      if (!/\bhand[\s-]?off\b|\bhuman\b|\btransfer\b/i.test(sentence)) continue;
      const cond = sentence.match(/\b(?:if|when|whenever|in case)\b([^,]*?)(?:,|\bthen\b|\bhand[\s-]?off\b)/i);
      if (!cond) return { handoff: true };
      if (conditionMet?.(cond[1]!)) return { handoff: true };
    }
  }
  return { handoff: false };
}

/** Length check by the spec's rule, on the trimmed texts. */
export function faqTooShort(question: string, answer: string): boolean {
  return question.trim().length < FAQ_MIN_LENGTH || answer.trim().length < FAQ_MIN_LENGTH;
}

/** spec §5: audio attachments are disabled. */
export function isAudioAttachment(a: { type?: string | null; name?: string | null }): boolean {
  const t = (a.type ?? '').toLowerCase();
  return t === 'audio' || t === 'voice' || t.startsWith('audio/') || /\.(mp3|m4a|ogg|oga|opus|wav|aac|amr|flac)$/i.test(a.name ?? '');
}

/** Blob key of a pair's attachment (spec §7: `{org_id}/ai_assets/{context_id}/`). */
export function faqAssetKey(orgId: string, contextId: string, fileName: string): string {
  const safe = fileName.replace(/[^A-Za-z0-9._-]+/g, '_').slice(-120).replace(/^\.+/, '_') || 'file';
  return `${faqAssetPrefix(orgId, contextId)}${safe}`;
}

/** The folder of a pair's files, with its trailing slash (spec §7: `{org_id}/ai_assets/{context_id}/`). */
export function faqAssetPrefix(orgId: string, contextId: string): string {
  return `${orgId}/ai_assets/${contextId}/`;
}
