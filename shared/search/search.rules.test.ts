import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { publicIdOf, searchDocId } from './search.rules.ts';

describe('searchDocId (issue 41 §6)', () => {
  it('keys a document by its org and its public id', () => {
    expect(searchDocId('org_a', '15551234567@c.us')).toBe('org_a:15551234567@c.us');
    expect(searchDocId('org_a', '15551234567@c.us|u1')).toBe('org_a:15551234567@c.us|u1');
  });

  it('gives the same public id in two orgs two keys', () => {
    expect(searchDocId('org_a', '15551234567')).not.toBe(searchDocId('org_b', '15551234567'));
  });

  it('refuses an empty org or one holding the separator', () => {
    expect(() => searchDocId('', 't1')).toThrow(/org id is required/);
    expect(() => searchDocId('org:a', 't1')).toThrow(/may not hold/);
  });

  it('is one-to-one and gives back the public id for its org only', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^org_[a-z0-9]{1,12}$/), fc.stringMatching(/^org_[a-z0-9]{1,12}$/), fc.string(), fc.string(), (orgA, orgB, idA, idB) => {
        const a = searchDocId(orgA, idA);
        expect(publicIdOf(orgA, a)).toBe(idA);
        expect(a === searchDocId(orgB, idB)).toBe(orgA === orgB && idA === idB);
        if (orgA !== orgB) expect(publicIdOf(orgB, a)).toBeUndefined();
      }),
    );
  });

  it('does not read an old unprefixed id as a key', () => {
    expect(publicIdOf('org_a', '15551234567@c.us')).toBeUndefined();
    expect(publicIdOf('', ':x')).toBeUndefined();
  });
});
