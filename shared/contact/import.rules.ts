/**
 * The import preview (issue 15 item 3), pure and browser-safe: CSV rows (already parsed, header
 * row first) and a column mapping give the rows to import, normalised (E.164 digits by
 * libphonenumber-js, default country IN), deduplicated by number within the file (the first row of a
 * number wins, later ones are reported), and one error per bad row (row numbers as in the file,
 * header = row 1). Contacts that already exist are found by the job (their number is the key) and
 * left as they are.
 */
import { normalizeNumber } from './contact.rules.ts';
import type { ImportRow } from './import.schemas.ts';

/** What a column maps to: 'phone', 'name', 'notes', 'prop:<property_id>' or 'ignore'. */
export type ColumnTarget = string;

export interface PreviewDef {
  property_id: string;
  property_value_type: 'text' | 'dropdown' | 'number' | 'date';
  /** dropdown option id -> label */
  property_value: Record<string, string>;
}

export interface ImportPreview {
  rows: ImportRow[];
  /** 1-based file row numbers (header = 1) with what is wrong */
  errors: Array<{ row: number; field: string; reason: string }>;
  /** rows left out because an earlier row has the same number */
  duplicates: number;
}

/** A first guess at the mapping from the header names. */
export function guessMapping(header: string[], defs: Array<PreviewDef & { property_name: string }>): ColumnTarget[] {
  return header.map((h) => {
    const k = h.trim().toLowerCase();
    if (/^(phone|mobile|number|whatsapp|phone number|telefone|tel)$/.test(k)) return 'phone';
    if (/^(name|full name|contact|contact name|nome)$/.test(k)) return 'name';
    if (/^(notes?|comment|comments)$/.test(k)) return 'notes';
    const p = defs.find((d) => d.property_name.trim().toLowerCase() === k);
    return p ? `prop:${p.property_id}` : 'ignore';
  });
}

function propValue(def: PreviewDef, raw: string): { value: string } | { reason: string } {
  const v = raw.trim();
  if (def.property_value_type === 'dropdown') {
    const hit = Object.entries(def.property_value).find(([id, label]) => id === v || label.toLowerCase() === v.toLowerCase());
    return hit ? { value: hit[0] } : { reason: `is not one of ${Object.values(def.property_value).join(', ')}` };
  }
  if (def.property_value_type === 'number') return Number.isFinite(Number(v)) ? { value: String(Number(v)) } : { reason: 'is not a number' };
  if (def.property_value_type === 'date') return /^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(v)) ? { value: v } : { reason: 'is not a date (YYYY-MM-DD)' };
  return v.length <= 500 ? { value: v } : { reason: 'must be at most 500 characters' };
}

/**
 * @param table the CSV rows, header first
 * @param mapping one target per column (see ColumnTarget)
 * @param defs the org's property definitions (for 'prop:' columns)
 */
export function previewImport(table: string[][], mapping: ColumnTarget[], defs: PreviewDef[], country: Parameters<typeof normalizeNumber>[1] = 'IN'): ImportPreview {
  const byId = new Map(defs.map((d) => [d.property_id, d]));
  const phoneCol = mapping.indexOf('phone');
  const seen = new Set<string>();
  const out: ImportPreview = { rows: [], errors: [], duplicates: 0 };
  if (phoneCol < 0) return { ...out, errors: [{ row: 1, field: 'phone', reason: 'no column is mapped to the phone number' }] };
  for (let i = 1; i < table.length; i++) {
    const cells = table[i]!;
    if (cells.every((c) => !c?.trim())) continue;
    const row = i + 1;
    const phone = normalizeNumber(cells[phoneCol] ?? '', country);
    if (!phone) {
      out.errors.push({ row, field: 'phone', reason: cells[phoneCol]?.trim() ? `“${cells[phoneCol]!.trim().slice(0, 40)}” is not a valid phone number` : 'is empty' });
      continue;
    }
    if (seen.has(phone)) {
      out.duplicates++;
      continue;
    }
    const r: ImportRow = { phone };
    let bad = false;
    mapping.forEach((t, c) => {
      const v = (cells[c] ?? '').trim();
      if (!v || bad) return;
      if (t === 'name') {
        if (v.length > 250) {
          out.errors.push({ row, field: 'name', reason: 'must be at most 250 characters' });
          bad = true;
        } else r.name = v;
      } else if (t === 'notes') r.notes = v.slice(0, 5000);
      else if (t.startsWith('prop:')) {
        const def = byId.get(t.slice(5));
        if (!def) return;
        const p = propValue(def, v);
        if ('reason' in p) {
          out.errors.push({ row, field: t.slice(5), reason: p.reason });
          bad = true;
        } else (r.custom_properties ??= {})[def.property_id] = p.value;
      }
    });
    if (bad) continue;
    seen.add(phone);
    out.rows.push(r);
  }
  return out;
}

/**
 * Most bytes of one uploaded chunk's rows (UTF-8 JSON): a chunk is one DynamoDB item, and an item
 * holds at most 400 KB (DynamoDB "Service quotas": item size, names and values together), so 50 KB
 * are left for its keys, attribute names and the per-element overhead of lists and maps.
 */
export const MAX_CHUNK_BYTES = 350 * 1024;

/** UTF-8 bytes of a value's JSON (browser-safe). */
const jsonBytes = (v: unknown): number => new TextEncoder().encode(JSON.stringify(v)).length;

/**
 * Why a chunk of rows cannot be stored as one item (issue 42 §4), or undefined when it fits
 * MAX_CHUNK_BYTES: the chunk's rows as a range of the import, its size and its largest row.
 * @param rows the chunk's rows
 * @param firstRow 1-based position of the chunk's first row among the import's rows (seq × IMPORT_CHUNK + 1)
 */
export function chunkSizeProblem(rows: ImportRow[], firstRow: number): { field: string; reason: string; first: number; last: number; bytes: number } | undefined {
  const bytes = jsonBytes(rows);
  if (bytes <= MAX_CHUNK_BYTES) return undefined;
  const last = firstRow + rows.length - 1;
  let big = 0;
  let bigBytes = 0;
  rows.forEach((r, i) => {
    const b = jsonBytes(r);
    if (b > bigBytes) [big, bigBytes] = [i, b];
  });
  const kb = (n: number) => `${Math.ceil(n / 1024)} KB`;
  return {
    field: 'rows',
    reason: `rows ${firstRow}–${last} are ${kb(bytes)} together, more than one chunk holds (${kb(MAX_CHUNK_BYTES)}); send them in smaller chunks or shorten long notes (the largest is row ${firstRow + big}, ${kb(bigBytes)})`,
    first: firstRow,
    last,
    bytes,
  };
}
