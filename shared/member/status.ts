import { db } from '../db/service.ts';
import type { Actor } from '../auth/actor.ts';

/**
 * PUT /api/orgs/{org_id}/me/status (spec §4 User status): the actor marks themself online or
 * offline in this org (Member row; spec §3 org user is_online). The actor's membership was
 * checked by the HTTP middleware, so the row exists.
 */
export async function setMyOnlineStatus(actor: Actor, isOnline: boolean): Promise<{ is_online: boolean }> {
  await db().entities.member.patch({ org_id: actor.org_id, email: actor.email }).set({ is_online: isOnline }).go();
  return { is_online: isOnline };
}
