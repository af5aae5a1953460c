import { afterAll, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLocalSearch } from '../../scripts/local/search.ts';
import { startLocalSearchWorker } from '../../scripts/local/search-worker.ts';
import type { SearchDoc } from '../../shared/ports/search.ts';

/** The embedded search adapter: matching rules, tenancy, persistence and rebuild. */
const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});
const tmp = async () => {
  const d = await mkdtemp(join(tmpdir(), 'chorus-search-'));
  dirs.push(d);
  return d;
};
const doc = (id: string, org_id: string, subject: string): SearchDoc => ({ id, org_id, fields: { subject } });

describe('local search', () => {
  it('matches every word, the last as a prefix, tolerates a typo, never crosses orgs', async () => {
    const s = await startLocalSearch(await tmp(), async () => []);
    await s.upsert('tickets', [doc('t1', 'a', 'Refund for order 4411'), doc('t2', 'a', 'Invoice address wrong'), doc('t3', 'b', 'Refund please')]);
    const ids = async (org: string, q: string) => (await s.search('tickets', org, q, 10)).map((h) => h.id);
    expect(await ids('a', 'refund')).toEqual(['t1']);
    expect(await ids('a', 'refu')).toEqual(['t1']);
    expect(await ids('a', 'refnd order')).toEqual(['t1']);
    expect(await ids('a', 'refund invoice')).toEqual([]);
    expect(await ids('b', 'refund')).toEqual(['t3']);
    // replace and remove
    await s.upsert('tickets', [doc('t1', 'a', 'Damaged parcel')]);
    expect(await ids('a', 'refund')).toEqual([]);
    expect(await ids('a', 'parcel')).toEqual(['t1']);
    await s.remove('tickets', 'a', ['t1', 'unknown']);
    expect(await ids('a', 'parcel')).toEqual([]);
    await s.stop();
  });

  it('folds accents and case, keeps the newest version, tombstones removals, filters by meta, pages by offset', async () => {
    const s = await startLocalSearch(await tmp(), async () => []);
    const msg = (id: string, body: string, version: number, meta: SearchDoc['meta'] = {}): SearchDoc => ({ id, org_id: 'a', fields: { body }, version, meta: { chat_id: 'c1', timestamp: version, ...meta } });
    const ids = async (q: string, o?: Parameters<typeof s.search>[4]) => (await s.search('messages', 'a', q, 10, o)).map((h) => h.id);
    await s.upsert('messages', [msg('m1', 'Não recebi o REEMBOLSO', 10, { phone_id: 'p1' }), msg('m2', 'reembolso pedido', 20, { phone_id: 'p2', sender_phone: '5511' })]);
    expect((await ids('nao reembolso')).sort()).toEqual(['m1']);
    expect((await ids('reemb')).sort()).toEqual(['m1', 'm2']);
    expect(await ids('reembolzo pedido')).toEqual(['m2']); // one typo
    expect(await ids('reembolso', { filter: { phone_id: 'p2' } })).toEqual(['m2']);
    expect(await ids('reembolso', { filter: { sender: '5511' } })).toEqual(['m2']);
    expect(await ids('reembolso', { filter: { from: 15, to: 25 } })).toEqual(['m2']);
    expect((await ids('reembolso', { offset: 1 })).length).toBe(1);
    // an older version never overwrites a newer one; an edit replaces the text
    await s.upsert('messages', [msg('m2', 'old text', 5)]);
    expect(await ids('old')).toEqual([]);
    await s.upsert('messages', [msg('m2', 'edited words', 30)]);
    expect(await ids('pedido')).toEqual([]);
    expect(await ids('edited')).toEqual(['m2']);
    // a removal at version 40 is not undone by a late upsert at 35
    await s.remove('messages', 'a', ['m2'], 40);
    await s.upsert('messages', [msg('m2', 'edited words', 35)]);
    expect(await ids('edited')).toEqual([]);
    await s.stop();
  });

  it('keeps two orgs\' documents of the same id apart: writes, versions, removals and tombstones are per org (issue 41 §6)', async () => {
    const dir = await tmp();
    let s = await startLocalSearch(dir, async () => []);
    const chat = (org_id: string, name: string, version: number): SearchDoc => ({ id: '15551234567@c.us', org_id, fields: { name }, version, meta: { chat_id: '15551234567@c.us' } });
    const ids = async (x: typeof s, org: string, q: string) => (await x.search('chats', org, q, 10)).map((h) => h.id);
    await s.upsert('chats', [chat('a', 'Ana Souza', 10), chat('b', 'Ana Souza', 5)]);
    expect(await ids(s, 'a', 'ana')).toEqual(['15551234567@c.us']);
    expect(await ids(s, 'b', 'ana')).toEqual(['15551234567@c.us']);
    // b's newer write and its removal leave a's document as it was; a's older version is not b's
    await s.upsert('chats', [chat('b', 'Ana Renamed', 20)]);
    await s.upsert('chats', [chat('a', 'Ana Souza', 9)]);
    expect(await ids(s, 'a', 'souza')).toEqual(['15551234567@c.us']);
    expect(await ids(s, 'b', 'renamed')).toEqual(['15551234567@c.us']);
    await s.remove('chats', 'b', ['15551234567@c.us'], 30);
    expect(await ids(s, 'b', 'ana')).toEqual([]);
    expect(await ids(s, 'a', 'ana')).toEqual(['15551234567@c.us']);
    // b's tombstone (version 30) is b's only: a's write at 11 lands, b's at 25 does not; through a restart too
    await s.upsert('chats', [chat('a', 'Ana Lima', 11), chat('b', 'Ana Late', 25)]);
    await s.stop();
    s = await startLocalSearch(dir, async () => []);
    expect(await ids(s, 'a', 'lima')).toEqual(['15551234567@c.us']);
    expect(await ids(s, 'b', 'ana')).toEqual([]);
    await s.upsert('chats', [chat('b', 'Ana Late', 26)]);
    expect(await ids(s, 'b', 'late')).toEqual([]);
    await s.stop();
  });

  it('loads a snapshot and a change log written before documents were kept by org: documents under their org, old tombstones dropped, an old removal wherever its id is', async () => {
    const dir = await tmp();
    await mkdir(join(dir, 'search'), { recursive: true });
    const old = (id: string, org_id: string, subject: string): SearchDoc => ({ ...doc(id, org_id, subject), version: 1 });
    await writeFile(join(dir, 'search', 'tickets.docs.json'), JSON.stringify({ docs: [old('t1', 'a', 'Refund one'), old('t2', 'b', 'Refund two'), old('t3', 'a', 'Refund three')], tombstones: [['t9', 50]] }));
    await writeFile(join(dir, 'search', 'tickets.log.jsonl'), `${JSON.stringify({ r: ['t3'], v: 2 })}\n${JSON.stringify({ u: [old('t1', 'b', 'Refund one of b')] })}\n`);
    const s = await startLocalSearch(dir, async (index) => {
      if (index === 'tickets') throw new Error('no rebuild of tickets expected');
      return [];
    });
    const ids = async (org: string) => (await s.search('tickets', org, 'refund', 10)).map((h) => h.id).sort();
    expect(await ids('a')).toEqual(['t1']);
    expect(await ids('b')).toEqual(['t1', 't2']);
    // the old unattributed tombstone is gone: t9 can be written in any org
    await s.upsert('tickets', [{ ...doc('t9', 'a', 'Refund nine'), version: 3 }]);
    expect(await ids('a')).toEqual(['t1', 't9']);
    await s.stop();
    const saved = JSON.parse(await readFile(join(dir, 'search', 'tickets.docs.json'), 'utf8')) as { tombstones: unknown[] };
    expect(saved.tombstones).toEqual([['a', 't3', 2]]);
  });

  it('keeps the index across restarts and rebuilds it when the file is lost or unreadable', async () => {
    const dir = await tmp();
    let rebuilt = 0;
    const rebuild = async (index: string) => {
      if (index !== 'tickets') return [];
      rebuilt++;
      return [doc('r1', 'a', 'Rebuilt from the table')];
    };
    let s = await startLocalSearch(dir, rebuild);
    expect(rebuilt).toBe(1);
    await s.upsert('tickets', [doc('t9', 'a', 'Written before restart')]);
    await s.stop();
    s = await startLocalSearch(dir, rebuild);
    expect(rebuilt).toBe(1);
    expect((await s.search('tickets', 'a', 'restart', 5)).map((h) => h.id)).toEqual(['t9']);
    await s.stop();
    const file = join(dir, 'search', 'tickets.docs.json');
    expect(existsSync(`${file}.tmp`)).toBe(false);
    await writeFile(file, (await readFile(file, 'utf8')).slice(0, 20));
    s = await startLocalSearch(dir, rebuild);
    expect(rebuilt).toBe(2);
    expect((await s.search('tickets', 'a', 'rebuilt', 5)).map((h) => h.id)).toEqual(['r1']);
    await s.stop();
  });

  it('keeps every acknowledged change through a kill (no stop): the change log is replayed over the snapshot, a torn last line ignored, and folded into a snapshot past its size', async () => {
    const dir = await tmp();
    const rebuild = async () => [] as SearchDoc[];
    const killed = await startLocalSearch(dir, rebuild, { compactBytes: 1_000_000 });
    await killed.upsert('tickets', [doc('k1', 'a', 'Indexed before the kill'), doc('k2', 'a', 'Removed before the kill')]);
    await killed.remove('tickets', 'a', ['k2'], 5);
    // the process dies here: no stop(), so no snapshot, only the log; and an append torn mid-line
    const log = join(dir, 'search', 'tickets.log.jsonl');
    expect(existsSync(log)).toBe(true);
    await writeFile(log, `${await readFile(log, 'utf8')}{"u":[{"id":"k3","org_`);
    let s = await startLocalSearch(dir, rebuild, { compactBytes: 200 });
    const ids = async (q: string) => (await s.search('tickets', 'a', q, 5)).map((h) => h.id);
    expect(await ids('indexed kill')).toEqual(['k1']);
    expect(await ids('removed')).toEqual([]);
    // replayed at start, then folded into the snapshot: the log is gone
    expect(existsSync(log)).toBe(false);
    // past compactBytes the log becomes a snapshot again; the changes stay
    for (let i = 0; i < 5; i++) await s.upsert('tickets', [doc(`n${i}`, 'a', `Note number ${i} after the restart`)]);
    expect(await readFile(join(dir, 'search', 'tickets.docs.json'), 'utf8')).toContain('"n1"');
    expect((await ids('after restart')).length).toBe(5);
    s = await startLocalSearch(dir, rebuild);
    expect((await s.search('tickets', 'a', 'after restart', 10)).length).toBe(5);
    expect((await s.search('tickets', 'a', 'removed', 10)).length).toBe(0);
    await s.stop();
  });

  it('on its worker thread, the runtime adapter: the same answers, a rebuild from the main thread, snapshots at stop, a failed rebuild refused, no call waits on an ended worker', async () => {
    const dir = await tmp();
    let rebuilt = 0;
    const s = await startLocalSearchWorker(dir, async (index) => {
      rebuilt++;
      return index === 'tickets' ? [doc('t0', 'a', 'Rebuilt from the table')] : [];
    });
    expect(rebuilt).toBeGreaterThan(0);
    await s.upsert('tickets', [doc('t1', 'a', 'Refund for order 4411'), doc('t3', 'b', 'Refund please')]);
    const ids = async (x: typeof s, org: string, q: string) => (await x.search('tickets', org, q, 10)).map((h) => h.id);
    expect(await ids(s, 'a', 'refnd order')).toEqual(['t1']);
    expect(await ids(s, 'a', 'rebuilt')).toEqual(['t0']);
    expect(await ids(s, 'b', 'refund')).toEqual(['t3']);
    await Promise.all([s.stop(), s.stop()]);
    // a restart reads the snapshots: no rebuild
    const again = await startLocalSearchWorker(dir, async () => {
      throw new Error('no rebuild expected');
    });
    expect(await ids(again, 'a', 'refund')).toEqual(['t1']);
    await again.stop();
    // a call after the worker ended fails at once instead of waiting forever
    await expect(again.search('tickets', 'a', 'refund', 10)).rejects.toThrow(/search worker stopped/);
    await expect(startLocalSearchWorker(await tmp(), async () => Promise.reject(new Error('table unreachable')))).rejects.toThrow(/table unreachable/);
  });
});
