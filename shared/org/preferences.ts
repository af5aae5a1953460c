import { db } from '../db/service.ts';
import type { ChatPreferences } from '../chat/chat-access.rules.ts';
import { orgCache } from './org-cache.ts';

/**
 * The org's `org_metadata.preferences` (spec §3: mask_phone_numbers, member_permissions), read by
 * key. Cached per process for 5 s (org-cache.ts): permission changes reach every Lambda within
 * seconds without a read per chat of a list.
 */
const preferences = orgCache(async (orgId): Promise<ChatPreferences> => {
  const org = (await db().entities.organization.get({ org_id: orgId }).go()).data;
  return ((org?.org_metadata as { preferences?: ChatPreferences } | undefined)?.preferences ?? {}) as ChatPreferences;
});

export const getOrgPreferences = (orgId: string): Promise<ChatPreferences> => preferences.get(orgId);

/** Forget cached preferences (after an admin changes them in this process; tests). */
export const forgetOrgPreferences = (orgId?: string): void => preferences.forget(orgId);
