import { ulid } from 'ulid';
import { db } from '../../db/service.ts';
import { AppError, notFound } from '../../errors.ts';
import { clearPhoneCache } from '../../phone/phone.ts';
import { assertCanAddPhone } from '../../plan/plan.ts';
import type { Actor } from '../../auth/actor.ts';
import type { AddWaWebPhoneInput, PhoneView, WaWebSessionView } from '../../phone/phone.schemas.ts';
import { createWaWebSession, getWaWebSession, relinkWaWebSession } from './sessions.ts';

/**
 * Linking a number as a WhatsApp Web device from /settings/phones (admins; whatsapp-protocols.md
 * §B.2): the phone row (connection_type 'wa_web', not ready until linked) and its session row are
 * written, a session worker takes the number on its next heartbeat and publishes the QR to the
 * admins (`phone.session_updated`); scanning it in WhatsApp → Linked devices opens the session.
 */

const forbidden = () => new AppError('phone.forbidden', 'Only admins can link phones.', { status: 403 });

/**
 * POST /phones/wa-web: add a WhatsApp Web number. Our phone_id is `waweb_<ulid>` (the number's
 * digits are kept as org_phone; the same number may not be linked twice in one workspace).
 * @throws AppError 403 phone.forbidden (members); 409 phone.already_connected
 */
export async function addWaWebPhone(actor: Actor, input: AddWaWebPhoneInput): Promise<PhoneView> {
  if (actor.role !== 'admin') throw forbidden();
  const existing = (await db().entities.phone.query.byOrg({ org_id: actor.org_id }).go({ pages: 'all' })).data;
  if (existing.some((p) => p.org_phone === input.phone)) {
    throw new AppError('phone.already_connected', 'This number is already connected to this workspace.', { status: 409, details: [{ field: 'phone', reason: 'already connected to this workspace' }] });
  }
  // issue 22: the plan's phone limit (403 plan.limit_reached)
  await assertCanAddPhone(actor.org_id);
  const phone_id = `waweb_${ulid()}`;
  const row = await db()
    .entities.phone.create({ org_id: actor.org_id, phone_id, org_phone: input.phone, connection_type: 'wa_web', is_ready: false, added_by: actor.email })
    .go();
  await createWaWebSession({ org_id: actor.org_id, phone_id, org_phone: input.phone });
  clearPhoneCache();
  const p = row.data;
  return { phone_id, org_phone: p.org_phone, is_ready: false, first_connected_at: null, created_at: p.created_at ?? Date.now(), waba_id: null, verified_name: null, connection_type: 'wa_web', session_state: 'linking' };
}

async function sessionOf(actor: Actor, phoneId: string) {
  if (actor.role !== 'admin') throw forbidden();
  const s = await getWaWebSession(phoneId);
  // another org's number answers like a missing one
  if (!s || s.org_id !== actor.org_id) throw notFound('phone');
  return s;
}

/**
 * GET /phones/{phone_id}/wa-web-session (admins): the linking state and, while linking, the QR.
 * @throws AppError 403 phone.forbidden; 404 phone.not_found (also for another org's number)
 */
export async function getWaWebSessionView(actor: Actor, phoneId: string): Promise<WaWebSessionView> {
  const s = await sessionOf(actor, phoneId);
  return { phone_id: phoneId, state: s.state, qr: s.state === 'qr' ? (s.qr ?? null) : null, detail: s.state_detail ?? null, at: s.updated_at ?? 0 };
}

/**
 * POST /phones/{phone_id}/wa-web-session/relink (admins): link again after a logout (a new QR follows).
 * @throws AppError 403; 404
 */
export async function relinkWaWebPhone(actor: Actor, phoneId: string): Promise<WaWebSessionView> {
  await sessionOf(actor, phoneId);
  await relinkWaWebSession(phoneId);
  return getWaWebSessionView(actor, phoneId);
}
