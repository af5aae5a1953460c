import { afterEach, describe, expect, it } from 'vitest';
import { orgScope, orgScopeOfPk, scopedReadCache, setSingleWriter } from './read-cache.ts';
import { watchersOf } from './write-watch.ts';
import { db } from './service.ts';
import { messageScope } from '../message/message.ts';

/** A write of this process as the document client's middleware reports it (before send, after settle). */
const write = (pk: string, sk: string) => watchersOf('PutItemCommand', { Item: { pk, sk } });
const writeNow = (pk: string, sk: string) => write(pk, sk).forEach((f) => f());

const cache = scopedReadCache<number>({ scopeOf: (k) => (k.sk.startsWith('$probe_1#') ? orgScopeOfPk(k.pk) : null) });
const A = orgScope('Org_A')!;
const B = orgScope('Org_B')!;
let loads = 0;
const load = (v: number) => async () => {
  loads++;
  return v;
};

afterEach(() => {
  setSingleWriter(false);
  loads = 0;
});

describe('scopedReadCache', () => {
  it('reads through while the process is not the only writer (AWS)', async () => {
    expect(await cache.get(A, 'k', load(1))).toBe(1);
    expect(await cache.get(A, 'k', load(2))).toBe(2);
    expect(loads).toBe(2);
  });

  it('keeps a result until a write of its scope, and only that scope', async () => {
    setSingleWriter(true);
    expect(await cache.get(A, 'k', load(1))).toBe(1);
    expect(await cache.get(B, 'k', load(5))).toBe(5);
    expect(await cache.get(A, 'k', load(2))).toBe(1);
    writeNow('$chorus#org_id_org_b#x_1', '$other_1#y'); // another entity: no effect
    writeNow('$chorus#org_id_org_a#label_id_l', '$probe_1#z'); // org A's probe rows
    expect(await cache.get(A, 'k', load(3))).toBe(3);
    expect(await cache.get(B, 'k', load(6))).toBe(5);
    expect(loads).toBe(3);
  });

  it('does not keep a read that a write of its scope overlapped, and shares concurrent misses', async () => {
    setSingleWriter(true);
    let release!: (v: number) => void;
    const slow = () => {
      loads++;
      return new Promise<number>((ok) => (release = ok));
    };
    const first = cache.get(A, 'k', slow);
    const joined = cache.get(A, 'k', load(9)); // joins the load in flight
    const [onWrite] = write('$chorus#org_id_org_a', '$probe_1#x'); // called before send and after settle
    onWrite!(); // the write is sent while the read is in flight
    const late = cache.get(A, 'k', load(4)); // after the write began: its own read, not the old one
    release(1);
    onWrite!(); // settled while `late` was in flight too: neither is kept
    expect([await first, await joined, await late]).toEqual([1, 1, 4]);
    expect(await cache.get(A, 'k', load(7))).toBe(7);
    expect(await cache.get(A, 'k', load(8))).toBe(7);
    expect(loads).toBe(3);
  });

  it('turning the caches off or on again empties them', async () => {
    setSingleWriter(true);
    await cache.get(A, 'k', load(1));
    setSingleWriter(true);
    expect(await cache.get(A, 'k', load(2))).toBe(2);
  });
});

describe('scopes match the keys ElectroDB writes', () => {
  it('org scope of a chat row, a label row and a member state; a chat’s message partition', () => {
    const e = db().entities;
    const org = 'Org_Mixed_01';
    const chatPk = e.chat.get({ org_id: org, chat_id: '1555@c.us' }).params().Key.pk as string;
    const labelPk = e.chatLabelLink.get({ org_id: org, label_id: 'L1', inbox_state: 'open', latest_message_timestamp: 5, chat_id: '1555@c.us' } as never).params().Key.pk as string;
    expect(orgScopeOfPk(chatPk)).toBe(orgScope(org));
    expect(orgScopeOfPk(labelPk)).toBe(orgScope(org));
    expect(orgScopeOfPk('$chorus#other_1')).toBeNull();
    expect(orgScope('a#b')).toBeNull();
    const msgPk = e.message.get({ org_id: org, chat_id: '1555-GROUP@g.us', timestamp: 5, unique_id: 'U' }).params().Key.pk as string;
    expect(messageScope(org, '1555-GROUP@g.us')).toBe(msgPk);
    const statePk = e.memberChatState.get({ org_id: org, email: 'A@B.co', chat_id: 'c' }).params().Key.pk as string;
    expect(statePk).toBe(`${orgScope(org)}#email_a@b.co`);
  });
});
