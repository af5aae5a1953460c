import { parseArgs } from 'node:util';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startRuntime } from './local/runtime.ts';
import { freePort } from './local/ports.ts';
import { inboundText, newWamid } from '../shared/whatsapp/cloud/payloads.ts';
import { db } from '../shared/db/service.ts';
import { createRule } from '../shared/rules/rules.ts';
import { resetRuleEngineStats, ruleEngineStats } from '../shared/rules/engine.ts';
import { forgetOrgPlanState } from '../shared/plan/gate.ts';
import { RULES_PER_LICENCE } from '../shared/plan/catalog.rules.ts';
import { pct, postSignedWebhook, profileDynamoDb } from './bench-lib.ts';
import { joinBatchTotals } from '../shared/db/transaction.ts';

/**
 * Rules benchmark (issue 17):
 *   npm run bench:rules -- [--rules 100] [--rate 200] [--seconds 60] [--chats 200] [--in-memory]
 * Starts the local runtime, creates `rules` active rules (rule i: when a message is received and
 * its text contains `kw<i>:`, add a private note "auto <text>"), then posts signed customer
 * messages at `rate`/s for `seconds` (message j says `kw<j % rules>: m<j>`, so each matches
 * exactly one rule; the other 99 are evaluated and do not match). Measures, from the Rules log:
 *  - p50/p95/max from message stored (the event's occurred_at, stamped in the storing
 *    transaction) to the rule's actions done (target p95 <= 500 ms);
 *  - duplicate actions: notes whose text appears more than once (target 0; actions are idempotent
 *    by event id + rule id + action index);
 *  - messages that got no note, and what may explain one: rule evaluations logged as failed or
 *    skipped (e.g. the per-chat rate limit), failed deliveries and dead letters of the inbound and
 *    rules queues.
 */
const { values } = parseArgs({
  options: {
    rules: { type: 'string', default: '100' },
    rate: { type: 'string', default: '200' },
    seconds: { type: 'string', default: '60' },
    chats: { type: 'string', default: '200' },
    'in-memory': { type: 'boolean', default: false },
    /** print the queues' depths and the event loop's delay every 2 s, and DynamoDB calls by command */
    trace: { type: 'boolean', default: false },
  },
});
const RULES = Number(values.rules);
const RATE = Number(values.rate);
const SECONDS = Number(values.seconds);
const CHATS = Number(values.chats);

async function main() {
  const dir = await mkdtemp(join(tmpdir(), 'chorus-bench-rules-'));
  const port = await freePort();
  const rt = await startRuntime({ dataDir: dir, port, inMemoryTable: values['in-memory'], logLevel: 'warn' });
  const phone = { phone_number_id: rt.env.WHATSAPP_PHONE_NUMBER_ID, display_phone_number: rt.env.WHATSAPP_DISPLAY_PHONE_NUMBER };
  const orgId = rt.orgId;
  try {
    const actor = { email: rt.demo.adminEmail, user_id: 'bench', org_id: orgId, role: 'admin' as const };
    // an active Pro subscription with enough licences for RULES rules (spec §9: 2 per licence)
    await db()
      .entities.organization.patch({ org_id: orgId })
      .set({ org_plan: { plan_id: 'pro', current_period_end: Math.floor(Date.now() / 1000) + 30 * 86_400 }, subscription_status: 'active', is_free_trial: false, licences: Math.ceil(RULES / RULES_PER_LICENCE) })
      .go();
    forgetOrgPlanState(orgId);
    for (let i = 0; i < RULES; i++) {
      await createRule(actor, { name: `bench ${i}`, trigger: { type: 'message.received' }, conditions: { match: 'all', items: [{ field: 'message.body', op: 'contains', value: `kw${i}:` }] }, actions: [{ type: 'private_note', body: 'auto {{message.body}}' }], enabled: true });
    }
    // warm-up: one message per chat (creates the chats; not measured)
    for (let c = 0; c < CHATS; c += 20) {
      await Promise.all(Array.from({ length: Math.min(20, CHATS - c) }, (_, k) => postSignedWebhook(rt, port, JSON.stringify(inboundText(phone, String(15550000000 + c + k), 'hi', { id: newWamid() })))));
    }
    await rt.idle();
    resetRuleEngineStats();
    const failedBefore = new Map([...rt.queues].map(([n, q]) => [n, q.failedDeliveries]));
    const deadBefore = new Map([...rt.queues].map(([n, q]) => [n, q.deadLettered]));
    const { monitorEventLoopDelay } = await import('node:perf_hooks');
    const loop = monitorEventLoopDelay({ resolution: 10 });
    loop.enable();
    const ddb = values.trace ? await profileDynamoDb({ byQueue: true }) : null;
    const tracer = values.trace
      ? setInterval(() => {
          const deep = [...rt.queues.values()].filter((q) => q.depth > 0).map((q) => `${q.name} ${q.depth}`);
          console.log(`  t+${((performance.now() - t0) / 1000).toFixed(0)} s: loop delay p50 ${(loop.percentile(50) / 1e6).toFixed(0)} / p99 ${(loop.percentile(99) / 1e6).toFixed(0)} ms; queues: ${deep.join(', ') || 'empty'}`);
          loop.reset();
        }, 2_000)
      : undefined;
    const startedAt = Date.now();
    const total = RATE * SECONDS;
    let refused = 0;
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: total }, async (_, j) => {
        await new Promise((r) => setTimeout(r, (j * 1000) / RATE));
        const raw = JSON.stringify(inboundText(phone, String(15550000000 + (j % CHATS)), `kw${j % RULES}: m${j}`, { id: newWamid() }));
        // a refused or reset request is retried once (the same wamid: ingest dedupes), then counted
        for (let attempt = 0; attempt < 2; attempt++) {
          const status = await postSignedWebhook(rt, port, raw).catch(() => 0);
          if (status === 200) return;
        }
        refused++;
      }),
    );
    const postSecs = (performance.now() - t0) / 1000;
    await rt.idle();
    const drainSecs = (performance.now() - t0) / 1000;
    if (tracer) clearInterval(tracer);
    if (ddb) console.log(ddb());

    // the Rules log: matched rows of this run
    const matched: number[] = [];
    let redelivered = 0;
    // evaluations of this run that did not end 'matched' with every action done (outcome: count)
    const otherOutcomes = new Map<string, number>();
    let cursor: string | null = null;
    do {
      const page: { data: Array<{ outcome: string; latency_ms?: number; at: number; actions?: Array<{ status: string; detail?: string }> }>; cursor: string | null } = await db()
        .entities.ruleLog.query.byOrg({ org_id: orgId })
        .where((a, op) => op.ne(a.outcome, 'not_matched'))
        .go({ cursor, limit: 1000 });
      for (const r of page.data) {
        if (r.at < startedAt) continue;
        if (r.outcome !== 'matched' || r.actions?.some((a) => a.status !== 'done' && a.status !== 'duplicate')) {
          const k = `${r.outcome}${r.actions?.length ? ` (${r.actions.map((a) => `${a.status}${a.status === 'done' || !a.detail ? '' : `: ${a.detail.slice(0, 120)}`}`).join(', ')})` : ''}`;
          otherOutcomes.set(k, (otherOutcomes.get(k) ?? 0) + 1);
        }
        if (r.outcome !== 'matched' || r.latency_ms == null) continue;
        // an evaluation redelivered after its actions were done (at-least-once) shows them as duplicates: not an action, not measured
        if (r.actions?.some((a) => a.status === 'done')) matched.push(r.latency_ms);
        else redelivered++;
      }
      cursor = page.cursor;
    } while (cursor);

    // notes by text: duplicates and misses
    const seen = new Map<string, number>();
    for (let c = 0; c < CHATS; c++) {
      const rows = (await db().entities.message.query.byChat({ org_id: orgId, chat_id: `${15550000000 + c}@c.us` }).go({ pages: 'all', attributes: ['body', 'is_private_note'] })).data as Array<{ body?: string; is_private_note?: boolean }>;
      for (const m of rows) if (m.is_private_note && m.body?.startsWith('auto kw')) seen.set(m.body, (seen.get(m.body) ?? 0) + 1);
    }
    const duplicates = [...seen.values()].reduce((s, n) => s + (n - 1), 0);
    const missing = total - refused - seen.size;
    const f = (x: number) => x.toFixed(0);
    console.log(`machine: ${(await import('node:os')).cpus().length} cores, node ${process.version}, table: DynamoDB Local ${values['in-memory'] ? '(in memory)' : '(on disk)'}`);
    console.log(`rules: ${RULES} active (message.received, one condition, one private-note action); messages: ${total} at ${RATE}/s for ${SECONDS} s (posted in ${postSecs.toFixed(1)} s, all handled after ${drainSecs.toFixed(1)} s); ${CHATS} chats; webhook refusals: ${refused}`);
    console.log(`evaluations: ${total * RULES} (${matched.length} matched and acted; ${redelivered} redelivered evaluations found their actions already done)`);
    console.log(`stored -> action done: p50 ${f(pct(matched, 50))} ms, p95 ${f(pct(matched, 95))} ms, max ${f(Math.max(...matched))} ms (target p95 <= 500 ms: ${pct(matched, 95) <= 500 ? 'met' : 'NOT met'})`);
    console.log(`duplicate actions: ${duplicates} (target 0); messages without their note: ${missing}`);
    const failedDeliveries = [...rt.queues].flatMap(([n, q]) => (q.failedDeliveries > (failedBefore.get(n) ?? 0) ? [`${n} ${q.failedDeliveries - (failedBefore.get(n) ?? 0)}`] : []));
    const deadLetters = [...rt.queues].flatMap(([n, q]) => (q.deadLettered > (deadBefore.get(n) ?? 0) ? [`${n} ${q.deadLettered - (deadBefore.get(n) ?? 0)}`] : []));
    console.log(`evaluations not matched-and-done: ${[...otherOutcomes].map(([k, n]) => `${k}: ${n}`).join('; ') || 'none'}; failed deliveries: ${failedDeliveries.join(', ') || 'none'}; dead letters: ${deadLetters.join(', ') || 'none'}`);
    const st = ruleEngineStats();
    const ph = (xs: number[]) => (xs.length ? `p50 ${f(pct(xs, 50))} / p95 ${f(pct(xs, 95))} ms` : 'n/a');
    console.log(`where the time goes (events with rules): stored -> on the rules queue ${ph(st.publish)}; queued ${ph(st.queued)}; delivered -> evaluating ${ph(st.receipts)}; evaluation + actions ${ph(st.handle)}; log + sample writes ${ph(st.log)}`);
    console.log(`private notes committed: ${joinBatchTotals.writesTogether} in ${joinBatchTotals.together} shared transactions, ${joinBatchTotals.alone} on their own`);
    console.log(`load average: ${(await import('node:os')).loadavg().map((x) => x.toFixed(2)).join(' ')}`);
  } finally {
    await rt.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
