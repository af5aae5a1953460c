import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../factories/runtime.ts';
import { getOrgClock } from '../../shared/org/org-clock.ts';
import { isOpenAt } from '../../shared/org/business-hours.rules.ts';
import { db } from '../../shared/db/service.ts';
import { recordMediaItem } from '../../shared/media/media-library.ts';
import { MAINTENANCE_NOT_ADMIN, type ConfigSettings, type GeneralSettings, type LibrarySettings } from '../../shared/org/org-settings.schemas.ts';
import type { PlanView } from '../../shared/plan/plan.schemas.ts';

/**
 * Organization settings through the API (issue 22 item 5): settings/general (name, image, display
 * language, time zone and business hours, read back by the org clock), settings/config (the
 * admin-settable feature flags; maintenance stays the platform's) and settings/library. Members read,
 * admins write; bad input is a 400 naming the field.
 */
let rt: TestRuntime;
let admin: string;
let member: string;

beforeAll(async () => {
  rt = await startTestRuntime();
  [admin, member] = await Promise.all([rt.signIn(rt.adminEmail), rt.signIn(rt.memberEmail)]);
}, 180_000);
afterAll(async () => rt?.cleanup());

type ErrorBody = { error: { code: string; message: string; details?: Array<{ field: string; reason: string }> } };
const HOURS = { sun: null, mon: { open: '10:00', close: '19:00' }, tue: { open: '10:00', close: '19:00' }, wed: null, thu: null, fri: null, sat: { open: '09:00', close: '13:00' } };

describe('settings/general', () => {
  it('defaults: the org name, no image, English, UTC, Mon–Fri 09:00–17:00; members may read', async () => {
    const r = await rt.orgCall<GeneralSettings>(member, 'GET', '/settings/general');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ org_image: null, display_language: 'en', time_zone: 'UTC' });
    expect(r.body.org_name.length).toBeGreaterThan(0);
    expect(r.body.business_hours.mon).toEqual({ open: '09:00', close: '17:00' });
    expect(r.body.business_hours.sun).toBeNull();
  });

  it('an admin saves every field; the org clock and a member see the change', async () => {
    const body = { org_name: 'Acme Support', org_image: 'https://cdn.example.com/acme.png', display_language: 'pt-BR', time_zone: 'Asia/Kolkata', business_hours: HOURS };
    const r = await rt.orgCall<GeneralSettings>(admin, 'PUT', '/settings/general', body);
    expect(r.status).toBe(200);
    expect(r.body).toEqual(body);
    expect((await rt.orgCall<GeneralSettings>(member, 'GET', '/settings/general')).body).toEqual(body);
    const row = (await db().entities.organization.get({ org_id: rt.orgId }).go()).data;
    expect(row).toMatchObject({ org_name: 'Acme Support', time_zone: 'Asia/Kolkata', business_hours: HOURS });
    // the clock is read afresh after the write (forgetOrgClock): Saturday 10:00 in Kolkata is open, Monday 09:30 is not
    const clock = await getOrgClock(rt.orgId);
    expect(clock.time_zone).toBe('Asia/Kolkata');
    expect(isOpenAt(clock, Date.parse('2026-11-28T04:30:00Z'))).toBe(true); // Sat 10:00 IST
    expect(isOpenAt(clock, Date.parse('2026-11-30T04:00:00Z'))).toBe(false); // Mon 09:30 IST
    // a partial update keeps the rest; null removes the image
    const p = await rt.orgCall<GeneralSettings>(admin, 'PUT', '/settings/general', { org_image: null });
    expect(p.body).toEqual({ ...body, org_image: null });
  });

  it('bad input is a 400 naming the field and reason; members are refused', async () => {
    const cases: Array<[unknown, string, string]> = [
      [{ time_zone: 'Mars/Olympus' }, 'time_zone', 'Unknown time zone'],
      [{ business_hours: { ...HOURS, mon: { open: '18:00', close: '09:00' } } }, 'business_hours.mon.close', 'Closing time must be after opening time'],
      [{ business_hours: { ...HOURS, tue: { open: '9am', close: '17:00' } } }, 'business_hours.tue.open', 'Use HH:MM (24-hour)'],
      [{ org_name: '   ' }, 'org_name', 'Please enter an organization name'],
      [{ display_language: 'klingon' }, 'display_language', 'must be one of en, pt-BR, es, hi'],
      [{ org_image: 'javascript:alert(1)' }, 'org_image', 'must be an http(s) URL'],
    ];
    for (const [body, field, reason] of cases) {
      const r = await rt.orgCall<ErrorBody>(admin, 'PUT', '/settings/general', body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error.details).toContainEqual({ field, reason });
    }
    const m = await rt.orgCall<ErrorBody>(member, 'PUT', '/settings/general', { org_name: 'Hijack' });
    expect(m.status).toBe(403);
    expect(m.body.error.code).toBe('settings.forbidden');
    expect((await rt.orgCall<GeneralSettings>(admin, 'GET', '/settings/general')).body.org_name).toBe('Acme Support');
  });
});

describe('settings/config', () => {
  it('flags default on; an admin turns one off; the plan view carries it; maintenance is not an admin flag', async () => {
    expect((await rt.orgCall<ConfigSettings>(member, 'GET', '/settings/config')).body).toEqual({ feature_flags: { onboarding_cards: true, whats_new: true, phones_disconnected_banner: true } });
    const r = await rt.orgCall<ConfigSettings>(admin, 'PUT', '/settings/config', { feature_flags: { whats_new: false } });
    expect(r.status).toBe(200);
    expect(r.body.feature_flags).toEqual({ onboarding_cards: true, whats_new: false, phones_disconnected_banner: true });
    expect((await rt.orgCall<PlanView>(member, 'GET', '/plan')).body.feature_flags.whats_new).toBe(false);

    const bad = await rt.orgCall<ErrorBody>(admin, 'PUT', '/settings/config', { feature_flags: { maintenance: true } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details).toContainEqual({ field: 'feature_flags.maintenance', reason: MAINTENANCE_NOT_ADMIN });
    expect((await rt.orgCall<PlanView>(admin, 'GET', '/plan')).body.maintenance).toBe(false);
    expect((await rt.orgCall<ErrorBody>(admin, 'PUT', '/settings/config', { feature_flags: { whats_new: 'yes' } })).status).toBe(400);
    expect((await rt.orgCall<ErrorBody>(member, 'PUT', '/settings/config', { feature_flags: { whats_new: true } })).status).toBe(403);
  });

  it("an admin's write keeps the platform's maintenance flag as it is", async () => {
    const row = (await db().entities.organization.get({ org_id: rt.orgId }).go()).data!;
    const scopes = (row.access_scopes ?? {}) as { feature_flags?: Record<string, unknown> };
    await db().entities.organization.patch({ org_id: rt.orgId }).set({ access_scopes: { ...scopes, feature_flags: { ...scopes.feature_flags, maintenance: true } } }).go();
    await rt.orgCall(admin, 'PUT', '/settings/config', { feature_flags: { onboarding_cards: false } });
    const after = (await db().entities.organization.get({ org_id: rt.orgId }).go()).data!;
    expect((after.access_scopes as { feature_flags: Record<string, unknown> }).feature_flags).toEqual({ whats_new: false, onboarding_cards: false, maintenance: true });
    await db().entities.organization.patch({ org_id: rt.orgId }).set({ access_scopes: { feature_flags: { whats_new: false, onboarding_cards: false } } }).go();
  });
});

describe('settings/library', () => {
  it('defaults, a partial admin update, 400 on bad values, 403 for members', async () => {
    expect((await rt.orgCall<LibrarySettings>(member, 'GET', '/settings/library')).body).toEqual({ save_incoming: true, save_outgoing: true, retention_days: null, default_type: 'all' });
    const r = await rt.orgCall<LibrarySettings>(admin, 'PUT', '/settings/library', { retention_days: 90, default_type: 'image' });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ save_incoming: true, save_outgoing: true, retention_days: 90, default_type: 'image' });
    expect((await rt.orgCall<LibrarySettings>(member, 'GET', '/settings/library')).body.retention_days).toBe(90);
    const bad = await rt.orgCall<ErrorBody>(admin, 'PUT', '/settings/library', { retention_days: 7 });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details?.[0]?.field).toBe('retention_days');
    expect((await rt.orgCall<ErrorBody>(admin, 'PUT', '/settings/library', { colour: 'red' })).status).toBe(400);
    expect((await rt.orgCall<ErrorBody>(member, 'PUT', '/settings/library', { save_incoming: false })).status).toBe(403);
  });

  it('the library keeps what the settings say: no outgoing files when off, and rows expire after the retention', async () => {
    expect((await rt.orgCall<LibrarySettings>(admin, 'PUT', '/settings/library', { save_outgoing: false, save_incoming: true, retention_days: 30 })).status).toBe(200);
    const at = Date.now() - 86_400_000;
    const file = (unique_id: string, from_me: boolean) => ({ org_id: rt.orgId, chat_id: '15550001234@c.us', unique_id, timestamp: at, message_type: 'image', from_me, media: { path: `${rt.orgId}/media/${unique_id}.jpg`, status: 'stored', mimetype: 'image/jpeg' } });
    await recordMediaItem(file('01LIBIN', false), 'Ada');
    await recordMediaItem(file('01LIBOUT', true), 'Ada');
    const rows = (await db().entities.mediaItem.query.byOrg({ org_id: rt.orgId }).go()).data.filter((r) => r.unique_id.startsWith('01LIB'));
    expect(rows.map((r) => [r.unique_id, r.expires_at])).toEqual([['01LIBIN', Math.floor(at / 1000) + 30 * 86_400]]);
    await rt.orgCall(admin, 'PUT', '/settings/library', { save_outgoing: true, retention_days: null, default_type: 'all' });
  });
});
