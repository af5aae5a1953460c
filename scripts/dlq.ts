import { join, resolve } from 'node:path';
import { GetQueueAttributesCommand, ListQueuesCommand, ListQueueTagsCommand, ReceiveMessageCommand, SQSClient, StartMessageMoveTaskCommand, type Message } from '@aws-sdk/client-sqs';
import { readDeadLetters, redriveDeadLetterFiles, type DeadLetter } from './local/queue.ts';
import { REPO_ROOT } from './local/handlers.ts';
import { findKeptRejection, formatRejection, formatRejectionList, listKeptRejections, openDataDirTable } from './dlq-rejections.ts';

/**
 * `npm run dlq -- list | show <id> | redrive <queue> [--aws]`: dead letters a person can act on
 * (issue 23 item 3).
 *
 * `npm run dlq -- rejections [--org <org_id>]... [--limit N] [--aws]` and `rejection <id>`: the
 * webhook's own dead letters, signed WhatsApp bodies no schema accepted, answered 200 and kept in
 * the table with their reason (scripts/dlq-rejections.ts): the list shows time, org (`unknown`
 * when none matched), id, size and reason, newest first; `rejection <id>` prints one with its raw
 * body. Locally they are read from the data dir's table (a DynamoDB Local of its own, beside a
 * running Chorus, unless AWS_ENDPOINT_URL(_DYNAMODB) names one); with `--aws` from TABLE_NAME (the
 * Data stack's TableName output) with the usual AWS credentials.
 *
 * Locally it asks the running runtime (`http://127.0.0.1:$PORT`, dev routes `/_local/dead-letters`)
 * and, when none answers, reads and moves the files under `$CHORUS_DATA_DIR/queues/*-dlq/` itself
 * (the next start delivers what was redriven).
 *
 * With `--aws` it works on the deployed queues through the SQS API (credentials and region from the
 * usual AWS variables; `AWS_ENDPOINT_URL` for LocalStack): queues are found by their `chorus:queue`
 * tag (infra/constructs/queue-consumer.ts), `list`/`show` peek at the DLQ without consuming
 * (ReceiveMessage with a visibility timeout of 0), and `redrive` starts SQS's own redrive
 * (StartMessageMoveTask) back to the source queue — the same as the console's "Start DLQ redrive",
 * which the DLQ alarm's description links to.
 */

const args = process.argv.slice(2);
const aws = args.includes('--aws');
/** `--name value` options (repeatable), taken out of the positional arguments */
const options = new Map<string, string[]>();
const positional: string[] = [];
for (let i = 0; i < args.length; i++) {
  const a = args[i]!;
  if (a === '--aws') continue;
  if (a === '--org' || a === '--limit') options.set(a.slice(2), [...(options.get(a.slice(2)) ?? []), args[++i] ?? '']);
  else positional.push(a);
}
const [cmd, arg] = positional;
const usage = 'usage: npm run dlq -- list | show <id> | redrive <queue> | rejections [--org <org_id>] [--limit N] | rejection <id> [--aws]';

const fmtTime = (ms?: number) => (ms ? new Date(ms).toISOString().replace('T', ' ').slice(0, 19) + ' UTC' : '-');

function printList(rows: DeadLetter[]): void {
  if (!rows.length) {
    console.log('No dead letters.');
    return;
  }
  for (const r of rows) console.log(`${r.queue}\t${r.id}\t${fmtTime(r.deadLetteredAt)}\t${r.reason}`);
  const byQueue = new Map<string, number>();
  for (const r of rows) byQueue.set(r.queue, (byQueue.get(r.queue) ?? 0) + 1);
  console.log(`\n${rows.length} dead letter(s): ${[...byQueue].map(([q, n]) => `${q} ${n}`).join(', ')}. Redrive with: npm run dlq -- redrive <queue>${aws ? ' --aws' : ''}`);
}

function printOne(r: DeadLetter): void {
  let body: unknown = r.body;
  try {
    body = JSON.parse(r.body);
  } catch {
    // not JSON: print as it is
  }
  console.log(`queue:            ${r.queue}\nid:               ${r.id}\nfirst accepted:   ${fmtTime(r.sentAt)}\ndead-lettered:    ${fmtTime(r.deadLetteredAt)}\nattempts:         ${r.receiveCount}\nreason:           ${r.reason}\nbody:\n${JSON.stringify(body, null, 2)}`);
}

// ---- webhook rejections (the table, locally and in AWS) -------------------------------------

/** `rejections` / `rejection <id>` on the table this process points at. */
async function rejections(): Promise<void> {
  const orgIds = options.get('org');
  if (cmd === 'rejections') {
    const limit = Number(options.get('limit')?.[0] ?? 50);
    if (!Number.isInteger(limit) || limit < 1) throw new Error('--limit must be a positive whole number');
    return console.log(formatRejectionList(await listKeptRejections({ orgIds, limit })));
  }
  const one = await findKeptRejection(arg!, { orgIds });
  if (!one) throw new Error(`No kept webhook rejection with id ${arg}. See: npm run dlq -- rejections${aws ? ' --aws' : ''}`);
  console.log(formatRejection(one));
}

// ---- local ----------------------------------------------------------------------------------

const base = process.env.CHORUS_URL ?? `http://127.0.0.1:${process.env.PORT ?? 3000}`;
const dataDir = resolve(process.env.CHORUS_DATA_DIR || join(REPO_ROOT, '.data'));

/** The running runtime's answer, or undefined when nothing listens. */
async function runtime<T>(path: string, init?: RequestInit): Promise<T | undefined> {
  let res: Response;
  try {
    res = await fetch(`${base}${path}`, init);
  } catch {
    return undefined;
  }
  if (res.status === 404 && path.endsWith('/redrive')) throw new Error(((await res.json()) as { error: { message: string } }).error.message);
  if (!res.ok) throw new Error(`${path} answered ${res.status}`);
  return (await res.json()) as T;
}

async function local(): Promise<void> {
  if (cmd === 'rejections' || cmd === 'rejection') {
    const close = await openDataDirTable(dataDir);
    try {
      return await rejections();
    } finally {
      await close();
    }
  }
  if (cmd === 'list' || cmd === 'show') {
    const rows = (await runtime<{ dead_letters: DeadLetter[] }>('/_local/dead-letters'))?.dead_letters ?? (await readDeadLetters(dataDir));
    if (cmd === 'list') return printList(rows);
    const one = rows.find((r) => r.id === arg);
    if (!one) throw new Error(`No dead letter with id ${arg}. See: npm run dlq -- list`);
    return printOne(one);
  }
  if (cmd === 'redrive') {
    const live = await runtime<{ redriven: number }>(`/_local/dead-letters/${encodeURIComponent(arg!)}/redrive`, { method: 'POST' });
    if (live) return console.log(`${live.redriven} record(s) of ${arg} are back on the queue.`);
    const moved = await redriveDeadLetterFiles(dataDir, arg!);
    console.log(`${moved} record(s) of ${arg} moved back under ${join(dataDir, 'queues', arg!)}; they are delivered when Chorus starts.`);
    return;
  }
  throw new Error(usage);
}

// ---- AWS ------------------------------------------------------------------------------------

interface AwsQueue {
  name: string;
  url: string;
  arn: string;
  dlqUrl: string;
  dlqArn: string;
}

/** Chorus's queues and their DLQs, by the `chorus:queue` / `chorus:dead-letter-of` tags. */
async function awsQueues(sqs: SQSClient): Promise<AwsQueue[]> {
  const urls: string[] = [];
  let token: string | undefined;
  do {
    const page = await sqs.send(new ListQueuesCommand({ NextToken: token, MaxResults: 1000 }));
    urls.push(...(page.QueueUrls ?? []));
    token = page.NextToken;
  } while (token);
  const tagged = await Promise.all(urls.map(async (url) => ({ url, tags: (await sqs.send(new ListQueueTagsCommand({ QueueUrl: url }))).Tags ?? {} })));
  const arnOf = async (url: string) => (await sqs.send(new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ['QueueArn'] }))).Attributes!.QueueArn!;
  const out: AwsQueue[] = [];
  for (const q of tagged.filter((t) => t.tags['chorus:queue'])) {
    const name = q.tags['chorus:queue']!;
    const dlq = tagged.find((t) => t.tags['chorus:dead-letter-of'] === name);
    if (dlq) out.push({ name, url: q.url, arn: await arnOf(q.url), dlqUrl: dlq.url, dlqArn: await arnOf(dlq.url) });
  }
  return out;
}

function deadLetterOf(queue: string, m: Message): DeadLetter {
  const receives = Number(m.Attributes?.ApproximateReceiveCount ?? 0);
  return {
    queue,
    id: m.MessageId ?? '?',
    body: m.Body ?? '',
    receiveCount: receives,
    sentAt: Number(m.Attributes?.SentTimestamp ?? 0),
    // SQS keeps no error with a dead letter: the consumer's log line (queue.record_failed, by message_id) has it, in words
    reason: `${queue} gave up after ${receives} attempts. SQS keeps no error with it: search the consumer's logs for ${queue}.record_failed with message_id ${m.MessageId}`,
  };
}

async function awsMain(): Promise<void> {
  if (cmd === 'rejections' || cmd === 'rejection') {
    if (!process.env.TABLE_NAME) throw new Error('Set TABLE_NAME to the deployed table (the Data stack output TableName)');
    return rejections();
  }
  const sqs = new SQSClient({ endpoint: process.env.AWS_ENDPOINT_URL });
  const queues = await awsQueues(sqs);
  if (cmd === 'list' || cmd === 'show') {
    const rows: DeadLetter[] = [];
    for (const q of queues) {
      const n = Number((await sqs.send(new GetQueueAttributesCommand({ QueueUrl: q.dlqUrl, AttributeNames: ['ApproximateNumberOfMessages'] }))).Attributes?.ApproximateNumberOfMessages ?? 0);
      if (!n) continue;
      // peek: a visibility timeout of 0 leaves the messages where they are
      const got = await sqs.send(new ReceiveMessageCommand({ QueueUrl: q.dlqUrl, MaxNumberOfMessages: 10, VisibilityTimeout: 0, MessageSystemAttributeNames: ['All'] }));
      rows.push(...(got.Messages ?? []).map((m) => deadLetterOf(q.name, m)));
      if (n > (got.Messages?.length ?? 0)) console.log(`${q.name}: ${n} dead letters (showing ${got.Messages?.length ?? 0})`);
    }
    if (cmd === 'list') return printList(rows);
    const one = rows.find((r) => r.id === arg);
    if (!one) throw new Error(`No dead letter with id ${arg} among those peeked. See: npm run dlq -- list --aws`);
    return printOne(one);
  }
  if (cmd === 'redrive') {
    const q = queues.find((x) => x.name === arg);
    if (!q) throw new Error(`There is no queue named ${arg}. Queues: ${queues.map((x) => x.name).join(', ')}`);
    const task = await sqs.send(new StartMessageMoveTaskCommand({ SourceArn: q.dlqArn, DestinationArn: q.arn }));
    console.log(`Redrive of ${arg} started (task ${task.TaskHandle}); SQS moves the dead letters back at its own pace.`);
    return;
  }
  throw new Error(usage);
}

if (!cmd || (cmd !== 'list' && cmd !== 'rejections' && !arg)) {
  console.error(usage);
  process.exit(2);
}
(aws ? awsMain() : local()).catch((e: Error) => {
  console.error(e.message);
  process.exit(1);
});
