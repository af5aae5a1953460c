/**
 * Page gates of spec §6 (roles and member permissions), pure: used by the API (403 on the data a
 * page shows) and by the web app (the Restricted page), which only hides what the API refuses.
 *
 * - Admins pass every gate.
 * - Members' access to /analytics, /broadcast, /rules and /contacts follows
 *   `org_metadata.preferences.member_permissions` keys analytics, bulk_message, rules, contacts;
 *   unset means allowed, only an explicit `false` denies.
 * - /rules: the spec also reports 'one reading lists the rules page as admin only'. We follow the
 *   member_permissions reading (rules is one of the four keys, default allowed): it is the
 *   spec's main statement and the issue's, and the admin-only reading would make the `rules`
 *   key meaningless. An org that wants rules admin-only turns `rules` off.
 * - Settings: members may open only phones, scheduled, preferences and notifications (spec §2);
 *   the settings index itself (the menu) is open to everyone.
 *
 * The chat_assignee permission and phone masking live in shared/chat/chat-access.rules.ts
 * (canChangeChatAssignee, mustMask).
 */
import type { ChatPreferences } from '../chat/chat-access.rules.ts';

export type Role = 'admin' | 'member';

/** The member_permissions keys that gate pages (spec §6). */
export type PagePermissionKey = 'analytics' | 'bulk_message' | 'rules' | 'contacts';

/** Every member_permissions key (the page keys plus chat_assignee). */
export const MEMBER_PERMISSION_KEYS = ['analytics', 'bulk_message', 'rules', 'contacts', 'chat_assignee'] as const;
export type MemberPermissionKey = (typeof MEMBER_PERMISSION_KEYS)[number];
export type MemberPermissions = Partial<Record<MemberPermissionKey, boolean>>;

/** Gated top-level pages and the permission key of each (spec §6). */
export const GATED_PAGES: Readonly<Record<string, PagePermissionKey>> = {
  '/analytics': 'analytics',
  '/broadcast': 'bulk_message',
  '/rules': 'rules',
  '/contacts': 'contacts',
};

/** Settings pages (the segment after /settings/) a member may open (spec §2). */
export const MEMBER_SETTINGS_PAGES: ReadonlySet<string> = new Set(['phones', 'scheduled', 'preferences', 'notifications']);

/**
 * Pages for admins only (issue 19): /logs, the organization's audit of admin actions and its API,
 * webhook, rules, broadcast and AI logs (the API answers members 403 on every logs route).
 * Spec §2 lists /logs without a gate and §6 gates only analytics, broadcast, rules and contacts;
 * kept admin-only on purpose (issue 49 §15): what it shows is the admins' own trail and the
 * integrations' traffic, which Front and Chatwoot also keep to admins.
 */
export const ADMIN_ONLY_PAGES: ReadonlySet<string> = new Set(['/logs']);

/** Spec §6 text of the Restricted page. */
export const RESTRICTED_MESSAGE = 'This page is restricted for non-admin members. Contact an administrator if you think this is a mistake.';

/** Is a member permission granted? Unset (or no permissions at all) = allowed (spec §6). */
export const permissionGranted = (permissions: MemberPermissions | null | undefined, key: MemberPermissionKey): boolean => permissions?.[key] !== false;

/**
 * May `role` open `page`?
 * @param page a path: '/analytics', '/rules/123', '/settings/team', '/chats'…; the first segment
 *   (and for /settings the second) decides. Pages without a gate are open.
 * @param memberPermissions the org's `member_permissions` (ignored for admins)
 */
export function pageAccess(role: Role, memberPermissions: MemberPermissions | null | undefined, page: string): boolean {
  if (role === 'admin') return true;
  const [first = '', second] = page.split('?')[0].split('/').filter(Boolean);
  if (first === 'settings') return second === undefined || settingsPageAccess(role, second);
  if (ADMIN_ONLY_PAGES.has(`/${first}`)) return false; // issue 19
  const key = GATED_PAGES[`/${first}`];
  return key === undefined || permissionGranted(memberPermissions, key);
}

/** May `role` open /settings/{section}? Admins: all; members: phones, scheduled, preferences, notifications. */
export function settingsPageAccess(role: Role, section: string): boolean {
  return role === 'admin' || MEMBER_SETTINGS_PAGES.has(section.split('/')[0]);
}

/** The member_permissions of an org's preferences (spec §3), `{}` when unset. */
export const memberPermissionsOf = (prefs: ChatPreferences | null | undefined): MemberPermissions => ({ ...(prefs?.member_permissions ?? {}) });
