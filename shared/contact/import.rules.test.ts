import { describe, expect, it } from 'vitest';
import { chunkSizeProblem, guessMapping, MAX_CHUNK_BYTES, previewImport, type PreviewDef } from './import.rules.ts';

const defs: Array<PreviewDef & { property_name: string }> = [
  { property_id: 'prp_tier', property_name: 'Tier', property_value_type: 'dropdown', property_value: { opt_g: 'Gold', opt_s: 'Silver' } },
  { property_id: 'prp_since', property_name: 'Customer since', property_value_type: 'date', property_value: {} },
];

describe('import preview', () => {
  it('guesses the mapping from the header', () => {
    expect(guessMapping(['Name', 'Phone', 'Tier', 'Shoe size'], defs)).toEqual(['name', 'phone', 'prop:prp_tier', 'ignore']);
  });
  it('normalises to E.164 (default country IN), dedupes by number, and gives one error per bad row', () => {
    const table = [
      ['Name', 'Phone', 'Tier', 'Customer since'],
      ['Ravi', '098765 43210', 'gold', '2024-01-31'],
      ['Ravi again', '+91 98765-43210', 'Silver', ''],
      ['Ana', '+55 11 98888-7777', 'Platinum', ''],
      ['Nobody', 'call me', '', ''],
      ['', '', '', ''],
      ['Bo', '+1 415 555 0101', '', '31/01/2024'],
      ['Cy', '+1 415 555 0102', 'Silver', ''],
    ];
    const p = previewImport(table, ['name', 'phone', 'prop:prp_tier', 'prop:prp_since'], defs);
    expect(p.rows).toEqual([
      { phone: '919876543210', name: 'Ravi', custom_properties: { prp_tier: 'opt_g', prp_since: '2024-01-31' } },
      { phone: '14155550102', name: 'Cy', custom_properties: { prp_tier: 'opt_s' } },
    ]);
    expect(p.duplicates).toBe(1);
    expect(p.errors).toEqual([
      { row: 4, field: 'prp_tier', reason: 'is not one of Gold, Silver' },
      { row: 5, field: 'phone', reason: '“call me” is not a valid phone number' },
      { row: 7, field: 'prp_since', reason: 'is not a date (YYYY-MM-DD)' },
    ]);
  });
  it('needs a phone column', () => {
    expect(previewImport([['a'], ['b']], ['name'], []).errors).toEqual([{ row: 1, field: 'phone', reason: 'no column is mapped to the phone number' }]);
  });
});

describe('chunkSizeProblem (issue 42 §4: a chunk over one DynamoDB item is a 400 with its rows)', () => {
  const row = (i: number, notes = '') => ({ phone: String(14155500000 + i), name: `Person ${i}`, ...(notes ? { notes } : {}) });

  it('lets a full chunk of ordinary rows through', () => {
    expect(chunkSizeProblem(Array.from({ length: 1000 }, (_, i) => row(i, 'Prefers WhatsApp over email.')), 1)).toBeUndefined();
  });

  it('names the row range of the chunk in the import and its largest row', () => {
    const rows = Array.from({ length: 1000 }, (_, i) => row(i, 'n'.repeat(i === 7 ? 5000 : 400)));
    const p = chunkSizeProblem(rows, 1001)!;
    expect(p).toMatchObject({ field: 'rows', first: 1001, last: 2000 });
    expect(p.bytes).toBeGreaterThan(MAX_CHUNK_BYTES);
    expect(p.reason).toMatch(/^rows 1001–2000 are \d+ KB together, more than one chunk holds \(350 KB\).*the largest is row 1008, 5 KB/);
  });

  it('counts UTF-8 bytes, not characters', () => {
    const rows = Array.from({ length: 100 }, (_, i) => row(i, '😀'.repeat(1000)));
    expect(chunkSizeProblem(rows, 1)).toMatchObject({ first: 1, last: 100 });
  });
});
