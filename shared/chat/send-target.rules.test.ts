import { describe, expect, it } from 'vitest';
import { hasPhoneNumber, identityOf, isAuthenticationCategory, PHONE_NUMBER_NEEDED, sendTargetOf, templateTargetProblem } from './send-target.rules.ts';

const BSUID = 'BR.17730000000000000001';
const OPAQUE = 'cht_0123456789abcdefghjkmnpqrs';

describe('sendTargetOf', () => {
  it('a <digits>@c.us chat is sent to its number', () => {
    expect(sendTargetOf('5511987654321@c.us')).toEqual({ to: '5511987654321', recipient_type: 'individual' });
  });

  it('a <digits>@c.us chat that also carries a BSUID is still sent to the number (Meta: prefer the number)', () => {
    expect(sendTargetOf('5511987654321@c.us', { user_id: BSUID })).toEqual({ to: '5511987654321', recipient_type: 'individual' });
  });

  it('the number WhatsApp last gave (identity.wa_id) wins over the chat id digits', () => {
    expect(sendTargetOf('5511987654321@c.us', { wa_id: '5511900000000' })).toEqual({ to: '5511900000000', recipient_type: 'individual' });
  });

  it('an opaque chat known only by BSUID is sent with recipient', () => {
    expect(sendTargetOf(OPAQUE, { user_id: BSUID })).toEqual({ recipient: BSUID, recipient_type: 'individual' });
  });

  it('an opaque chat whose number became known is sent to the number', () => {
    expect(sendTargetOf(OPAQUE, { user_id: BSUID, wa_id: '5511987654321' })).toEqual({ to: '5511987654321', recipient_type: 'individual' });
  });

  it('a group is sent to its id with recipient_type group, whatever the identity says', () => {
    expect(sendTargetOf('120363040000000000@g.us', { user_id: BSUID, wa_id: '1' })).toEqual({ to: '120363040000000000', recipient_type: 'group' });
  });

  it('null when neither a number nor a BSUID is known', () => {
    expect(sendTargetOf(OPAQUE)).toBeNull();
    expect(sendTargetOf(OPAQUE, {})).toBeNull();
    expect(sendTargetOf(OPAQUE, { wa_id: '', user_id: '  ' })).toBeNull();
    expect(sendTargetOf('@c.us')).toBeNull();
    expect(sendTargetOf('@g.us')).toBeNull();
    expect(sendTargetOf('123@lid')).toBeNull();
  });

  it('rows written before identity existed (identity null) keep the old behaviour', () => {
    expect(sendTargetOf('447700900123@c.us', null)).toEqual({ to: '447700900123', recipient_type: 'individual' });
  });
});

describe('templateTargetProblem', () => {
  it('an authentication template needs a number: refused for a BSUID-only target or none', () => {
    expect(templateTargetProblem('AUTHENTICATION', { recipient: BSUID, recipient_type: 'individual' })).toBe(PHONE_NUMBER_NEEDED);
    expect(templateTargetProblem('authentication', null)).toBe(PHONE_NUMBER_NEEDED);
  });

  it('an authentication template to a number, and any other category to a BSUID, are fine', () => {
    expect(templateTargetProblem('AUTHENTICATION', { to: '447700900123', recipient_type: 'individual' })).toBeNull();
    expect(templateTargetProblem('UTILITY', { recipient: BSUID, recipient_type: 'individual' })).toBeNull();
    expect(templateTargetProblem('MARKETING', { recipient: BSUID, recipient_type: 'individual' })).toBeNull();
    expect(templateTargetProblem(undefined, null)).toBeNull();
  });

  it('groups are left to Meta', () => {
    expect(templateTargetProblem('AUTHENTICATION', { to: 'G1', recipient_type: 'group' })).toBeNull();
  });
});

describe('helpers', () => {
  it('hasPhoneNumber is true for a person addressed by number only', () => {
    expect(hasPhoneNumber({ to: '1', recipient_type: 'individual' })).toBe(true);
    expect(hasPhoneNumber({ recipient: BSUID, recipient_type: 'individual' })).toBe(false);
    expect(hasPhoneNumber({ to: 'G1', recipient_type: 'group' })).toBe(false);
    expect(hasPhoneNumber(null)).toBe(false);
  });

  it('isAuthenticationCategory ignores case', () => {
    expect(isAuthenticationCategory('AUTHENTICATION')).toBe(true);
    expect(isAuthenticationCategory('Authentication')).toBe(true);
    expect(isAuthenticationCategory('UTILITY')).toBe(false);
    expect(isAuthenticationCategory(null)).toBe(false);
  });

  it('identityOf reads a stored row\'s identity, keeping string ids only', () => {
    expect(identityOf({ identity: { user_id: BSUID, username: '@ana' } })).toEqual({ user_id: BSUID });
    expect(identityOf({ identity: { wa_id: '447700900123', user_id: 7 } })).toEqual({ wa_id: '447700900123' });
    expect(identityOf({ chat_id: 'x@c.us' })).toBeUndefined();
    expect(identityOf({ identity: 'BR.1' })).toBeUndefined();
    expect(identityOf(null)).toBeUndefined();
  });
});
