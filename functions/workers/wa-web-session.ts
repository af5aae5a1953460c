import { ChangeMessageVisibilityCommand, DeleteMessageCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { config } from '../../shared/config.ts';
import { log } from '../../shared/log.ts';
import { SessionWorker } from '../../shared/whatsapp/web/session-worker.ts';
import { baileysSocketFactory } from '../../shared/whatsapp/web/baileys-socket.ts';
import type { WaWebCommand } from '../../shared/whatsapp/web/commands.ts';

/**
 * The WhatsApp Web session worker process (ECS Fargate task, infra/stacks/wa-web-stack.ts; not a
 * Lambda: whatsapp-protocols.md §B.11). Holds numbers through leases with real Baileys sockets,
 * puts what they receive on the wa-web-inbound queue (WA_WEB_INBOUND_QUEUE_URL; stored by its
 * Lambda consumer) and long-polls the wa-web-commands FIFO queue: a command for a number this task holds is carried
 * out and deleted; one for a number another task holds is made visible again after 2 s (FIFO keeps
 * that number's later commands behind it); failures are retried by SQS and dead-lettered after
 * the catalogue's maxReceiveCount. SIGTERM (deploys, scale-in) closes the sockets and gives the
 * leases back so another task takes the numbers at once.
 */
const HAND_BACK_S = 2;

async function main(): Promise<void> {
  const url = config().WA_WEB_COMMANDS_QUEUE_URL;
  if (!url) throw new Error('WA_WEB_COMMANDS_QUEUE_URL is not set');
  const sqs = new SQSClient({ region: config().AWS_REGION, endpoint: config().AWS_ENDPOINT_URL });
  const worker = new SessionWorker({ connect: baileysSocketFactory() });
  await worker.start();
  log('info', 'wa_web.worker_started', { worker: worker.id });

  let running = true;
  const shutdown = async () => {
    running = false;
    await worker.stop();
    log('info', 'wa_web.worker_stopped', { worker: worker.id });
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown());
  process.once('SIGINT', () => void shutdown());

  while (running) {
    const res = await sqs
      .send(new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 10, WaitTimeSeconds: 20, MessageSystemAttributeNames: ['ApproximateReceiveCount'] }))
      .catch((e: Error) => {
        log('error', 'wa_web.receive_failed', { error: e.message });
        return new Promise<{ Messages?: undefined }>((r) => setTimeout(() => r({}), 5_000));
      });
    for (const m of res.Messages ?? []) {
      let done = false;
      try {
        const outcome = await worker.handleCommand(JSON.parse(m.Body ?? '{}') as WaWebCommand, Number(m.Attributes?.ApproximateReceiveCount ?? '1'));
        done = outcome === 'done';
      } catch (e) {
        log('warn', 'wa_web.command_failed', { worker: worker.id, error: String((e as Error)?.message ?? e) });
      }
      if (done) await sqs.send(new DeleteMessageCommand({ QueueUrl: url, ReceiptHandle: m.ReceiptHandle }));
      else await sqs.send(new ChangeMessageVisibilityCommand({ QueueUrl: url, ReceiptHandle: m.ReceiptHandle, VisibilityTimeout: HAND_BACK_S })).catch(() => undefined);
    }
  }
}

main().catch((e: unknown) => {
  log('error', 'wa_web.worker_crashed', { error: String((e as Error)?.stack ?? e) });
  process.exit(1);
});
