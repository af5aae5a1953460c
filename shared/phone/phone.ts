import { db } from '../db/service.ts';

/**
 * Phone lookups. Inbound routing resolves Meta's `phone_number_id` to the org that owns it
 * through the byExternalId index; results (including misses) are cached for 30 s per process
 * because every webhook needs it.
 */
type PhoneRow = { org_id: string; phone_id: string; org_phone: string };
const cache = new Map<string, { at: number; row: PhoneRow | undefined }>();
const TTL_MS = 30_000;

/** The phone with this Cloud API phone_number_id, or undefined when no org has connected it. */
export async function findPhoneByExternalId(phoneNumberId: string): Promise<PhoneRow | undefined> {
  const hit = cache.get(phoneNumberId);
  if (hit && Date.now() - hit.at < TTL_MS) return hit.row;
  const res = await db().entities.phone.query.byExternalId({ connection_type: 'wa_cloud', phone_id: phoneNumberId }).go({ limit: 1 });
  const p = res.data[0];
  const row = p ? { org_id: p.org_id, phone_id: p.phone_id, org_phone: p.org_phone } : undefined;
  cache.set(phoneNumberId, { at: Date.now(), row });
  return row;
}

/** Drop cached routing (after a phone is added or removed). */
export function clearPhoneCache(): void {
  cache.clear();
}

/** Phones of an org (spec §3 Phone). */
export async function listPhones(orgId: string) {
  const res = await db().entities.phone.query.byOrg({ org_id: orgId }).go({ pages: 'all' });
  return res.data;
}
