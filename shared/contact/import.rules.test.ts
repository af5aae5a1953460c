import { describe, expect, it } from 'vitest';
import { chunkSizeProblem, guessMapping, MAX_CHUNK_BYTES, parseImportCsv, previewImport, type PreviewDef } from './import.rules.ts';

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

describe('parseImportCsv (issue 49 item 6)', () => {
  const phone = (p: ReturnType<typeof previewImport>) => p.rows.map((r) => r.phone);

  it('numbers rows by their file line, blank lines counted', () => {
    const t = parseImportCsv('Name,Phone\r\nRavi,+919876543210\r\n\r\nNobody,call me\r\n\r\n\r\nAna,+5511988887777\r\n');
    expect(t.lines).toEqual([1, 2, 4, 7]);
    expect(previewImport(t, ['name', 'phone'], []).errors).toEqual([{ row: 4, field: 'phone', reason: '“call me” is not a valid phone number' }]);
  });

  it('keeps a quoted note over several lines as one field', () => {
    const t = parseImportCsv('Name,Phone,Notes\nRavi,+919876543210,"Called Monday\nleft a message"\nAna,+5511988887777,\n');
    expect(t.rows[1]).toEqual(['Ravi', '+919876543210', 'Called Monday\nleft a message']);
    expect(t.lines).toEqual([1, 2, 4]);
    expect(t.problems).toEqual([]);
  });

  it('reports a stray quote by its line and reads the rows after it (malformed closing quote)', () => {
    const csv = 'Name,Phone,Tier\nRavi,+919876543210,\n"Ana,+5511988887777,\nBo,+14155550101,\n\nCy,+14155550102,\nDi,+14155550103,\nEd,+14155550104,\nFay "F",+14155550105,\nGus,+14155550106,\n';
    const p = previewImport(parseImportCsv(csv), ['name', 'phone', 'ignore'], []);
    expect(p.errors).toEqual([
      { row: 3, field: 'row', reason: expect.stringContaining('has a quote (") that is not closed') },
    ]);
    // a quote inside a field is text (papaparse), so Fay's row is read as it stands
    expect(phone(p)).toEqual(['919876543210', '14155550101', '14155550102', '14155550103', '14155550104', '14155550105', '14155550106']);
  });

  it('reports a stray quote that papaparse closes cleanly several rows later', () => {
    const csv = 'Name,Phone,Tier\n"Ana,+5511988887777,\nBo,+14155550101,\nCy,+14155550102,\nDi",+14155550103,\nEd,+14155550104,\n';
    const t = parseImportCsv(csv);
    expect(t.problems.map((e) => e.row)).toEqual([2]);
    expect(phone(previewImport(t, ['name', 'phone', 'ignore'], []))).toEqual(['14155550101', '14155550102', '14155550103', '14155550104']);
  });

  it('reports an unterminated quote and still reads the rest, with a semicolon delimiter', () => {
    const t = parseImportCsv('Name;Phone\n"Ana;+5511988887777\nBo;+14155550101\n');
    expect(t.problems.map((e) => e.row)).toEqual([2]);
    expect(t.rows).toEqual([['Name', 'Phone'], ['Bo', '+14155550101']]);
    expect(t.lines).toEqual([1, 3]);
  });

  it('imports a UK test-range mobile that inbound accepts', () => {
    expect(phone(previewImport(parseImportCsv('Name,Phone\nAmy,+447700900601\n'), ['name', 'phone'], []))).toEqual(['447700900601']);
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
