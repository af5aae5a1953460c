/**
 * The one route registry: every HTTP and WebSocket route, its handler (`file#export`, relative to
 * the repo root) and whether API Gateway's Cognito JWT authorizer guards it. Read by the local
 * gateway (scripts/local/gateway.ts) and the CDK api stack, so the two cannot drift.
 * Paths use API Gateway v2 syntax (`{param}`).
 */
import type { Use } from '../shared/plan/entitlements.rules.ts';

export interface HttpRoute {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  handler: string;
  /**
   * 'jwt': Cognito JWT authorizer; 'none': public (webhooks verify their own signature);
   * 'apikey': an org API key (`Authorization: Bearer chk_…`), checked by the handler itself
   * (functions/lib/api-key.ts `apiHandler`): API Gateway attaches no authorizer, like 'none'
   */
  auth: 'jwt' | 'none' | 'apikey';
  /**
   * What the route does, for the one entitlement gate (issue 42, shared/plan/entitlements.rules.ts
   * `entitlement`), enforced once by functions/lib/http.ts (web API), functions/lib/api-key.ts
   * (`/v1`) and functions/http/mcp/mcp.ts. Omitted: GET reads, every other method writes
   * ({@link routeUse}). Explicit where it matters: `open` for signing in, one's own profile, the plan
   * and billing (a blocked org must be able to pay) and for taking access away (removing a member,
   * revoking an API key, deleting a webhook); `export` for data downloads; a plan feature for what
   * Starter lacks (spec §9).
   */
  use?: Use;
  /**
   * The audit row a successful call writes (issue 49): `'<kind>'` (`<prefix>.<verb>`, e.g.
   * 'rule.created'; its area is shared/audit/audit.rules.ts `areaOfKind`), written once by
   * functions/lib/http.ts after the use case; or `false` with {@link HttpRoute.auditWhy}. Every
   * state-changing web route declares one (functions/routes.test.ts walks the registry).
   */
  audit?: string | false;
  /** Why a state-changing route writes no audit row (required with `audit: false`). */
  auditWhy?: string;
}

/** Reasons a state-changing route writes no audit row of its own (`auditWhy`). */
const SELF = "one's own account, device or status, not an admin action";
const NOCHANGE = 'changes nothing stored (a test, a preview or a dry run)';
const UPLOAD = 'hands out an upload URL or takes one chunk; the action that uses it is audited';
const MEMBER = "members' daily work on chats, messages, tasks and contacts (their own histories), not an admin action; no write is added to this path";
const BY_EVENT = 'recorded by the audit consumer from chat.updated / ticket.updated (functions/consumers/audit-log.ts)';
const BILLING = 'plan and payment changes are recorded by the billing provider and the plan history';

/** The use of a route: its declared `use`, else `read` for GET and `write` for any other method. */
export const routeUse = (r: Pick<HttpRoute, 'method' | 'use'>): Use => r.use ?? (r.method === 'GET' ? 'read' : 'write');

export const HTTP_ROUTES: HttpRoute[] = [
  { method: 'GET', path: '/api/me', handler: 'functions/http/me/get-me.ts#handler', auth: 'jwt', use: 'open' },
  { method: 'GET', path: '/api/me/preferences', handler: 'functions/http/me/get-preferences.ts#handler', auth: 'jwt', use: 'open' },
  { method: 'PUT', path: '/api/me/preferences', handler: 'functions/http/me/update-preferences.ts#handler', auth: 'jwt', use: 'open', audit: false, auditWhy: SELF },
  { method: 'GET', path: '/api/me/password', handler: 'functions/http/me/get-password.ts#handler', auth: 'jwt', use: 'open' },
  { method: 'PUT', path: '/api/me/password', handler: 'functions/http/me/set-password.ts#handler', auth: 'jwt', use: 'open', audit: false, auditWhy: SELF },
  { method: 'PUT', path: '/api/orgs/{org_id}/me/status', handler: 'functions/http/members/update-my-status.ts#handler', auth: 'jwt', use: 'open', audit: false, auditWhy: SELF },
  { method: 'GET', path: '/api/orgs/{org_id}/chats', handler: 'functions/http/chats/list-chats.ts#handler', auth: 'jwt' },
  { method: 'GET', path: '/api/orgs/{org_id}/chats/{chat_id}', handler: 'functions/http/chats/get-chat.ts#handler', auth: 'jwt' },
  { method: 'GET', path: '/api/orgs/{org_id}/chats/counts', handler: 'functions/http/chats/chat-counts.ts#handler', auth: 'jwt' },
  { method: 'GET', path: '/api/orgs/{org_id}/chats/pinned', handler: 'functions/http/chats/list-pinned-chats.ts#handler', auth: 'jwt' },
  { method: 'POST', path: '/api/orgs/{org_id}/chats/assign', handler: 'functions/http/chats/assign-chats.ts#handler', auth: 'jwt', audit: false, auditWhy: BY_EVENT },
  { method: 'POST', path: '/api/orgs/{org_id}/chats/labels', handler: 'functions/http/chats/label-chats.ts#handler', auth: 'jwt', audit: false, auditWhy: BY_EVENT },
  { method: 'POST', path: '/api/orgs/{org_id}/chats/close', handler: 'functions/http/chats/close-chats.ts#handler', auth: 'jwt', audit: false, auditWhy: MEMBER },
  { method: 'POST', path: '/api/orgs/{org_id}/chats/snooze', handler: 'functions/http/chats/snooze-chats.ts#handler', auth: 'jwt', audit: false, auditWhy: MEMBER },
  { method: 'POST', path: '/api/orgs/{org_id}/chats/archive', handler: 'functions/http/chats/archive-chats.ts#handler', auth: 'jwt', audit: false, auditWhy: MEMBER },
  { method: 'POST', path: '/api/orgs/{org_id}/chats/mute', handler: 'functions/http/chats/mute-chats.ts#handler', auth: 'jwt', audit: false, auditWhy: MEMBER },
  { method: 'POST', path: '/api/orgs/{org_id}/chats/pin', handler: 'functions/http/chats/pin-chats.ts#handler', auth: 'jwt', audit: false, auditWhy: MEMBER },
  { method: 'POST', path: '/api/orgs/{org_id}/chats/{chat_id}/unread', handler: 'functions/http/chats/mark-chat-unread.ts#handler', auth: 'jwt', audit: false, auditWhy: MEMBER },
  { method: 'PUT', path: '/api/orgs/{org_id}/chats/{chat_id}/active-phone', handler: 'functions/http/chats/set-active-phone.ts#handler', auth: 'jwt', audit: false, auditWhy: MEMBER },
  { method: 'PUT', path: '/api/orgs/{org_id}/chats/{chat_id}/access', handler: 'functions/http/chats/set-chat-access.ts#handler', auth: 'jwt', audit: false, auditWhy: BY_EVENT },
  { method: 'GET', path: '/api/orgs/{org_id}/labels', handler: 'functions/http/labels/list-labels.ts#handler', auth: 'jwt' },
  { method: 'POST', path: '/api/orgs/{org_id}/labels', handler: 'functions/http/labels/create-label.ts#handler', auth: 'jwt', audit: 'label.created' },
  { method: 'PATCH', path: '/api/orgs/{org_id}/labels/{label_id}', handler: 'functions/http/labels/update-label.ts#handler', auth: 'jwt', audit: 'label.updated' },
  { method: 'DELETE', path: '/api/orgs/{org_id}/labels/{label_id}', handler: 'functions/http/labels/delete-label.ts#handler', auth: 'jwt', audit: 'label.deleted' },
  { method: 'POST', path: '/api/orgs/{org_id}/chats/{chat_id}/read', handler: 'functions/http/chats/mark-chat-read.ts#handler', auth: 'jwt', audit: false, auditWhy: MEMBER },
  { method: 'GET', path: '/api/orgs/{org_id}/chats/{chat_id}/messages', handler: 'functions/http/messages/list-messages.ts#handler', auth: 'jwt' },
  { method: 'POST', path: '/api/orgs/{org_id}/chats/{chat_id}/messages', handler: 'functions/http/messages/send-message.ts#handler', auth: 'jwt', audit: false, auditWhy: MEMBER },
  { method: 'POST', path: '/api/orgs/{org_id}/chats/{chat_id}/messages/{unique_id}/reaction', handler: 'functions/http/messages/react-to-message.ts#handler', auth: 'jwt', audit: false, auditWhy: MEMBER },
  { method: 'GET', path: '/api/orgs/{org_id}/chats/{chat_id}/messages/{unique_id}/reactions', handler: 'functions/http/messages/list-reactions.ts#handler', auth: 'jwt' },
  { method: 'PUT', path: '/api/orgs/{org_id}/chats/{chat_id}/messages/{unique_id}/flag', handler: 'functions/http/messages/flag-message.ts#handler', auth: 'jwt', audit: false, auditWhy: MEMBER },
  { method: 'PUT', path: '/api/orgs/{org_id}/chats/{chat_id}/messages/{unique_id}/pin', handler: 'functions/http/messages/pin-message.ts#handler', auth: 'jwt', audit: false, auditWhy: MEMBER },
  { method: 'POST', path: '/api/orgs/{org_id}/chats/{chat_id}/messages/{unique_id}/refresh', handler: 'functions/http/messages/refresh-message.ts#handler', auth: 'jwt', audit: false, auditWhy: MEMBER },
  { method: 'POST', path: '/api/orgs/{org_id}/chats/{chat_id}/messages/{unique_id}/retry', handler: 'functions/http/messages/retry-message.ts#handler', auth: 'jwt', audit: false, auditWhy: MEMBER },
  { method: 'POST', path: '/api/orgs/{org_id}/chats/{chat_id}/messages/{unique_id}/forward', handler: 'functions/http/messages/forward-message.ts#handler', auth: 'jwt', audit: false, auditWhy: MEMBER },
  { method: 'POST', path: '/api/orgs/{org_id}/chats/{chat_id}/messages/{unique_id}/reply-privately', handler: 'functions/http/messages/reply-privately.ts#handler', auth: 'jwt', audit: false, auditWhy: MEMBER },
  { method: 'PATCH', path: '/api/orgs/{org_id}/chats/{chat_id}/messages/{unique_id}', handler: 'functions/http/messages/edit-message.ts#handler', auth: 'jwt', audit: false, auditWhy: MEMBER },
  { method: 'DELETE', path: '/api/orgs/{org_id}/chats/{chat_id}/messages/{unique_id}', handler: 'functions/http/messages/delete-message.ts#handler', auth: 'jwt', audit: false, auditWhy: MEMBER },
  { method: 'PUT', path: '/api/orgs/{org_id}/chats/{chat_id}/messages/{unique_id}/ticket', handler: 'functions/http/tickets/set-message-ticket.ts#handler', auth: 'jwt', audit: false, auditWhy: MEMBER },
  { method: 'GET', path: '/api/orgs/{org_id}/chats/{chat_id}/tickets', handler: 'functions/http/tickets/list-chat-tickets.ts#handler', auth: 'jwt' },
  { method: 'GET', path: '/api/orgs/{org_id}/tickets', handler: 'functions/http/tickets/list-tickets.ts#handler', auth: 'jwt' },
  { method: 'POST', path: '/api/orgs/{org_id}/tickets', handler: 'functions/http/tickets/create-ticket.ts#handler', auth: 'jwt', audit: 'ticket.created' },
  { method: 'GET', path: '/api/orgs/{org_id}/tickets/badge', handler: 'functions/http/tickets/get-ticket-badge.ts#handler', auth: 'jwt' },
  { method: 'POST', path: '/api/orgs/{org_id}/tickets/bulk', handler: 'functions/http/tickets/bulk-update-tickets.ts#handler', auth: 'jwt', audit: false, auditWhy: BY_EVENT },
  { method: 'GET', path: '/api/orgs/{org_id}/tickets/{ticket_id}', handler: 'functions/http/tickets/get-ticket.ts#handler', auth: 'jwt' },
  { method: 'PATCH', path: '/api/orgs/{org_id}/tickets/{ticket_id}', handler: 'functions/http/tickets/update-ticket.ts#handler', auth: 'jwt', audit: false, auditWhy: BY_EVENT },
  { method: 'GET', path: '/api/orgs/{org_id}/tickets/{ticket_id}/audit', handler: 'functions/http/tickets/list-ticket-audit.ts#handler', auth: 'jwt' },
  { method: 'GET', path: '/api/orgs/{org_id}/settings/tickets', handler: 'functions/http/tickets/get-ticket-settings.ts#handler', auth: 'jwt' },
  { method: 'PUT', path: '/api/orgs/{org_id}/settings/tickets', handler: 'functions/http/tickets/update-ticket-settings.ts#handler', auth: 'jwt', audit: 'settings.tickets_changed' },
  { method: 'GET', path: '/api/orgs/{org_id}/members', handler: 'functions/http/members/list-members.ts#handler', auth: 'jwt' },
  { method: 'POST', path: '/api/orgs', handler: 'functions/http/orgs/create-org.ts#handler', auth: 'jwt', use: 'open', audit: false, auditWhy: SELF },
  { method: 'GET', path: '/api/orgs/{org_id}/settings/permissions', handler: 'functions/http/orgs/get-permission-settings.ts#handler', auth: 'jwt' },
  { method: 'PUT', path: '/api/orgs/{org_id}/settings/permissions', handler: 'functions/http/orgs/update-permission-settings.ts#handler', auth: 'jwt', audit: 'settings.permissions_changed' },
  { method: 'GET', path: '/api/orgs/{org_id}/phones', handler: 'functions/http/phones/list-phones.ts#handler', auth: 'jwt' },
  { method: 'POST', path: '/api/orgs/{org_id}/phones', handler: 'functions/http/phones/add-phone.ts#handler', auth: 'jwt', audit: 'phone.added' },
  { method: 'POST', path: '/api/orgs/{org_id}/phones/wa-web', handler: 'functions/http/phones/add-wa-web-phone.ts#handler', auth: 'jwt', audit: 'phone.added' },
  { method: 'GET', path: '/api/orgs/{org_id}/phones/{phone_id}/wa-web-session', handler: 'functions/http/phones/get-wa-web-session.ts#handler', auth: 'jwt' },
  { method: 'POST', path: '/api/orgs/{org_id}/phones/{phone_id}/wa-web-session/relink', handler: 'functions/http/phones/relink-wa-web-session.ts#handler', auth: 'jwt', audit: 'phone.relinked' },
  { method: 'GET', path: '/api/orgs/{org_id}/team', handler: 'functions/http/team/list-team.ts#handler', auth: 'jwt' },
  { method: 'POST', path: '/api/orgs/{org_id}/team/invites', handler: 'functions/http/team/invite-member.ts#handler', auth: 'jwt', audit: 'team.invited' },
  { method: 'PATCH', path: '/api/orgs/{org_id}/team/{email}', handler: 'functions/http/team/update-member.ts#handler', auth: 'jwt', audit: 'team.role_changed' },
  { method: 'DELETE', path: '/api/orgs/{org_id}/team/{email}', handler: 'functions/http/team/remove-member.ts#handler', auth: 'jwt', use: 'open', audit: 'team.removed' },
  { method: 'POST', path: '/api/invites/{invite_org_id}/join', handler: 'functions/http/invites/join-invite.ts#handler', auth: 'jwt', use: 'open', audit: false, auditWhy: SELF },
  { method: 'POST', path: '/api/invites/{invite_org_id}/decline', handler: 'functions/http/invites/decline-invite.ts#handler', auth: 'jwt', use: 'open', audit: false, auditWhy: SELF },
  { method: 'GET', path: '/api/orgs/{org_id}/tasks', handler: 'functions/http/tasks/list-tasks.ts#handler', auth: 'jwt' },
  { method: 'POST', path: '/api/orgs/{org_id}/tasks', handler: 'functions/http/tasks/create-task.ts#handler', auth: 'jwt', audit: false, auditWhy: MEMBER },
  { method: 'POST', path: '/api/orgs/{org_id}/tasks/bulk', handler: 'functions/http/tasks/bulk-update-tasks.ts#handler', auth: 'jwt', audit: false, auditWhy: MEMBER },
  { method: 'GET', path: '/api/orgs/{org_id}/tasks/{task_id}', handler: 'functions/http/tasks/get-task.ts#handler', auth: 'jwt' },
  { method: 'PUT', path: '/api/orgs/{org_id}/tasks/{task_id}', handler: 'functions/http/tasks/update-task.ts#handler', auth: 'jwt', audit: false, auditWhy: MEMBER },
  { method: 'POST', path: '/api/orgs/{org_id}/tasks/{task_id}/remind-in', handler: 'functions/http/tasks/remind-in-task.ts#handler', auth: 'jwt', audit: false, auditWhy: MEMBER },
  { method: 'GET', path: '/api/orgs/{org_id}/tasks/{task_id}/audit', handler: 'functions/http/tasks/list-task-audit.ts#handler', auth: 'jwt' },
  { method: 'POST', path: '/api/orgs/{org_id}/chats/{chat_id}/uploads', handler: 'functions/http/media/create-upload.ts#handler', auth: 'jwt', audit: false, auditWhy: UPLOAD },
  { method: 'GET', path: '/api/orgs/{org_id}/chats/{chat_id}/messages/{unique_id}/media', handler: 'functions/http/media/get-media-url.ts#handler', auth: 'jwt' },
  { method: 'GET', path: '/api/orgs/{org_id}/media', handler: 'functions/http/media/list-media.ts#handler', auth: 'jwt' },
  { method: 'POST', path: '/api/orgs/{org_id}/chats/{chat_id}/notes', handler: 'functions/http/notes/create-note.ts#handler', auth: 'jwt', audit: false, auditWhy: MEMBER },
  { method: 'DELETE', path: '/api/orgs/{org_id}/chats/{chat_id}/notes/{unique_id}', handler: 'functions/http/notes/delete-note.ts#handler', auth: 'jwt', audit: false, auditWhy: MEMBER },
  { method: 'GET', path: '/api/orgs/{org_id}/notifications', handler: 'functions/http/notifications/list-notifications.ts#handler', auth: 'jwt' },
  { method: 'POST', path: '/api/orgs/{org_id}/notifications/read', handler: 'functions/http/notifications/mark-notifications-read.ts#handler', auth: 'jwt', use: 'read', audit: false, auditWhy: SELF },
  { method: 'POST', path: '/api/orgs/{org_id}/chats/bulk-jobs', handler: 'functions/http/bulk/create-bulk-job.ts#handler', auth: 'jwt', audit: false, auditWhy: MEMBER },
  { method: 'GET', path: '/api/orgs/{org_id}/chats/bulk-jobs/{job_id}', handler: 'functions/http/bulk/get-bulk-job.ts#handler', auth: 'jwt' },
  { method: 'POST', path: '/api/orgs/{org_id}/chats/bulk-jobs/{job_id}/undo', handler: 'functions/http/bulk/undo-bulk-job.ts#handler', auth: 'jwt', audit: false, auditWhy: MEMBER },
  { method: 'GET', path: '/api/orgs/{org_id}/chats/export.csv', handler: 'functions/http/bulk/export-chats.ts#handler', auth: 'jwt', use: 'export' },
  { method: 'GET', path: '/webhooks/whatsapp', handler: 'functions/channels/whatsapp-cloud/verify-webhook.ts#handler', auth: 'none', use: 'open' },
  { method: 'POST', path: '/webhooks/whatsapp', handler: 'functions/channels/whatsapp-cloud/receive-webhook.ts#handler', auth: 'none', use: 'open' },
  { method: 'POST', path: '/api/auth/otp/prepare', handler: 'functions/http/auth/prepare-otp.ts#handler', auth: 'none', use: 'open' },
  // --- issue 21: web push (spec §7 private/notifications/…, the org as a path segment) ---
  { method: 'GET', path: '/api/orgs/{org_id}/notifications/vapid-public-key', handler: 'functions/http/notifications/get-vapid-public-key.ts#handler', auth: 'jwt' },
  { method: 'POST', path: '/api/orgs/{org_id}/notifications/subscribe', handler: 'functions/http/notifications/subscribe-device.ts#handler', auth: 'jwt', use: 'read', audit: false, auditWhy: SELF },
  { method: 'POST', path: '/api/orgs/{org_id}/notifications/unsubscribe', handler: 'functions/http/notifications/unsubscribe-device.ts#handler', auth: 'jwt', use: 'read', audit: false, auditWhy: SELF },
  { method: 'POST', path: '/api/orgs/{org_id}/notifications/unsubscribe-all-for-device', handler: 'functions/http/notifications/unsubscribe-all-for-device.ts#handler', auth: 'jwt', use: 'read', audit: false, auditWhy: SELF },
  { method: 'POST', path: '/api/orgs/{org_id}/notifications/test', handler: 'functions/http/notifications/send-test-push.ts#handler', auth: 'jwt', use: 'read', audit: false, auditWhy: SELF },
  // --- issue 20: API keys (admin), the public REST API /v1 and the MCP server ---
  { method: 'GET', path: '/api/orgs/{org_id}/api-keys', handler: 'functions/http/api-keys/list-api-keys.ts#handler', auth: 'jwt', use: 'custom_api_webhooks' },
  { method: 'POST', path: '/api/orgs/{org_id}/api-keys', handler: 'functions/http/api-keys/create-api-key.ts#handler', auth: 'jwt', use: 'custom_api_webhooks', audit: 'apikey.created' },
  { method: 'DELETE', path: '/api/orgs/{org_id}/api-keys/{key_id}', handler: 'functions/http/api-keys/revoke-api-key.ts#handler', auth: 'jwt', use: 'open', audit: 'apikey.revoked' },
  { method: 'GET', path: '/api/orgs/{org_id}/api-keys/logs', handler: 'functions/http/api-keys/list-api-logs.ts#handler', auth: 'jwt', use: 'custom_api_webhooks' },
  { method: 'GET', path: '/v1/openapi.json', handler: 'functions/http/v1/openapi.ts#handler', auth: 'none', use: 'open' },
  { method: 'GET', path: '/v1/orgs/{org_id}/chats', handler: 'functions/http/v1/router.ts#handler', auth: 'apikey', use: 'custom_api_webhooks' },
  { method: 'GET', path: '/v1/orgs/{org_id}/chats/{chat_id}', handler: 'functions/http/v1/router.ts#handler', auth: 'apikey', use: 'custom_api_webhooks' },
  { method: 'POST', path: '/v1/orgs/{org_id}/chats/assign', handler: 'functions/http/v1/router.ts#handler', auth: 'apikey', use: 'custom_api_webhooks' },
  { method: 'POST', path: '/v1/orgs/{org_id}/chats/labels', handler: 'functions/http/v1/router.ts#handler', auth: 'apikey', use: 'custom_api_webhooks' },
  { method: 'POST', path: '/v1/orgs/{org_id}/chats/close', handler: 'functions/http/v1/router.ts#handler', auth: 'apikey', use: 'custom_api_webhooks' },
  { method: 'POST', path: '/v1/orgs/{org_id}/chats/snooze', handler: 'functions/http/v1/router.ts#handler', auth: 'apikey', use: 'custom_api_webhooks' },
  { method: 'GET', path: '/v1/orgs/{org_id}/chats/{chat_id}/messages', handler: 'functions/http/v1/router.ts#handler', auth: 'apikey', use: 'custom_api_webhooks' },
  { method: 'POST', path: '/v1/orgs/{org_id}/chats/{chat_id}/messages', handler: 'functions/http/v1/router.ts#handler', auth: 'apikey', use: 'custom_api_webhooks' },
  { method: 'GET', path: '/v1/orgs/{org_id}/tickets', handler: 'functions/http/v1/router.ts#handler', auth: 'apikey', use: 'custom_api_webhooks' },
  { method: 'POST', path: '/v1/orgs/{org_id}/tickets', handler: 'functions/http/v1/router.ts#handler', auth: 'apikey', use: 'custom_api_webhooks' },
  { method: 'GET', path: '/v1/orgs/{org_id}/tickets/{ticket_id}', handler: 'functions/http/v1/router.ts#handler', auth: 'apikey', use: 'custom_api_webhooks' },
  { method: 'PATCH', path: '/v1/orgs/{org_id}/tickets/{ticket_id}', handler: 'functions/http/v1/router.ts#handler', auth: 'apikey', use: 'custom_api_webhooks' },
  { method: 'GET', path: '/v1/orgs/{org_id}/tasks', handler: 'functions/http/v1/router.ts#handler', auth: 'apikey', use: 'custom_api_webhooks' },
  { method: 'POST', path: '/v1/orgs/{org_id}/tasks', handler: 'functions/http/v1/router.ts#handler', auth: 'apikey', use: 'custom_api_webhooks' },
  { method: 'PUT', path: '/v1/orgs/{org_id}/tasks/{task_id}', handler: 'functions/http/v1/router.ts#handler', auth: 'apikey', use: 'custom_api_webhooks' },
  { method: 'GET', path: '/v1/orgs/{org_id}/contacts', handler: 'functions/http/v1/router.ts#handler', auth: 'apikey', use: 'custom_api_webhooks' },
  { method: 'GET', path: '/v1/orgs/{org_id}/search', handler: 'functions/http/v1/router.ts#handler', auth: 'apikey', use: 'custom_api_webhooks' },
  { method: 'POST', path: '/v1/orgs/{org_id}/hooks', handler: 'functions/http/v1/router.ts#handler', auth: 'apikey', use: 'custom_api_webhooks' },
  { method: 'DELETE', path: '/v1/orgs/{org_id}/hooks/{endpoint_id}', handler: 'functions/http/v1/router.ts#handler', auth: 'apikey', use: 'custom_api_webhooks' },
  { method: 'GET', path: '/v1/orgs/{org_id}/hooks/samples/{event}', handler: 'functions/http/v1/router.ts#handler', auth: 'apikey', use: 'custom_api_webhooks' },
  { method: 'POST', path: '/mcp', handler: 'functions/http/mcp/mcp.ts#handler', auth: 'apikey', use: 'custom_api_webhooks' },
  { method: 'GET', path: '/mcp', handler: 'functions/http/mcp/mcp.ts#handler', auth: 'apikey', use: 'custom_api_webhooks' },
  { method: 'DELETE', path: '/mcp', handler: 'functions/http/mcp/mcp.ts#handler', auth: 'apikey', use: 'custom_api_webhooks' },
  // --- end issue 20 ---
  // --- issue 20: outbound webhooks, Zapier / Pabbly REST hooks, Slack (admins only; JWT) ---
  { method: 'GET', path: '/api/orgs/{org_id}/webhooks', handler: 'functions/http/webhooks/list-endpoints.ts#handler', auth: 'jwt', use: 'custom_api_webhooks' },
  { method: 'POST', path: '/api/orgs/{org_id}/webhooks', handler: 'functions/http/webhooks/create-endpoint.ts#handler', auth: 'jwt', use: 'custom_api_webhooks', audit: 'webhook.created' },
  { method: 'GET', path: '/api/orgs/{org_id}/webhooks/events', handler: 'functions/http/webhooks/event-catalogue.ts#handler', auth: 'jwt', use: 'custom_api_webhooks' },
  { method: 'PATCH', path: '/api/orgs/{org_id}/webhooks/{endpoint_id}', handler: 'functions/http/webhooks/update-endpoint.ts#handler', auth: 'jwt', use: 'custom_api_webhooks', audit: 'webhook.updated' },
  { method: 'DELETE', path: '/api/orgs/{org_id}/webhooks/{endpoint_id}', handler: 'functions/http/webhooks/delete-endpoint.ts#handler', auth: 'jwt', use: 'open', audit: 'webhook.deleted' },
  { method: 'POST', path: '/api/orgs/{org_id}/webhooks/{endpoint_id}/rotate-secret', handler: 'functions/http/webhooks/rotate-secret.ts#handler', auth: 'jwt', use: 'custom_api_webhooks', audit: 'webhook.secret_rotated' },
  { method: 'POST', path: '/api/orgs/{org_id}/webhooks/{endpoint_id}/test', handler: 'functions/http/webhooks/send-test.ts#handler', auth: 'jwt', use: 'custom_api_webhooks', audit: false, auditWhy: NOCHANGE },
  { method: 'GET', path: '/api/orgs/{org_id}/webhooks/{endpoint_id}/deliveries', handler: 'functions/http/webhooks/list-deliveries.ts#handler', auth: 'jwt', use: 'custom_api_webhooks' },
  { method: 'POST', path: '/api/orgs/{org_id}/webhooks/{endpoint_id}/deliveries/{delivery_id}/replay', handler: 'functions/http/webhooks/replay-delivery.ts#handler', auth: 'jwt', use: 'custom_api_webhooks', audit: 'webhook.replayed' },
  { method: 'POST', path: '/api/orgs/{org_id}/hooks', handler: 'functions/http/webhooks/subscribe-hook.ts#handler', auth: 'jwt', use: 'custom_api_webhooks', audit: 'webhook.hook_subscribed' },
  { method: 'GET', path: '/api/orgs/{org_id}/hooks/samples/{event}', handler: 'functions/http/webhooks/hook-samples.ts#handler', auth: 'jwt', use: 'custom_api_webhooks' },
  { method: 'DELETE', path: '/api/orgs/{org_id}/hooks/{endpoint_id}', handler: 'functions/http/webhooks/unsubscribe-hook.ts#handler', auth: 'jwt', use: 'open', audit: 'webhook.hook_unsubscribed' },
  { method: 'GET', path: '/api/orgs/{org_id}/integrations/slack', handler: 'functions/http/webhooks/get-slack.ts#handler', auth: 'jwt', use: 'integrations' },
  { method: 'PUT', path: '/api/orgs/{org_id}/integrations/slack', handler: 'functions/http/webhooks/put-slack.ts#handler', auth: 'jwt', use: 'integrations', audit: 'slack.connected' },
  { method: 'DELETE', path: '/api/orgs/{org_id}/integrations/slack', handler: 'functions/http/webhooks/delete-slack.ts#handler', auth: 'jwt', use: 'open', audit: 'slack.disconnected' },
  // --- end issue 20 webhooks ---
  // --- search (issue 14) ---
  { method: 'GET', path: '/api/orgs/{org_id}/search', handler: 'functions/http/search/search.ts#handler', auth: 'jwt' },
  // --- issue 22: plans, billing, trial, incidents, organization settings ---
  { method: 'GET', path: '/api/orgs/{org_id}/plan', handler: 'functions/http/plans/get-plan.ts#handler', auth: 'jwt', use: 'open' },
  { method: 'POST', path: '/api/orgs/{org_id}/plan/checkout', handler: 'functions/http/plans/start-checkout.ts#handler', auth: 'jwt', use: 'open', audit: false, auditWhy: BILLING },
  { method: 'POST', path: '/api/orgs/{org_id}/plan/trial-extension', handler: 'functions/http/plans/request-trial-extension.ts#handler', auth: 'jwt', use: 'open', audit: false, auditWhy: BILLING },
  { method: 'GET', path: '/api/incident', handler: 'functions/http/plans/get-incident.ts#handler', auth: 'jwt', use: 'open' },
  { method: 'POST', path: '/webhooks/billing', handler: 'functions/channels/billing/receive-billing-webhook.ts#handler', auth: 'none', use: 'open' },
  // issue 22 (plans2): organization settings general, config, library (members read, admins write)
  { method: 'GET', path: '/api/orgs/{org_id}/settings/general', handler: 'functions/http/orgs/get-general-settings.ts#handler', auth: 'jwt' },
  { method: 'PUT', path: '/api/orgs/{org_id}/settings/general', handler: 'functions/http/orgs/update-general-settings.ts#handler', auth: 'jwt', audit: 'settings.general_changed' },
  { method: 'GET', path: '/api/orgs/{org_id}/settings/config', handler: 'functions/http/orgs/get-config-settings.ts#handler', auth: 'jwt' },
  { method: 'PUT', path: '/api/orgs/{org_id}/settings/config', handler: 'functions/http/orgs/update-config-settings.ts#handler', auth: 'jwt', audit: 'settings.config_changed' },
  { method: 'GET', path: '/api/orgs/{org_id}/settings/library', handler: 'functions/http/orgs/get-library-settings.ts#handler', auth: 'jwt' },
  { method: 'PUT', path: '/api/orgs/{org_id}/settings/library', handler: 'functions/http/orgs/update-library-settings.ts#handler', auth: 'jwt', audit: 'settings.library_changed' },
  // --- end issue 22 ---
  // --- issue 18: AI agent (knowledge base, settings, test panel, per-chat take-over, audit) ---
  { method: 'GET', path: '/api/orgs/{org_id}/ai/faqs', handler: 'functions/http/ai/list-faqs.ts#handler', auth: 'jwt' },
  { method: 'POST', path: '/api/orgs/{org_id}/ai/faqs', handler: 'functions/http/ai/create-faq.ts#handler', auth: 'jwt', audit: 'ai.faq_created' },
  { method: 'PUT', path: '/api/orgs/{org_id}/ai/faqs/{faq_id}', handler: 'functions/http/ai/update-faq.ts#handler', auth: 'jwt', audit: 'ai.faq_updated' },
  { method: 'DELETE', path: '/api/orgs/{org_id}/ai/faqs/{faq_id}', handler: 'functions/http/ai/delete-faq.ts#handler', auth: 'jwt', audit: 'ai.faq_deleted' },
  { method: 'GET', path: '/api/orgs/{org_id}/ai/settings', handler: 'functions/http/ai/get-settings.ts#handler', auth: 'jwt' },
  { method: 'PUT', path: '/api/orgs/{org_id}/ai/settings', handler: 'functions/http/ai/update-settings.ts#handler', auth: 'jwt', audit: 'ai.settings_changed' },
  { method: 'POST', path: '/api/orgs/{org_id}/ai/test', handler: 'functions/http/ai/test-answer.ts#handler', auth: 'jwt', use: 'ai_autoresponder', audit: false, auditWhy: NOCHANGE },
  { method: 'GET', path: '/api/orgs/{org_id}/ai/decisions', handler: 'functions/http/ai/list-decisions.ts#handler', auth: 'jwt' },
  { method: 'PUT', path: '/api/orgs/{org_id}/chats/{chat_id}/ai', handler: 'functions/http/ai/set-chat-ai.ts#handler', auth: 'jwt', audit: false, auditWhy: MEMBER },
  // issue 18 (part 2): FAQ pair attachments (spec §7 upload under {org_id}/ai_assets/{context_id}/)
  { method: 'POST', path: '/api/orgs/{org_id}/ai/faqs/uploads', handler: 'functions/http/ai/create-faq-upload.ts#handler', auth: 'jwt', audit: false, auditWhy: UPLOAD },
  // --- end issue 18 ---
  // --- issue 19: dashboard, analytics and the audit log ---
  { method: 'GET', path: '/api/orgs/{org_id}/dashboard', handler: 'functions/http/analytics/get-dashboard.ts#handler', auth: 'jwt' },
  { method: 'GET', path: '/api/orgs/{org_id}/analytics', handler: 'functions/http/analytics/get-analytics.ts#handler', auth: 'jwt' },
  { method: 'GET', path: '/api/orgs/{org_id}/analytics/export.csv', handler: 'functions/http/analytics/export-analytics.ts#handler', auth: 'jwt', use: 'export' },
  { method: 'GET', path: '/api/orgs/{org_id}/logs/audit', handler: 'functions/http/logs/list-audit-log.ts#handler', auth: 'jwt' },
  // signed WhatsApp webhooks no schema accepted (dead letters of the webhook, kept with their reason)
  { method: 'GET', path: '/api/orgs/{org_id}/logs/webhook-rejections', handler: 'functions/http/logs/list-webhook-rejections.ts#handler', auth: 'jwt' },
  { method: 'GET', path: '/api/orgs/{org_id}/logs/webhook-rejections/{rejection_id}', handler: 'functions/http/logs/get-webhook-rejection.ts#handler', auth: 'jwt' },
  { method: 'GET', path: '/api/orgs/{org_id}/analytics/groups', handler: 'functions/http/analytics/get-analytics-groups.ts#handler', auth: 'jwt', use: 'advanced_analytics' },
  { method: 'GET', path: '/api/orgs/{org_id}/analytics/breakdown', handler: 'functions/http/analytics/get-analytics-breakdown.ts#handler', auth: 'jwt', use: 'advanced_analytics' },
  // --- end issue 19 ---
  // --- issue 15: contacts, custom properties, quick replies ---
  { method: 'GET', path: '/api/orgs/{org_id}/contacts', handler: 'functions/http/contacts/list-contacts.ts#handler', auth: 'jwt' },
  { method: 'POST', path: '/api/orgs/{org_id}/contacts', handler: 'functions/http/contacts/create-contact.ts#handler', auth: 'jwt', audit: false, auditWhy: MEMBER },
  { method: 'GET', path: '/api/orgs/{org_id}/contacts/{contact_id}', handler: 'functions/http/contacts/get-contact.ts#handler', auth: 'jwt' },
  { method: 'PATCH', path: '/api/orgs/{org_id}/contacts/{contact_id}', handler: 'functions/http/contacts/update-contact.ts#handler', auth: 'jwt', audit: false, auditWhy: MEMBER },
  { method: 'DELETE', path: '/api/orgs/{org_id}/contacts/{contact_id}', handler: 'functions/http/contacts/delete-contact.ts#handler', auth: 'jwt', audit: false, auditWhy: MEMBER },
  { method: 'GET', path: '/api/orgs/{org_id}/properties', handler: 'functions/http/properties/list-properties.ts#handler', auth: 'jwt' },
  { method: 'POST', path: '/api/orgs/{org_id}/properties', handler: 'functions/http/properties/create-property.ts#handler', auth: 'jwt', audit: 'property.created' },
  { method: 'PATCH', path: '/api/orgs/{org_id}/properties/{property_id}', handler: 'functions/http/properties/update-property.ts#handler', auth: 'jwt', audit: 'property.updated' },
  { method: 'DELETE', path: '/api/orgs/{org_id}/properties/{property_id}', handler: 'functions/http/properties/delete-property.ts#handler', auth: 'jwt', audit: 'property.deleted' },
  { method: 'PUT', path: '/api/orgs/{org_id}/chats/{chat_id}/properties', handler: 'functions/http/properties/set-chat-properties.ts#handler', auth: 'jwt', audit: false, auditWhy: MEMBER },
  // --- end issue 15 ---
  // --- issue 17: automation rules, their log, and a chat's pending follow-ups ---
  { method: 'GET', path: '/api/orgs/{org_id}/rules', handler: 'functions/http/rules/list-rules.ts#handler', auth: 'jwt' },
  { method: 'POST', path: '/api/orgs/{org_id}/rules', handler: 'functions/http/rules/create-rule.ts#handler', auth: 'jwt', use: 'rules_engine', audit: 'rule.created' },
  { method: 'GET', path: '/api/orgs/{org_id}/rules/{rule_id}', handler: 'functions/http/rules/get-rule.ts#handler', auth: 'jwt' },
  { method: 'PUT', path: '/api/orgs/{org_id}/rules/{rule_id}', handler: 'functions/http/rules/update-rule.ts#handler', auth: 'jwt', audit: 'rule.updated' },
  { method: 'DELETE', path: '/api/orgs/{org_id}/rules/{rule_id}', handler: 'functions/http/rules/delete-rule.ts#handler', auth: 'jwt', audit: 'rule.deleted' },
  { method: 'POST', path: '/api/orgs/{org_id}/rules/{rule_id}/dry-run', handler: 'functions/http/rules/dry-run-rule.ts#handler', auth: 'jwt', use: 'rules_engine', audit: false, auditWhy: NOCHANGE },
  { method: 'GET', path: '/api/orgs/{org_id}/logs/rules', handler: 'functions/http/rules/list-rule-logs.ts#handler', auth: 'jwt' },
  { method: 'GET', path: '/api/orgs/{org_id}/chats/{chat_id}/rule-pending', handler: 'functions/http/rules/list-chat-pending.ts#handler', auth: 'jwt' },
  { method: 'DELETE', path: '/api/orgs/{org_id}/chats/{chat_id}/rule-pending/{key}', handler: 'functions/http/rules/cancel-chat-pending.ts#handler', auth: 'jwt', audit: false, auditWhy: MEMBER },
  // --- end issue 17 ---
  // --- issue 17 §6: SLA policies and the breach report ---
  { method: 'GET', path: '/api/orgs/{org_id}/sla-policies', handler: 'functions/http/sla/list-sla-policies.ts#handler', auth: 'jwt' },
  { method: 'POST', path: '/api/orgs/{org_id}/sla-policies', handler: 'functions/http/sla/create-sla-policy.ts#handler', auth: 'jwt', use: 'rules_engine', audit: 'sla.created' },
  { method: 'PUT', path: '/api/orgs/{org_id}/sla-policies/{policy_id}', handler: 'functions/http/sla/update-sla-policy.ts#handler', auth: 'jwt', audit: 'sla.updated' },
  { method: 'DELETE', path: '/api/orgs/{org_id}/sla-policies/{policy_id}', handler: 'functions/http/sla/delete-sla-policy.ts#handler', auth: 'jwt', audit: 'sla.deleted' },
  { method: 'GET', path: '/api/orgs/{org_id}/logs/sla', handler: 'functions/http/sla/list-sla-breaches.ts#handler', auth: 'jwt' },
  // --- end issue 17 §6 ---
  // --- issue 16 (part A): WhatsApp message templates ---
  { method: 'GET', path: '/api/orgs/{org_id}/templates', handler: 'functions/http/templates/list-templates.ts#handler', auth: 'jwt' },
  { method: 'POST', path: '/api/orgs/{org_id}/templates/sync', handler: 'functions/http/templates/sync-templates.ts#handler', auth: 'jwt', audit: 'template.synced' },
  { method: 'POST', path: '/api/orgs/{org_id}/chats/{chat_id}/templates', handler: 'functions/http/templates/send-template.ts#handler', auth: 'jwt', audit: false, auditWhy: MEMBER },
  { method: 'GET', path: '/api/orgs/{org_id}/scheduled', handler: 'functions/http/scheduled/list-scheduled.ts#handler', auth: 'jwt' },
  { method: 'POST', path: '/api/orgs/{org_id}/scheduled', handler: 'functions/http/scheduled/create-scheduled.ts#handler', auth: 'jwt', audit: false, auditWhy: MEMBER },
  { method: 'PATCH', path: '/api/orgs/{org_id}/scheduled/{schedule_id}', handler: 'functions/http/scheduled/update-scheduled.ts#handler', auth: 'jwt', audit: false, auditWhy: MEMBER },
  { method: 'POST', path: '/api/orgs/{org_id}/scheduled/{schedule_id}/skip', handler: 'functions/http/scheduled/skip-scheduled.ts#handler', auth: 'jwt', audit: false, auditWhy: MEMBER },
  { method: 'DELETE', path: '/api/orgs/{org_id}/scheduled/{schedule_id}', handler: 'functions/http/scheduled/delete-scheduled.ts#handler', auth: 'jwt', audit: false, auditWhy: MEMBER },
  // --- end issue 16 (part A) ---
  // --- issue 15 (contacts3): quick replies ---
  { method: 'GET', path: '/api/orgs/{org_id}/replies', handler: 'functions/http/replies/list-replies.ts#handler', auth: 'jwt' },
  { method: 'POST', path: '/api/orgs/{org_id}/replies', handler: 'functions/http/replies/create-reply.ts#handler', auth: 'jwt', audit: 'reply.created' },
  { method: 'PATCH', path: '/api/orgs/{org_id}/replies/{reply_id}', handler: 'functions/http/replies/update-reply.ts#handler', auth: 'jwt', audit: 'reply.updated' },
  { method: 'DELETE', path: '/api/orgs/{org_id}/replies/{reply_id}', handler: 'functions/http/replies/delete-reply.ts#handler', auth: 'jwt', audit: 'reply.deleted' },
  { method: 'POST', path: '/api/orgs/{org_id}/contacts/{contact_id}/merge', handler: 'functions/http/contacts/merge-contact.ts#handler', auth: 'jwt', audit: false, auditWhy: MEMBER },
  { method: 'POST', path: '/api/orgs/{org_id}/contacts/{contact_id}/unmerge', handler: 'functions/http/contacts/unmerge-contact.ts#handler', auth: 'jwt', audit: false, auditWhy: MEMBER },
  { method: 'GET', path: '/api/orgs/{org_id}/contacts/{contact_id}/merges', handler: 'functions/http/contacts/list-contact-merges.ts#handler', auth: 'jwt' },
  { method: 'GET', path: '/api/orgs/{org_id}/contacts/export.csv', handler: 'functions/http/contacts/export-contacts.ts#handler', auth: 'jwt', use: 'export' },
  { method: 'POST', path: '/api/orgs/{org_id}/contacts/imports', handler: 'functions/http/contact-imports/create-import.ts#handler', auth: 'jwt', audit: 'import.created' },
  { method: 'PUT', path: '/api/orgs/{org_id}/contacts/imports/{job_id}/chunks/{seq}', handler: 'functions/http/contact-imports/put-import-chunk.ts#handler', auth: 'jwt', audit: false, auditWhy: UPLOAD },
  { method: 'POST', path: '/api/orgs/{org_id}/contacts/imports/{job_id}/start', handler: 'functions/http/contact-imports/start-import.ts#handler', auth: 'jwt', audit: 'import.started' },
  { method: 'GET', path: '/api/orgs/{org_id}/contacts/imports/{job_id}', handler: 'functions/http/contact-imports/get-import.ts#handler', auth: 'jwt' },
  { method: 'POST', path: '/api/orgs/{org_id}/contacts/imports/{job_id}/undo', handler: 'functions/http/contact-imports/undo-import.ts#handler', auth: 'jwt', audit: 'import.undone' },
  // --- end issue 15 (contacts3) ---
  // --- issue 16: broadcasts ---
  { method: 'GET', path: '/api/orgs/{org_id}/broadcasts', handler: 'functions/http/broadcasts/list-broadcasts.ts#handler', auth: 'jwt' },
  { method: 'POST', path: '/api/orgs/{org_id}/broadcasts', handler: 'functions/http/broadcasts/create-broadcast.ts#handler', auth: 'jwt', audit: 'broadcast.created' },
  { method: 'POST', path: '/api/orgs/{org_id}/broadcasts/preview', handler: 'functions/http/broadcasts/preview-broadcast.ts#handler', auth: 'jwt', audit: false, auditWhy: NOCHANGE },
  { method: 'POST', path: '/api/orgs/{org_id}/broadcasts/uploads', handler: 'functions/http/broadcasts/create-upload.ts#handler', auth: 'jwt', audit: false, auditWhy: UPLOAD },
  { method: 'GET', path: '/api/orgs/{org_id}/broadcasts/credits', handler: 'functions/http/broadcasts/get-credits.ts#handler', auth: 'jwt' },
  { method: 'GET', path: '/api/orgs/{org_id}/broadcasts/{broadcast_id}', handler: 'functions/http/broadcasts/get-broadcast.ts#handler', auth: 'jwt' },
  { method: 'POST', path: '/api/orgs/{org_id}/broadcasts/{broadcast_id}/actions', handler: 'functions/http/broadcasts/control-broadcast.ts#handler', auth: 'jwt', audit: 'broadcast.controlled' },
  { method: 'GET', path: '/api/orgs/{org_id}/broadcasts/{broadcast_id}/recipients', handler: 'functions/http/broadcasts/list-recipients.ts#handler', auth: 'jwt' },
  { method: 'GET', path: '/api/orgs/{org_id}/broadcasts/{broadcast_id}/recipients.csv', handler: 'functions/http/broadcasts/export-recipients.ts#handler', auth: 'jwt', use: 'export' },
  // --- end issue 16 ---
  // --- issue 15 (groups): group templates and "Create group" on a WhatsApp Web number ---
  { method: 'GET', path: '/api/orgs/{org_id}/group-templates', handler: 'functions/http/group-templates/list-group-templates.ts#handler', auth: 'jwt' },
  { method: 'POST', path: '/api/orgs/{org_id}/group-templates', handler: 'functions/http/group-templates/create-group-template.ts#handler', auth: 'jwt', audit: 'group_template.created' },
  { method: 'POST', path: '/api/orgs/{org_id}/group-templates/uploads', handler: 'functions/http/group-templates/create-picture-upload.ts#handler', auth: 'jwt', audit: false, auditWhy: UPLOAD },
  { method: 'PATCH', path: '/api/orgs/{org_id}/group-templates/{template_id}', handler: 'functions/http/group-templates/update-group-template.ts#handler', auth: 'jwt', audit: 'group_template.updated' },
  { method: 'DELETE', path: '/api/orgs/{org_id}/group-templates/{template_id}', handler: 'functions/http/group-templates/delete-group-template.ts#handler', auth: 'jwt', audit: 'group_template.deleted' },
  { method: 'POST', path: '/api/orgs/{org_id}/group-templates/{template_id}/groups', handler: 'functions/http/group-templates/create-group.ts#handler', auth: 'jwt', audit: false, auditWhy: MEMBER },
  { method: 'GET', path: '/api/orgs/{org_id}/group-templates/{template_id}/groups/{request_id}', handler: 'functions/http/group-templates/get-group-request.ts#handler', auth: 'jwt' },
  // --- end issue 15 (groups) ---
];

/**
 * WebSocket API routes (route key -> handler). `$connect` checks the JWT itself (`?token=`).
 * The entitlement gate (issue 42): the socket is a read: it delivers the org's events, and clients
 * send only typing and session frames (functions/ws/default.ts), which reach no customer and change
 * no data, so a blocked org keeps it (reading stays possible after an end). Nothing is sent to
 * WhatsApp over the socket; every send goes through an HTTP route (gated by its `use`) or a
 * consumer, and all of them through the outbound chokepoint (functions/consumers/whatsapp-outbound.ts).
 */
export const WS_ROUTES: Record<'$connect' | '$disconnect' | '$default', string> = {
  $connect: 'functions/ws/connect.ts#handler',
  $disconnect: 'functions/ws/disconnect.ts#handler',
  $default: 'functions/ws/default.ts#handler',
};

/** `METHOD path` (API Gateway's routeKey) -> the route's use (see {@link routeUse}). */
export const ROUTE_USES: ReadonlyMap<string, Use> = new Map(HTTP_ROUTES.map((r) => [`${r.method} ${r.path}`, routeUse(r)]));

/** `METHOD path` -> the audit kind a successful call records (routes declaring `audit: '<kind>'`). */
export const ROUTE_AUDITS: ReadonlyMap<string, string> = new Map(HTTP_ROUTES.flatMap((r) => (r.audit ? [[`${r.method} ${r.path}`, r.audit] as [string, string]] : [])));
