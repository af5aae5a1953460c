import { describe, expect, it } from 'vitest';
import { csvCell, displayName, facetDiff, facetsOf, lastSeenDue, LAST_SEEN_STEP_MS, matchesWords, nameKey, normalizeNumber, numberQuery, words } from './contact.rules.ts';

describe('contact rules', () => {
  it('shows the edited name first, then the profile name; unnamed contacts sort last by number', () => {
    expect(displayName({ contact_name: 'Ana', edited_name: 'Ana (VIP)' })).toBe('Ana (VIP)');
    expect(displayName({ contact_name: 'Ana', edited_name: '  ' })).toBe('Ana');
    expect(nameKey({ contact_id: '55119', contact_name: 'Ana Souza' })).toBe('ana souza');
    expect(nameKey({ contact_id: '55119' })).toBe('~55119');
    expect('~55119' > 'zoë').toBe(true);
  });

  it('splits words of any script, lower-cased and unique', () => {
    expect(words('Ana  SOUZA-lima, ana')).toEqual(['ana', 'souza', 'lima']);
    expect(words('राज कुमार')).toEqual(['राज', 'कुमार']);
    expect(words(undefined)).toEqual([]);
  });

  it('derives facet rows for labels, numbers, property values and search words', () => {
    const f = facetsOf({ contact_id: '9198', contact_name: 'Ravi Kumar', label_ids: ['lbl_1'], phone_ids: ['ph_1'], custom_properties: { prp_t: ' Gold ', prp_e: '' } });
    expect(f.sort()).toEqual(['label#lbl_1|9198', 'phone#ph_1|9198', 'prop#prp_t#gold|9198', 'pset#prp_t|9198', 'tok|gold#9198', 'tok|kumar#9198', 'tok|ravi#9198'].sort());
    expect(facetDiff(['a', 'b'], ['b', 'c'])).toEqual({ remove: ['a'], add: ['c'] });
  });

  it('matches every search word as a prefix of one of the contact’s words', () => {
    const c = { contact_id: '1', contact_name: 'Ravi Kumar', custom_properties: { p: 'Mumbai' } };
    expect(matchesWords(c, ['ra', 'kum'])).toBe(true);
    expect(matchesWords(c, ['mum'])).toBe(true);
    expect(matchesWords(c, ['ra', 'x'])).toBe(false);
  });

  it('moves last seen at most once per step', () => {
    expect(lastSeenDue(undefined, 5)).toBe(true);
    expect(lastSeenDue(1_000, 1_000 + LAST_SEEN_STEP_MS - 1)).toBe(false);
    expect(lastSeenDue(1_000, 1_000 + LAST_SEEN_STEP_MS)).toBe(true);
  });

  it('reads numbers as E.164 digits (default country IN) and number searches as digits', () => {
    expect(normalizeNumber('098765 43210')).toBe('919876543210');
    expect(normalizeNumber('+55 11 98888-7777')).toBe('5511988887777');
    expect(normalizeNumber('0044 20 7946 0958')).toBe('442079460958');
    expect(normalizeNumber('5511988887777')).toBe('5511988887777');
    expect(normalizeNumber('12')).toBeNull();
    expect(normalizeNumber('not a number')).toBeNull();
    expect(numberQuery('+91 98')).toBe('9198');
    expect(numberQuery('ravi')).toBeNull();
  });

  it('takes numbers of a possible length that libphonenumber calls unassigned, as inbound does (issue 49 item 6)', () => {
    // Ofcom's drama range: inbound stores its wa_id as sent, so a contact must take it too
    expect(normalizeNumber('+447700900601')).toBe('447700900601');
    expect(normalizeNumber('447700900601')).toBe('447700900601');
    expect(normalizeNumber('+44 7700 900601', 'GB')).toBe('447700900601');
    expect(normalizeNumber('07700 900601', 'GB')).toBe('447700900601');
    // an assigned reading still wins over a merely possible one
    expect(normalizeNumber('5511988887777')).toBe('5511988887777');
    expect(normalizeNumber('+44 7700 9006')).toBeNull();
  });

  it('writes CSV cells safe against formula injection (OWASP)', () => {
    expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('-2')).toBe("'-2");
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell(null)).toBe('');
    expect(csvCell('Ana')).toBe('Ana');
  });
});
