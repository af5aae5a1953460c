import { describe, expect, it } from 'vitest';
import { checkKeyCursor, collectFiltered, withCursor } from './paging.ts';
import { isAppError } from '../errors.ts';

/** A key cursor as ElectroDB hands them out (base64url JSON of the keys), here of position `at`. */
const cursorAt = (at: number) => Buffer.from(JSON.stringify({ pk: 'p', sk: String(at) })).toString('base64url');
const positionOf = (cursor: string) => Number((JSON.parse(Buffer.from(cursor, 'base64url').toString()) as { sk: string }).sk);

/** An index of `n` items (newest first) read through a Query stand-in that records each request's limit. */
function fakeIndex(n: number, kind: (i: number) => 'user' | 'group') {
  const items = Array.from({ length: n }, (_, i) => ({ id: i, type: kind(i) }));
  const limits: number[] = [];
  const run = async (cursor: string | null, limit: number) => {
    limits.push(limit);
    const from = cursor ? positionOf(cursor) : 0;
    const data = items.slice(from, from + limit);
    return { data, cursor: from + limit < n ? cursorAt(from + limit) : null };
  };
  const toCursor = (item: Record<string, unknown>) => cursorAt((item.id as number) + 1);
  return { items, run, toCursor, limits };
}

/** every page of the list, each starting where the previous one's cursor says */
async function allPages(ix: ReturnType<typeof fakeIndex>, keep: number | undefined, want: number) {
  const out: number[] = [];
  let cursor: string | null = null;
  do {
    const page: { items: Array<{ id: number }>; cursor: string | null } = await collectFiltered(ix.run, ix.toCursor, (i) => i.type === 'user', want, cursor, undefined, keep);
    out.push(...page.items.map((i) => i.id));
    cursor = page.cursor;
  } while (cursor);
  return out;
}

describe('collectFiltered with an expected share (keep)', () => {
  // about 85% user items, the rest groups, in an irregular pattern
  const mostlyUsers = (i: number) => ((i * 7919) % 100 < 15 ? 'group' : 'user');

  it('reads about want / keep items in one request when the guess holds', async () => {
    const ix = fakeIndex(2000, mostlyUsers);
    const page = await collectFiltered(ix.run, ix.toCursor, (i) => i.type === 'user', 50, null, undefined, 0.8);
    expect(page.items.map((i) => i.id)).toEqual(ix.items.filter((i) => i.type === 'user').slice(0, 50).map((i) => i.id));
    expect(ix.limits).toEqual([Math.ceil(50 / 0.8)]);
    // the cursor resumes right after the last item handed out
    expect(page.cursor).toBe(cursorAt(page.items[49]!.id + 1));
  });

  it('without it, a filtered read asks for a big page (the default)', async () => {
    const ix = fakeIndex(2000, mostlyUsers);
    await collectFiltered(ix.run, ix.toCursor, (i) => i.type === 'user', 50, null);
    expect(ix.limits).toEqual([200]);
  });

  it('answers exactly what filtering by hand gives, page after page, whatever share passes', async () => {
    for (const [kind, keep] of [
      [mostlyUsers, 0.8],
      [(i: number) => (i % 10 === 0 ? 'user' : 'group'), 0.8], // a bad guess: 10% pass
      [(i: number) => (i < 600 ? 'group' : 'user'), 0.8], // none pass for a long stretch
      [(_: number) => 'group', 0.8], // none at all
      [mostlyUsers, undefined],
    ] as Array<[(i: number) => 'user' | 'group', number | undefined]>) {
      for (const want of [1, 7, 50]) {
        const ix = fakeIndex(700, kind);
        expect(await allPages(ix, keep, want)).toEqual(ix.items.filter((i) => i.type === 'user').map((i) => i.id));
      }
    }
  });

  it('sizes the next request from the share that passed, so a bad guess costs a few requests, not many', async () => {
    const ix = fakeIndex(5000, (i) => (i % 10 === 0 ? 'user' : 'group'));
    const page = await collectFiltered(ix.run, ix.toCursor, (i) => i.type === 'user', 50, null, undefined, 0.8);
    expect(page.items).toHaveLength(50);
    expect(ix.limits.length).toBeLessThanOrEqual(4);
    expect(ix.limits.every((l) => l <= 1000)).toBe(true);
  });
});

describe('checkKeyCursor (issue 42 §4: every bad cursor is a 400 on query.cursor)', () => {
  const b64url = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
  const refusal = (c: string) => {
    try {
      checkKeyCursor(c);
      return null;
    } catch (e) {
      return isAppError(e) ? { status: e.status, details: e.details } : e;
    }
  };

  it('passes the cursors ElectroDB hands out, and none', () => {
    const c = b64url({ pk: '$chorus#org_id_1', sk: '$broadcast_1#broadcast_id_bc_1', gsi1pk: 'x', gsi1sk: 'y' });
    expect(checkKeyCursor(c)).toBe(c);
    expect(checkKeyCursor(undefined)).toBeNull();
    expect(checkKeyCursor(null)).toBeNull();
  });

  it.each(['zzz', '!!x', '====', 'eyJ', '', 'x'.repeat(3000), b64url('x'), b64url([]), b64url(null), b64url({ pk: 1, sk: 'a' }), b64url({ pk: 'a' }), b64url({ pk: 'a', sk: { $gt: '' } }), b64url({ __proto__: null, pk: 'a', sk: 'b', a: 1, b: 2, c: 3, d: 4, e: 5, f: 6, g: 7 })])(
    'refuses %s with 400 on query.cursor',
    (c) => {
      expect(refusal(c)).toEqual({ status: 400, details: [{ field: 'query.cursor', reason: 'is not a cursor from this list' }] });
    },
  );

  it('withCursor refuses before the Query runs', async () => {
    let ran = false;
    await expect(withCursor('zzz', async () => (ran = true))).rejects.toMatchObject({ status: 400 });
    expect(ran).toBe(false);
  });
});
