import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { terms } from './text.ts';
import { LocalRanker, DEFAULT_LOCAL_THRESHOLD } from './ranker.ts';
import { localAnswerPort } from './answer-port.ts';

const set = JSON.parse(readFileSync(new URL('../../tests/fixtures/ai/shop-qa.json', import.meta.url), 'utf8')) as {
  pairs: Array<{ id: string; question: string; answer: string }>;
  covered: Array<{ q: string; faq: string }>;
  uncovered: string[];
};

describe('terms: folding, synonyms, stemming', () => {
  it('folds accents and case, and maps synonyms and phrases to one term', () => {
    expect(terms('Envío')).toEqual(terms('shipping'));
    expect(terms('How much is the DELIVERY?')).toEqual(terms('price ship'));
    expect(terms('money back')).toEqual(terms('refund'));
  });
  it('stems and drops stop words', () => {
    expect(terms('Where are my packages?')).toEqual(terms('package'));
    expect(terms('the and of')).toEqual([]);
  });
});

describe('LocalRanker on the shop Q&A set', () => {
  const ranker = new LocalRanker(set.pairs);
  it('puts the right pair first for most paraphrases (precision@1 >= 85%)', () => {
    const right = set.covered.filter((c) => ranker.rank(c.q, 1)[0]?.id === c.faq).length;
    expect(right / set.covered.length).toBeGreaterThanOrEqual(0.85);
  });
  it('abstains on questions the pairs do not cover (>= 90%)', async () => {
    const port = localAnswerPort();
    let abstained = 0;
    for (const q of set.uncovered) if ((await port.answer(q, set.pairs)).handoff) abstained++;
    expect(abstained / set.uncovered.length).toBeGreaterThanOrEqual(0.9);
  });
  it('confidence is within 0..1 and an empty question matches nothing', () => {
    const ranked = ranker.rank('How long does delivery take to Spain?', 3);
    expect(ranked.length).toBeGreaterThan(0);
    for (const r of ranked) {
      expect(r.confidence).toBeGreaterThanOrEqual(0);
      expect(r.confidence).toBeLessThanOrEqual(1);
    }
    expect(ranker.rank('?!', 3)).toEqual([]);
  });
});

describe('local answering port', () => {
  it('answers with the best pair, instructions removed', async () => {
    const r = await localAnswerPort().answer('How should I wash my linen?', set.pairs);
    expect(r).toMatchObject({ handoff: false, faq_ids: ['care'], adapter: 'local' });
    expect(r.answer).toBe('Machine wash at 30 degrees on a gentle cycle, do not tumble dry, and iron while slightly damp.');
    expect(r.confidence).toBeGreaterThanOrEqual(DEFAULT_LOCAL_THRESHOLD);
  });
  it("hands off when the pair's instructions ask for a human, and with no pairs", async () => {
    expect(await localAnswerPort().answer('Can I speak to a person from your staff?', set.pairs)).toMatchObject({ handoff: true, reason: 'instructions', answer: null });
    expect(await localAnswerPort().answer('anything', [])).toMatchObject({ handoff: true, reason: 'no_pairs' });
    // a conditional instruction: only when the question meets the condition
    expect(await localAnswerPort().answer('How do I wash a stain out of linen?', set.pairs)).toMatchObject({ handoff: true, reason: 'instructions', faq_ids: ['care'] });
  });
});
