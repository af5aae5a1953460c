import { describe, expect, it } from 'vitest';
import { applySessionMessage, parseSessionFrame, SessionId, sessionTargets, type ClientSessionState } from './session.rules.ts';

describe('session frames', () => {
  it('parses claim and check, ignores anything else', () => {
    expect(parseSessionFrame('{"type":"session.claim"}')).toEqual({ type: 'session.claim' });
    expect(parseSessionFrame('{"type":"session.check"}')).toEqual({ type: 'session.check' });
    expect(parseSessionFrame('{"type":"typing","chat_id":"c","state":"start"}')).toBeNull();
    expect(parseSessionFrame('{"action":"ping"}')).toBeNull();
    expect(parseSessionFrame('not json')).toBeNull();
    expect(parseSessionFrame(null)).toBeNull();
  });

  it('session ids are 8-64 url-safe characters', () => {
    expect(SessionId.safeParse('3f1c2a4e-6b7d-4c1e-9a0b-1234567890ab').success).toBe(true);
    expect(SessionId.safeParse('short').success).toBe(false);
    expect(SessionId.safeParse('has space in it').success).toBe(false);
    expect(SessionId.safeParse('x'.repeat(65)).success).toBe(false);
  });
});

describe('sessionTargets', () => {
  const now = 1_800_000_000;
  it('splits live connections by the active session, leaving out old clients and expired rows', () => {
    const conns = [
      { connection_id: 'a1', session_id: 'sess-AAAA' },
      { connection_id: 'a2', session_id: 'sess-AAAA', expires_at: now + 10 },
      { connection_id: 'b1', session_id: 'sess-BBBB' },
      { connection_id: 'old', session_id: undefined },
      { connection_id: 'gone', session_id: 'sess-BBBB', expires_at: now - 1 },
    ];
    const t = sessionTargets(conns, 'sess-AAAA', now);
    expect(t.active.map((c) => c.connection_id)).toEqual(['a1', 'a2']);
    expect(t.replaced.map((c) => c.connection_id)).toEqual(['b1']);
  });
});

describe('applySessionMessage', () => {
  const start: ClientSessionState = { status: 'unknown', claimedAt: 0 };
  it('the newest claim decides; an older message arriving late is ignored', () => {
    const replaced = applySessionMessage(start, { type: 'session.replaced', properties: { claimed_at: 200 } });
    expect(replaced).toEqual({ status: 'replaced', claimedAt: 200 });
    // our own earlier claim's answer arrives after the other session's: ignored
    expect(applySessionMessage(replaced, { type: 'session.active', properties: { claimed_at: 100 } })).toBe(replaced);
    // Switch here: a newer claim makes it active again
    expect(applySessionMessage(replaced, { type: 'session.active', properties: { claimed_at: 300 } })).toEqual({ status: 'active', claimedAt: 300 });
    // a check answer repeats the same claim time: applied
    expect(applySessionMessage({ status: 'active', claimedAt: 300 }, { type: 'session.active', properties: { claimed_at: 300 } }).status).toBe('active');
  });

  it('other messages leave the state alone', () => {
    expect(applySessionMessage(start, { type: 'chat.typing', properties: {} })).toBe(start);
  });
});
