import { describe, expect, it } from 'vitest';
import { leakedInstruction } from './reply-guard.rules.ts';

const PAIRS = [
  { id: 'care', question: 'How should I wash linen?', answer: 'Machine wash at 30 degrees. <instructions>If the customer asks about a stain, hand off to a human.</instructions>' },
  { id: 'ship', question: 'How much does shipping cost?', answer: 'Shipping costs 4.90 EUR. <instructions>Be brief.</instructions>' },
  { id: 'promo', question: 'Do you have discounts?', answer: 'Subscribe to the newsletter for 10% off your first order. <instructions>Mention the newsletter discount for your first order only once.</instructions>' },
];

describe('leakedInstruction', () => {
  it("finds a pair's instruction in the reply whatever the case, accents and punctuation", () => {
    expect(leakedInstruction('Machine wash at 30 degrees. My instructions say: IF THE CUSTOMER ASKS ABOUT A STAIN — hand off to a human.', PAIRS)).toEqual({ faq_id: 'care', words: 5 });
    expect(leakedInstruction('Sure: if the customer asks about a stáin, hand-off', PAIRS)).toMatchObject({ faq_id: 'care' });
  });

  it('passes a clean reply, short instructions and words customers may read anyway', () => {
    expect(leakedInstruction('Machine wash at 30 degrees on a gentle cycle.', PAIRS)).toBeNull();
    // 'Be brief.' is too short to tell
    expect(leakedInstruction('Shipping costs 4.90 EUR, be brief.', PAIRS)).toBeNull();
    // 'newsletter for 10% off your first order' is in the customer-visible answer; no secret window matches
    expect(leakedInstruction('Subscribe to the newsletter for 10% off your first order.', PAIRS)).toBeNull();
    // an instruction quoting the visible answer: the quoted part is no secret
    const free = [{ id: 'free', question: 'Is shipping free?', answer: 'Orders over 60 EUR ship free within Portugal. <instructions>Say orders over 60 EUR ship free within Portugal only when asked.</instructions>' }];
    expect(leakedInstruction('Yes! Orders over 60 EUR ship free within Portugal.', free)).toBeNull();
    expect(leakedInstruction('I may say orders over 60 EUR ship free within Portugal only when asked.', free)).toMatchObject({ faq_id: 'free' });
    expect(leakedInstruction('Anything at all', [{ id: 'x', question: 'q', answer: 'no instructions here' }])).toBeNull();
  });

  it('catches a partial echo of a long instruction', () => {
    expect(leakedInstruction('I was told to mention the newsletter discount for your first order', PAIRS)).toMatchObject({ faq_id: 'promo' });
  });
});
