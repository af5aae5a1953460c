/**
 * What each kind of number connection can do (whatsapp-protocols.md §C `Capabilities`). The
 * inbox asks these before offering an action (message-actions.rules.ts), never the connector's
 * kind directly. Browser-safe.
 */
export type ConnectionType = 'wa_cloud' | 'wa_web';

/** Edit window of a sent message, ms (spec §9 'edit window 15 minutes'). */
export const EDIT_WINDOW_MS = 15 * 60_000;
/** Delete-for-everyone window, ms (spec §9 'Message delete window 48 hours'). */
export const DELETE_WINDOW_MS = 48 * 3_600_000;
/** The Cloud API's customer service window, hours (Meta "Send messages"; whatsapp-protocols.md A.8). */
export const SERVICE_WINDOW_HOURS = 24;

export interface Capabilities {
  /** edit a sent message */
  edit: boolean;
  /** delete a message for everyone */
  delete: boolean;
  react: boolean;
  markRead: boolean;
  polls: boolean;
  groups: boolean;
  /** hours after the customer's last message in which free-form messages may be sent; null = no window */
  freeFormWindowHours: number | null;
  /** ms; product rule where the connection allows editing */
  editWindowMs?: number;
  deleteWindowMs?: number;
}

/**
 * Cloud API (Meta send-messages and reactions pages, whatsapp-protocols.md A.6, A.8, A.11): reactions,
 * replies and read receipts yes; no endpoint to edit or delete business-sent messages; no polls;
 * no group messaging for ordinary numbers; 24-hour customer service window.
 * WhatsApp Web (linked device; a later issue): edit within 15 minutes, delete for everyone within
 * 48 hours (spec §9, whatsapp-protocols.md B.9), groups and polls.
 */
export const CAPABILITIES: Record<ConnectionType, Capabilities> = {
  wa_cloud: { edit: false, delete: false, react: true, markRead: true, polls: false, groups: false, freeFormWindowHours: SERVICE_WINDOW_HOURS },
  wa_web: { edit: true, delete: true, react: true, markRead: true, polls: true, groups: true, freeFormWindowHours: null, editWindowMs: EDIT_WINDOW_MS, deleteWindowMs: DELETE_WINDOW_MS },
};

export const capabilitiesOf = (type: string | null | undefined): Capabilities => CAPABILITIES[(type as ConnectionType) in CAPABILITIES ? (type as ConnectionType) : 'wa_cloud'];
