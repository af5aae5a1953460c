import { words as wordsOf } from './text.ts';
import { customerText, instructionsOf } from './faq.rules.ts';

/**
 * The last check before the agent's reply reaches a customer (issue 42): the reply must not carry
 * the text of any pair's hidden instructions (`<instructions>…</instructions>`, faq.rules.ts).
 * The prompt already tells the model never to repeat them; a prompt injection can still make a
 * model echo them, so the reply text itself is checked.
 *
 * Matching, on normalized text (accents and case folded, every run of non-letters/digits one
 * space, so punctuation, dashes and capitals do not hide a copy):
 *   - each instruction is cut into windows of LEAK_WINDOW_WORDS consecutive words (the whole
 *     instruction when it is shorter);
 *   - a window counts only when it is long enough to be telling: at least LEAK_MIN_WORDS words
 *     and LEAK_MIN_CHARS characters ('Be brief.' is never matched);
 *   - a window that also occurs in some pair's question or customer-visible answer is not secret
 *     and is skipped;
 *   - the reply leaks when it contains any remaining window.
 * Pure; no I/O.
 */

export const LEAK_WINDOW_WORDS = 5;
export const LEAK_MIN_WORDS = 3;
export const LEAK_MIN_CHARS = 15;

/** Text as the leak check compares it: folded, words joined by single spaces, padded with one space each side. */
export const normalizeForLeak = (text: string): string => ` ${wordsOf(text).join(' ')} `;

export interface LeakHit {
  /** the pair whose instructions the reply repeats */
  faq_id: string;
  /** words of the matched window (its text is not logged: it is the org's private instruction) */
  words: number;
}

/**
 * Does `reply` repeat (a long-enough part of) any pair's instructions?
 * @param pairs the org's pairs (id, question, stored answer with its instructions)
 * @returns the first hit, or null when the reply is clean
 */
export function leakedInstruction(reply: string, pairs: ReadonlyArray<{ id: string; question: string; answer: string }>): LeakHit | null {
  const withIns = pairs.filter((p) => instructionsOf(p.answer).length);
  if (!withIns.length) return null;
  const said = normalizeForLeak(reply);
  let visible: string | null = null;
  for (const p of withIns) {
    for (const ins of instructionsOf(p.answer)) {
      const words = normalizeForLeak(ins).trim().split(' ').filter(Boolean);
      const size = Math.min(LEAK_WINDOW_WORDS, words.length);
      if (size < LEAK_MIN_WORDS) continue;
      for (let i = 0; i + size <= words.length; i++) {
        const window = ` ${words.slice(i, i + size).join(' ')} `;
        if (window.length - 2 < LEAK_MIN_CHARS || !said.includes(window)) continue;
        // what customers may read anyway is no secret
        visible ??= pairs.map((q) => normalizeForLeak(`${q.question}\n${customerText(q.answer)}`)).join('\n');
        if (visible.includes(window)) continue;
        return { faq_id: p.id, words: size };
      }
    }
  }
  return null;
}
