import { Entity } from 'electrodb';

/**
 * The single active session of a user (spec §2/§4 'logged in in more than one session'): one item
 * per user, keyed by lower-cased email (not org-owned: a person, across workspaces), overwritten by
 * every claim. A session is one browser (its id lives in localStorage, so the tabs of one browser
 * are one session); see shared/realtime/session.ts.
 */
export const ActiveSessionEntity = new Entity({
  model: { entity: 'activeSession', version: '1', service: 'chorus' },
  attributes: {
    email: { type: 'string', required: true, set: (v?: string) => v?.toLowerCase() },
    /** the browser session that is active */
    session_id: { type: 'string', required: true },
    /** epoch ms (server clock) of the claim; clients order claims by it */
    claimed_at: { type: 'number', required: true },
    /** the socket that made the claim */
    connection_id: { type: 'string' },
  },
  indexes: {
    // the active session of a user
    byEmail: { pk: { field: 'pk', composite: ['email'] }, sk: { field: 'sk', composite: [] } },
  },
});
