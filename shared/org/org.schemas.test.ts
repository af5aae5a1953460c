import { describe, expect, it } from 'vitest';
import { CreateOrgInput, firstOrgSetupError, normalizePhoneNumber, ORG_SETUP_MESSAGES, REFERRAL_SOURCES, UpdatePermissionSettingsInput } from './org.schemas.ts';
import { mustHaveMultipleOrgsFlag } from './org.ts';

const valid = { org_name: 'Acme', phone_number: '+919876543210', referralSource: 'google' };

describe('organization setup validation (spec §5)', () => {
  it.each([
    ['empty name', { ...valid, org_name: '' }, ORG_SETUP_MESSAGES.orgNameRequired],
    ['blank name', { ...valid, org_name: '   ' }, ORG_SETUP_MESSAGES.orgNameRequired],
    ['missing name', { phone_number: valid.phone_number, referralSource: 'google' }, ORG_SETUP_MESSAGES.orgNameRequired],
    ['name of 251 characters', { ...valid, org_name: 'a'.repeat(251) }, 'Organization name must be at most 250 characters'],
    ['contact name of 251 characters', { ...valid, contact_name: 'a'.repeat(251) }, 'Contact name must be at most 250 characters'],
    ['missing phone', { ...valid, phone_number: undefined }, 'Please enter your number'],
    ['empty phone', { ...valid, phone_number: ' ' }, 'Please enter your number'],
    ['too short phone', { ...valid, phone_number: '12345' }, 'Invalid phone number'],
    ['letters', { ...valid, phone_number: 'call me' }, 'Invalid phone number'],
    ['missing source', { ...valid, referralSource: undefined }, 'Please select where you heard about us'],
    ['unknown source', { ...valid, referralSource: 'tv' }, 'Please select where you heard about us'],
  ])('%s -> %s', (_, input, message) => {
    expect(firstOrgSetupError(input)).toBe(message);
  });

  it('reports the form order: name before phone before source', () => {
    expect(firstOrgSetupError({})).toBe(ORG_SETUP_MESSAGES.orgNameRequired);
    expect(firstOrgSetupError({ org_name: 'A' })).toBe('Please enter your number');
  });

  it('accepts 250 characters, each of the six sources, and defaults currency to USD', () => {
    for (const referralSource of REFERRAL_SOURCES) expect(firstOrgSetupError({ ...valid, org_name: 'a'.repeat(250), contact_name: 'b'.repeat(250), referralSource })).toBeNull();
    expect(CreateOrgInput.parse(valid).currency).toBe('USD');
    expect(CreateOrgInput.parse({ ...valid, currency: 'BRL' }).currency).toBe('BRL');
    expect(CreateOrgInput.safeParse({ ...valid, currency: 'EUR' }).success).toBe(false);
  });

  it('phone numbers: international, default country India, stored in E.164', () => {
    expect(normalizePhoneNumber('98765 43210')).toBe('+919876543210');
    expect(normalizePhoneNumber('+55 11 91234-5678')).toBe('+5511912345678');
    expect(normalizePhoneNumber('+1 (202) 555-0143')).toBe('+12025550143');
    expect(normalizePhoneNumber('0000')).toBeUndefined();
  });
});

describe('permission settings input', () => {
  it('accepts booleans only and no unknown keys', () => {
    expect(UpdatePermissionSettingsInput.safeParse({ mask_phone_numbers: true, member_permissions: { rules: false } }).success).toBe(true);
    expect(UpdatePermissionSettingsInput.safeParse({ member_permissions: { rules: 'false' } }).success).toBe(false);
    expect(UpdatePermissionSettingsInput.safeParse({ member_permissions: { billing: false } }).success).toBe(false);
    expect(UpdatePermissionSettingsInput.safeParse({ theme: 'dark' }).success).toBe(false);
  });
});

describe('free-trial workspace rule (spec §6)', () => {
  it('needs allow_multiple_orgs only when the user already has orgs and all are on a free trial', () => {
    expect(mustHaveMultipleOrgsFlag([])).toBe(false);
    expect(mustHaveMultipleOrgsFlag([{ is_free_trial: true }])).toBe(true);
    expect(mustHaveMultipleOrgsFlag([{}])).toBe(true);
    expect(mustHaveMultipleOrgsFlag([{ is_free_trial: true }, { is_free_trial: false }])).toBe(false);
  });
});
