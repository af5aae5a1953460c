import { describe, expect, it } from 'vitest';
import { GROUP_METADATA_MAX_AGE_MS, groupAdminContext, groupMetadataOf, groupMetadataStale, maskGroupMetadata } from './group-metadata.rules.ts';
import { maskPhone } from './chat-access.rules.ts';

const NOW = 1_795_000_000_000;

describe('group metadata on a group chat (spec §5 delete rule)', () => {
  it('takes admins and the super admin from Baileys participants as digits; LID participants by their phone number; subject and community', () => {
    const gm = groupMetadataOf(
      {
        subject: 'Parcel help',
        isCommunity: true,
        participants: [
          { id: '15550001111:7@s.whatsapp.net', admin: 'superadmin' },
          { id: '919812345678@s.whatsapp.net', admin: 'admin' },
          { id: '447700900123@s.whatsapp.net', admin: null },
          { id: '12345678901234@lid', admin: 'admin', phoneNumber: '4915112345678@s.whatsapp.net' },
          { id: '999@lid', admin: null, phoneNumber: '4915100000000@s.whatsapp.net' },
        ],
      },
      NOW,
    );
    expect(gm).toEqual({ subject: 'Parcel help', admins: ['15550001111', '4915112345678', '919812345678'], is_community: true, fetched_at: NOW });
    expect(groupMetadataOf({ participants: [] }, NOW)).toEqual({ subject: null, admins: [], fetched_at: NOW });
  });

  it('is stale when missing or older than one hour (59:59 fresh, 60:01 stale)', () => {
    expect(groupMetadataStale(undefined, NOW)).toBe(true);
    expect(groupMetadataStale(null, NOW)).toBe(true);
    expect(groupMetadataStale({ fetched_at: NOW - GROUP_METADATA_MAX_AGE_MS + 1_000 }, NOW)).toBe(false);
    expect(groupMetadataStale({ fetched_at: NOW - GROUP_METADATA_MAX_AGE_MS - 1_000 }, NOW)).toBe(true);
  });

  it('fills the rule context: our number an admin, the sender an admin; unknown metadata gives none', () => {
    const gm = { admins: ['15550001111', '919812345678'], fetched_at: NOW };
    expect(groupAdminContext(gm, '15550001111', '447700900123')).toEqual({ phoneIsAdmin: true, senderIsAdmin: false });
    expect(groupAdminContext(gm, '15550002222', '919812345678')).toEqual({ phoneIsAdmin: false, senderIsAdmin: true });
    expect(groupAdminContext(gm, '15550002222', null)).toEqual({ phoneIsAdmin: false, senderIsAdmin: false });
    expect(groupAdminContext(undefined, '15550001111', '919812345678')).toBeUndefined();
  });

  it('masks customers among the admins like senders for masked members, keeps our numbers, and the context still matches a masked sender', () => {
    const gm = { subject: 'g', admins: ['15550001111', '919812345678'], fetched_at: NOW };
    const masked = maskGroupMetadata(gm, ['15550001111'], maskPhone);
    expect(masked.admins).toEqual(['15550001111', '91********78']);
    expect(masked.admins).not.toContain('919812345678');
    expect(groupAdminContext(masked, '15550001111', maskPhone('919812345678'))).toEqual({ phoneIsAdmin: true, senderIsAdmin: true });
  });
});
