import { parseArgs } from 'node:util';
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
import { cpus, loadavg } from 'node:os';
import { DEFAULT_FAULT_OPTIONS, runIngestFaults } from './ingest-faults.ts';

/**
 * The ingest fault harness (issue 23 item 2; scripts/ingest-faults.ts says what it does).
 *
 *   npm run bench:ingest-faults -- [--webhooks 10000] [--chats 200] [--dup 0.3] [--outbound 40]
 *                                  [--inflight 8] [--kill-at 0.4] [--ddb-restart-at 0.7] [--short]
 *
 * `--short` is the CI form (600 webhooks, 40 chats, 12 outbound). Exits 1 when a message was lost
 * or doubled, an unread counter, reaction or ack is wrong, something was dead-lettered, or a message
 * stored while the socket was connected never reached it.
 */
const { values } = parseArgs({
  options: {
    webhooks: { type: 'string' },
    chats: { type: 'string' },
    dup: { type: 'string' },
    outbound: { type: 'string' },
    inflight: { type: 'string' },
    'kill-at': { type: 'string' },
    'ddb-restart-at': { type: 'string' },
    short: { type: 'boolean', default: false },
  },
});
const base = values.short ? { ...DEFAULT_FAULT_OPTIONS, webhooks: 600, chats: 40, outbound: 12 } : DEFAULT_FAULT_OPTIONS;
const num = (v: string | undefined, d: number) => (v === undefined ? d : Number(v));
const opts = {
  ...base,
  webhooks: num(values.webhooks, base.webhooks),
  chats: num(values.chats, base.chats),
  dupShare: num(values.dup, base.dupShare),
  outbound: num(values.outbound, base.outbound),
  inflight: num(values.inflight, base.inflight),
  killAt: num(values['kill-at'], base.killAt),
  ddbRestartAt: num(values['ddb-restart-at'], base.ddbRestartAt),
  log: (l: string) => console.log(`  · ${l}`),
};

const r = await runIngestFaults(opts);
console.log(`machine: ${cpus().length} cores, load ${loadavg().map((x) => x.toFixed(1)).join(' ')}, node ${process.version}`);
console.log(`sent: ${r.webhooks} webhooks (${r.unique_messages} messages, ${r.duplicates_sent} duplicates, ${r.reactions_sent} reactions, ${r.statuses_sent} statuses), shuffled, ${opts.inflight} in flight`);
console.log(`faults: kill -9 of the runtime ${r.killed ? 'yes' : 'no'}; DynamoDB Local restart ${r.ddb_restarted ? 'yes' : 'no'}; ${r.retried_posts} posts not answered 200 and sent again`);
console.log(`all answered 200 and stored after ${r.seconds.toFixed(1)} s`);
console.log(`lost ${r.lost} · duplicates stored ${r.duplicates_stored} · unread counters wrong ${r.unread_wrong} · reactions missing ${r.reactions_missing}`);
console.log(`acks not final ${r.acks_not_final} · acks backwards on the socket ${r.acks_backwards} · dead letters ${r.dead_letters} ${JSON.stringify(r.dead_letters_by_queue)} · stray rejections the runtime logged and survived ${r.stray_rejections}`);
console.log(`socket: ${r.socket_events} events, ${r.socket_duplicate_ids} ids pushed twice (redelivery after the kill; the web client drops repeats by id), message.received never pushed: ${r.socket_missing} (+ ${r.socket_missing_while_down} stored before the socket's reconnect, refetched by the app)`);
const bad = r.lost + r.duplicates_stored + r.unread_wrong + r.reactions_missing + r.acks_not_final + r.acks_backwards + r.dead_letters + r.socket_missing;
process.exit(bad ? 1 : 0);
