import { describe, expect, it } from 'vitest';
import { pageAccess, permissionGranted, settingsPageAccess, type MemberPermissions, type PagePermissionKey, type Role } from './permissions.rules.ts';

/** Spec §6: role × permission value (unset / true / false) × gated page. */
const PAGES: Array<[string, PagePermissionKey]> = [
  ['/analytics', 'analytics'],
  ['/broadcast', 'bulk_message'],
  ['/rules', 'rules'],
  ['/contacts', 'contacts'],
];
const VALUES: Array<[string, boolean | undefined]> = [
  ['unset', undefined],
  ['true', true],
  ['false', false],
];
const ROLES: Role[] = ['admin', 'member'];

const table = ROLES.flatMap((role) =>
  VALUES.flatMap(([label, value]) =>
    PAGES.map(([page, key]) => ({ role, label, value, page, key, expected: role === 'admin' || value !== false })),
  ),
);

describe('pageAccess (role × permission × page)', () => {
  it.each(table)('$role, $key $label, $page -> $expected', ({ role, value, page, key, expected }) => {
    const perms: MemberPermissions = value === undefined ? {} : { [key]: value };
    expect(pageAccess(role, perms, page)).toBe(expected);
    // sub-paths follow their section
    expect(pageAccess(role, perms, `${page}/abc`)).toBe(expected);
  });

  it('one key denies only its own page', () => {
    expect(pageAccess('member', { analytics: false }, '/contacts')).toBe(true);
    expect(pageAccess('member', { bulk_message: false }, '/broadcast')).toBe(false);
    expect(pageAccess('member', { bulk_message: false }, '/list')).toBe(true);
  });

  it('no permissions at all (null) means allowed', () => {
    for (const [page] of PAGES) expect(pageAccess('member', null, page)).toBe(true);
  });

  it('pages without a gate are open to members', () => {
    for (const page of ['/chats', '/chats/1@c.us', '/tickets', '/media', '/dashboard', '/settings'])
      expect(pageAccess('member', { analytics: false, rules: false, contacts: false, bulk_message: false }, page)).toBe(true);
  });
});

describe('settings pages (spec §2: members see phones, scheduled, preferences, notifications)', () => {
  const SECTIONS: Array<[string, boolean]> = [
    ['phones', true],
    ['scheduled', true],
    ['preferences', true],
    ['notifications', true],
    ['team', false],
    ['permissions', false],
    ['general', false],
    ['config', false],
    ['labels', false],
    ['tickets', false],
    ['plans', false],
    ['integrations/api', false],
  ];
  it.each(SECTIONS)('member /settings/%s -> %s; admin always', (section, memberMay) => {
    expect(settingsPageAccess('member', section)).toBe(memberMay);
    expect(settingsPageAccess('admin', section)).toBe(true);
    expect(pageAccess('member', {}, `/settings/${section}`)).toBe(memberMay);
    expect(pageAccess('admin', {}, `/settings/${section}`)).toBe(true);
  });
});

describe('permissionGranted', () => {
  it('only an explicit false denies', () => {
    expect(permissionGranted(undefined, 'chat_assignee')).toBe(true);
    expect(permissionGranted({ chat_assignee: true }, 'chat_assignee')).toBe(true);
    expect(permissionGranted({ chat_assignee: false }, 'chat_assignee')).toBe(false);
  });
});

// issue 19: /logs is for admins only
describe('admin-only pages', () => {
  it('/logs: admins pass, members see Restricted whatever their permissions', () => {
    expect(pageAccess('admin', {}, '/logs')).toBe(true);
    expect(pageAccess('member', {}, '/logs')).toBe(false);
    expect(pageAccess('member', { analytics: true }, '/logs/audit')).toBe(false);
  });
});
