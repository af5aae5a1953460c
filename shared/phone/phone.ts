import { db } from '../db/service.ts';
import { config } from '../config.ts';
import { assertCanAddPhone } from '../plan/plan.ts';
import { phoneLimit, type OrgPlanState } from '../plan/entitlements.rules.ts';
import { AppError } from '../errors.ts';
import type { Actor } from '../auth/actor.ts';
import { fetchPhoneNumber, GraphApiError } from '../whatsapp/cloud/graph-client.ts';
import { decryptToken, encryptToken } from './token-crypto.ts';
import { phoneCounter, type AddPhoneInput, type PhoneList, type PhoneView } from './phone.schemas.ts';

/**
 * Phone lookups. Inbound routing resolves Meta's `phone_number_id` to the org that owns it
 * through the byExternalId index; results (including misses) are cached for 30 s per process
 * because every webhook needs it.
 */
type PhoneRow = { org_id: string; phone_id: string; org_phone: string; waba_id?: string };
const cache = new Map<string, { at: number; row: PhoneRow | undefined }>();
const TTL_MS = 30_000;

/** The phone with this Cloud API phone_number_id, or undefined when no org has connected it. */
export async function findPhoneByExternalId(phoneNumberId: string): Promise<PhoneRow | undefined> {
  const hit = cache.get(phoneNumberId);
  if (hit && Date.now() - hit.at < TTL_MS) return hit.row;
  const res = await db().entities.phone.query.byExternalId({ connection_type: 'wa_cloud', phone_id: phoneNumberId }).go({ limit: 1 });
  const p = res.data[0];
  const row = p ? { org_id: p.org_id, phone_id: p.phone_id, org_phone: p.org_phone, ...(p.waba_id ? { waba_id: p.waba_id } : {}) } : undefined;
  cache.set(phoneNumberId, { at: Date.now(), row });
  return row;
}

/** Drop cached routing (after a phone is added or removed). */
export function clearPhoneCache(): void {
  cache.clear();
  tokenCache.clear();
}

/** Phones of an org (spec §3 Phone). */
export async function listPhones(orgId: string) {
  const res = await db().entities.phone.query.byOrg({ org_id: orgId }).go({ pages: 'all' });
  return res.data;
}

type PhoneItem = Awaited<ReturnType<typeof listPhones>>[number];

/** The API shape of a phone: never the token. */
const toView = (p: PhoneItem): PhoneView => ({
  phone_id: p.phone_id,
  org_phone: p.org_phone,
  is_ready: p.is_ready ?? false,
  first_connected_at: p.first_connected_at ?? null,
  created_at: p.created_at ?? 0,
  waba_id: p.waba_id ?? null,
  verified_name: p.verified_name ?? null,
  connection_type: p.connection_type,
});

/** The plan's phone limit, from the one entitlement module (shared/plan/entitlements.rules.ts `phoneLimit`). */
async function planPhoneLimit(orgId: string): Promise<number> {
  const org = (await db().entities.organization.get({ org_id: orgId }).go()).data;
  return org ? phoneLimit(org as OrgPlanState) : 0;
}

/**
 * GET /phones (any member, spec §2): the org's phones, oldest first, with the spec §9 counter
 * `connected / max(phone count, plan limit)`.
 */
export async function listPhoneViews(actor: Actor): Promise<PhoneList> {
  const [rows, planLimit] = await Promise.all([listPhones(actor.org_id), planPhoneLimit(actor.org_id)]);
  // a linked WhatsApp Web number shows its session's state (one GetItem per such number)
  const states = new Map(
    await Promise.all(rows.filter((p) => p.connection_type === 'wa_web').map(async (p) => [p.phone_id, (await db().entities.waWebSession.get({ phone_id: p.phone_id }).go()).data?.state ?? null] as const)),
  );
  const phones = rows
    .map((p) => ({ ...toView(p), ...(states.has(p.phone_id) ? { session_state: states.get(p.phone_id) } : {}) }))
    .sort((a, b) => a.created_at - b.created_at || a.phone_id.localeCompare(b.phone_id));
  return { phones, ...phoneCounter(phones, planLimit) };
}

const fieldError = (code: string, message: string, status: number, field: string, reason: string) => new AppError(code, message, { status, details: [{ field, reason }] });

/**
 * POST /phones (admins, spec §7 Add phone): connect a Cloud API number. The token is checked
 * against the Graph API (Meta "Phone numbers": display number and verified name) before anything
 * is saved, then stored AES-256-GCM encrypted; the phone is ready and connected from now.
 * A phone_number_id belongs to at most one org (inbound routing resolves it globally). The check
 * and the write are not atomic: two admins adding the same id in the same instant could both
 * succeed; acceptable for a manual admin action.
 * @throws AppError 403 phone.forbidden (members); 409 phone.already_connected; 400 phone.token_rejected
 *   (Meta refused the token or id; details name the field); 502 phone.graph_unreachable; 503 phone.not_configured
 */
export async function addPhone(actor: Actor, input: AddPhoneInput): Promise<PhoneView> {
  if (actor.role !== 'admin') throw new AppError('phone.forbidden', 'Only admins can add phones.', { status: 403 });
  const key = config().PHONE_TOKEN_KEY;
  if (!key) throw new AppError('phone.not_configured', 'Adding phones is not configured on this server (PHONE_TOKEN_KEY).', { status: 503 });
  const taken = (await db().entities.phone.query.byExternalId({ connection_type: 'wa_cloud', phone_id: input.phone_number_id }).go({ limit: 1 })).data[0];
  if (taken) {
    const where = taken.org_id === actor.org_id ? 'this workspace' : 'another workspace';
    throw fieldError('phone.already_connected', `This phone number id is already connected to ${where}.`, 409, 'phone_number_id', `already connected to ${where}`);
  }
  // issue 22: the plan's phone limit (403 plan.limit_reached)
  await assertCanAddPhone(actor.org_id);
  let number;
  try {
    number = await fetchPhoneNumber(input.phone_number_id, input.access_token);
  } catch (e) {
    if (!(e instanceof GraphApiError)) throw e;
    if (e.retryable) throw new AppError('phone.graph_unreachable', e.reason, { status: 502 });
    // 190 and 4xx without a code: the token; 100 (object does not exist / no permission): the id
    const field = e.code === 100 ? 'phone_number_id' : 'access_token';
    const reason = `WhatsApp refused it: ${e.title ?? e.reason}${e.code != null ? ` (code ${e.code})` : ''}`;
    throw fieldError('phone.token_rejected', reason, 400, field, reason);
  }
  const now = Date.now();
  const row = await db()
    .entities.phone.create({
      org_id: actor.org_id,
      phone_id: input.phone_number_id,
      org_phone: number.display_phone_number.replace(/\D/g, ''),
      connection_type: 'wa_cloud',
      waba_id: input.waba_id,
      verified_name: number.verified_name ?? undefined,
      access_token_enc: encryptToken(input.access_token, key, input.phone_number_id),
      added_by: actor.email,
      is_ready: true,
      first_connected_at: now,
    })
    .go();
  clearPhoneCache();
  return toView(row.data as PhoneItem);
}

const tokenCache = new Map<string, { at: number; token: string | undefined }>();

/**
 * The Cloud API token to use for a phone: its own (decrypted) when it was added with one,
 * undefined otherwise (callers then use the global WHATSAPP_ACCESS_TOKEN). Cached 30 s per process.
 * @throws Error when the stored token cannot be decrypted (wrong PHONE_TOKEN_KEY): sending with
 *   another token would only fail at Meta with a less clear error
 */
export async function phoneAccessToken(phoneNumberId: string): Promise<string | undefined> {
  const hit = tokenCache.get(phoneNumberId);
  if (hit && Date.now() - hit.at < TTL_MS) return hit.token;
  const p = (await db().entities.phone.query.byExternalId({ connection_type: 'wa_cloud', phone_id: phoneNumberId }).go({ limit: 1 })).data[0];
  const token = p?.access_token_enc ? decryptToken(p.access_token_enc, config().PHONE_TOKEN_KEY, phoneNumberId) : undefined;
  tokenCache.set(phoneNumberId, { at: Date.now(), token });
  return token;
}
