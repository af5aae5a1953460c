import { detect } from 'tinyld/light';
import { customerText } from './faq.rules.ts';

/**
 * "Answers in the customer's language where the pairs allow" (issue 18 §2), for the local adapter,
 * which cannot translate: when the knowledge base holds pairs in several languages, the pair in the
 * customer's language wins over a pair in another language that matched about as well.
 *
 * Languages are detected with tinyld's light model (npm `tinyld`, pure JS, trained for short
 * texts; ISO 639-1 codes like 'en', 'es', 'pt'). It returns '' when unsure (a greeting, 'ok'), and
 * then nothing changes. A pair's language is detected on its question and customer-visible answer
 * together (more text, surer), once per text (memoised).
 */

/** ISO 639-1 code of the text's language, or null when unsure or too short to tell. */
export function detectLanguage(text: string): string | null {
  const t = text.replace(/\s+/g, ' ').trim();
  if (t.split(' ').length < 2 && t.length < 12) return null;
  return detect(t) || null;
}

const pairLangs = new Map<string, string | null>();

/** The language of a pair (question + customer-visible answer), memoised by its text. */
export function pairLanguage(p: { question: string; answer: string }): string | null {
  const key = `${p.question}\u0000${p.answer}`;
  let lang = pairLangs.get(key);
  if (lang === undefined) {
    lang = detectLanguage(`${p.question} ${customerText(p.answer)}`);
    if (pairLangs.size > 5000) pairLangs.clear();
    pairLangs.set(key, lang);
  }
  return lang;
}

/**
 * Pick the pair to answer with among ranked candidates (best first): the best one, unless it is in
 * another language than the customer's and a candidate in the customer's language is also above
 * the threshold; then that one (the best of them).
 * @param ranked candidates, best first, with confidence 0..1
 * @param langOf the language of a candidate (null: unknown)
 * @returns the candidate to answer with (undefined when `ranked` is empty)
 */
export function preferCustomerLanguage<T extends { id: string; confidence: number }>(ranked: readonly T[], customerLang: string | null, langOf: (id: string) => string | null, threshold: number): T | undefined {
  const best = ranked[0];
  if (!best || !customerLang) return best;
  const bestLang = langOf(best.id);
  if (bestLang === customerLang || bestLang === null) return best;
  return ranked.find((r) => r.confidence >= threshold && langOf(r.id) === customerLang) ?? best;
}
