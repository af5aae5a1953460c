import { db } from '../../db/service.ts';
import { commitWithEvents, type TxItem } from '../../db/transaction.ts';
import type { WaWebPhone } from './ingest-web.ts';

/**
 * WhatsApp Web session rows (WaWebSessionEntity): created when a number is added, updated by the
 * worker holding it as the socket moves through its states (§C `session` events).
 */
export type SessionState = 'linking' | 'qr' | 'open' | 'closed' | 'logged_out' | 'locked';

/** Create the session row of a new wa_web number (wanted, free, linking). Idempotent on phone_id. */
export async function createWaWebSession(row: { phone_id: string; org_id: string; org_phone: string }): Promise<void> {
  await db()
    .entities.waWebSession.upsert({ ...row, state: 'linking', wanted: true })
    .go();
}

/** A number's session row, or null. */
export async function getWaWebSession(phoneId: string) {
  return (await db().entities.waWebSession.get({ phone_id: phoneId }).go()).data;
}

/**
 * Record a session state and tell the org's admins (`phone.session_updated`, with the QR while
 * linking). `qr` is kept only while linking; `logged_out` also marks the number not wanted (no
 * worker reconnects it until an admin links it again). The phone is ready while the session is
 * open (`is_ready`, `first_connected_at` on the first open).
 */
export async function setSessionState(phone: WaWebPhone, state: SessionState, extra: { qr?: string; me_jid?: string; detail?: string; unwanted?: boolean } = {}): Promise<void> {
  const phoneId = phone.phone_id;
  const set: Record<string, unknown> = { state };
  const remove: string[] = [];
  if (state === 'qr' && extra.qr) Object.assign(set, { qr: extra.qr, qr_at: Date.now() });
  else remove.push('qr');
  if (extra.me_jid) set.me_jid = extra.me_jid;
  if (extra.detail) set.state_detail = extra.detail;
  else remove.push('state_detail');
  if (state === 'logged_out' || extra.unwanted) set.wanted = false;
  const now = Date.now();
  const ready = state === 'open';
  const row = (await db().entities.phone.get({ org_id: phone.org_id, phone_id: phoneId }).go()).data;
  // the session row, the phone's readiness and the event in one transaction (the outbox)
  const ok = await commitWithEvents((e) => {
    let q = e.waWebSession.patch({ phone_id: phoneId }).set(set as never);
    if (remove.length) q = q.remove(remove as never) as typeof q;
    const items = [q.commit() as TxItem];
    if (row && (row.is_ready !== ready || (ready && !row.first_connected_at))) {
      items.push(
        e.phone
          .patch({ org_id: phone.org_id, phone_id: phoneId })
          .set({ is_ready: ready, ...(ready && !row.first_connected_at ? { first_connected_at: now } : {}) })
          .commit() as TxItem,
      );
    }
    return { items, events: [{ name: 'phone.session_updated', properties: { org_id: phone.org_id, phone_id: phoneId, state, qr: state === 'qr' ? (extra.qr ?? null) : null, detail: extra.detail ?? null, at: now }, actor: 'system' }] };
  });
  if (!ok) throw new Error(`session ${phoneId}: state ${state} not written (no session row, or the phone is gone)`);
}

/** Ask for a new link (after a logout, or to retry): the session is wanted again and starts linking; a worker takes it on its next heartbeat. */
export async function relinkWaWebSession(phoneId: string): Promise<void> {
  await db().entities.waWebSession.patch({ phone_id: phoneId }).set({ wanted: true, state: 'linking' }).remove(['qr', 'state_detail']).go();
}
