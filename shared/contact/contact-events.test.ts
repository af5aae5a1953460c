import { describe, expect, it } from 'vitest';
import { EVENTS } from '../../events/catalog.ts';
import { changedFields, contactCreatedEvent, contactUpdatedEvent, propertyChanges } from './contact-events.ts';

describe('contact events (issue 17 §1)', () => {
  it('propertyChanges lists each property that changed with from/to (unset = null)', () => {
    expect(propertyChanges({ a: '1', b: '2', c: '3' }, { a: '1', b: '5', d: '4' })).toEqual([
      { property_id: 'b', from: '2', to: '5' },
      { property_id: 'c', from: '3', to: null },
      { property_id: 'd', from: null, to: '4' },
    ]);
    expect(propertyChanges(undefined, null)).toEqual([]);
  });

  it('builds events that match the catalogue contracts; an update changing nothing is no event', () => {
    const before = { contact_id: '155', contact_name: 'Ana', numbers: ['155'], label_ids: [], custom_properties: {} };
    const created = contactCreatedEvent('o', { ...before, source: 'manual' }, 'system');
    expect(EVENTS['contact.created'].properties.parse(created.properties)).toMatchObject({ contact: { display_name: 'Ana' }, source: 'manual' });
    const after = { ...before, edited_name: 'Ana B', custom_properties: { tier: 'Gold' } };
    expect(changedFields(before, after)).toEqual(['edited_name', 'custom_properties']);
    const updated = contactUpdatedEvent('o', before, after, 'user:a@b.c')!;
    expect(EVENTS['contact.updated'].properties.parse(updated.properties)).toMatchObject({ contact: { display_name: 'Ana B', custom_properties: { tier: 'Gold' } }, property_changes: [{ property_id: 'tier', from: null, to: 'Gold' }] });
    expect(contactUpdatedEvent('o', before, { ...before }, 'system')).toBeNull();
  });
});
