import { sidebarPaths, type OrgKind } from '#shared/org/navigation.rules.ts';

/** The sidebar sections of spec §2 (normal organization), in order. Hidden ones (/communities, /features) are left out. */
export interface NavItem {
  path: string;
  label: string;
  icon: IconName;
  /** what the section is for, shown on its not-built page */
  description: string;
}

export type IconName =
  | 'dashboard'
  | 'chats'
  | 'tickets'
  | 'analytics'
  | 'list'
  | 'broadcast'
  | 'rules'
  | 'ai'
  | 'contacts'
  | 'media'
  | 'logs'
  | 'phones'
  | 'settings';

export const NAV: NavItem[] = [
  { path: '/dashboard', label: 'Dashboard', icon: 'dashboard', description: 'a summary of your inbox stats' },
  { path: '/chats', label: 'Chats', icon: 'chats', description: 'the shared inbox' },
  { path: '/tickets', label: 'Tickets', icon: 'tickets', description: 'tickets raised from chats and assigned to your team' },
  { path: '/analytics', label: 'Analytics', icon: 'analytics', description: 'reports on response times and volumes' },
  { path: '/list', label: 'List', icon: 'list', description: 'bulk actions on many chats at once' },
  { path: '/broadcast', label: 'Broadcast', icon: 'broadcast', description: 'bulk messages to many contacts' },
  { path: '/rules', label: 'Rules', icon: 'rules', description: 'automation rules' },
  { path: '/ai', label: 'AI', icon: 'ai', description: 'the AI agent and its settings' },
  { path: '/contacts', label: 'Contacts', icon: 'contacts', description: 'your customers’ contact details' },
  { path: '/media', label: 'Media', icon: 'media', description: 'photos, videos and files exchanged in chats' },
  { path: '/logs', label: 'Logs', icon: 'logs', description: 'audit logs of what happened in your organization' },
  { path: '/settings', label: 'Settings', icon: 'settings', description: 'organization, team, phones and personal preferences' },
];

/** /phones: a platform organization's phones section (spec §2; the same page as /settings/phones). */
export const PHONES_NAV: NavItem = { path: '/phones', label: 'Phones', icon: 'phones', description: 'your connected numbers and their status' };

/** The sidebar items of `org` in spec §2 order (shared/org/navigation.rules.ts decides which). */
export function navItemsFor(org: OrgKind): NavItem[] {
  const all = [...NAV, PHONES_NAV];
  return sidebarPaths(org).flatMap((p) => all.filter((n) => n.path === p));
}

/** Paths where the mobile bottom tab bar appears (spec §2). */
export const MOBILE_TABS = NAV.filter((n) => ['/dashboard', '/chats', '/tickets'].includes(n.path));

/**
 * Pages that do not fit a phone (spec §2: "Some pages are unavailable on mobile"): wide tables,
 * editors and admin grids. On phone-width screens the shell shows UnavailableOnMobile instead,
 * with a button to chats. Checked at 390×844 by tests/e2e/phone-layout.e2e.test.ts.
 */
export const MOBILE_UNAVAILABLE: ReadonlyArray<{ path: string; title: string }> = [
  { path: '/analytics', title: 'Analytics' },
  { path: '/broadcast', title: 'Broadcast' },
  { path: '/rules', title: 'Rules' },
  { path: '/logs', title: 'Logs' },
  { path: '/settings/permissions', title: 'Permissions' },
];

/** The unavailable-on-mobile entry of a path (the path itself or below it), if any. */
export const mobileUnavailable = (pathname: string) => MOBILE_UNAVAILABLE.find((p) => pathname === p.path || pathname.startsWith(`${p.path}/`));
