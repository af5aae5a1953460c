import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startTestRuntime, type TestRuntime } from '../factories/runtime.ts';
import { seedDemo } from '../../scripts/local/seed.ts';
import { db } from '../../shared/db/service.ts';
import { eventually } from '../factories/wait.ts';

/**
 * Single active session over the local WebSocket API (shared/realtime/session.ts): two browser
 * sessions of one user; the second one's claim pushes session.replaced to the first (in every org
 * the user has a socket in), a claim from the first flips it back; tabs of one session are not
 * replaced; another user is never told; a malformed session id is refused at $connect.
 */
type Frame = { type: string; properties: Record<string, unknown> };
type Conn = { ws: WebSocket; frames: Frame[] };

let rt: TestRuntime;
let secondOrg: string;
const open: Conn[] = [];

async function connect(email: string, sessionId: string | null, orgId = rt.orgId): Promise<Conn> {
  const token = await rt.signIn(email);
  const session = sessionId === null ? '' : `&session_id=${encodeURIComponent(sessionId)}`;
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${rt.port}/ws?token=${encodeURIComponent(token)}&org_id=${encodeURIComponent(orgId)}${session}`);
    const conn: Conn = { ws, frames: [] };
    ws.on('message', (d) => conn.frames.push(JSON.parse(String(d)) as Frame));
    ws.on('open', () => {
      open.push(conn);
      resolve(conn);
    });
    ws.on('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    ws.on('error', () => undefined);
  });
}

const send = (c: Conn, type: 'session.claim' | 'session.check') => c.ws.send(JSON.stringify({ type }));
const sessionFrames = (c: Conn) => c.frames.filter((f) => f.type.startsWith('session.'));
const last = (c: Conn) => sessionFrames(c).at(-1);
/** wait until `c` has received `n` session frames and return the last */
const nth = (c: Conn, n: number, what: string) => eventually(async () => sessionFrames(c).length >= n && sessionFrames(c)[n - 1], 10_000, what);
const settle = (ms = 300) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  rt = await startTestRuntime();
  // the demo admin is also admin of a second workspace (sockets in both orgs)
  const outsiderSub = await rt.createUser('outsider@session.chorus', rt.password);
  secondOrg = await seedDemo({
    orgName: 'Second',
    admin: { email: 'outsider@session.chorus', sub: outsiderSub, name: 'O' },
    member: { email: 'm@session.chorus', sub: 'x', name: 'M' },
    phone: { phone_number_id: '333000444', display_phone_number: '15553330002' },
  });
  await db().entities.member.create({ org_id: secondOrg, email: rt.adminEmail, member_name: 'Demo Admin', user_id: 'admin', role: 'admin', is_active: true }).go();
});
afterAll(async () => {
  for (const c of open) c.ws.close();
  await rt?.cleanup();
});

describe('single active session over the socket', () => {
  it('a second session replaces the first; Switch here (a claim) flips it back', async () => {
    const a = await connect(rt.adminEmail, 'browser-A-0001');
    send(a, 'session.claim');
    expect((await nth(a, 1, 'A active')).type).toBe('session.active');

    // a second tab of browser A (same session) and A's socket in the second workspace
    const aTab = await connect(rt.adminEmail, 'browser-A-0001');
    const aOther = await connect(rt.adminEmail, 'browser-A-0001', secondOrg);
    send(aTab, 'session.check');
    expect((await nth(aTab, 1, 'A tab active')).type).toBe('session.active');
    // another user's socket is never told
    const member = await connect(rt.memberEmail, 'browser-M-0001');
    send(member, 'session.claim');
    await nth(member, 1, 'member active');

    // browser B opens: A's sockets (both orgs) are told they were replaced
    const b = await connect(rt.adminEmail, 'browser-B-0001');
    send(b, 'session.claim');
    const bActive = await nth(b, 1, 'B active');
    expect(bActive).toMatchObject({ type: 'session.active', properties: { session_id: 'browser-B-0001' } });
    for (const c of [a, aTab, aOther]) {
      const f = await eventually(async () => last(c)?.type === 'session.replaced' && last(c), 10_000, 'A replaced');
      expect(f.properties).toEqual(bActive.properties);
    }
    expect(sessionFrames(member)).toHaveLength(1);
    const row = (await db().entities.activeSession.get({ email: rt.adminEmail }).go()).data;
    expect(row).toMatchObject({ session_id: 'browser-B-0001', claimed_at: bActive.properties.claimed_at });

    // A reconnects (a check): still replaced
    const aAgain = await connect(rt.adminEmail, 'browser-A-0001');
    send(aAgain, 'session.check');
    expect((await nth(aAgain, 1, 'A check')).type).toBe('session.replaced');

    // Switch here on A: A's sockets become active, B is replaced
    const bCount = sessionFrames(b).length;
    send(a, 'session.claim');
    const reclaimed = await eventually(async () => last(a)?.type === 'session.active' && last(a), 10_000, 'A active again');
    expect(reclaimed.properties.claimed_at as number).toBeGreaterThan(bActive.properties.claimed_at as number);
    await eventually(async () => last(aOther)?.type === 'session.active', 10_000, 'A other org active');
    const bReplaced = await nth(b, bCount + 1, 'B replaced');
    expect(bReplaced).toMatchObject({ type: 'session.replaced', properties: { session_id: 'browser-A-0001' } });
    await settle();
    expect(sessionFrames(member)).toHaveLength(1);
  });

  it('the first session of a user claims on check; sockets without a session are left alone', async () => {
    const legacy = await connect(rt.memberEmail, null);
    const first = await connect('outsider@session.chorus', 'browser-O-0001', secondOrg);
    send(first, 'session.check');
    expect((await nth(first, 1, 'first active')).type).toBe('session.active');
    send(legacy, 'session.claim');
    await settle();
    expect(sessionFrames(legacy)).toHaveLength(0);
  });

  it('refuses a malformed session id at $connect', async () => {
    await expect(connect(rt.adminEmail, 'bad id!')).rejects.toThrow('HTTP 400');
  });
});
