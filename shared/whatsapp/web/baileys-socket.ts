import { log } from '../../log.ts';
import { BAILEYS_INBOUND_EVENTS } from './connector.ts';
import { useDynamoAuthState } from './auth-state.ts';
import { downloadWaWebMedia, type BaileysMedia } from './media-fetch.ts';
import type { SessionEvent, SessionSocket, SocketFactory } from './session-worker.ts';
import type { WaWebPhone } from './ingest-web.ts';

/**
 * The real WhatsApp Web socket: Baileys `makeWASocket` with the DynamoDB auth state
 * (auth-state.ts), wrapped as the worker's `SessionSocket`. Used by the ECS worker
 * (functions/workers/wa-web-session.ts), never by the local runtime unless asked
 * (WA_WEB_TRANSPORT=baileys). Untested against WhatsApp's servers here (no network or phone).
 */

/** What to do when Baileys closes the connection (§B.3), by `lastDisconnect.error.output.statusCode`. */
export type CloseDecision = { action: 'logged_out' } | { action: 'stop'; why: string } | { action: 'reconnect'; delayMs: number };

/**
 * §B.3: never reconnect after loggedOut (401: the phone removed this device); stop on
 * connectionReplaced (440: another session took over — do not fight it in a loop) and forbidden
 * (403); restartRequired (515, after the first link) at once; anything else with exponential
 * backoff from 1 s to 60 s.
 * @param failures consecutive closes before this one (0 for the first)
 */
export function decideOnClose(statusCode: number | undefined, failures: number): CloseDecision {
  if (statusCode === 401) return { action: 'logged_out' };
  if (statusCode === 440) return { action: 'stop', why: 'connection replaced by another session (440)' };
  if (statusCode === 403) return { action: 'stop', why: 'forbidden by WhatsApp (403)' };
  if (statusCode === 515) return { action: 'reconnect', delayMs: 0 };
  return { action: 'reconnect', delayMs: Math.min(60_000, 1000 * 2 ** Math.min(failures, 6)) };
}

type AnyFn = (...args: never[]) => unknown;
type Sock = {
  ev: { on(event: string, fn: AnyFn): void };
  user?: { id?: string };
  sendMessage: (...a: never[]) => Promise<unknown>;
  readMessages: (...a: never[]) => Promise<unknown>;
  groupMetadata: (...a: never[]) => Promise<unknown>;
  groupCreate: (...a: never[]) => Promise<unknown>;
  groupUpdateDescription: (...a: never[]) => Promise<unknown>;
  groupSettingUpdate: (...a: never[]) => Promise<unknown>;
  updateProfilePicture: (...a: never[]) => Promise<unknown>;
  end(err?: Error): void;
};

/** A SocketFactory over Baileys. */
export function baileysSocketFactory(): SocketFactory {
  return async (phone: WaWebPhone): Promise<SessionSocket> => {
    const B = await import('baileys');
    const auth = await useDynamoAuthState(phone.phone_id);
    const logger = (B.DEFAULT_CONNECTION_CONFIG.logger as unknown as { child(o: object): unknown; level: string }).child({ phone_id: phone.phone_id });
    (logger as { level: string }).level = 'warn';
    const listeners: Array<(e: SessionEvent) => void> = [];
    const emit = (e: SessionEvent) => listeners.forEach((l) => l(e));
    let sock: Sock;
    let closed = false;
    let failures = 0;

    const connect = () => {
      sock = B.makeWASocket({
        auth: { creds: auth.state.creds, keys: B.makeCacheableSignalKeyStore(auth.state.keys as never, logger as never) },
        browser: B.Browsers.ubuntu('Chorus'),
        // our own sends are stored by the send path; echoes would arrive as fromMe upserts
        emitOwnEvents: false,
        markOnlineOnConnect: false,
        syncFullHistory: false,
        logger: logger as never,
      }) as unknown as Sock;
      sock.ev.on('creds.update', (() => void auth.saveCreds().catch((e: Error) => log('error', 'wa_web.creds_save_failed', { phone_id: phone.phone_id, error: e.message }))) as AnyFn);
      sock.ev.on('connection.update', ((u: { connection?: string; qr?: string; lastDisconnect?: { error?: { output?: { statusCode?: number } } } }) => {
        if (u.qr) emit({ event: 'session', state: 'qr', qr: u.qr });
        if (u.connection === 'open') {
          failures = 0;
          emit({ event: 'session', state: 'open', me: sock.user?.id });
        }
        if (u.connection !== 'close' || closed) return;
        const code = u.lastDisconnect?.error?.output?.statusCode;
        const decision = decideOnClose(code, failures++);
        if (decision.action === 'logged_out') {
          closed = true;
          void auth.clear().catch(() => undefined);
          emit({ event: 'session', state: 'logged_out' });
        } else if (decision.action === 'stop') {
          closed = true;
          emit({ event: 'session', state: 'closed', detail: decision.why, final: true });
        } else {
          emit({ event: 'session', state: 'closed', detail: `connection closed${code ? ` (${code})` : ''}, retrying in ${Math.round(decision.delayMs / 1000)} s` });
          setTimeout(() => !closed && connect(), decision.delayMs);
        }
      }) as AnyFn);
      for (const name of BAILEYS_INBOUND_EVENTS) sock.ev.on(name, ((data: unknown) => emit({ event: name, data } as SessionEvent)) as AnyFn);
    };
    connect();

    return {
      sendMessage: (jid, content, options) => (sock.sendMessage as unknown as (j: string, c: unknown, o?: unknown) => Promise<{ key: never }>)(jid, content, options),
      readMessages: async (keys) => void (await (sock.readMessages as unknown as (k: unknown) => Promise<unknown>)(keys)),
      groupMetadata: (jid) => (sock.groupMetadata as unknown as (j: string) => Promise<{ subject?: string; isCommunity?: boolean; participants: Array<{ id: string; admin?: string | null; phoneNumber?: string }> }>)(jid),
      // issue 15 item 6: "Create group" from a group template
      groupCreate: (subject, participants) => (sock.groupCreate as unknown as (s: string, p: string[]) => Promise<{ id: string; subject?: string }>)(subject, participants),
      groupUpdateDescription: async (jid, description) => void (await (sock.groupUpdateDescription as unknown as (j: string, d?: string) => Promise<void>)(jid, description)),
      groupSettingUpdate: async (jid, setting) => void (await (sock.groupSettingUpdate as unknown as (j: string, s: string) => Promise<void>)(jid, setting)),
      updateProfilePicture: async (jid, bytes) => void (await (sock.updateProfilePicture as unknown as (j: string, c: Buffer) => Promise<void>)(jid, Buffer.from(bytes))),
      me: () => sock.user?.id,
      // not B.downloadMediaMessage: it fetches whatever `url` the sender wrote, of any size (issue 42 §4)
      downloadMedia: (raw) =>
        downloadWaWebMedia(B as unknown as BaileysMedia, raw as never, {
          reupload: (m) => (sock as unknown as { updateMediaMessage: (m: unknown) => Promise<never> }).updateMediaMessage(m),
        }),
      onEvent: (l) => void listeners.push(l),
      close: async () => {
        closed = true;
        sock.end(undefined);
      },
    };
  };
}
