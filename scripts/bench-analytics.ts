import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startRuntime } from './local/runtime.ts';
import { freePort } from './local/ports.ts';
import { pct, rng } from './bench-lib.ts';
import { db } from '../shared/db/service.ts';
import { applyAnalyticsBatch, readAnalytics, readAnalyticsBreakdown, readGroupAnalytics, type AnalyticsEvent } from '../shared/analytics/analytics.ts';
import { dayOf, HOUR_COUNTERS, mergeIncrements, withRollups, type Dimension } from '../shared/analytics/analytics.rules.ts';
import { loadavg } from 'node:os';

/**
 * `npm run bench:analytics` (issue 19): the first /analytics view over 30 days of an org with
 * 100,000 chats, 1,000,000 messages and 20 members, and the aggregation's pace at 200 events/s.
 *
 * Data: generating a million events would take hours on this machine, so the aggregate rows those
 * events would make are seeded directly (30 days × (org + 3 numbers + 20 members + 15 labels +
 * 50 groups × (1 + 5 senders)) daily rows, their counters summing to 100,000 conversations and
 * 1,000,000 messages, plus the week and month roll-up rows the consumer writes with them:
 * withRollups). Reads never touch messages, so their cost depends on the rows only.
 * View: readAnalytics (the GET /analytics use case, the page's first view: the KPIs with the
 * previous period, the per-day chart and busiest hours; the org's day rows + the previous period as
 * months + weeks + odd days) as an admin, in process against DynamoDB Local, 60 times; p95 must be
 * ≤ 150 ms. The tables (GET /analytics/breakdown) and groups (GET /analytics/groups), second
 * requests of the page, are timed apart.
 * Pace: 200 events/s for 10 s into an in-process queue drained like the SQS event source: batches
 * of up to 10 (the consumer's batchSize) by 8 concurrent workers (Lambda's event source scales out), each batch one
 * applyAnalyticsBatch (the consumer's use case); over 2,000 chats. Prints the lag (event arrival
 * to applied: p95 and worst) and whether the queue kept up.
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
    const dayRows = days.flatMap((day) =>
      dims.map(([dim, dim_id, share]) => {
        const msgs = Math.round(perDay.msgs * share * (0.8 + rand() * 0.4));
        const conv = Math.round(perDay.conv * share * (0.8 + rand() * 0.4));
        const hours = Object.fromEntries(HOUR_COUNTERS.map((h, i) => [h, Math.round((msgs / 24) * (i >= 8 && i <= 18 ? 1.6 : 0.4))]));
        return { dim: dim as Dimension, dim_id, day, counters: { conv_opened: conv, conv_closed: Math.round(conv * 0.9), msg_in: Math.round(msgs * 0.55), msg_out: Math.round(msgs * 0.45), frt_sum: conv * 240_000, frt_count: conv, rt_sum: msgs * 90_000, rt_count: Math.round(msgs * 0.4), res_sum: conv * 3_600_000, res_count: conv, tickets_created: Math.round(conv * 0.1), tickets_resolved: Math.round(conv * 0.08), assigned: conv, ...hours } };
      }),
    );
    // the previous 30 days too (the view compares with them), then the week and month roll-ups
    const prevRows = dayRows.map((r) => ({ ...r, day: dayOf(Date.parse(`${r.day}T00:00:00Z`) - 30 * 86_400_000) }));
    const rows = mergeIncrements(withRollups([...dayRows, ...prevRows])).map((i) => ({ org_id: org, dim: i.dim, dim_id: i.dim_id, day: i.day, ...i.counters }));
    const t0 = Date.now();
    for (let i = 0; i < rows.length; i += 25) await db().entities.analyticsDaily.put(rows.slice(i, i + 25) as never).go();
    console.log(`load average (1, 5, 15 min) ${loadavg().map((x) => x.toFixed(2)).join(', ')}`);
    console.log(`seeded ${rows.length} aggregate rows (60 days of day rows + their week and month roll-ups; 100,000 conversations and 1,000,000 messages per 30 days, 20 members) in ${((Date.now() - t0) / 1000).toFixed(1)} s`);

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
    const btimes: number[] = [];
    for (let i = 0; i < 20; i++) {
      const s = performance.now();
      await readAnalyticsBreakdown(admin, days[0]!, days[29]!);
      btimes.push(performance.now() - s);
    }
    console.log(`tables (GET /analytics/breakdown, second request of the page; 3 numbers, 20 members, 15 labels, 20 runs): p50 ${pct(btimes, 50).toFixed(1)} ms, p95 ${pct(btimes, 95).toFixed(1)} ms`);
    const gtimes: number[] = [];
    for (let i = 0; i < 10; i++) {
      const s = performance.now();
      await readGroupAnalytics(admin, days[0]!, days[29]!, async (ids) => new Set(ids));
      gtimes.push(performance.now() - s);
    }
    console.log(`groups (GET /analytics/groups, second request of the page; 50 groups × 5 senders, 10 runs): p50 ${pct(gtimes, 50).toFixed(1)} ms, p95 ${pct(gtimes, 95).toFixed(1)} ms`);

    const rate = 200;
    const seconds = 10;
    const total = rate * seconds;
    const workers = 8;
    const queue: Array<AnalyticsEvent & { arrived: number }> = [];
    const lags: number[] = [];
    let produced = 0;
    const start = Date.now();
    const producer = (async () => {
      for (let i = 0; i < total; i++) {
        const due = start + (i * 1000) / rate;
        const wait = due - Date.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        const chat = { chat_id: `1555${String(i % 2000).padStart(7, '0')}@c.us`, chat_type: 'user' as const, phone_id: 'phone_0', label_ids: ['lbl_1'], assigned_to: 'agent1@bench.chorus' };
        const input = Math.floor(i / 2000) % 2 ? { kind: 'message_out' as const, at: Date.now(), chat, member: 'agent1@bench.chorus' } : { kind: 'message_in' as const, at: Date.now(), chat, author: null };
        queue.push({ eventId: `bench:${i}`, input, arrived: Date.now() });
        produced++;
      }
    })();
    const worker = async () => {
      while (produced < total || queue.length) {
        const batch = queue.splice(0, 10);
        if (!batch.length) {
          await new Promise((r) => setTimeout(r, 5)); // the event source's poll
          continue;
        }
        await applyAnalyticsBatch(org, batch, { timeZone: 'Etc/UTC' });
        const t = Date.now();
        for (const e of batch) lags.push(t - e.arrived);
      }
    };
    await Promise.all([producer, ...Array.from({ length: workers }, worker)]);
    const took = (Date.now() - start) / 1000;
    const p95lag = pct(lags, 95);
    console.log(
      `aggregation at ${rate} events/s for ${seconds} s (batches of ≤10, ${workers} workers): ${lags.length} events applied in ${took.toFixed(1)} s (${(lags.length / took).toFixed(0)}/s), lag p50 ${pct(lags, 50).toFixed(0)} ms, p95 ${p95lag.toFixed(0)} ms, worst ${Math.max(...lags).toFixed(0)} ms ${took <= seconds + 1 ? 'PASS (keeps up)' : 'FAIL (falls behind)'}`,
    );
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
