import { SQSClient, SendMessageCommand } from '@aws-sdk/client-sqs';
import { config } from '../config.ts';

/**
 * Command queues (work addressed to one consumer; see COMMAND_QUEUES in events/catalog.ts).
 * In AWS: SQS SendMessage to the queue URL from env. The local runtime installs its durable
 * file-backed queues with `setCommandTransport`.
 */
export type CommandQueue = 'whatsapp-inbound' | 'whatsapp-outbound' | 'task-reminders' | 'chat-snooze' | 'chat-bulk' | 'wa-web-commands' | 'wa-web-inbound';

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

const URL_ENV: Record<CommandQueue, 'WHATSAPP_INBOUND_QUEUE_URL' | 'WHATSAPP_OUTBOUND_QUEUE_URL' | 'TASK_REMINDERS_QUEUE_URL' | 'CHAT_SNOOZE_QUEUE_URL' | 'CHAT_BULK_QUEUE_URL' | 'WA_WEB_COMMANDS_QUEUE_URL' | 'WA_WEB_INBOUND_QUEUE_URL'> = {
  'whatsapp-inbound': 'WHATSAPP_INBOUND_QUEUE_URL',
  'whatsapp-outbound': 'WHATSAPP_OUTBOUND_QUEUE_URL',
  'task-reminders': 'TASK_REMINDERS_QUEUE_URL',
  'chat-snooze': 'CHAT_SNOOZE_QUEUE_URL',
  'chat-bulk': 'CHAT_BULK_QUEUE_URL',
  'wa-web-commands': 'WA_WEB_COMMANDS_QUEUE_URL',
  'wa-web-inbound': 'WA_WEB_INBOUND_QUEUE_URL',
};

const sqsTransport: CommandTransport = {
  async send(queue, body, opts) {
    sqs ??= new SQSClient({ region: config().AWS_REGION, endpoint: config().AWS_ENDPOINT_URL });
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
