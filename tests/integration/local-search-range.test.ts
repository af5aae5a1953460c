import { describe, expect, it } from 'vitest';
import { memoryIndex, passes } from '../../scripts/local/search.ts';
import type { SearchDoc, SearchFilter } from '../../shared/ports/search.ts';
import { words } from '../../shared/search/text.ts';

/**
 * The embedded search engine's date-range path (issue 14: "a query filtered by number and date
 * range"): when a `from` filter's hours hold fewer documents than the lead word's posting list, the
 * engine walks those hours instead of filtering the posting list. Either path must give the same
 * hits: checked against every document filtered by hand, across pages (offset), after deletes and
 * after an edit that moves a document to another hour.
 */
const DAY = 86_400_000;
const START = Date.UTC(2026, 0, 1);
const BODIES = ['Preciso de reembolso do pedido', 'Hola, mi pedido no ha llegado', 'Delivery is late', 'Pedido entregue, obrigado', 'Não consigo acessar'];

function doc(i: number, ts = START + Math.floor(i / 10) * DAY): SearchDoc {
  return { id: `c${i % 7}|m${i}`, org_id: 'org_a', fields: { body: `${BODIES[i % BODIES.length]} ${i}` }, version: 1, meta: { chat_id: `c${i % 7}`, unique_id: `m${i}`, timestamp: ts, phone_id: i % 3 === 0 ? 'ph_1' : 'ph_2' } };
}

/** What the search must find: every doc passing the filter whose words start with each query word. */
function byHand(all: Map<string, SearchDoc>, q: string, f: SearchFilter): string[] {
  const qs = words(q);
  return [...all.values()].filter((d) => passes(d, f) && qs.every((x) => words(Object.values(d.fields).join(' ')).some((w) => w.startsWith(x)))).map((d) => d.id).sort();
}

function allPages(mi: ReturnType<typeof memoryIndex>, q: string, f: SearchFilter, limit: number): string[] {
  const out: string[] = [];
  for (let offset = 0; ; offset += limit) {
    const page = mi.search('org_a', q, limit, offset, f);
    out.push(...page.map((h) => h.id));
    if (page.length < limit) return out;
  }
}

describe('embedded search: a date range filter', () => {
  it('finds exactly what filtering by hand finds, on both paths, across pages, deletes and edits', () => {
    const mi = memoryIndex();
    const all = new Map<string, SearchDoc>();
    for (let i = 0; i < 3000; i++) {
      const d = doc(i);
      mi.upsert(d);
      all.set(d.id, d);
    }
    const cases: Array<[string, SearchFilter]> = [
      ['pedido', { from: START + 100 * DAY, to: START + 130 * DAY, phone_id: 'ph_1' }], // short range: the hours
      ['pedido', { from: START + 100 * DAY + 5.5 * 3_600_000, to: START + 103 * DAY + 1_234_567 }], // boundaries inside an hour
      ['pedido', { from: START + 100 * DAY, to: START + 2_000 * DAY }], // more hours than the org has: read from its list
      ['pedido', { from: START + 120 * DAY, to: START + 110 * DAY }], // reversed: nothing
      ['pedido', { from: START + 10 * DAY }], // long range: the posting list
      ['pedido obrigado', { from: START + 50 * DAY, to: START + 60 * DAY }],
      ['late', { from: START + 250 * DAY, to: START + 400 * DAY }],
    ];
    const check = () => {
      for (const [q, f] of cases) {
        const got = allPages(mi, q, f, 7);
        expect(new Set(got).size).toBe(got.length); // no hit twice across pages
        expect([...got].sort()).toEqual(byHand(all, q, f));
      }
    };
    check();
    expect(byHand(all, 'pedido', cases[0]![1]).length).toBeGreaterThan(10);
    // deletes leave both paths
    for (let i = 1000; i < 1300; i += 3) {
      mi.remove('org_a', doc(i).id, 2);
      all.delete(doc(i).id);
    }
    // an edit that moves a document to another hour
    for (let i = 1600; i < 1620; i++) {
      const moved = { ...doc(i, START + 105 * DAY), version: 3 };
      mi.upsert(moved);
      all.set(moved.id, moved);
    }
    check();
  });
});
