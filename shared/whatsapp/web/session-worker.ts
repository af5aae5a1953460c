import { hostname } from 'node:os';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { db } from '../../db/service.ts';
import { config } from '../../config.ts';
import { log } from '../../log.ts';
import { blobPort } from '../../ports/blobs.ts';
import { messageKey } from '../../message/message.ts';
import { markFailed, recordAccepted } from '../../inbox/send.ts';
import { deliverReaction } from '../../message/message-actions.ts';
import { onDeleteResult, onEditResult } from '../../message/message-edit.ts';
import { GraphApiError } from '../cloud/graph-client.ts';
import { WORKER_QUEUES } from '../../../events/catalog.ts';
import { parseInbound, WaWebConnector, chatRefOf, jidOfChat, jidUser, type BaileysEvent, type MessageRefOut, type Transport } from './connector.ts';
import type { WaWebPhone } from './ingest-web.ts';
import { storeWaWebMedia } from './media-web.ts';
import { toQueueRecords, type QueueRecord, type Replacer } from './inbound-queue.ts';
import { refreshGroupMetadata } from './group-metadata.ts';
import { enqueue } from '../../ports/commands.ts';
import { acquireLease, listSessions, releaseLease, renewLease } from './lease.ts';
import { setSessionState, type SessionState } from './sessions.ts';
import { ConnectorError, type ChatRef } from './types.ts';
import type { WaWebCommand, WaWebCommandResult } from './commands.ts';
import { claimGroupRequest, groupRequestStatus, settleGroupRequest } from '../../group-template/group-template.ts';

/**
 * The WhatsApp Web session worker (whatsapp-protocols.md §B.11): a long-lived process (ECS Fargate
 * in AWS, in-process in the local runtime) that holds linked numbers through leases (lease.ts),
 * keeps one socket per held number (a Baileys socket, or the local stand-in), puts what the
 * sockets receive, normalized, on the 'wa-web-inbound' queue whose consumer stores it
 * (inbound-queue.ts: durable, a table outage only delays messages), and carries out the commands
 * of commands.ts for the numbers it holds (send, edit, delete, react; and, for stored inbound
 * messages, downloading their files and reading group metadata), reporting results to the message
 * use cases.
 */

/** What a session's socket tells the worker: Baileys inbound events, and session state changes. */
/** `final`: the socket gave up for good (e.g. 440 connection replaced): the worker lets the number go and it waits for an admin (no reconnect loop, §B.3). */
export type SessionEvent = BaileysEvent | { event: 'session'; state: Exclude<SessionState, 'linking'>; qr?: string; me?: string; detail?: string; final?: boolean };

/** A connected session: the outbound Transport plus its events. */
export interface SessionSocket extends Transport {
  onEvent(listener: (e: SessionEvent) => void): void;
  /** the decrypted file of a received media message (the raw Baileys WAMessage); Baileys `downloadMediaMessage` */
  downloadMedia?(raw: unknown): Promise<Uint8Array>;
  close(): Promise<void>;
}

/** Opens the socket of a number (Baileys with the DynamoDB auth state, or the local stand-in). */
export type SocketFactory = (phone: WaWebPhone) => Promise<SessionSocket>;

export interface SessionWorkerOptions {
  /** lease owner name; default WA_WEB_WORKER_ID or host:pid */
  id?: string;
  connect: SocketFactory;
  /** ms a lease lasts without a heartbeat (default 30 s) */
  leaseMs?: number;
  /** ms between heartbeats / looks for free numbers (default 10 s; must be well under leaseMs) */
  heartbeatMs?: number;
  /** most numbers held at once (default WA_WEB_MAX_SESSIONS) */
  maxSessions?: number;
  now?: () => number;
  /** put one wa-web-inbound record on the queue (default: the command port); tests inject faults here */
  enqueueInbound?: (body: string, ids?: { groupId: string; dedupeId: string }) => Promise<void>;
  /** ms before the n-th retry of a failed enqueue (default 200 ms doubling, at most 5 s) */
  enqueueBackoffMs?: (n: number) => number;
}

/** Baileys' BufferJSON (Buffers in JSON and back: media keys of received files), loaded when first needed. */
let bufferJson: Promise<{ replacer: Replacer; reviver: Replacer }> | undefined;
const loadBufferJson = () => (bufferJson ??= import('baileys').then((B) => B.BufferJSON as unknown as { replacer: Replacer; reviver: Replacer }));

/** Enqueue attempts of one record before the worker logs and keeps it for the next heartbeat. */
const ENQUEUE_ATTEMPTS = 6;

interface Held {
  phone: WaWebPhone;
  socket: SessionSocket;
  connector: WaWebConnector;
  /** inbound events of this number are enqueued one after another, in arrival order */
  inbound: Promise<void>;
  /** wa-web-inbound records not accepted by the queue yet, oldest first (retried on every heartbeat) */
  pending: QueueRecord[];
  /** a heartbeat's retry of `pending` is waiting in `inbound` (one at a time) */
  retryQueued?: boolean;
  /** the running flush of `pending` (flushes never overlap) */
  flushing: Promise<void>;
}

const MAX_ATTEMPTS = WORKER_QUEUES.find((q) => q.name === 'wa-web-commands')!.maxReceiveCount;
const OUTBOUND_FILE_KINDS = { image: 'image', video: 'video', audio: 'audio', ptt: 'audio', document: 'document', sticker: 'sticker' } as const;

export type CommandOutcome = 'done' | 'not_owner';

/**
 * One worker process's sessions: `start` (heartbeat loop), `handleCommand` (commands.ts),
 * `sqsHandler` (local queue), `stop` (give the numbers back). See the module comment.
 */
export class SessionWorker {
  readonly id: string;
  private readonly held = new Map<string, Held>();
  private readonly opening = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private ticking: Promise<void> = Promise.resolve();
  private stopped = false;
  private readonly leaseMs: number;
  private readonly heartbeatMs: number;
  private readonly maxSessions: number;
  private readonly now: () => number;

  constructor(private readonly opts: SessionWorkerOptions) {
    this.id = opts.id || config().WA_WEB_WORKER_ID || `${hostname()}:${process.pid}`;
    this.leaseMs = opts.leaseMs ?? 30_000;
    this.heartbeatMs = opts.heartbeatMs ?? 10_000;
    this.maxSessions = opts.maxSessions ?? config().WA_WEB_MAX_SESSIONS;
    this.now = opts.now ?? Date.now;
  }

  /** Take numbers now, then heartbeat every `heartbeatMs`. */
  async start(): Promise<void> {
    this.stopped = false;
    await this.tick();
    this.timer = setInterval(() => void this.tick(), this.heartbeatMs);
    this.timer.unref?.();
  }

  /** Phone ids this worker holds (with an open socket object). */
  holds(): string[] {
    return [...this.held.keys()];
  }

  /**
   * One heartbeat: renew the leases held (closing any lost), then take free or expired numbers up
   * to `maxSessions`. Serialized: a tick never overlaps the previous one.
   */
  tick(): Promise<void> {
    this.ticking = this.ticking.then(() => this.tickOnce()).catch((e) => log('error', 'wa_web.tick_failed', { worker: this.id, error: String((e as Error)?.message ?? e) }));
    return this.ticking;
  }

  private async tickOnce(): Promise<void> {
    if (this.stopped) return;
    const now = this.now();
    for (const phoneId of [...this.held.keys()]) {
      if (!(await renewLease(phoneId, this.id, now, this.leaseMs))) await this.drop(phoneId, 'lease lost');
    }
    // records the queue refused earlier: try again (in order, behind anything newer of the number)
    for (const h of this.held.values()) {
      if (!h.pending.length || h.retryQueued) continue;
      h.retryQueued = true;
      h.inbound = h.inbound.then(() => {
        h.retryQueued = false;
        return this.flushInbound(h);
      });
    }
    for (const row of await listSessions()) {
      if (this.held.size + this.opening.size >= this.maxSessions) break;
      if (this.held.has(row.phone_id) || this.opening.has(row.phone_id) || row.wanted === false) continue;
      if (row.owner && row.owner !== this.id && (row.lease_until ?? 0) >= now) continue;
      if (!(await acquireLease(row.phone_id, this.id, now, this.leaseMs))) continue;
      await this.open({ org_id: row.org_id, phone_id: row.phone_id, org_phone: row.org_phone });
    }
  }

  private async open(phone: WaWebPhone): Promise<void> {
    this.opening.add(phone.phone_id);
    try {
      const socket = await this.opts.connect(phone);
      const h: Held = { phone, socket, connector: new WaWebConnector(socket, this.now), inbound: Promise.resolve(), pending: [], flushing: Promise.resolve() };
      socket.onEvent((e) => {
        // never a rejected link: one event's failure must not stop the number's later events
        h.inbound = h.inbound.then(() => this.onEvent(h, e)).catch((err) => log('error', 'wa_web.inbound_event_failed', { worker: this.id, phone_id: phone.phone_id, event: e.event, error: String((err as Error)?.message ?? err) }));
      });
      this.held.set(phone.phone_id, h);
      log('info', 'wa_web.session_held', { worker: this.id, phone_id: phone.phone_id });
    } catch (e) {
      log('error', 'wa_web.connect_failed', { worker: this.id, phone_id: phone.phone_id, error: String((e as Error)?.message ?? e) });
      await releaseLease(phone.phone_id, this.id);
    } finally {
      this.opening.delete(phone.phone_id);
    }
  }

  private async drop(phoneId: string, why: string): Promise<void> {
    const h = this.held.get(phoneId);
    this.held.delete(phoneId);
    log('warn', 'wa_web.session_dropped', { worker: this.id, phone_id: phoneId, why });
    // records the queue refused so far: one more try before they go with the socket
    if (h?.pending.length) await this.flushInbound(h).catch(() => undefined);
    if (h?.pending.length) log('error', 'wa_web.inbound_lost', { worker: this.id, phone_id: phoneId, records: h.pending.length });
    await h?.socket.close().catch(() => undefined);
  }

  /**
   * One socket event: a session state change is stored here (retried; idempotent); received
   * messages, acks, reactions, edits and deletes are normalized (connector.ts parseInbound) and put
   * on the wa-web-inbound queue (inbound-queue.ts), whose consumer stores them.
   */
  private async onEvent(h: Held, e: SessionEvent): Promise<void> {
    if (e.event !== 'session') {
      const events = parseInbound(e, { channel: { channelId: h.phone.phone_id, kind: 'wa_web_baileys', tenantId: h.phone.org_id }, receivedAt: new Date(this.now()), ownId: h.phone.org_phone });
      if (!events.length) return;
      const { replacer } = await loadBufferJson();
      h.pending.push(...toQueueRecords(h.phone, events, replacer));
      await this.flushInbound(h);
      return;
    }
    for (let attempt = 1; ; attempt++) {
      try {
        await setSessionState(h.phone, e.state, { qr: e.qr, me_jid: e.me, detail: e.detail, unwanted: e.final });
        if (e.state === 'logged_out' || e.final) {
          // the phone unlinked this device, or WhatsApp ended the session for good: stop; an admin
          // links it again (the session is no longer wanted)
          log('error', 'wa_web.session_ended', { worker: this.id, phone_id: h.phone.phone_id, state: e.state, detail: e.detail });
          await this.drop(h.phone.phone_id, e.state === 'logged_out' ? 'logged out' : (e.detail ?? 'ended'));
          await releaseLease(h.phone.phone_id, this.id);
        }
        return;
      } catch (err) {
        if (attempt >= 5) {
          log('error', 'wa_web.session_state_not_stored', { worker: this.id, phone_id: h.phone.phone_id, state: e.state, error: String((err as Error)?.message ?? err) });
          return;
        }
        await new Promise((r) => setTimeout(r, 200 * 2 ** attempt));
      }
    }
  }

  /**
   * Put the number's pending wa-web-inbound records on the queue, oldest first. A refused enqueue
   * is retried with backoff (ENQUEUE_ATTEMPTS); if the queue still refuses, the worker logs
   * `wa_web.inbound_enqueue_failed` and keeps the records for the next heartbeat (and the next
   * event), so they are only lost if the process ends before the queue is back (then
   * `wa_web.inbound_lost` at stop).
   */
  private flushInbound(h: Held): Promise<void> {
    // one flush of a number at a time (a heartbeat's drop may overlap the number's event chain)
    const run = h.flushing.then(() => this.flushPending(h));
    h.flushing = run.catch(() => undefined);
    return run;
  }

  private async flushPending(h: Held): Promise<void> {
    const send = this.opts.enqueueInbound ?? ((body: string, ids?: { groupId: string; dedupeId: string }) => enqueue('wa-web-inbound', body, ids));
    const backoff = this.opts.enqueueBackoffMs ?? ((n: number) => Math.min(5_000, 200 * 2 ** (n - 1)));
    while (h.pending.length) {
      for (let attempt = 1; ; attempt++) {
        try {
          const r = h.pending[0]!;
          await send(r.body, { groupId: r.groupId, dedupeId: r.dedupeId });
          h.pending.shift();
          break;
        } catch (err) {
          if (attempt >= ENQUEUE_ATTEMPTS) {
            log('error', 'wa_web.inbound_enqueue_failed', { worker: this.id, phone_id: h.phone.phone_id, pending: h.pending.length, error: String((err as Error)?.message ?? err) });
            return;
          }
          await new Promise((r) => setTimeout(r, backoff(attempt)));
        }
      }
    }
  }

  /** Records of this worker's numbers the queue has not accepted yet (tests, health). */
  pendingInbound(): number {
    return [...this.held.values()].reduce((n, h) => n + h.pending.length, 0);
  }

  /** Resolves when every held number's received events are on the wa-web-inbound queue (or kept pending after a refusal) (tests). */
  async idle(): Promise<void> {
    await Promise.all([...this.held.values()].map((h) => h.inbound));
  }

  /**
   * Carry out one command (commands.ts) for a number this worker holds, reporting the result to
   * the message use cases. Retryable failures throw while attempts remain (the queue redelivers);
   * on the last attempt they are reported as failed.
   * @param attempt 1-based receive count of the queue record
   * @returns 'not_owner' when another worker holds the number (the queue hands it back); on the last
   *   attempt with no worker holding it, the command is settled as failed ('not connected')
   */
  async handleCommand(cmd: WaWebCommand, attempt = 1, maxAttempts = MAX_ATTEMPTS): Promise<CommandOutcome> {
    const h = this.held.get(cmd.phone_id);
    if (cmd.kind === 'create-group') {
      if (!h && attempt < maxAttempts) return 'not_owner';
      await this.createGroup(cmd, h);
      return 'done';
    }
    if (cmd.kind === 'download-media' || cmd.kind === 'group-metadata') {
      if (!h && attempt < maxAttempts) return 'not_owner';
      await this.sessionRead(cmd, h, attempt, maxAttempts);
      return 'done';
    }
    if (!h) {
      if (attempt < maxAttempts) return 'not_owner';
      await this.settle(cmd, undefined, new ConnectorError('UNREACHABLE', false, 'This WhatsApp Web number is not connected. Link it again on Settings → Phones.'));
      return 'done';
    }
    try {
      await this.settle(cmd, h, undefined, attempt, maxAttempts);
    } catch (e) {
      if (e instanceof ConnectorError && e.retryable && attempt < maxAttempts) throw e;
      if (e instanceof ConnectorError) await this.settle(cmd, undefined, e);
      else throw e;
    }
    return 'done';
  }

  /**
   * The reads of a stored inbound message that need the socket: its file ('download-media', kept
   * through media-web.ts; with no session on the last attempt it is recorded as failed) and its
   * group's metadata ('group-metadata'; a transport failure is retried while attempts remain).
   */
  private async sessionRead(cmd: Extract<WaWebCommand, { kind: 'download-media' | 'group-metadata' }>, h: Held | undefined, attempt: number, maxAttempts: number): Promise<void> {
    const phone: WaWebPhone = h?.phone ?? { org_id: cmd.org_id, phone_id: cmd.phone_id, org_phone: '' };
    if (cmd.kind === 'download-media') {
      const socket = h?.socket;
      if (h && !socket?.downloadMedia) return;
      const { reviver } = await loadBufferJson();
      await storeWaWebMedia(phone, cmd.message_id, async () => {
        if (!socket?.downloadMedia) throw new Error('this WhatsApp Web number is not connected');
        return socket.downloadMedia(JSON.parse(cmd.raw, reviver));
      });
      return;
    }
    if (!h) {
      log('warn', 'wa_web.group_metadata_not_read', { phone_id: cmd.phone_id, chat_id: cmd.chat_id, why: 'not connected' });
      return;
    }
    try {
      await refreshGroupMetadata(cmd.org_id, cmd.chat_id, () => h.socket.groupMetadata(jidOfChat(cmd.chat_id)), this.now());
    } catch (e) {
      if (attempt < maxAttempts) throw e;
      log('warn', 'wa_web.group_metadata_not_read', { phone_id: cmd.phone_id, chat_id: cmd.chat_id, error: String((e as Error)?.message ?? e) });
    }
  }

  /**
   * 'create-group' (issue 15 item 6): create the group on WhatsApp (Baileys `groupCreate`), then
   * apply the template's description, admin-only settings and picture, and record the outcome on
   * the GroupRequest (group-template.ts). At most once: the request is claimed (requested ->
   * creating) before WhatsApp is asked, and a command that finds it 'creating' (the worker stopped
   * in between) settles it as failed with words, never creating a second group. What could not be
   * applied after the group exists (picture, settings) is said in `detail`; the group stays.
   * The group chat reaches the inbox through WhatsApp's "group created" notification on the session.
   */
  private async createGroup(cmd: Extract<WaWebCommand, { kind: 'create-group' }>, h: Held | undefined): Promise<void> {
    const status = await groupRequestStatus(cmd.org_id, cmd.request_id);
    if (status !== 'requested' && status !== 'creating') return; // settled already (redelivery) or gone
    const fail = (detail: string) => settleGroupRequest(cmd.org_id, cmd.request_id, { status: 'failed', detail });
    if (!h) return void (await fail('This WhatsApp Web number is not connected. Link it again on Settings → Phones, then try again.'));
    if (status === 'creating') return void (await fail('The group may or may not have been created: the connection stopped while asking WhatsApp. Check the WhatsApp app before trying again.'));
    const sock = h.socket;
    if (!sock.groupCreate) return void (await fail('This WhatsApp connection cannot create groups.'));
    if (!(await claimGroupRequest(cmd.org_id, cmd.request_id))) return;
    let groupJid: string;
    try {
      groupJid = (await sock.groupCreate(cmd.subject, cmd.participants)).id;
    } catch (e) {
      log('warn', 'wa_web.group_create_failed', { worker: this.id, phone_id: cmd.phone_id, request_id: cmd.request_id, error: String((e as Error)?.message ?? e) });
      return void (await fail(`WhatsApp did not create the group (${String((e as Error)?.message ?? e)}). Check the WhatsApp app before trying again.`));
    }
    const missed: string[] = [];
    const step = async (what: string, run: (() => Promise<void>) | undefined) => {
      if (!run) return void missed.push(what);
      try {
        await run();
      } catch (e) {
        log('warn', 'wa_web.group_setup_failed', { worker: this.id, phone_id: cmd.phone_id, request_id: cmd.request_id, what, error: String((e as Error)?.message ?? e) });
        missed.push(what);
      }
    };
    if (cmd.description.trim()) await step('the description', sock.groupUpdateDescription && (() => sock.groupUpdateDescription!(groupJid, cmd.description)));
    if (cmd.only_admins_send) await step('“only admins send messages”', sock.groupSettingUpdate && (() => sock.groupSettingUpdate!(groupJid, 'announcement')));
    if (cmd.only_admins_edit_info) await step('“only admins edit group info”', sock.groupSettingUpdate && (() => sock.groupSettingUpdate!(groupJid, 'locked')));
    if (cmd.picture_path) {
      await step('the picture', sock.updateProfilePicture && (async () => {
        const blob = await (await blobPort()).get(cmd.picture_path!);
        if (!blob) throw new Error('the picture is no longer stored');
        await sock.updateProfilePicture!(groupJid, blob.bytes);
      }));
    }
    await settleGroupRequest(cmd.org_id, cmd.request_id, { status: 'created', group_chat_id: chatRefOf(groupJid).chatId, ...(missed.length ? { detail: `The group was created, but ${missed.join(', ')} could not be set. Set it in the WhatsApp app.` } : {}) });
  }

  /** Run `cmd` on `h` (when given) or report `failure`. */
  private async settle(cmd: Exclude<WaWebCommand, { kind: 'download-media' | 'group-metadata' | 'create-group' }>, h: Held | undefined, failure?: ConnectorError, attempt = 1, maxAttempts = MAX_ATTEMPTS): Promise<void> {
    const failed = (e: ConnectorError): WaWebCommandResult => ({ ok: false, reason: e.reason, retryable: e.retryable });
    const chat = chatRefOf(jidOfChat(cmd.chat_id));
    const key = messageKey(cmd.org_id, cmd.chat_id, cmd.unique_id);
    const msg = key ? (await db().entities.message.get(key).go()).data : null;
    switch (cmd.kind) {
      case 'send': {
        if (!key || !msg || msg.message_id || msg.ack === -1) return; // gone, sent or failed already (at-least-once redelivery)
        if (failure || !h) {
          await markFailed(key, msg, { code: null, title: failure?.code ?? null, details: failure?.message ?? null, reason: failure?.reason ?? 'WhatsApp did not accept the message.' });
          return;
        }
        const sent = await h.connector.send(chat, await this.outboundContent(msg), { replyTo: this.quotedRef(msg) });
        await recordAccepted(key, msg, sent.providerMessageId);
        return;
      }
      case 'edit': {
        if (failure || !h || !msg) {
          await onEditResult(cmd, failed(failure ?? new ConnectorError('INVALID', false, 'The message no longer exists.')));
          return;
        }
        try {
          await h.connector.edit(chat, { providerMessageId: cmd.message_id, fromMe: msg.from_me, sentAt: new Date(msg.timestamp) }, cmd.body);
        } catch (e) {
          if (e instanceof ConnectorError && !(e.retryable && attempt < maxAttempts)) return void (await onEditResult(cmd, failed(e)));
          throw e;
        }
        await onEditResult(cmd, { ok: true, at_ms: this.now() });
        return;
      }
      case 'delete': {
        if (failure || !h || !msg) {
          await onDeleteResult(cmd, failed(failure ?? new ConnectorError('INVALID', false, 'The message no longer exists.')));
          return;
        }
        try {
          await h.connector.delete(chat, this.refOf(chat, msg, cmd.message_id));
        } catch (e) {
          if (e instanceof ConnectorError && !(e.retryable && attempt < maxAttempts)) return void (await onDeleteResult(cmd, failed(e)));
          throw e;
        }
        await onDeleteResult(cmd, { ok: true, at_ms: this.now() });
        return;
      }
      case 'react': {
        if (!msg) return;
        const ours = (msg.reactions as Record<string, { timestamp?: number }> | undefined)?.[msg.org_phone];
        const at = cmd.at ?? ours?.timestamp ?? this.now();
        // the reaction flow of message-actions.ts (optimistic ack, revert with reaction_error), with this connector as its sender
        await deliverReaction({ kind: 'reaction', org_id: cmd.org_id, chat_id: cmd.chat_id, unique_id: cmd.unique_id, reaction: cmd.reaction ?? '', previous: cmd.previous ?? null, at }, failure ? maxAttempts : attempt, maxAttempts, async (m) => {
          if (failure || !h) throw new GraphApiError(null, failure?.code ?? null, failure?.message ?? null, failure?.reason ?? 'This WhatsApp Web number is not connected.', false, 0);
          try {
            const r = await h.connector.react(chat, this.refOf(chat, m, cmd.message_id), cmd.reaction);
            return { wamid: r.providerMessageId || `${cmd.message_id}:reaction:${at}` };
          } catch (e) {
            if (e instanceof ConnectorError) throw new GraphApiError(null, e.code, e.message, e.reason, e.retryable, 0);
            throw e;
          }
        });
        return;
      }
    }
  }

  /** Where a stored message sits in WhatsApp (key rebuild for edit/delete/react). */
  private refOf(chat: ChatRef, m: { from_me: boolean; sender_phone?: string | null; timestamp: number }, messageId: string): MessageRefOut {
    return { providerMessageId: messageId, fromMe: m.from_me, ...(chat.kind === 'group' && !m.from_me && m.sender_phone ? { participant: jidUser(m.sender_phone) } : {}), sentAt: new Date(m.timestamp) };
  }

  private quotedRef(msg: { quoted_message?: unknown }): (MessageRefOut & { text?: string }) | undefined {
    const q = msg.quoted_message as { message_id?: string; from_me?: boolean | null; body?: string | null } | undefined;
    if (!q?.message_id) return undefined;
    return { providerMessageId: q.message_id, fromMe: !!q.from_me, sentAt: new Date(this.now()), text: q.body ?? undefined };
  }

  /** The connector content of a stored outbound message: its text, or its file from the blob store. */
  private async outboundContent(msg: { message_type: string; body?: string | null; media?: unknown }) {
    const kind = OUTBOUND_FILE_KINDS[msg.message_type as keyof typeof OUTBOUND_FILE_KINDS];
    if (!kind) return { type: 'text' as const, text: msg.body ?? '' };
    const media = msg.media as { path?: string; mimetype?: string; caption?: string | null; filename?: string | null } | undefined;
    const blob = media?.path ? await (await blobPort()).get(media.path) : undefined;
    if (!blob) throw new ConnectorError('INVALID', false, 'The file of this message is no longer available. Please attach it again.');
    return { type: 'file' as const, kind, bytes: blob.bytes, mimeType: media?.mimetype ?? blob.contentType, caption: media?.caption ?? undefined, filename: media?.filename ?? undefined, voice: msg.message_type === 'ptt' };
  }

  /**
   * The local queue's consumer (and the shape an SQS poller hands over): each record is a command;
   * a command for a number another worker holds is reported failed so the queue redelivers it.
   */
  sqsHandler(): (event: SQSEvent) => Promise<SQSBatchResponse> {
    return async (event) => {
      const failures: SQSBatchResponse['batchItemFailures'] = [];
      for (const r of event.Records) {
        try {
          const cmd = JSON.parse(r.body) as WaWebCommand;
          const outcome = await this.handleCommand(cmd, Number(r.attributes?.ApproximateReceiveCount ?? '1'));
          if (outcome === 'not_owner') failures.push({ itemIdentifier: r.messageId });
        } catch (e) {
          log('warn', 'wa_web.command_failed', { worker: this.id, error: String((e as Error)?.message ?? e) });
          failures.push({ itemIdentifier: r.messageId });
        }
      }
      return { batchItemFailures: failures };
    };
  }

  /** Stop: close every socket and give the leases back, so another worker takes over at once. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.ticking;
    for (const phoneId of [...this.held.keys()]) {
      const h = this.held.get(phoneId)!;
      await h.inbound.catch(() => undefined);
      await this.drop(phoneId, 'worker stopping');
      await releaseLease(phoneId, this.id).catch(() => undefined);
    }
  }
}
