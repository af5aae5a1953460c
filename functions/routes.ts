/**
 * The one route registry: every HTTP and WebSocket route, its handler (`file#export`, relative to
 * the repo root) and whether API Gateway's Cognito JWT authorizer guards it. Read by the local
 * gateway (scripts/local/gateway.ts) and the CDK api stack, so the two cannot drift.
 * Paths use API Gateway v2 syntax (`{param}`).
 */
export interface HttpRoute {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  handler: string;
  /** 'jwt': Cognito JWT authorizer; 'none': public (webhooks verify their own signature) */
  auth: 'jwt' | 'none';
}

export const HTTP_ROUTES: HttpRoute[] = [
  { method: 'GET', path: '/api/me', handler: 'functions/http/me/get-me.ts#handler', auth: 'jwt' },
  { method: 'GET', path: '/api/me/preferences', handler: 'functions/http/me/get-preferences.ts#handler', auth: 'jwt' },
  { method: 'PUT', path: '/api/me/preferences', handler: 'functions/http/me/update-preferences.ts#handler', auth: 'jwt' },
  { method: 'GET', path: '/api/me/password', handler: 'functions/http/me/get-password.ts#handler', auth: 'jwt' },
  { method: 'PUT', path: '/api/me/password', handler: 'functions/http/me/set-password.ts#handler', auth: 'jwt' },
  { method: 'PUT', path: '/api/orgs/{org_id}/me/status', handler: 'functions/http/members/update-my-status.ts#handler', auth: 'jwt' },
  { method: 'GET', path: '/api/orgs/{org_id}/chats', handler: 'functions/http/chats/list-chats.ts#handler', auth: 'jwt' },
  { method: 'GET', path: '/api/orgs/{org_id}/chats/{chat_id}', handler: 'functions/http/chats/get-chat.ts#handler', auth: 'jwt' },
  { method: 'GET', path: '/api/orgs/{org_id}/chats/counts', handler: 'functions/http/chats/chat-counts.ts#handler', auth: 'jwt' },
  { method: 'GET', path: '/api/orgs/{org_id}/chats/pinned', handler: 'functions/http/chats/list-pinned-chats.ts#handler', auth: 'jwt' },
  { method: 'POST', path: '/api/orgs/{org_id}/chats/assign', handler: 'functions/http/chats/assign-chats.ts#handler', auth: 'jwt' },
  { method: 'POST', path: '/api/orgs/{org_id}/chats/labels', handler: 'functions/http/chats/label-chats.ts#handler', auth: 'jwt' },
  { method: 'POST', path: '/api/orgs/{org_id}/chats/close', handler: 'functions/http/chats/close-chats.ts#handler', auth: 'jwt' },
  { method: 'POST', path: '/api/orgs/{org_id}/chats/snooze', handler: 'functions/http/chats/snooze-chats.ts#handler', auth: 'jwt' },
  { method: 'POST', path: '/api/orgs/{org_id}/chats/archive', handler: 'functions/http/chats/archive-chats.ts#handler', auth: 'jwt' },
  { method: 'POST', path: '/api/orgs/{org_id}/chats/mute', handler: 'functions/http/chats/mute-chats.ts#handler', auth: 'jwt' },
  { method: 'POST', path: '/api/orgs/{org_id}/chats/pin', handler: 'functions/http/chats/pin-chats.ts#handler', auth: 'jwt' },
  { method: 'POST', path: '/api/orgs/{org_id}/chats/{chat_id}/unread', handler: 'functions/http/chats/mark-chat-unread.ts#handler', auth: 'jwt' },
  { method: 'PUT', path: '/api/orgs/{org_id}/chats/{chat_id}/active-phone', handler: 'functions/http/chats/set-active-phone.ts#handler', auth: 'jwt' },
  { method: 'PUT', path: '/api/orgs/{org_id}/chats/{chat_id}/access', handler: 'functions/http/chats/set-chat-access.ts#handler', auth: 'jwt' },
  { method: 'GET', path: '/api/orgs/{org_id}/labels', handler: 'functions/http/labels/list-labels.ts#handler', auth: 'jwt' },
  { method: 'POST', path: '/api/orgs/{org_id}/labels', handler: 'functions/http/labels/create-label.ts#handler', auth: 'jwt' },
  { method: 'PATCH', path: '/api/orgs/{org_id}/labels/{label_id}', handler: 'functions/http/labels/update-label.ts#handler', auth: 'jwt' },
  { method: 'DELETE', path: '/api/orgs/{org_id}/labels/{label_id}', handler: 'functions/http/labels/delete-label.ts#handler', auth: 'jwt' },
  { method: 'POST', path: '/api/orgs/{org_id}/chats/{chat_id}/read', handler: 'functions/http/chats/mark-chat-read.ts#handler', auth: 'jwt' },
  { method: 'GET', path: '/api/orgs/{org_id}/chats/{chat_id}/messages', handler: 'functions/http/messages/list-messages.ts#handler', auth: 'jwt' },
  { method: 'POST', path: '/api/orgs/{org_id}/chats/{chat_id}/messages', handler: 'functions/http/messages/send-message.ts#handler', auth: 'jwt' },
  { method: 'POST', path: '/api/orgs/{org_id}/chats/{chat_id}/messages/{unique_id}/reaction', handler: 'functions/http/messages/react-to-message.ts#handler', auth: 'jwt' },
  { method: 'GET', path: '/api/orgs/{org_id}/chats/{chat_id}/messages/{unique_id}/reactions', handler: 'functions/http/messages/list-reactions.ts#handler', auth: 'jwt' },
  { method: 'PUT', path: '/api/orgs/{org_id}/chats/{chat_id}/messages/{unique_id}/flag', handler: 'functions/http/messages/flag-message.ts#handler', auth: 'jwt' },
  { method: 'PUT', path: '/api/orgs/{org_id}/chats/{chat_id}/messages/{unique_id}/pin', handler: 'functions/http/messages/pin-message.ts#handler', auth: 'jwt' },
  { method: 'POST', path: '/api/orgs/{org_id}/chats/{chat_id}/messages/{unique_id}/refresh', handler: 'functions/http/messages/refresh-message.ts#handler', auth: 'jwt' },
  { method: 'POST', path: '/api/orgs/{org_id}/chats/{chat_id}/messages/{unique_id}/forward', handler: 'functions/http/messages/forward-message.ts#handler', auth: 'jwt' },
  { method: 'POST', path: '/api/orgs/{org_id}/chats/{chat_id}/messages/{unique_id}/reply-privately', handler: 'functions/http/messages/reply-privately.ts#handler', auth: 'jwt' },
  { method: 'PATCH', path: '/api/orgs/{org_id}/chats/{chat_id}/messages/{unique_id}', handler: 'functions/http/messages/edit-message.ts#handler', auth: 'jwt' },
  { method: 'DELETE', path: '/api/orgs/{org_id}/chats/{chat_id}/messages/{unique_id}', handler: 'functions/http/messages/delete-message.ts#handler', auth: 'jwt' },
  { method: 'PUT', path: '/api/orgs/{org_id}/chats/{chat_id}/messages/{unique_id}/ticket', handler: 'functions/http/tickets/set-message-ticket.ts#handler', auth: 'jwt' },
  { method: 'GET', path: '/api/orgs/{org_id}/chats/{chat_id}/tickets', handler: 'functions/http/tickets/list-chat-tickets.ts#handler', auth: 'jwt' },
  { method: 'GET', path: '/api/orgs/{org_id}/tickets', handler: 'functions/http/tickets/list-tickets.ts#handler', auth: 'jwt' },
  { method: 'POST', path: '/api/orgs/{org_id}/tickets', handler: 'functions/http/tickets/create-ticket.ts#handler', auth: 'jwt' },
  { method: 'GET', path: '/api/orgs/{org_id}/tickets/badge', handler: 'functions/http/tickets/get-ticket-badge.ts#handler', auth: 'jwt' },
  { method: 'POST', path: '/api/orgs/{org_id}/tickets/bulk', handler: 'functions/http/tickets/bulk-update-tickets.ts#handler', auth: 'jwt' },
  { method: 'GET', path: '/api/orgs/{org_id}/tickets/{ticket_id}', handler: 'functions/http/tickets/get-ticket.ts#handler', auth: 'jwt' },
  { method: 'PATCH', path: '/api/orgs/{org_id}/tickets/{ticket_id}', handler: 'functions/http/tickets/update-ticket.ts#handler', auth: 'jwt' },
  { method: 'GET', path: '/api/orgs/{org_id}/tickets/{ticket_id}/audit', handler: 'functions/http/tickets/list-ticket-audit.ts#handler', auth: 'jwt' },
  { method: 'GET', path: '/api/orgs/{org_id}/settings/tickets', handler: 'functions/http/tickets/get-ticket-settings.ts#handler', auth: 'jwt' },
  { method: 'PUT', path: '/api/orgs/{org_id}/settings/tickets', handler: 'functions/http/tickets/update-ticket-settings.ts#handler', auth: 'jwt' },
  { method: 'GET', path: '/api/orgs/{org_id}/members', handler: 'functions/http/members/list-members.ts#handler', auth: 'jwt' },
  { method: 'POST', path: '/api/orgs', handler: 'functions/http/orgs/create-org.ts#handler', auth: 'jwt' },
  { method: 'GET', path: '/api/orgs/{org_id}/settings/permissions', handler: 'functions/http/orgs/get-permission-settings.ts#handler', auth: 'jwt' },
  { method: 'PUT', path: '/api/orgs/{org_id}/settings/permissions', handler: 'functions/http/orgs/update-permission-settings.ts#handler', auth: 'jwt' },
  { method: 'GET', path: '/api/orgs/{org_id}/phones', handler: 'functions/http/phones/list-phones.ts#handler', auth: 'jwt' },
  { method: 'POST', path: '/api/orgs/{org_id}/phones', handler: 'functions/http/phones/add-phone.ts#handler', auth: 'jwt' },
  { method: 'POST', path: '/api/orgs/{org_id}/phones/wa-web', handler: 'functions/http/phones/add-wa-web-phone.ts#handler', auth: 'jwt' },
  { method: 'GET', path: '/api/orgs/{org_id}/phones/{phone_id}/wa-web-session', handler: 'functions/http/phones/get-wa-web-session.ts#handler', auth: 'jwt' },
  { method: 'POST', path: '/api/orgs/{org_id}/phones/{phone_id}/wa-web-session/relink', handler: 'functions/http/phones/relink-wa-web-session.ts#handler', auth: 'jwt' },
  { method: 'GET', path: '/api/orgs/{org_id}/team', handler: 'functions/http/team/list-team.ts#handler', auth: 'jwt' },
  { method: 'POST', path: '/api/orgs/{org_id}/team/invites', handler: 'functions/http/team/invite-member.ts#handler', auth: 'jwt' },
  { method: 'PATCH', path: '/api/orgs/{org_id}/team/{email}', handler: 'functions/http/team/update-member.ts#handler', auth: 'jwt' },
  { method: 'DELETE', path: '/api/orgs/{org_id}/team/{email}', handler: 'functions/http/team/remove-member.ts#handler', auth: 'jwt' },
  { method: 'POST', path: '/api/invites/{invite_org_id}/join', handler: 'functions/http/invites/join-invite.ts#handler', auth: 'jwt' },
  { method: 'POST', path: '/api/invites/{invite_org_id}/decline', handler: 'functions/http/invites/decline-invite.ts#handler', auth: 'jwt' },
  { method: 'GET', path: '/api/orgs/{org_id}/tasks', handler: 'functions/http/tasks/list-tasks.ts#handler', auth: 'jwt' },
  { method: 'POST', path: '/api/orgs/{org_id}/tasks', handler: 'functions/http/tasks/create-task.ts#handler', auth: 'jwt' },
  { method: 'POST', path: '/api/orgs/{org_id}/tasks/bulk', handler: 'functions/http/tasks/bulk-update-tasks.ts#handler', auth: 'jwt' },
  { method: 'GET', path: '/api/orgs/{org_id}/tasks/{task_id}', handler: 'functions/http/tasks/get-task.ts#handler', auth: 'jwt' },
  { method: 'PUT', path: '/api/orgs/{org_id}/tasks/{task_id}', handler: 'functions/http/tasks/update-task.ts#handler', auth: 'jwt' },
  { method: 'POST', path: '/api/orgs/{org_id}/tasks/{task_id}/remind-in', handler: 'functions/http/tasks/remind-in-task.ts#handler', auth: 'jwt' },
  { method: 'GET', path: '/api/orgs/{org_id}/tasks/{task_id}/audit', handler: 'functions/http/tasks/list-task-audit.ts#handler', auth: 'jwt' },
  { method: 'POST', path: '/api/orgs/{org_id}/chats/{chat_id}/uploads', handler: 'functions/http/media/create-upload.ts#handler', auth: 'jwt' },
  { method: 'GET', path: '/api/orgs/{org_id}/chats/{chat_id}/messages/{unique_id}/media', handler: 'functions/http/media/get-media-url.ts#handler', auth: 'jwt' },
  { method: 'GET', path: '/api/orgs/{org_id}/media', handler: 'functions/http/media/list-media.ts#handler', auth: 'jwt' },
  { method: 'POST', path: '/api/orgs/{org_id}/chats/{chat_id}/notes', handler: 'functions/http/notes/create-note.ts#handler', auth: 'jwt' },
  { method: 'DELETE', path: '/api/orgs/{org_id}/chats/{chat_id}/notes/{unique_id}', handler: 'functions/http/notes/delete-note.ts#handler', auth: 'jwt' },
  { method: 'GET', path: '/api/orgs/{org_id}/notifications', handler: 'functions/http/notifications/list-notifications.ts#handler', auth: 'jwt' },
  { method: 'POST', path: '/api/orgs/{org_id}/notifications/read', handler: 'functions/http/notifications/mark-notifications-read.ts#handler', auth: 'jwt' },
  { method: 'POST', path: '/api/orgs/{org_id}/chats/bulk-jobs', handler: 'functions/http/bulk/create-bulk-job.ts#handler', auth: 'jwt' },
  { method: 'GET', path: '/api/orgs/{org_id}/chats/bulk-jobs/{job_id}', handler: 'functions/http/bulk/get-bulk-job.ts#handler', auth: 'jwt' },
  { method: 'POST', path: '/api/orgs/{org_id}/chats/bulk-jobs/{job_id}/undo', handler: 'functions/http/bulk/undo-bulk-job.ts#handler', auth: 'jwt' },
  { method: 'GET', path: '/api/orgs/{org_id}/chats/export.csv', handler: 'functions/http/bulk/export-chats.ts#handler', auth: 'jwt' },
  { method: 'GET', path: '/webhooks/whatsapp', handler: 'functions/channels/whatsapp-cloud/verify-webhook.ts#handler', auth: 'none' },
  { method: 'POST', path: '/webhooks/whatsapp', handler: 'functions/channels/whatsapp-cloud/receive-webhook.ts#handler', auth: 'none' },
  { method: 'POST', path: '/api/auth/otp/prepare', handler: 'functions/http/auth/prepare-otp.ts#handler', auth: 'none' },
  // --- search (issue 14) ---
  { method: 'GET', path: '/api/orgs/{org_id}/search', handler: 'functions/http/search/search.ts#handler', auth: 'jwt' },
];

/** WebSocket API routes (route key -> handler). `$connect` checks the JWT itself (`?token=`). */
export const WS_ROUTES: Record<'$connect' | '$disconnect' | '$default', string> = {
  $connect: 'functions/ws/connect.ts#handler',
  $disconnect: 'functions/ws/disconnect.ts#handler',
  $default: 'functions/ws/default.ts#handler',
};
