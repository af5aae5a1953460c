import { describe, expect, it } from 'vitest';
import { detectLanguage, pairLanguage, preferCustomerLanguage } from './language.ts';
import { localAnswerPort } from './answer-port.ts';

/** "Answers in the customer's language where the pairs allow" (issue 18 §2), local adapter. */
const PAIRS = [
  { id: 'en-ship', question: 'How much does shipping cost?', answer: 'Standard shipping costs 4.90 EUR; orders over 60 EUR ship free.' },
  { id: 'es-ship', question: '¿Cuánto cuesta el envío?', answer: 'El envío estándar cuesta 4,90 EUR; los pedidos de más de 60 EUR se envían gratis.' },
  { id: 'en-return', question: 'What is your return policy?', answer: 'You can return unworn items within 30 days of delivery.' },
  { id: 'pt-hours', question: 'Qual é o horário da loja?', answer: 'A loja abre de segunda a sábado, das 10h às 19h.' },
];

describe('language detection (tinyld light)', () => {
  it('tells short customer questions apart, and says nothing when unsure', () => {
    expect(detectLanguage('¿Cuánto cuesta el envío a Madrid?')).toBe('es');
    expect(detectLanguage('How much is shipping to Madrid?')).toBe('en');
    expect(detectLanguage('Quais são os horários da loja?')).toBe('pt');
    expect(detectLanguage('ok')).toBeNull();
    expect(pairLanguage(PAIRS[1]!)).toBe('es');
    expect(pairLanguage(PAIRS[0]!)).toBe('en');
  });
});

describe('preferCustomerLanguage', () => {
  const langs: Record<string, string | null> = { a: 'en', b: 'es', c: 'es', d: null };
  const of = (id: string) => langs[id] ?? null;
  it('keeps the best when it is in the customer language, unknown, or no other language fits', () => {
    expect(preferCustomerLanguage([{ id: 'a', confidence: 0.9 }, { id: 'b', confidence: 0.8 }], 'en', of, 0.45)?.id).toBe('a');
    expect(preferCustomerLanguage([{ id: 'd', confidence: 0.9 }, { id: 'b', confidence: 0.8 }], 'es', of, 0.45)?.id).toBe('d');
    expect(preferCustomerLanguage([{ id: 'a', confidence: 0.9 }], 'es', of, 0.45)?.id).toBe('a');
    expect(preferCustomerLanguage([{ id: 'a', confidence: 0.9 }, { id: 'b', confidence: 0.8 }], null, of, 0.45)?.id).toBe('a');
  });
  it("takes the best pair in the customer's language above the threshold", () => {
    expect(preferCustomerLanguage([{ id: 'a', confidence: 0.9 }, { id: 'b', confidence: 0.5 }, { id: 'c', confidence: 0.6 }], 'es', of, 0.45)?.id).toBe('b');
    expect(preferCustomerLanguage([{ id: 'a', confidence: 0.9 }, { id: 'b', confidence: 0.3 }], 'es', of, 0.45)?.id).toBe('a');
  });
});

describe('the local adapter answers in the customer language where the pairs allow', () => {
  const port = localAnswerPort();
  it('a Spanish question gets the Spanish pair, an English one the English pair', async () => {
    const es = await port.answer('Hola, ¿cuánto cuesta el envío a Sevilla?', PAIRS);
    expect(es).toMatchObject({ handoff: false, faq_ids: ['es-ship'] });
    expect(es.answer).toContain('El envío estándar');
    const en = await port.answer('Hi, how much is shipping to Seville?', PAIRS);
    expect(en).toMatchObject({ handoff: false, faq_ids: ['en-ship'] });
  });
  it('the customer language never hides the only matching pair, in another language', async () => {
    const r = await port.answer('¿Cuál es la política de devoluciones?', PAIRS);
    expect(r.faq_ids).toEqual(['en-return']);
  });
});
