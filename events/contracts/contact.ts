import { z } from 'zod';

/**
 * Contracts of the contact events (issue 15 publishes them; rules, search and analytics consume).
 * The snapshot holds the unmasked fields a consumer needs; consumers that push to members mask
 * through the guard. Times are epoch **ms**.
 */
export const ContactSnapshot = z
  .object({
    contact_id: z.string(),
    display_name: z.string().nullable(),
    numbers: z.array(z.string()),
    label_ids: z.array(z.string()),
    /** property_id -> value (spec §3 custom properties) */
    custom_properties: z.record(z.string()),
    updated_at: z.number().nullable(),
  })
  .passthrough();

/** One custom property's change: `from`/`to` null = unset. */
export const PropertyChange = z.object({ property_id: z.string(), from: z.string().nullable(), to: z.string().nullable() });

/** contact.created v1: a contact was created (first message of a WhatsApp identity, by hand, or by an import). */
export const ContactCreatedV1 = z.object({ org_id: z.string(), contact: ContactSnapshot, source: z.string().nullable() });
/**
 * contact.updated v1: a contact changed. `changes` names the changed fields (e.g. 'edited_name',
 * 'label_ids', 'custom_properties', 'merged'); `property_changes` lists each custom property that
 * changed (empty when none did). Rules' "custom property changed" trigger reads it.
 */
export const ContactUpdatedV1 = z.object({ org_id: z.string(), contact: ContactSnapshot, changes: z.array(z.string()), property_changes: z.array(PropertyChange) });
