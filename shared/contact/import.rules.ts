/**
 * The import preview (issue 15 item 3), pure and browser-safe: CSV rows (already parsed, header
 * row first) and a column mapping give the rows to import, normalised (E.164 digits by
 * libphonenumber-js, default country IN), deduplicated by number within the file (the first row of a
 * number wins, later ones are reported), and one error per bad row (row numbers as in the file,
 * header = row 1). Contacts that already exist are found by the job (their number is the key) and
 * left as they are.
 */
import Papa from 'papaparse';
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

/** A CSV file read for the import: its records, the file line each starts on, and what could not be read. */
export interface ImportTable {
  /** the records, header first, blank lines left out */
  rows: string[][];
  /** 1-based file line on which each record starts (blank lines counted), one per `rows` entry */
  lines: number[];
  /** records left out because their quoting is broken, by file line (field 'row') */
  problems: Array<{ row: number; field: string; reason: string }>;
}

const STRAY_QUOTE = 'has a quote (") that is not closed where the field ends, so this row was left out; the rows after it were read on their own';

/**
 * Reads a CSV file for the import with papaparse (delimiter detected from the file), keeping each
 * record's file line so errors name the line a spreadsheet or editor shows (blank lines count).
 * A stray quote makes RFC 4180 read every following line as one field until the next quote, which
 * swallowed rows silently (issue 49 item 6). A record is taken for a stray quote when papaparse
 * reports broken quoting, or when a field spans lines and one of its lines (but the last) holds a
 * whole row's worth of delimiters (header columns − 1): a real multi-line note rarely does. Such a
 * record is reported by its first line and left out, and reading starts again on the next line.
 * @param text the file's text (a leading byte-order mark is ignored)
 */
export function parseImportCsv(text: string): ImportTable {
  const src = text.replace(/^\uFEFF/, '');
  // offsets at which each line starts (\r\n, \n or \r end a line)
  const starts = [0];
  for (const m of src.matchAll(/\r\n|\r|\n/g)) starts.push(m.index + m[0].length);
  const lineAt = (offset: number): number => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
  const out: ImportTable = { rows: [], lines: [], problems: [] };
  // the delimiter is guessed from the first line (a stray quote further on would spoil papaparse's guess)
  const first = src.split(/\r\n|\r|\n/).find((l) => l.trim()) ?? '';
  const delimiter = Papa.parse<string[]>(first, { preview: 1 }).meta.delimiter || ',';
  // given, not guessed on every restart (papaparse scans up to 1 MB ahead to guess it)
  const newline = (/\r\n|\r|\n/.exec(src)?.[0] ?? '\n') as '\r\n' | '\r' | '\n';
  let from = 0;
  while (from < src.length) {
    let restart = -1;
    let at = from;
    Papa.parse<string[]>(src.slice(from), {
      delimiter,
      newline,
      step: (res, parser) => {
        const start = at;
        at = from + res.meta.cursor;
        const cells = res.data;
        if (cells.every((c) => !c.trim())) return;
        const width = out.rows[0]?.length ?? 0;
        const swallowed = cells.some((c) => {
          const ls = c.split(/\r\n|\r|\n/);
          return ls.length > 1 && width > 1 && ls.slice(0, -1).some((l) => l.split(delimiter).length >= width);
        });
        if (res.errors.some((e) => e.type === 'Quotes') || swallowed) {
          const line = lineAt(start);
          out.problems.push({ row: line, field: 'row', reason: STRAY_QUOTE });
          // the start of the next line (starts is 0-based, line 1-based)
          restart = starts[line] ?? src.length;
          parser.abort();
          return;
        }
        out.rows.push(cells);
        out.lines.push(lineAt(start));
      },
    });
    if (restart < 0) break;
    from = restart;
  }
  return out;
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
 * The rows to import and one error per bad row, in file order.
 * @param input the CSV rows, header first (row i is file row i + 1), or a file read by parseImportCsv
 *   (its file lines, and its unreadable rows as errors)
 * @param mapping one target per column (see ColumnTarget)
 * @param defs the org's property definitions (for 'prop:' columns)
 */
export function previewImport(input: string[][] | ImportTable, mapping: ColumnTarget[], defs: PreviewDef[], country: Parameters<typeof normalizeNumber>[1] = 'IN'): ImportPreview {
  const table = Array.isArray(input) ? input : input.rows;
  const lineOf = (i: number) => (Array.isArray(input) ? i + 1 : (input.lines[i] ?? i + 1));
  const byId = new Map(defs.map((d) => [d.property_id, d]));
  const phoneCol = mapping.indexOf('phone');
  const seen = new Set<string>();
  const out: ImportPreview = { rows: [], errors: [], duplicates: 0 };
  if (phoneCol < 0) return { ...out, errors: [{ row: lineOf(0), field: 'phone', reason: 'no column is mapped to the phone number' }] };
  for (let i = 1; i < table.length; i++) {
    const cells = table[i]!;
    if (cells.every((c) => !c?.trim())) continue;
    const row = lineOf(i);
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
  if (!Array.isArray(input) && input.problems.length) out.errors = [...out.errors, ...input.problems].sort((a, b) => a.row - b.row);
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
