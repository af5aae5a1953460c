import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../factories/runtime.ts';
import { seedDemo } from '../../scripts/local/seed.ts';
import type { MeResponse } from '../../shared/me.schemas.ts';
import { DEFAULT_PUSH_PREFERENCES, type UserPreferences } from '../../shared/user/preferences.schemas.ts';

/**
 * User preferences and status over HTTP on the local runtime (issue 3 part 6, spec §3, §4):
 * GET/PUT /api/me/preferences round-trip with defaults and validation 400s, the online/offline
 * toggle on the member row (seen in GET /members and GET /api/me), another org's status route 404.
 */
let rt: TestRuntime;
let admin: string;
let member: string;
let outsider: string;
let otherOrgId: string;

type Res<T> = { status: number; body: T };
type Err = { error: { code: string; message: string; details?: Array<{ field: string; reason: string }> } };
const call = async <T = Record<string, unknown>>(token: string, method: string, path: string, json?: unknown): Promise<Res<T>> => {
  const r = await rt.api(token, path, { method, json });
  return { status: r.status, body: (await r.json()) as T };
};

beforeAll(async () => {
  rt = await startTestRuntime();
  const outsiderEmail = 'outsider@prefs.chorus';
  const sub = await rt.createUser(outsiderEmail, rt.password);
  otherOrgId = await seedDemo({ orgName: 'Other Co', admin: { email: outsiderEmail, sub, name: 'Outsider' }, member: { email: 'm2@prefs.chorus', sub: 'x', name: 'M2' }, phone: { phone_number_id: '444000778', display_phone_number: '15554440078' } });
  [admin, member, outsider] = await Promise.all([rt.signIn(rt.adminEmail), rt.signIn(rt.memberEmail), rt.signIn(outsiderEmail)]);
});
afterAll(async () => rt?.cleanup());

describe('user preferences (spec §3)', () => {
  it('a user who never saved any reads the defaults', async () => {
    // Act
    const r = await call<{ preferences: UserPreferences }>(member, 'GET', '/api/me/preferences');
    // Assert
    expect(r.status).toBe(200);
    expect(r.body.preferences).toEqual({ notifications: { enable_notifications: true, enable_mobile_notifications: true }, left_sidebar_open: true, push: DEFAULT_PUSH_PREFERENCES });
  });

  it('PUT merges a subset, GET returns it, and it is per user', async () => {
    // Arrange / Act
    const a = await call<{ preferences: UserPreferences }>(member, 'PUT', '/api/me/preferences', { left_sidebar_open: false });
    const b = await call<{ preferences: UserPreferences }>(member, 'PUT', '/api/me/preferences', { notifications: { enable_mobile_notifications: false } });
    // Assert
    expect(a.status).toBe(200);
    expect(b.body.preferences).toEqual({ notifications: { enable_notifications: true, enable_mobile_notifications: false }, left_sidebar_open: false, push: DEFAULT_PUSH_PREFERENCES });
    expect((await call<{ preferences: UserPreferences }>(member, 'GET', '/api/me/preferences')).body.preferences).toEqual(b.body.preferences);
    expect((await call<{ preferences: UserPreferences }>(admin, 'GET', '/api/me/preferences')).body.preferences.left_sidebar_open).toBe(true);
  });

  it('refuses non-booleans and unknown keys with 400 and field reasons', async () => {
    const bad = await call<Err>(member, 'PUT', '/api/me/preferences', { left_sidebar_open: 'yes' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details).toContainEqual({ field: 'left_sidebar_open', reason: 'must be true or false' });
    const nested = await call<Err>(member, 'PUT', '/api/me/preferences', { notifications: { enable_notifications: 1 } });
    expect(nested.status).toBe(400);
    expect(nested.body.error.details).toContainEqual({ field: 'notifications.enable_notifications', reason: 'must be true or false' });
    expect((await call(member, 'PUT', '/api/me/preferences', { theme: 'dark' })).status).toBe(400);
    expect((await call(member, 'PUT', '/api/me/preferences', { notifications: { sound: true } })).status).toBe(400);
  });

  it('needs a token', async () => {
    expect((await rt.api(null, '/api/me/preferences')).status).toBe(401);
  });
});

describe('online/offline status (spec §4)', () => {
  const members = async (token: string) => (await call<{ members: Array<{ email: string; is_online: boolean }> }>(token, 'GET', `/api/orgs/${rt.orgId}/members`)).body.members;

  it('a member goes offline and online again; GET /members and GET /api/me show it', async () => {
    expect((await members(admin)).find((m) => m.email === rt.memberEmail)?.is_online).toBe(true);
    // Act
    const off = await call<{ is_online: boolean }>(member, 'PUT', `/api/orgs/${rt.orgId}/me/status`, { is_online: false });
    // Assert
    expect(off).toEqual({ status: 200, body: { is_online: false } });
    expect((await members(admin)).find((m) => m.email === rt.memberEmail)?.is_online).toBe(false);
    const me = (await call<MeResponse>(member, 'GET', '/api/me')).body;
    expect(me.orgs.find((o) => o.org_id === rt.orgId)?.is_online).toBe(false);
    expect((await call(member, 'PUT', `/api/orgs/${rt.orgId}/me/status`, { is_online: true })).status).toBe(200);
    expect((await members(admin)).find((m) => m.email === rt.memberEmail)?.is_online).toBe(true);
  });

  it('400 for a bad body; 404 for another org', async () => {
    const bad = await call<Err>(member, 'PUT', `/api/orgs/${rt.orgId}/me/status`, { is_online: 'off' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details).toContainEqual({ field: 'is_online', reason: 'must be true or false' });
    expect((await call(member, 'PUT', `/api/orgs/${rt.orgId}/me/status`, {})).status).toBe(400);
    expect((await call(outsider, 'PUT', `/api/orgs/${rt.orgId}/me/status`, { is_online: false })).status).toBe(404);
    expect((await call(member, 'PUT', `/api/orgs/${otherOrgId}/me/status`, { is_online: false })).status).toBe(404);
    expect((await members(admin)).find((m) => m.email === rt.memberEmail)?.is_online).toBe(true);
  });
});
