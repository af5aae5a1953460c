import { createHash } from 'node:crypto';

/**
 * Stored embeddings of FAQ pairs (issue 42: Bedrock cost). A pair row keeps the vector of its
 * embedded text with the model key and a hash of that text, so a changed pair or model is
 * re-embedded and nothing else is:
 *   - `embedding`: base64 of a little-endian Float32Array (4 bytes a value: 512 values ~2.7 KB,
 *     1,024 ~5.5 KB as base64; far below DynamoDB's 400 KB item limit, and a quarter of a JSON
 *     number list);
 *   - `embedding_model`: the embedder's key (`<model id>#<dimensions>`);
 *   - `embedding_hash`: sha256 (hex, first 32 characters) of the embedded text.
 * Pure functions apart from hashing; no I/O.
 */

/** The text of a pair that is embedded: its question (the customer's question is compared with it). */
export const embeddedText = (pair: { question: string }): string => pair.question.trim();

/** sha256 of the embedded text, hex, 128 bits (a change detector, not a secret). */
export function embeddingHash(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 32);
}

/** Vector -> base64 of its float32 little-endian bytes. */
export function encodeVector(v: ArrayLike<number>): string {
  const buf = Buffer.alloc(v.length * 4);
  for (let i = 0; i < v.length; i++) buf.writeFloatLE(v[i]!, i * 4);
  return buf.toString('base64');
}

/** A stored vector -> Float32Array: base64 (encodeVector), or a legacy JSON number list; null when absent or malformed. */
export function decodeVector(stored: unknown): Float32Array | null {
  if (Array.isArray(stored)) return stored.length && stored.every((x) => typeof x === 'number') ? Float32Array.from(stored as number[]) : null;
  if (typeof stored !== 'string' || !stored) return null;
  const buf = Buffer.from(stored, 'base64');
  if (!buf.length || buf.length % 4) return null;
  const out = new Float32Array(buf.length / 4);
  for (let i = 0; i < out.length; i++) out[i] = buf.readFloatLE(i * 4);
  return out;
}

/** Is a stored embedding current for `text` under the embedder `model`? */
export function embeddingFresh(row: { embedding?: unknown; embedding_model?: string | null; embedding_hash?: string | null }, model: string, text: string): boolean {
  return !!row.embedding && row.embedding_model === model && row.embedding_hash === embeddingHash(text);
}

/** Cosine similarity of two vectors (-1..1; 0 when one is all zeros); extra dimensions of the longer one are ignored. */
export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
}
