import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startRuntime } from './local/runtime.ts';
import { freePort } from './local/ports.ts';
import { pct, rng } from './bench-lib.ts';
import { db } from '../shared/db/service.ts';
import { applyAnalyticsInput, readAnalytics } from '../shared/analytics/analytics.ts';
import { dayOf, HOUR_COUNTERS } from '../shared/analytics/analytics.rules.ts';

/**
 * `npm run bench:analytics` (issue 19): the first /analytics view over 30 days of an org with
 * 100,000 chats, 1,000,000 messages and 20 members, and the aggregation's pace at 200 events/s.
 *
 * Data: generating a million events would take hours on this machine, so the aggregate rows those
 * events would make are seeded directly (30 days × (org + 3 numbers + 20 members + 15 labels +
 * 50 groups × (1 + 5 senders)) daily rows, their counters summing to 100,000 conversations and
 * 1,000,000 messages). Reads never touch messages, so their cost depends on the rows only.
 * View: readAnalytics (the GET /analytics use case, the six Queries plus today's hours) as an admin,
 * in process against DynamoDB Local, 60 times; p95 must be ≤ 150 ms.
 * Pace: 200 events/s for 10 s through applyAnalyticsInput (the consumer's transaction), over 2,000
 * chats; prints the lag (how far behind the schedule the last event finished).
 */
async function main() {
  const dir = await mkdtemp(join(tmpdir(), 'chorus-bench-analytics-'));
  const rt = await startRuntime({ dataDir: dir, port: await freePort(), inMemoryTable: true, demo: { adminEmail: 'admin@bench.chorus', memberEmail: 'member@bench.chorus' }, logLevel: 'error' });
  try {
    const org = rt.orgId;
    const rand = rng(19);
    const now = Date.now();
    const days = Array.from({ length: 30 }, (_, i) => dayOf(now - (29 - i) * 86_400_000));
    const dims: Array<[string, string, number]> = [['org', '_', 1]];
    for (let i = 0; i < 3; i++) dims.push(['phone', `phone_${i}`, 1 / 3]);
    for (let i = 0; i < 20; i++) dims.push(['member', `agent${i}@bench.chorus`, 1 / 20]);
    for (let i = 0; i < 15; i++) dims.push(['label', `lbl_${i}`, 1 / 10]);
    for (let g = 0; g < 50; g++) {
      dims.push(['group', `1203630${g}@g.us`, 1 / 500]);
      for (let a = 0; a < 5; a++) dims.push(['gauthor', `1203630${g}@g.us|4477009${a}`, 1 / 2500]);
    }
    const perDay = { conv: 100_000 / 30, msgs: 1_000_000 / 30 };
    const rows = days.flatMap((day) =>
      dims.map(([dim, dim_id, share]) => {
        const msgs = Math.round(perDay.msgs * share * (0.8 + rand() * 0.4));
        const conv = Math.round(perDay.conv * share * (0.8 + rand() * 0.4));
        const hours = Object.fromEntries(HOUR_COUNTERS.map((h, i) => [h, Math.round((msgs / 24) * (i >= 8 && i <= 18 ? 1.6 : 0.4))]));
        return { org_id: org, dim, dim_id, day, conv_opened: conv, conv_closed: Math.round(conv * 0.9), msg_in: Math.round(msgs * 0.55), msg_out: Math.round(msgs * 0.45), frt_sum: conv * 240_000, frt_count: conv, rt_sum: msgs * 90_000, rt_count: Math.round(msgs * 0.4), res_sum: conv * 3_600_000, res_count: conv, tickets_created: Math.round(conv * 0.1), tickets_resolved: Math.round(conv * 0.08), assigned: conv, ...hours };
      }),
    );
    const t0 = Date.now();
    for (let i = 0; i < rows.length; i += 25) await db().entities.analyticsDaily.put(rows.slice(i, i + 25) as never).go();
    console.log(`seeded ${rows.length} daily rows (30 days; 100,000 conversations, 1,000,000 messages, 20 members) in ${((Date.now() - t0) / 1000).toFixed(1)} s`);

    const admin = { email: rt.demo.adminEmail, user_id: 'bench', org_id: org, role: 'admin' as const };
    const times: number[] = [];
    let check = 0;
    for (let i = 0; i < 60; i++) {
      const s = performance.now();
      const r = await readAnalytics(admin, days[0]!, days[29]!);
      times.push(performance.now() - s);
      check = r.totals.messages_in + r.totals.messages_out;
    }
    const p95 = pct(times, 95);
    console.log(`first /analytics view (30 days, readAnalytics, 60 runs): p50 ${pct(times, 50).toFixed(1)} ms, p95 ${p95.toFixed(1)} ms (budget 150 ms) ${p95 <= 150 ? 'PASS' : 'FAIL'}; messages in the range: ${check.toLocaleString()}`);

    const rate = 200;
    const seconds = 10;
    const total = rate * seconds;
    const start = Date.now();
    let done = 0;
    let maxLag = 0;
    const inflight = new Set<Promise<void>>();
    for (let i = 0; i < total; i++) {
      const due = start + (i * 1000) / rate;
      const wait = due - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      const chat = { chat_id: `1555${String(i % 2000).padStart(7, '0')}@c.us`, chat_type: 'user' as const, phone_id: 'phone_0', label_ids: ['lbl_1'], assigned_to: 'agent1@bench.chorus' };
      const input = i % 2 ? { kind: 'message_out' as const, at: Date.now(), chat, member: 'agent1@bench.chorus' } : { kind: 'message_in' as const, at: Date.now(), chat, author: null };
      const pr = applyAnalyticsInput(org, `bench:${i}`, input).then(() => {
        done++;
        maxLag = Math.max(maxLag, Date.now() - due);
        inflight.delete(pr);
      });
      inflight.add(pr);
    }
    await Promise.all(inflight);
    const took = (Date.now() - start) / 1000;
    console.log(`aggregation at ${rate} events/s for ${seconds} s: ${done} events applied in ${took.toFixed(1)} s (${(done / took).toFixed(0)}/s), lag at the end ${(Date.now() - (start + seconds * 1000)).toFixed(0)} ms, worst per-event lag ${maxLag.toFixed(0)} ms ${took <= seconds + 1 ? 'PASS (keeps up)' : 'FAIL (falls behind)'}`);
  } finally {
    await rt.stop?.();
    await rm(dir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error('bench:analytics failed:', e);
    process.exit(1);
  },
);
