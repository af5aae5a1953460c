import { db } from '../db/service.ts';
import { watchWrites } from '../db/write-watch.ts';
import { orgCache } from '../org/org-cache.ts';
import { AppError } from '../errors.ts';
import { resolveIdentity } from './identity.ts';
import type { Claims } from './jwt.ts';
import type { Viewer } from '../chat/chat-access.rules.ts';

/**
 * The actor of a request: who (from the token) acting in which org with which role (from the
 * table). Handlers get it from the one middleware and never re-derive membership.
 */
export interface Actor {
  email: string;
  user_id: string;
  org_id: string;
  role: 'admin' | 'member';
  /**
   * issue 42 §1: an automated actor (a rule, an SLA policy) acting for its owner: the owner's email.
   * The access guard (shared/access/guard.ts) decides what it may see as this person with `role`
   * (the owner's role now); `email` stays the automation's identity (the author of what it writes).
   */
  on_behalf_of?: string;
}

/**
 * Resolve membership of `orgId` (spec §6) for the account that signed in: its email is the one bound
 * to the token's `sub` (shared/auth/identity.ts), not whatever the email claim says now. An org the
 * user does not belong to is a 404, the same answer as an org that does not exist, so ids cannot be
 * probed.
 * @throws AppError 404 organization.not_found; 401 auth.identity_conflict (see resolveIdentity)
 */
export async function resolveActor(claims: Claims, orgId: string): Promise<Actor> {
  const { email, sub } = await resolveIdentity(claims);
  const member = await memberRow(orgId, email);
  if (!member || member.is_active === false) {
    throw new AppError('organization.not_found', 'That workspace does not exist or you are not a member of it.', { status: 404 });
  }
  return { email, user_id: sub, org_id: orgId, role: member.role };
}

/**
 * How long a member row read by `resolveActor` is reused by this process, in ms. A write of any
 * member row by this process forgets them all at once (shared/db/write-watch.ts; a read in flight
 * then is not kept), so in the local runtime, where every use case runs in one process, a removal,
 * deactivation or role change applies to the next request. In AWS another Lambda instance's write
 * is not seen: there a change applies within this many ms. Issue 14: the member GetItem was about
 * half of a search request's CPU (runtime and DynamoDB Local) at 10 clients.
 */
export const MEMBER_CACHE_MS = 2_000;
/** The member entity's sort-key prefix (`$member_1#email_…`, ElectroDB's key of MemberEntity). */
const MEMBER_SK_PREFIX = '$member_1#';

type MemberRow = { role: 'admin' | 'member'; is_active?: boolean } | null;
/** Member rows by `org_id\nemail` (null: not a member). */
const members = orgCache<MemberRow>(async (key) => {
  const [org_id, email] = key.split('\n') as [string, string];
  const data = (await db().entities.member.get({ org_id, email }).go()).data;
  return data ? { role: data.role, is_active: data.is_active } : null;
}, MEMBER_CACHE_MS);

/** The active members of an org by lower-cased email, with their roles (one paged Query per org). */
const activeMembers = orgCache<Map<string, Viewer>>(async (orgId) => {
  const rows = (await db().entities.member.query.byOrg({ org_id: orgId }).go({ pages: 'all' })).data;
  return new Map(rows.filter((m) => m.is_active !== false).map((m) => [m.email.toLowerCase(), { email: m.email.toLowerCase(), role: m.role }] as const));
}, MEMBER_CACHE_MS);
// any member write of this process forgets both caches (a read in flight is then not kept)
watchWrites(
  (key) => key.sk.startsWith(MEMBER_SK_PREFIX),
  () => {
    members.forget();
    activeMembers.forget();
  },
);

/**
 * The org's active members by lower-cased email (`{ email, role }`), as the socket fan-out needs
 * them to view each event for each connection (shared/realtime/event-view.ts). Cached like the
 * member rows of resolveActor: forgotten at once by any member write of this process, at most
 * MEMBER_CACHE_MS old otherwise (another Lambda instance's change). Issue 23: the fan-out read them
 * with a Query per batch, on the path of every message to the socket.
 */
export const orgActiveMembers = (orgId: string): Promise<Map<string, Viewer>> => activeMembers.get(orgId);

/** The member row of `email` in `orgId` (null when none), from the cache while fresh (see MEMBER_CACHE_MS). */
const memberRow = (orgId: string, email: string): Promise<MemberRow> => members.get(`${orgId}\n${email}`);
