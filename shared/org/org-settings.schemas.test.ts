import { describe, expect, it } from 'vitest';
import { MAINTENANCE_NOT_ADMIN, resolveFeatureFlags, resolveLibrarySettings, UpdateConfigSettingsInput, UpdateGeneralSettingsInput, UpdateLibrarySettingsInput } from './org-settings.schemas.ts';

describe('organization settings contracts (issue 22)', () => {
  it('feature flags: unset is on, false is off, unknown stored keys are dropped', () => {
    expect(resolveFeatureFlags(undefined)).toEqual({ onboarding_cards: true, whats_new: true, phones_disconnected_banner: true });
    expect(resolveFeatureFlags({ whats_new: false, maintenance: true, other: false })).toEqual({ onboarding_cards: true, whats_new: false, phones_disconnected_banner: true });
  });

  it('maintenance is not an admin flag (spec §4); unknown flags are refused', () => {
    const r = UpdateConfigSettingsInput.safeParse({ feature_flags: { maintenance: false } });
    expect(r.success).toBe(false);
    expect(r.error?.issues).toContainEqual(expect.objectContaining({ path: ['feature_flags', 'maintenance'], message: MAINTENANCE_NOT_ADMIN }));
    expect(UpdateConfigSettingsInput.safeParse({ feature_flags: { beta: true } }).success).toBe(false);
    expect(UpdateConfigSettingsInput.safeParse({ feature_flags: { whats_new: false } }).success).toBe(true);
  });

  it('general: time zone and hours through the business-hours rules; names trimmed; images http(s)', () => {
    expect(UpdateGeneralSettingsInput.parse({ org_name: '  Acme  ' }).org_name).toBe('Acme');
    expect(UpdateGeneralSettingsInput.safeParse({ time_zone: 'Asia/Kolkata' }).success).toBe(true);
    expect(UpdateGeneralSettingsInput.safeParse({ time_zone: 'Nowhere/City' }).error?.issues[0]?.message).toBe('Unknown time zone');
    expect(UpdateGeneralSettingsInput.safeParse({ org_image: 'ftp://x.example/a.png' }).error?.issues[0]?.message).toBe('must be an http(s) URL');
    expect(UpdateGeneralSettingsInput.safeParse({ org_image: null }).success).toBe(true);
  });

  it('library: defaults fill what is unset or malformed; retention from the fixed choices', () => {
    expect(resolveLibrarySettings(null)).toEqual({ save_incoming: true, save_outgoing: true, retention_days: null, default_type: 'all' });
    expect(resolveLibrarySettings({ retention_days: 90, default_type: 'video' })).toMatchObject({ retention_days: 90, default_type: 'video' });
    expect(resolveLibrarySettings({ retention_days: 7 })).toEqual({ save_incoming: true, save_outgoing: true, retention_days: null, default_type: 'all' });
    expect(UpdateLibrarySettingsInput.safeParse({ retention_days: 365 }).success).toBe(true);
    expect(UpdateLibrarySettingsInput.safeParse({ retention_days: 7 }).success).toBe(false);
  });
});
