/**
 * Navigation of spec §2, pure: which sidebar sections an organization shows, in which order, which
 * paths it may open, where an unknown path falls back to, and the settings menu groups a role sees.
 * The web app follows these (sidebar, router fallback, settings menu); page gates by role and
 * member_permissions stay in permissions.rules.ts (`pageAccess`) and are combined here in
 * {@link pageDecision}.
 *
 * - Normal organizations: the sidebar of spec §2 in order (dashboard, chats, tickets, analytics,
 *   list, broadcast, rules, ai, contacts, media, logs, settings); /communities ('coming soon') and
 *   /features (changelog) are hidden and treated as unknown paths.
 * - Platform organizations (`organization.is_platform`, spec §3) see only /dashboard (phone and
 *   queue status), /phones and /settings (spec §2).
 * - Unknown paths fall back to /chats (normal) or /dashboard (platform) (spec §2).
 * - /workspaces/new (Create workspace, from the organization switcher) is open to every org kind.
 */
import { pageAccess, settingsPageAccess, type MemberPermissions, type Role } from './permissions.rules.ts';

/** The organization fields navigation depends on (spec §3 `is_platform`; unset = normal). */
export interface OrgKind {
  is_platform?: boolean | null;
}

/** A sidebar section of spec §2. `hidden` ones exist in the spec's list but are not shown. */
export interface SidebarSection {
  path: string;
  label: string;
  hidden?: boolean;
}

/** Spec §2 sidebar of a normal organization, in order (hidden ones included, flagged). */
export const SIDEBAR_SECTIONS: readonly SidebarSection[] = [
  { path: '/dashboard', label: 'Dashboard' },
  { path: '/chats', label: 'Chats' },
  { path: '/tickets', label: 'Tickets' },
  { path: '/analytics', label: 'Analytics' },
  { path: '/list', label: 'List' },
  { path: '/broadcast', label: 'Broadcast' },
  { path: '/rules', label: 'Rules' },
  { path: '/ai', label: 'AI' },
  { path: '/contacts', label: 'Contacts' },
  { path: '/communities', label: 'Communities', hidden: true },
  { path: '/media', label: 'Media' },
  { path: '/logs', label: 'Logs' },
  { path: '/features', label: 'Features', hidden: true },
  { path: '/settings', label: 'Settings' },
];

/** Spec §2: the only sections of a platform organization, in order. */
export const PLATFORM_SECTIONS: readonly string[] = ['/dashboard', '/phones', '/settings'];

/** App routes outside the sidebar that every organization may open. */
const ALWAYS_OPEN: readonly string[] = ['/workspaces'];

export const isPlatform = (org: OrgKind | null | undefined): boolean => org?.is_platform === true;

/** The sidebar paths `org` shows, in spec §2 order. */
export function sidebarPaths(org: OrgKind | null | undefined): string[] {
  if (isPlatform(org)) return [...PLATFORM_SECTIONS];
  return SIDEBAR_SECTIONS.filter((s) => !s.hidden).map((s) => s.path);
}

/** Where an unknown (or, for a platform org, unavailable) path goes: /chats or /dashboard (spec §2). */
export function fallbackPath(org: OrgKind | null | undefined): '/chats' | '/dashboard' {
  return isPlatform(org) ? '/dashboard' : '/chats';
}

/** The first segment of a path as '/segment' ('' for '/'); query and hash ignored. */
export function sectionOf(path: string): string {
  const first = path.split(/[?#]/)[0].split('/').filter(Boolean)[0];
  return first ? `/${first}` : '';
}

/**
 * May `org` open `path` at all (ignoring role gates)? True when its first segment is one of the
 * org's sidebar sections or an always-open app route (/workspaces).
 * @param path e.g. '/chats/123', '/settings/team', '/phones'
 */
export function pathAvailable(org: OrgKind | null | undefined, path: string): boolean {
  const section = sectionOf(path);
  return sidebarPaths(org).includes(section) || ALWAYS_OPEN.includes(section);
}

/** What the app shows for a path: the page, the Restricted page (spec §6), or a redirect (spec §2). */
export type PageDecision = { kind: 'page' } | { kind: 'restricted' } | { kind: 'redirect'; to: string };

/**
 * The decision for `path` of `org` as `role`: unavailable paths redirect to {@link fallbackPath};
 * available ones are gated by `pageAccess` (spec §6: admins pass, members per member_permissions
 * and the member settings list).
 */
export function pageDecision(org: OrgKind | null | undefined, role: Role, memberPermissions: MemberPermissions | null | undefined, path: string): PageDecision {
  if (!pathAvailable(org, path)) return { kind: 'redirect', to: fallbackPath(org) };
  return pageAccess(role, memberPermissions, path) ? { kind: 'page' } : { kind: 'restricted' };
}

/** One entry of the settings menu: `section` is the part after /settings/. */
export interface SettingsEntry {
  section: string;
  label: string;
}

export interface SettingsGroup {
  title: string;
  entries: SettingsEntry[];
}

/** Spec §2 settings menu groups, exactly, in order (the full admin view). */
export const SETTINGS_GROUPS: readonly SettingsGroup[] = [
  { title: 'Plans and Usage', entries: [{ section: 'plans', label: 'Plans and Usage' }] },
  {
    title: 'User',
    entries: [
      { section: 'preferences', label: 'Preferences' },
      { section: 'scheduled', label: 'Scheduled' },
      { section: 'notifications', label: 'Notifications' },
    ],
  },
  {
    title: 'Organization',
    entries: [
      { section: 'general', label: 'General' },
      { section: 'config', label: 'Config' },
      { section: 'permissions', label: 'Permissions' },
      { section: 'phones', label: 'Phones' },
      { section: 'team', label: 'Team' },
      { section: 'labels', label: 'Labels' },
      { section: 'tickets', label: 'Tickets' },
      { section: 'replies', label: 'Quick Replies' },
      { section: 'properties', label: 'Custom Properties' },
      { section: 'library', label: 'Media Library' },
      { section: 'group-templates', label: 'Group Templates' },
    ],
  },
  {
    title: 'Integrations',
    entries: [
      { section: 'integrations/all', label: 'All integrations' },
      { section: 'integrations/api', label: 'API' },
      { section: 'integrations/mcp', label: 'MCP' },
      { section: 'integrations/webhooks', label: 'Webhooks' },
    ],
  },
];

/**
 * The settings menu `role` sees: admins every group; members only the entries they may open
 * (phones, scheduled, preferences, notifications; spec §2), empty groups left out.
 */
export function settingsMenu(role: Role): SettingsGroup[] {
  return SETTINGS_GROUPS.map((g) => ({ title: g.title, entries: g.entries.filter((e) => settingsPageAccess(role, e.section)) })).filter((g) => g.entries.length > 0);
}
