import { randomBytes } from 'node:crypto';
import type { BaileysEvent } from '../../shared/whatsapp/web/connector.ts';
import type { SessionEvent, SessionSocket, SocketFactory } from '../../shared/whatsapp/web/session-worker.ts';
import type { WaWebPhone } from '../../shared/whatsapp/web/ingest-web.ts';
import type { WaKey } from '../../shared/whatsapp/web/types.ts';

/**
 * Local stand-in for WhatsApp's servers behind a linked WhatsApp Web device (there is no WhatsApp
 * server here; compare graph-standin.ts for the Cloud API). The local runtime gives its
 * `factory` to the session worker in place of Baileys (config, not a product-code fork):
 * - linking "scans" at once: a session opens with a `qr` then `open` event (me = the number's digits);
 *   with `autoScan = false` it stays at the QR until `scan(phoneId)` (the e2e test of the link dialog);
 * - every `sendMessage` is recorded (`sent`) with Baileys' content shape and answered with a key;
 *   a new message (not an edit, delete or reaction) is then acked like WhatsApp does: SERVER_ACK (2)
 *   and DELIVERY_ACK (3) as `messages.update` events;
 * - tests (or `POST /__wa-web/{phone_id}/events` on the local gateway) inject inbound Baileys events
 *   with `inject`;
 * - `failNext` makes the next transport call throw (a dropped socket), `groups` / `setGroup` answer groupMetadata,
 *   `media` holds the files `downloadMedia` hands out for received media messages (by message id);
 * - `groupCreate` really creates the group (kept in `created`, answered by groupMetadata with this
 *   number as superadmin), then delivers WhatsApp's "group created" notification (a GROUP_CREATE
 *   stub upsert) to the session; description, settings and picture updates are kept on it.
 */
export interface CreatedGroup {
  phone_id: string;
  jid: string;
  subject: string;
  participants: string[];
  description?: string;
  settings: string[];
  picture?: Uint8Array;
}
export interface SentRecord {
  phone_id: string;
  jid: string;
  content: Record<string, unknown>;
  options?: { quoted?: unknown };
  key: WaKey;
  at: number;
}

export class WaWebStandIn {
  readonly sent: SentRecord[] = [];
  readonly reads: Array<{ phone_id: string; keys: WaKey[] }> = [];
  /** message id -> the file WhatsApp would hand out for it (downloadMedia); a missing one fails like expired media */
  readonly media = new Map<string, Uint8Array>();
  /** group jid -> participants (jid + admin: 'admin' | 'superadmin' | null) for groupMetadata (`setGroup` sets them with the subject) */
  readonly groups = new Map<string, Array<{ id: string; admin?: string | null }>>();
  /** group jid -> subject for groupMetadata */
  readonly groupSubjects = new Map<string, string>();
  /** groupMetadata calls answered, by group jid (tests: how often the worker read a group) */
  readonly groupReads: string[] = [];
  /** groups created through `groupCreate`, by group jid */
  readonly created = new Map<string, CreatedGroup>();
  private readonly sockets = new Map<string, StandInSocket>();
  private failures = new Map<string, Error>();
  /** ms between a send and its server / delivery acks */
  ackDelayMs = 20;
  /** false: a new session waits at its QR until `scan` */
  autoScan = true;

  readonly factory: SocketFactory = async (phone: WaWebPhone) => {
    const s = new StandInSocket(this, phone);
    this.sockets.set(phone.phone_id, s);
    setTimeout(() => s.link(), 0);
    return s;
  };

  /** The phone scans the QR of this number's session: it opens. */
  scan(phoneId: string): void {
    this.sockets.get(phoneId)?.open();
  }

  /** Is a session of this number open (linked and not closed)? */
  isOpen(phoneId: string): boolean {
    return this.sockets.get(phoneId)?.state === 'open';
  }

  /** Deliver a Baileys event to the number's session, as WhatsApp would. @throws when no session of it is open */
  inject(phoneId: string, event: BaileysEvent): void {
    const s = this.sockets.get(phoneId);
    if (!s || s.state !== 'open') throw new Error(`no open WhatsApp Web session for ${phoneId}`);
    s.emit(event);
  }

  /** The phone logs this device out (Baileys: connection close with 401). */
  logOut(phoneId: string): void {
    this.sockets.get(phoneId)?.emit({ event: 'session', state: 'logged_out' });
  }

  /** WhatsApp ends the session for good (Baileys: close with 440, another session took over). */
  replace(phoneId: string): void {
    this.sockets.get(phoneId)?.emit({ event: 'session', state: 'closed', detail: 'connection replaced by another session (440)', final: true });
  }

  /** The group as WhatsApp knows it (groupMetadata's answer): its subject and participants with their admin rights. */
  setGroup(jid: string, group: { subject?: string; participants: Array<{ id: string; admin?: 'admin' | 'superadmin' | null }> }): void {
    this.groups.set(jid, group.participants);
    if (group.subject !== undefined) this.groupSubjects.set(jid, group.subject);
  }

  /** Make the next transport call of this number throw `error`. */
  failNext(phoneId: string, error = new Error('socket closed')): void {
    this.failures.set(phoneId, error);
  }

  takeFailure(phoneId: string): Error | undefined {
    const e = this.failures.get(phoneId);
    this.failures.delete(phoneId);
    return e;
  }

  record(r: SentRecord): void {
    this.sent.push(r);
  }
}

class StandInSocket implements SessionSocket {
  state: 'linking' | 'open' | 'closed' = 'linking';
  private listeners: Array<(e: SessionEvent) => void> = [];
  private readonly meJid: string;

  constructor(
    private readonly hub: WaWebStandIn,
    private readonly phone: WaWebPhone,
  ) {
    this.meJid = `${phone.org_phone}:1@s.whatsapp.net`;
  }

  link(): void {
    if (this.state !== 'linking') return;
    this.emit({ event: 'session', state: 'qr', qr: `2@chorus-local-standin,${this.phone.phone_id},${randomBytes(6).toString('hex')}` });
    if (this.hub.autoScan) this.open();
  }

  open(): void {
    if (this.state !== 'linking') return;
    this.state = 'open';
    this.emit({ event: 'session', state: 'open', me: this.meJid });
  }

  emit(e: SessionEvent): void {
    if (this.state === 'closed') return;
    for (const l of this.listeners) l(e);
  }

  onEvent(listener: (e: SessionEvent) => void): void {
    this.listeners.push(listener);
  }

  me(): string | undefined {
    return this.state === 'open' ? this.meJid : undefined;
  }

  private check(): void {
    const f = this.hub.takeFailure(this.phone.phone_id);
    if (f) throw f;
    if (this.state !== 'open') throw new Error('connection closed');
  }

  async sendMessage(jid: string, content: Record<string, unknown>, options?: { quoted?: unknown }) {
    this.check();
    const key = { remoteJid: jid, fromMe: true, id: `3EB0${randomBytes(8).toString('hex').toUpperCase()}` };
    const at = Date.now();
    this.hub.record({ phone_id: this.phone.phone_id, jid, content, options, key, at });
    const isNew = !('edit' in content) && !('delete' in content) && !('react' in content);
    if (isNew) {
      // WhatsApp's acks of a new message: the server has it (2), then the recipient's device (3)
      setTimeout(() => this.emit({ event: 'messages.update', data: [{ key, update: { status: 2 } }] }), this.hub.ackDelayMs);
      setTimeout(() => this.emit({ event: 'messages.update', data: [{ key, update: { status: 3 } }] }), this.hub.ackDelayMs * 2);
    }
    return { key, messageTimestamp: Math.floor(at / 1000) };
  }

  async downloadMedia(raw: unknown): Promise<Uint8Array> {
    this.check();
    const id = (raw as { key?: { id?: string } })?.key?.id ?? '';
    const bytes = this.hub.media.get(id);
    if (!bytes) throw new Error(`media of ${id} is not on the (stand-in) WhatsApp servers`);
    return bytes;
  }

  async readMessages(keys: WaKey[]): Promise<void> {
    this.check();
    this.hub.reads.push({ phone_id: this.phone.phone_id, keys });
  }

  async groupMetadata(jid: string) {
    this.check();
    this.hub.groupReads.push(jid);
    return { id: jid, subject: this.hub.groupSubjects.get(jid) ?? '', participants: this.hub.groups.get(jid) ?? [] };
  }

  async groupCreate(subject: string, participants: string[]) {
    this.check();
    const jid = `120363${Array.from(randomBytes(6), (b) => String(b % 10)).join('')}${Date.now() % 1_000_000}@g.us`;
    const me = `${this.phone.org_phone}@s.whatsapp.net`;
    this.hub.created.set(jid, { phone_id: this.phone.phone_id, jid, subject, participants: [...participants], settings: [] });
    this.hub.setGroup(jid, { subject, participants: [{ id: me, admin: 'superadmin' }, ...participants.map((id) => ({ id, admin: null }))] });
    // WhatsApp then tells the creator's devices: a GROUP_CREATE stub message in the new group
    const key = { remoteJid: jid, fromMe: true, id: `3EB0${randomBytes(8).toString('hex').toUpperCase()}`, participant: me };
    setTimeout(() => this.emit({ event: 'messages.upsert', data: { type: 'notify', messages: [{ key, messageTimestamp: Math.floor(Date.now() / 1000), messageStubType: 20, messageStubParameters: [subject] }] } }), this.hub.ackDelayMs);
    return { id: jid, subject };
  }

  private createdGroup(jid: string): CreatedGroup {
    this.check();
    const g = this.hub.created.get(jid);
    if (!g) throw new Error(`no group ${jid} on the (stand-in) WhatsApp servers`);
    return g;
  }

  async groupUpdateDescription(jid: string, description?: string): Promise<void> {
    this.createdGroup(jid).description = description;
  }

  async groupSettingUpdate(jid: string, setting: 'announcement' | 'not_announcement' | 'locked' | 'unlocked'): Promise<void> {
    this.createdGroup(jid).settings.push(setting);
  }

  async updateProfilePicture(jid: string, bytes: Uint8Array): Promise<void> {
    this.createdGroup(jid).picture = bytes;
  }

  async close(): Promise<void> {
    this.state = 'closed';
    this.listeners = [];
  }
}
