import { describe, expect, it } from 'vitest';
import { cosine, decodeVector, embeddedText, embeddingFresh, embeddingHash, encodeVector } from './embeddings.ts';

describe('stored embeddings', () => {
  it('round-trips a vector through base64 float32, compactly', () => {
    const v = Array.from({ length: 1024 }, (_, i) => Math.sin(i) / 7);
    const s = encodeVector(v);
    // 4 bytes a value, base64: ~5.5 KB for 1,024 values (a JSON number list is ~20 KB)
    expect(s.length).toBe(Math.ceil((1024 * 4) / 3) * 4);
    expect(JSON.stringify(v).length).toBeGreaterThan(3 * s.length);
    const back = decodeVector(s)!;
    expect(back).toHaveLength(1024);
    back.forEach((x, i) => expect(x).toBeCloseTo(v[i]!, 6));
    expect(cosine(back, v)).toBeCloseTo(1, 6);
  });

  it('reads legacy number lists and refuses garbage', () => {
    expect(Array.from(decodeVector([1, 0, 0])!)).toEqual([1, 0, 0]);
    expect(decodeVector(undefined)).toBeNull();
    expect(decodeVector('')).toBeNull();
    expect(decodeVector('AAA=')).toBeNull(); // 2 bytes: not float32s
    expect(decodeVector(['x'])).toBeNull();
  });

  it('is fresh only for the same model and the same embedded text', () => {
    const text = embeddedText({ question: '  How much does shipping cost? ' });
    const row = { embedding: encodeVector([1, 0]), embedding_model: 'm#512', embedding_hash: embeddingHash(text) };
    expect(embeddingFresh(row, 'm#512', text)).toBe(true);
    expect(embeddingFresh(row, 'm#1024', text)).toBe(false);
    expect(embeddingFresh(row, 'm#512', 'How much does shipping cost to Spain?')).toBe(false);
    expect(embeddingFresh({ ...row, embedding: undefined }, 'm#512', text)).toBe(false);
    expect(embeddingHash(text)).toMatch(/^[0-9a-f]{32}$/);
  });
});
