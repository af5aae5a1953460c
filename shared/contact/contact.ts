import { z } from 'zod';
import { withCursor } from '../db/paging.ts';
import { db } from '../db/service.ts';
import { chatGuard } from '../access/guard.ts';
import type { Actor } from '../auth/actor.ts';

/** A contact as handed out (numbers masked for viewers who must not see them, spec §6). Times epoch ms. */
export const Contact = z.object({
  contact_id: z.string(),
  contact_name: z.string().nullable(),
  phone: z.string().nullable(),
  created_at: z.number().nullable(),
  updated_at: z.number().nullable(),
});
export type Contact = z.infer<typeof Contact>;

/**
 * The org's contacts (WhatsApp customers seen by the inbox), by contact id, one page (Query on the
 * table index, pattern: contact by org; never a Scan). Numbers pass the access guard's mask.
 * Contacts are not chat-linked rows, so no per-chat filter applies (issue 20 public API).
 */
export async function listContacts(actor: Actor, page: { limit: number; cursor?: string | null }): Promise<{ contacts: Contact[]; cursor: string | null }> {
  const guard = await chatGuard(actor);
  const res = await withCursor(page.cursor, () => db().entities.contact.query.byOrg({ org_id: actor.org_id }).go({ limit: page.limit, cursor: page.cursor ?? null, pages: 1 }));
  return {
    contacts: res.data.map((c) => ({
      contact_id: guard.mask(c.contact_id),
      contact_name: c.contact_name ?? null,
      phone: guard.mask(c.phone ?? null),
      created_at: c.created_at ?? null,
      updated_at: c.updated_at ?? null,
    })),
    cursor: res.cursor,
  };
}
