import { randomBytes } from 'node:crypto';
import { ulid } from 'ulid';
import { db } from '../../shared/db/service.ts';
import { storeInboundMessage } from '../../shared/inbox/ingest.ts';
import { setCommandTransport, type CommandQueue } from '../../shared/ports/commands.ts';
import { latestOf, toMessageWire } from '../../shared/inbox/wire.ts';
import type { WaWebCommand } from '../../shared/whatsapp/web/commands.ts';
import type { Message } from '../../shared/message/message.schemas.ts';
import type { TestRuntime } from './runtime.ts';
import { createWaWebSession, getWaWebSession } from '../../shared/whatsapp/web/sessions.ts';
import { eventually } from './wait.ts';

/**
 * Builders for a linked WhatsApp Web number ('wa_web') in a test runtime's table, standing in for
 * what its session worker (the connector) would have written: the phone row, a customer's message
 * (stored through the real inbound path), and a message of ours the session already sent (ack 1,
 * a WhatsApp id, its wa-message-ref), at a chosen time (epoch ms) so tests control its age.
 */
export interface WaWebPhone {
  org_id: string;
  phone_id: string;
  org_phone: string;
}

/** A WhatsApp message id in Baileys' form (`key.id`, e.g. 3EB0…). */
export const baileysId = (): string => `3EB0${randomBytes(8).toString('hex').toUpperCase()}`;

export async function seedWaWebPhone(orgId: string, phoneId: string, orgPhone: string): Promise<WaWebPhone> {
  await db().entities.phone.create({ org_id: orgId, phone_id: phoneId, org_phone: orgPhone, connection_type: 'wa_web', is_ready: true, first_connected_at: Date.now() }).go();
  return { org_id: orgId, phone_id: phoneId, org_phone: orgPhone };
}

/** A customer's text on the number (the inbound path creates the chat). @returns its WhatsApp id */
export async function customerWrites(phone: WaWebPhone, from: string, body: string, opts: { name?: string; at?: number; id?: string } = {}): Promise<string> {
  const message_id = opts.id ?? baileysId();
  await storeInboundMessage(phone, { message_id, chat_id: `${from}@c.us`, chat_type: 'user', sender_phone: from, author: opts.name, timestamp: opts.at ?? Date.now(), message_type: 'text', body });
  return message_id;
}

/** A text of ours the number's session has sent (ack 1), written at `at` (epoch ms). */
export async function seedSentMessage(phone: WaWebPhone, chatId: string, body: string, opts: { at?: number; author?: string } = {}): Promise<Message> {
  const at = opts.at ?? Date.now();
  const message_id = baileysId();
  const unique_id = ulid(at);
  const item = (
    await db()
      .entities.message.create({ org_id: phone.org_id, chat_id: chatId, unique_id, timestamp: at, message_id, sent_message_id: message_id, org_phone: phone.org_phone, phone_id: phone.phone_id, sender_phone: phone.org_phone, author: opts.author, body, from_me: true, ack: 1, message_type: 'text', version: 0 })
      .go()
  ).data;
  await db().entities.waMessageRef.create({ org_id: phone.org_id, message_id, chat_id: chatId, unique_id, timestamp: at, expires_at: Math.floor(Date.now() / 1000) + 86_400 }).go();
  // the chat row's preview, as the send path leaves it (its list position is not what these tests are about)
  const chat = (await db().entities.chat.get({ org_id: phone.org_id, chat_id: chatId }).go()).data;
  if (chat && (chat.latest_message as { timestamp?: number } | undefined)?.timestamp !== undefined && at >= (chat.latest_message as { timestamp: number }).timestamp) {
    await db().entities.chat.patch({ org_id: phone.org_id, chat_id: chatId }).set({ latest_message: latestOf(item), version: chat.version + 1 }).go();
  }
  return toMessageWire(item);
}

/**
 * Take the runtime's commands for WhatsApp Web sessions: every command `sendWaWebCommand` enqueues
 * lands in `commands` instead of a worker (the test plays the worker and reports results); set
 * `fail` to make the queue refuse them. Other queues work as before.
 */
export function captureWaWebCommands(rt: TestRuntime): { commands: WaWebCommand[]; fail: boolean; take<K extends WaWebCommand['kind']>(kind: K): Extract<WaWebCommand, { kind: K }> } {
  const box = {
    commands: [] as WaWebCommand[],
    fail: false,
    take<K extends WaWebCommand['kind']>(kind: K) {
      const i = box.commands.findIndex((c) => c.kind === kind);
      if (i < 0) throw new Error(`no ${kind} command was sent`);
      return box.commands.splice(i, 1)[0] as Extract<WaWebCommand, { kind: K }>;
    },
  };
  setCommandTransport({
    async send(queue: CommandQueue, body: string) {
      if (queue === 'wa-web-commands') {
        if (box.fail) throw new Error('queue unavailable');
        box.commands.push(JSON.parse(body) as WaWebCommand);
        return;
      }
      const q = rt.queues.get(queue);
      if (!q) throw new Error(`no local queue ${queue}`);
      await q.send(body);
    },
  });
  return box;
}

/**
 * Add a WhatsApp Web number to the test org and link it on the runtime's stand-in: the phone row,
 * a wanted session, one worker tick, then wait until the stand-in's socket and the session row are open.
 */
export async function linkWaWebNumber(rt: TestRuntime, phoneId: string, orgPhone: string): Promise<void> {
  await db().entities.phone.create({ org_id: rt.orgId, phone_id: phoneId, org_phone: orgPhone, connection_type: 'wa_web' }).go();
  await createWaWebSession({ org_id: rt.orgId, phone_id: phoneId, org_phone: orgPhone });
  await rt.waWebWorker.tick();
  await eventually(async () => rt.waWeb.isOpen(phoneId) && (await getWaWebSession(phoneId))?.state === 'open', 10_000, 'the stand-in session to open');
}
