import { describe, expect, it } from 'vitest';
import { fallbackPath, pageDecision, pathAvailable, settingsMenu, sidebarPaths, type PageDecision } from './navigation.rules.ts';
import type { Role } from './permissions.rules.ts';

const NORMAL = { is_platform: false };
const PLATFORM = { is_platform: true };

describe('sidebar (spec §2)', () => {
  it('a normal organization shows the spec order without communities and features', () => {
    expect(sidebarPaths(NORMAL)).toEqual(['/dashboard', '/chats', '/tickets', '/analytics', '/list', '/broadcast', '/rules', '/ai', '/contacts', '/media', '/logs', '/settings']);
    // unset flag = normal
    expect(sidebarPaths({})).toEqual(sidebarPaths(NORMAL));
    expect(sidebarPaths(null)).toEqual(sidebarPaths(NORMAL));
  });

  it('a platform organization shows only dashboard, phones and settings', () => {
    expect(sidebarPaths(PLATFORM)).toEqual(['/dashboard', '/phones', '/settings']);
  });

  it('unknown paths fall back to /chats (normal) or /dashboard (platform)', () => {
    expect(fallbackPath(NORMAL)).toBe('/chats');
    expect(fallbackPath(PLATFORM)).toBe('/dashboard');
  });
});

/** role × platform × path -> decision; member permissions: analytics denied, the rest unset. */
const R = (to: string): PageDecision => ({ kind: 'redirect', to });
const PAGE: PageDecision = { kind: 'page' };
const RESTRICTED: PageDecision = { kind: 'restricted' };
const TABLE: Array<[string, { admin: PageDecision; member: PageDecision }, { admin: PageDecision; member: PageDecision }]> = [
  // path, normal org, platform org
  ['/dashboard', { admin: PAGE, member: PAGE }, { admin: PAGE, member: PAGE }],
  ['/chats', { admin: PAGE, member: PAGE }, { admin: R('/dashboard'), member: R('/dashboard') }],
  ['/chats/15551234567@c.us', { admin: PAGE, member: PAGE }, { admin: R('/dashboard'), member: R('/dashboard') }],
  ['/tickets?ticket=t1', { admin: PAGE, member: PAGE }, { admin: R('/dashboard'), member: R('/dashboard') }],
  ['/analytics', { admin: PAGE, member: RESTRICTED }, { admin: R('/dashboard'), member: R('/dashboard') }],
  ['/broadcast', { admin: PAGE, member: PAGE }, { admin: R('/dashboard'), member: R('/dashboard') }],
  ['/list', { admin: PAGE, member: PAGE }, { admin: R('/dashboard'), member: R('/dashboard') }],
  ['/media', { admin: PAGE, member: PAGE }, { admin: R('/dashboard'), member: R('/dashboard') }],
  // issue 19: /logs is for admins (ADMIN_ONLY_PAGES in permissions.rules.ts)
  ['/logs', { admin: PAGE, member: RESTRICTED }, { admin: R('/dashboard'), member: R('/dashboard') }],
  ['/phones', { admin: R('/chats'), member: R('/chats') }, { admin: PAGE, member: PAGE }],
  ['/settings', { admin: PAGE, member: PAGE }, { admin: PAGE, member: PAGE }],
  ['/settings/team', { admin: PAGE, member: RESTRICTED }, { admin: PAGE, member: RESTRICTED }],
  ['/settings/phones', { admin: PAGE, member: PAGE }, { admin: PAGE, member: PAGE }],
  ['/settings/preferences', { admin: PAGE, member: PAGE }, { admin: PAGE, member: PAGE }],
  ['/workspaces/new', { admin: PAGE, member: PAGE }, { admin: PAGE, member: PAGE }],
  ['/communities', { admin: R('/chats'), member: R('/chats') }, { admin: R('/dashboard'), member: R('/dashboard') }],
  ['/features', { admin: R('/chats'), member: R('/chats') }, { admin: R('/dashboard'), member: R('/dashboard') }],
  ['/no-such-page', { admin: R('/chats'), member: R('/chats') }, { admin: R('/dashboard'), member: R('/dashboard') }],
  ['/', { admin: R('/chats'), member: R('/chats') }, { admin: R('/dashboard'), member: R('/dashboard') }],
];
const CASES = TABLE.flatMap(([path, normal, platform]) =>
  (['admin', 'member'] as Role[]).flatMap((role) => [
    { path, role, platform: false, expected: normal[role] },
    { path, role, platform: true, expected: platform[role] },
  ]),
);

describe('pageDecision (role × platform × path)', () => {
  it.each(CASES)('$role, platform $platform, $path -> $expected.kind', ({ path, role, platform, expected }) => {
    expect(pageDecision({ is_platform: platform }, role, { analytics: false }, path)).toEqual(expected);
    expect(pathAvailable({ is_platform: platform }, path)).toBe(expected.kind !== 'redirect');
  });
});

describe('settings menu (spec §2)', () => {
  it('admins see the four groups, exactly', () => {
    const menu = settingsMenu('admin');
    expect(menu.map((g) => g.title)).toEqual(['Plans and Usage', 'User', 'Organization', 'Integrations']);
    expect(menu[1].entries.map((e) => e.section)).toEqual(['preferences', 'scheduled', 'notifications']);
    expect(menu[2].entries.map((e) => e.section)).toEqual(['general', 'config', 'permissions', 'phones', 'team', 'labels', 'tickets', 'replies', 'properties', 'library', 'group-templates']);
  });

  it('members see only phones, scheduled, preferences and notifications', () => {
    const menu = settingsMenu('member');
    expect(menu.map((g) => g.title)).toEqual(['User', 'Organization']);
    expect(menu.flatMap((g) => g.entries.map((e) => e.section)).sort()).toEqual(['notifications', 'phones', 'preferences', 'scheduled']);
  });
});
