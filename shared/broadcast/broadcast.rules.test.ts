import { describe, expect, it } from 'vitest';
import { audienceParts, countSkips, creditMonth, fillTemplateValues, fillVariables, inQuietHours, isOptedOut, msUntilQuietEnds, NumberPacer, paceFor, rateLimitBackoffMs, recipientId, variablesOf } from './broadcast.rules.ts';

describe('broadcast rules', () => {
  it('paces Cloud API numbers at the configured pace and WhatsApp Web numbers slower with jitter', () => {
    expect(paceFor('wa_cloud', 50, () => 0.9)).toBe(50);
    expect(paceFor('wa_web', 50, () => 0)).toBe(3000);
    expect(paceFor('wa_web', 50, () => 0.5)).toBe(4000);
    expect(paceFor('wa_web', 10_000, () => 0)).toBe(10_000);
  });

  it('backs off on rate limits, doubling per hit, at most 60 s', () => {
    expect(rateLimitBackoffMs(1, 1000)).toBe(1000);
    expect(rateLimitBackoffMs(2, 1000)).toBe(2000);
    expect(rateLimitBackoffMs(3, 50)).toBe(4000);
    expect(rateLimitBackoffMs(20, 1000)).toBe(60_000);
  });

  it('quiet hours, including across midnight', () => {
    const night = { start: '22:00', end: '08:00' };
    expect(inQuietHours(night, 23 * 60)).toBe(true);
    expect(inQuietHours(night, 7 * 60 + 59)).toBe(true);
    expect(inQuietHours(night, 8 * 60)).toBe(false);
    expect(inQuietHours(night, 12 * 60)).toBe(false);
    expect(inQuietHours({ start: '12:00', end: '13:00' }, 12 * 60 + 30)).toBe(true);
    expect(inQuietHours(null, 0)).toBe(false);
    // 23:00:00 -> 08:00 is 9 h away
    expect(msUntilQuietEnds(night, 1_700_000_000_000 - (1_700_000_000_000 % 60_000), 23 * 60)).toBe(9 * 3600_000);
  });

  it('fills variables, unknown ones empty', () => {
    expect(fillVariables('Hi {{name}}, order {{ order }} {{missing}}!', { name: 'Asha', order: 'A-1' })).toBe('Hi Asha, order A-1 !');
    expect(variablesOf('{{a}} {{ b }} {{a}}')).toEqual(['a', 'b']);
  });

  it('opt-out by keyword (any case, punctuation) or label, never by our own message', () => {
    expect(isOptedOut({ from_me: false, body: ' stop. ' }, 'STOP')).toBe(true);
    expect(isOptedOut({ from_me: true, body: 'STOP' }, 'STOP')).toBe(false);
    expect(isOptedOut({ from_me: false, body: 'please stop sending' }, 'STOP')).toBe(false);
    expect(isOptedOut({ from_me: false, body: 'Unsubscribe' }, 'unsubscribe')).toBe(true);
    expect(isOptedOut(null, 'STOP', ['VIP', 'Opted-out'])).toBe(true);
    expect(isOptedOut(null, 'STOP', ['opted out'])).toBe(true);
  });

  it('credit months are UTC, recipient ids sort as strings', () => {
    expect(creditMonth(Date.UTC(2026, 10, 30, 23, 59))).toBe('2026-11');
    expect(creditMonth(Date.UTC(2026, 11, 1))).toBe('2026-12');
    expect([recipientId(10), recipientId(9)].sort()).toEqual(['000009', '000010']);
    expect(countSkips(['opt_out', 'no_template', 'no_chat', null, 'opt_out'])).toEqual({ opt_out: 2, no_template: 1, other: 1 });
  });

  it('the pacer keeps a schedule: lateness is made up at no more than 80/s, a long stall starts afresh', () => {
    const p = new NumberPacer(50);
    p.sent('a', 'wa_cloud', 1000);
    expect(p.readyAt('a')).toBe(1050);
    p.sent('a', 'wa_cloud', 1053); // 3 ms late: the next slot stays on the schedule
    expect(p.readyAt('a')).toBe(1100);
    // 400 ms late (a slow write held the engine): the 7 sends due at 1150..1450 are due now, then the schedule again
    p.sent('a', 'wa_cloud', 1500);
    const due: number[] = [];
    for (let i = 0; i < 9; i++) {
      due.push(p.readyAt('a'));
      p.sent('a', 'wa_cloud', Math.max(1500, due[i]!));
    }
    expect(due).toEqual([1150, 1200, 1250, 1300, 1350, 1400, 1450, 1500, 1550]);
    p.sent('a', 'wa_cloud', 5000); // a stall longer than CATCH_UP_MS: start afresh, no burst
    expect(p.readyAt('a')).toBe(5050);
    expect(p.readyAt('b')).toBe(0);
    p.rateLimited('a', 5050);
    expect(p.readyAt('a')).toBe(6050);
    p.sent('a', 'wa_cloud', 6050);
    p.rateLimited('a', 6050);
    expect(p.readyAt('a')).toBe(7050);
    p.rateLimited('a', 7050);
    expect(p.readyAt('a')).toBe(9050);
  });

  it('the pacer catches up no more than 80 sends in any second on a number', () => {
    const p = new NumberPacer(13); // 77/s configured
    p.sent('a', 'wa_cloud', 0);
    const times: number[] = [];
    let now = 1900; // 1.9 s late: ~146 sends due
    for (let i = 0; i < 200; i++) {
      now = Math.max(now, p.readyAt('a'));
      p.sent('a', 'wa_cloud', now);
      times.push(now);
    }
    for (let i = 80; i < times.length; i++) expect(times[i]! - times[i - 80]!).toBeGreaterThanOrEqual(1000);
  });

  it('the pacer never makes up lateness on WhatsApp Web numbers', () => {
    const p = new NumberPacer(50, () => 0);
    p.sent('w', 'wa_web', 1000);
    expect(p.readyAt('w')).toBe(4000);
    p.sent('w', 'wa_web', 4500); // late: the next one waits a whole pace again
    expect(p.readyAt('w')).toBe(7000);
    p.sent('w', 'wa_web', 11_000); // later than a pace: afresh
    expect(p.readyAt('w')).toBe(14_000);
  });

  it('a long run at 50 ms with 0-80 ms of timer lateness per send keeps 20/s', () => {
    const p = new NumberPacer(50);
    let now = 0;
    let lag = 7;
    const n = 2000;
    for (let i = 0; i < n; i++) {
      // a sleep until the slot wakes up late; a send already due goes at once
      const ready = p.readyAt('a');
      now = ready > now ? ready + (lag = (lag * 31 + 17) % 81) : now + 1;
      p.sent('a', 'wa_cloud', now);
    }
    const perSecond = (n * 1000) / now;
    expect(perSecond).toBeGreaterThan(19.5);
    expect(perSecond).toBeLessThanOrEqual(20.1);
  });
});

describe('fillTemplateValues', () => {
  it('fills text values per recipient and keeps media values', () => {
    const media = { link: 'https://cdn.example/a.png' };
    expect(fillTemplateValues({ 'body.1': '{{name}}', 'body.2': 'code {{ code }}', 'header.media': media }, { name: 'Asha', code: 'X9' })).toEqual({ 'body.1': 'Asha', 'body.2': 'code X9', 'header.media': media });
  });

  it('splits an audience into parts of bounded JSON size, in order, none empty', () => {
    const rows = Array.from({ length: 1000 }, (_, i) => ({ rid: recipientId(i), chat_id: `1555${String(i).padStart(7, '0')}@c.us`, name: `Customer ${i}` }));
    const parts = audienceParts(rows, 5000);
    expect(parts.length).toBeGreaterThan(10);
    expect(parts.flat()).toEqual(rows);
    for (const p of parts) expect(JSON.stringify(p).length).toBeLessThanOrEqual(5000);
    // a row larger than a part is a part of its own
    const big = { rid: 'x', name: 'y'.repeat(100) };
    expect(audienceParts([rows[0], big, rows[1]], 60)).toEqual([[rows[0]], [big], [rows[1]]]);
    expect(audienceParts([])).toEqual([]);
  });
});
