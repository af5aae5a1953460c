import { z } from 'zod';

/**
 * Contracts of phone events. phone.session_updated carries a linked WhatsApp Web number's session
 * state, with the QR to scan while linking: realtime fan-out sends it to the org's admins only
 * (linking is an admin action, and the QR links a device to the number).
 */
export const PhoneSessionUpdatedV1 = z.object({
  org_id: z.string(),
  phone_id: z.string(),
  state: z.enum(['linking', 'qr', 'open', 'closed', 'logged_out', 'locked']),
  /** the QR text to render while `state` is 'qr' (Baileys connection.update qr), else null */
  qr: z.string().nullable(),
  /** why it closed, in words, when known */
  detail: z.string().nullable(),
  /** epoch ms of the change */
  at: z.number(),
});
