import { db } from '../db/service.ts';
import type { ChatPreferences } from '../chat/chat-access.rules.ts';

/**
 * The org's `org_metadata.preferences` (spec §3: mask_phone_numbers, member_permissions), read by
 * key. Cached per process for 5 s: permission changes reach every Lambda within seconds without a
 * read per chat of a list.
 */
const cache = new Map<string, { at: number; prefs: ChatPreferences }>();
const TTL_MS = 5_000;

export async function getOrgPreferences(orgId: string): Promise<ChatPreferences> {
  const hit = cache.get(orgId);
  if (hit && Date.now() - hit.at < TTL_MS) return hit.prefs;
  const org = (await db().entities.organization.get({ org_id: orgId }).go()).data;
  const prefs = ((org?.org_metadata as { preferences?: ChatPreferences } | undefined)?.preferences ?? {}) as ChatPreferences;
  cache.set(orgId, { at: Date.now(), prefs });
  return prefs;
}

/** Forget cached preferences (after an admin changes them in this process; tests). */
export function forgetOrgPreferences(orgId?: string): void {
  if (orgId) cache.delete(orgId);
  else cache.clear();
}
