import { Entity } from 'electrodb';

/** A WebSocket connection of a signed-in member, stored per org (fan-out), found by id ($disconnect) and by user (active session). */
export const ConnectionEntity = new Entity({
  model: { entity: 'connection', version: '1', service: 'chorus' },
  attributes: {
    org_id: { type: 'string', required: true },
    connection_id: { type: 'string', required: true },
    email: { type: 'string', required: true },
    user_id: { type: 'string' },
    /** the browser session of this socket (`?session_id=` at $connect; shared/realtime/session.ts), absent for old clients */
    session_id: { type: 'string' },
    /** epoch ms */
    connected_at: { type: 'number', default: () => Date.now() },
    /** epoch s; API Gateway drops sockets after 2 h */
    expires_at: { type: 'number', default: () => Math.floor(Date.now() / 1000) + 2 * 3600 },
  },
  indexes: {
    // connections of an org
    byOrg: { pk: { field: 'pk', composite: ['org_id'] }, sk: { field: 'sk', composite: ['connection_id'] } },
    // connection by id ($disconnect, gone connections)
    byConnection: { index: 'gsi1', pk: { field: 'gsi1pk', composite: ['connection_id'] }, sk: { field: 'gsi1sk', composite: [] } },
    // connections of a user across orgs (single active session: session.replaced)
    byUser: { index: 'gsi2', pk: { field: 'gsi2pk', composite: ['email'] }, sk: { field: 'gsi2sk', composite: ['connection_id'] } },
  },
});
