import { describe, expect, it } from 'vitest';
import { AddPhoneInput, PHONE_MESSAGES, phoneCounter } from './phone.schemas.ts';

const good = { phone_number_id: '109876543210987', waba_id: '102290129340398', access_token: 'EAAGtoken' };
const reasons = (input: unknown) => {
  const r = AddPhoneInput.safeParse(input);
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};

describe('AddPhoneInput', () => {
  it('accepts numeric ids and a token, trimming whitespace', () => {
    expect(AddPhoneInput.parse({ phone_number_id: ' 109876543210987 ', waba_id: '102290129340398', access_token: ' EAAGtoken\n' })).toEqual(good);
  });

  it.each([
    [{ ...good, phone_number_id: '' }, 'phone_number_id: Please enter the phone number id'],
    [{ ...good, phone_number_id: '+1 555 0100' }, "phone_number_id: The phone number id is a number from Meta's WhatsApp Manager (digits only)"],
    [{ ...good, waba_id: 'abc' }, "waba_id: The WhatsApp Business Account id is a number from Meta's WhatsApp Manager (digits only)"],
    [{ ...good, access_token: '   ' }, 'access_token: Please enter the access token'],
    [{ ...good, access_token: 'two words' }, 'access_token: The access token must not contain spaces'],
    [{ ...good, access_token: 'x'.repeat(2049) }, 'access_token: The access token is too long'],
    [{ ...good, access_token: 'EAAG\u01fa\u0000' }, 'access_token: The access token must be letters, digits and symbols only'],
    [{ waba_id: '1', access_token: 't' }, 'phone_number_id: Please enter the phone number id'],
  ])('refuses %j', (input, reason) => {
    expect(reasons(input)).toContain(reason);
  });

  it('refuses unknown fields', () => {
    expect(AddPhoneInput.safeParse({ ...good, org_id: 'x' }).success).toBe(false);
  });
});

describe('phoneCounter (spec §9)', () => {
  it('is connected over max(phone count, plan limit)', () => {
    expect(phoneCounter([], 1)).toEqual({ connected: 0, limit: 1 });
    expect(phoneCounter([{ is_ready: true }], 1)).toEqual({ connected: 1, limit: 1 });
    expect(phoneCounter([{ is_ready: true }, { is_ready: false }, { is_ready: true }], 1)).toEqual({ connected: 2, limit: 3 });
    expect(phoneCounter([{ is_ready: false }], 5)).toEqual({ connected: 0, limit: 5 });
  });
});

it('keeps the spec §8 wording', () => {
  expect(PHONE_MESSAGES).toEqual({ adding: 'Adding phone...', added: 'New phone added successfully!', addFailed: 'An error occured in adding phone! Please try again' });
});
