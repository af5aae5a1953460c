/**
 * Text rules shared by the search adapters and the search API (pure; issue 14, spec §9).
 * Folding: lower case, accents removed (NFD, combining marks dropped), so 'Não' finds 'nao' and
 * 'ACCIÓN' finds 'accion' — the same rule as the OpenSearch analyzer (lowercase + asciifolding).
 */

/** Lower-cased, accents removed. */
export const fold = (s: string): string => s.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();

/** Words of a query or a text (letters and digits, Unicode), folded. */
export const words = (s: string): string[] => fold(s).match(/[\p{L}\p{N}]+/gu) ?? [];

/** One typo for words of four letters or more (OpenSearch fuzziness 1 on the same words). */
export const maxTypos = (term: string): number => (term.length >= 4 ? 1 : 0);

/** Levenshtein distance of two short strings, capped at `max + 1` (cheap early exit). */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      cur.push(v);
      if (v < best) best = v;
    }
    if (best > max) return max + 1;
    prev = cur;
  }
  return prev[b.length]!;
}

/** Context characters either side of the first match in a snippet (spec §9: about 40). */
export const SNIPPET_CONTEXT = 40;

/**
 * A snippet of `text` around the first word that matches a query word (exactly, as a prefix for
 * the last query word, or within one typo), about 40 characters either side, the match wrapped
 * in `<mark>…</mark>` and the rest HTML-escaped (so the web app can render it as markup safely).
 * Cut ends get '…'. With no matching word, the start of the text.
 */
export function snippet(text: string, query: string, context = SNIPPET_CONTEXT): string {
  const q = words(query);
  const re = /[\p{L}\p{N}]+/gu;
  let m: RegExpExecArray | null;
  let at = -1;
  let len = 0;
  while ((m = re.exec(text))) {
    const w = fold(m[0]);
    const hit = q.some((t, i) => w === t || (i === q.length - 1 && w.startsWith(t)) || (maxTypos(t) > 0 && editDistance(w, t, 1) <= 1));
    if (hit) {
      at = m.index;
      len = m[0].length;
      break;
    }
  }
  if (at < 0) return esc(text.length > context * 2 ? `${text.slice(0, context * 2)}…` : text);
  const start = Math.max(0, at - context);
  const end = Math.min(text.length, at + len + context);
  return `${start > 0 ? '…' : ''}${esc(text.slice(start, at))}<mark>${esc(text.slice(at, at + len))}</mark>${esc(text.slice(at + len, end))}${end < text.length ? '…' : ''}`;
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
