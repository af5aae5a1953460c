import { SQSClient, SendMessageCommand } from '@aws-sdk/client-sqs';
import { config } from '../config.ts';
import { type CommandQueueName, QUEUE_URL_ENV } from '../../events/catalog.ts';
import { traced } from '../tracing.ts';

/**
 * Command queues (work addressed to one consumer; see COMMAND_QUEUES in events/catalog.ts).
 * In AWS: SQS SendMessage to the queue URL from env. The local runtime installs its durable
 * file-backed queues with `setCommandTransport`.
 */
/** A queue producers send to: the names of events/catalog.ts COMMAND_QUEUES and WORKER_QUEUES. */
export type CommandQueue = CommandQueueName;

/** FIFO queues (wa-web-commands): the ordered group (e.g. the phone_id) and the deduplication id. */
export interface EnqueueOptions {
  groupId?: string;
  dedupeId?: string;
}

export interface CommandTransport {
  send(queue: CommandQueue, body: string, opts?: EnqueueOptions): Promise<void>;
}

let transport: CommandTransport | undefined;
let sqs: SQSClient | undefined;

/** Replace the transport (local runtime, tests). */
export function setCommandTransport(t: CommandTransport | undefined): void {
  transport = t;
}

/** queue name -> the config variable with its URL, from the catalogue */
const URL_ENV = QUEUE_URL_ENV;

const sqsTransport: CommandTransport = {
  async send(queue, body, opts) {
    sqs ??= traced(new SQSClient({ region: config().AWS_REGION, endpoint: config().AWS_ENDPOINT_URL }));
    const url = config()[URL_ENV[queue]];
    if (!url) throw new Error(`${URL_ENV[queue]} is not set`);
    await sqs.send(new SendMessageCommand({ QueueUrl: url, MessageBody: body, MessageGroupId: opts?.groupId, MessageDeduplicationId: opts?.dedupeId }));
  },
};

/**
 * Enqueue a command. Resolves once the queue has accepted it durably (SQS, or the local queue's file).
 * @param body a JSON value; at most 1 MiB once serialised (SQS limit)
 * @param opts FIFO group and deduplication ids (required by FIFO queues in AWS; ignored locally)
 */
export async function enqueue(queue: CommandQueue, body: unknown, opts?: EnqueueOptions): Promise<void> {
  await (transport ?? sqsTransport).send(queue, typeof body === 'string' ? body : JSON.stringify(body), opts);
}
