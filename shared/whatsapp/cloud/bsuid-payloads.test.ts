import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bareUsername, bsuidFor, inboundTextFromUser, statusToUser, type WaUser } from './bsuid-payloads.ts';

/**
 * The 2026 (BSUID) webhook builders against the documented fixtures 20–27
 * (tests/fixtures/whatsapp-cloud/README.md): the same fields present and absent.
 */
const fixture = (name: string) => JSON.parse(readFileSync(join(import.meta.dirname, '../../../tests/fixtures/whatsapp-cloud', name), 'utf8'));
const valueOf = (body: { entry: Array<{ changes: Array<{ value: Record<string, any> }> }> }) => body.entry[0]!.changes[0]!.value;
const keys = (o: object) => Object.keys(o).sort();
const phone = { phone_number_id: '106540352242922', display_phone_number: '15550783881' };
const BSUID = /^[A-Z]{2}\.(ENT\.)?[A-Za-z0-9]{1,128}$/;

describe('bsuidFor', () => {
  it('gives one person the same id on every run, in Meta\'s format, with the number\'s country', () => {
    expect(bsuidFor('username:ana', '5511987650123')).toBe(bsuidFor('username:ana', '5511987650123'));
    expect(bsuidFor('username:ana', '5511987650123')).toMatch(/^BR\.[1-9]\d{18}$/);
    expect(bsuidFor('phone:16505551234', '16505551234')).toMatch(/^US\./);
    expect(bsuidFor('username:ana')).toMatch(BSUID);
    expect(bsuidFor('username:ana')).not.toBe(bsuidFor('username:bea'));
  });

  it('takes usernames without the @ people type', () => {
    expect(bareUsername('@ana.souza')).toBe('ana.souza');
    expect(bareUsername('ana_souza')).toBe('ana_souza');
  });
});

describe('inboundTextFromUser', () => {
  it('a person known by number and BSUID has the fields of 20', () => {
    const f = valueOf(fixture('20_bsuid_text_with_phone.json'));
    const ana: WaUser = { phone: '5511987650123', userId: 'BR.1773042981665730912', name: 'Ana Souza' };
    const v = valueOf(inboundTextFromUser(phone, ana, 'Olá'));
    expect(v.contacts).toEqual(f.contacts);
    expect(keys(v.messages[0])).toEqual(keys(f.messages[0]));
    expect(v.messages[0]).toMatchObject({ from: ana.phone, from_user_id: ana.userId, type: 'text', text: { body: 'Olá' } });
  });

  it('a username user whose number is withheld has the fields of 21: no from, no wa_id', () => {
    const f = valueOf(fixture('21_bsuid_username_no_number.json'));
    const v = valueOf(inboundTextFromUser(phone, { userId: 'BR.1773042981665730912', name: 'Ana Souza', username: '@ana.souza' }, 'Oi'));
    expect(v.contacts).toEqual(f.contacts);
    expect(keys(v.messages[0])).toEqual(keys(f.messages[0]));
    expect(v.messages[0].from).toBeUndefined();
  });

  it('parent ids as in 22', () => {
    const f = valueOf(fixture('22_bsuid_parent_user_id.json'));
    const sheena: WaUser = { phone: '16505551234', userId: 'US.13491208655302741918', parentUserId: 'US.ENT.11815799212886844830', name: 'Sheena Nelson' };
    const v = valueOf(inboundTextFromUser(phone, sheena, 'Is the blue one back in stock?'));
    expect(v.contacts).toEqual(f.contacts);
    expect(keys(v.messages[0])).toEqual(keys(f.messages[0]));
  });
});

describe('statusToUser', () => {
  const ana: WaUser = { userId: 'BR.1773042981665730912', username: 'ana.souza' };

  it('delivered to a BSUID has the fields of 23: recipient_user_id, no recipient_id, the username in contacts', () => {
    const f = valueOf(fixture('23_status_delivered_recipient_user_id.json'));
    const v = valueOf(statusToUser(phone, { id: f.statuses[0].id, status: 'delivered', user: ana, sentToNumber: false }));
    expect(v.contacts).toEqual(f.contacts);
    expect(v.statuses[0]).toMatchObject({ recipient_user_id: ana.userId });
    expect(v.statuses[0].recipient_id).toBeUndefined();
  });

  it('failed has the fields of 24: no contacts; recipient_user_id unless the message went to a number', () => {
    const f = valueOf(fixture('24_status_failed_no_contacts.json'));
    const v = valueOf(statusToUser(phone, { id: f.statuses[0].id, status: 'failed', user: ana, sentToNumber: false, errors: f.statuses[0].errors }));
    expect(keys(v)).toEqual(keys(f));
    expect(keys(v.statuses[0])).toEqual(keys(f.statuses[0]));
    const byNumber = valueOf(statusToUser(phone, { id: 'wamid.x', status: 'failed', user: { ...ana, phone: '5511987650123' }, sentToNumber: true }));
    expect(byNumber.statuses[0]).toMatchObject({ recipient_id: '5511987650123' });
    expect(byNumber.statuses[0].recipient_user_id).toBeUndefined();
  });

  it('sent carries no username (only delivered and read do)', () => {
    const v = valueOf(statusToUser(phone, { id: 'wamid.x', status: 'sent', user: ana, sentToNumber: false }));
    expect(v.contacts).toEqual([{ user_id: ana.userId }]);
  });
});

describe('fixtures 20–27', () => {
  it('name every customer by a BSUID in Meta\'s format, and a number only where documented', () => {
    for (const name of ['20_bsuid_text_with_phone.json', '21_bsuid_username_no_number.json', '22_bsuid_parent_user_id.json', '25_system_user_changed_user_id.json', '26_system_user_changed_number.json', '27_contacts_contact_request.json']) {
      const m = valueOf(fixture(name)).messages[0];
      expect(m.from_user_id, name).toMatch(BSUID);
    }
    expect(valueOf(fixture('25_system_user_changed_user_id.json')).contacts).toBeUndefined();
    expect(valueOf(fixture('26_system_user_changed_number.json')).messages[0].system).toMatchObject({ type: 'user_changed_number', wa_id: '12195555358' });
    expect(valueOf(fixture('27_contacts_contact_request.json')).messages[0]).toMatchObject({ type: 'contacts', origin: 'contact_request' });
    expect(valueOf(fixture('27_contacts_contact_request.json')).messages[0].from).toBeUndefined();
  });
});
