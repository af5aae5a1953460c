import { describe, expect, it } from 'vitest';
import { fieldsOf, mergedFields, unmergedFields, type MergeSide } from './merge.rules.ts';

const ana: MergeSide = { contact_id: '5511988887777', contact_name: 'Ana Souza', numbers: ['5511988887777'], lids: ['111'], label_ids: ['lbl_vip'], phone_ids: ['ph_1'], custom_properties: { tier: 'Gold' }, notes: 'Likes calls', last_seen_at: 1000 };
const ana2: MergeSide = { contact_id: '5511977776666', contact_name: 'Ana (work)', edited_name: 'Ana at Acme', numbers: ['5511977776666'], label_ids: ['lbl_vip', 'lbl_b2b'], phone_ids: ['ph_2'], custom_properties: { tier: 'Silver', city: 'Recife' }, notes: 'Invoice to Acme', last_seen_at: 5000 };

describe('mergedFields', () => {
  it('combines numbers, labels, org numbers; the survivor’s properties win, the other’s fill blanks; notes joined; later last seen', () => {
    const m = mergedFields(ana, ana2);
    expect(m).toEqual({
      edited_name: 'Ana at Acme',
      numbers: ['5511988887777', '5511977776666'],
      lids: ['111'],
      label_ids: ['lbl_vip', 'lbl_b2b'],
      phone_ids: ['ph_1', 'ph_2'],
      custom_properties: { tier: 'Gold', city: 'Recife' },
      notes: 'Likes calls\n\nMerged from Ana at Acme:\nInvoice to Acme',
      last_seen_at: 5000,
    });
    // a survivor with an edited name keeps it; one side without notes takes the other's
    expect(mergedFields({ ...ana, edited_name: 'Ana S.', notes: '' }, ana2)).toMatchObject({ edited_name: 'Ana S.', notes: 'Invoice to Acme' });
  });
});

describe('unmergedFields', () => {
  it('gives back exactly the survivor’s fields when nothing changed since the merge', () => {
    const before = fieldsOf(ana);
    const merged = mergedFields(ana, ana2);
    expect(unmergedFields(merged, before, merged)).toEqual({ ...before, last_seen_at: 5000 });
  });
  it('keeps what was changed on the merged contact since the merge', () => {
    const before = fieldsOf(ana);
    const merged = mergedFields(ana, ana2);
    const now = { ...merged, label_ids: [...merged.label_ids, 'lbl_new'], custom_properties: { ...merged.custom_properties, city: 'Olinda' }, notes: 'Rewritten', edited_name: 'Ana Maria' };
    expect(unmergedFields(now, before, merged)).toMatchObject({ label_ids: ['lbl_vip', 'lbl_new'], numbers: ['5511988887777'], custom_properties: { tier: 'Gold', city: 'Olinda' }, notes: 'Rewritten', edited_name: 'Ana Maria', phone_ids: ['ph_1'] });
  });
});
