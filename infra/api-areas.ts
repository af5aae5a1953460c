/**
 * Which stack serves which HTTP routes. CloudFormation allows 500 resources per stack and every
 * route Lambda costs about five (function, log group, route, integration, invoke permission, plus
 * shared roles), so one stack holds about 80 routes. The HTTP API itself (and the WebSocket API)
 * stays in the Api stack; the routes and their Lambdas are spread over one stack per group below,
 * by the area folder of their handler (`functions/http/<area>/...`, `functions/channels/<channel>/...`).
 *
 * The mapping is explicit, not computed: a route moved between stacks is deleted and created again
 * (a short gap for that route), so adding routes must never reshuffle existing ones. A new area
 * joins a group with room or gets a group of its own; infra/app.test.ts synthesizes a registry of
 * twice today's size and fails when any stack passes 400 resources.
 */
export const API_ROUTE_GROUPS = {
  /** the inbox: chats and their labels, notes, bulk actions and exports */
  Inbox: ['functions/http/chats/', 'functions/http/labels/', 'functions/http/bulk/', 'functions/http/notes/'],
  /** messages, their media and notifications */
  Messages: ['functions/http/messages/', 'functions/http/media/', 'functions/http/notifications/', 'functions/http/search/'],
  /** tickets and tasks; issue 18: the AI agent (functions/http/ai/) */
  Work: ['functions/http/tickets/', 'functions/http/tasks/', 'functions/http/ai/'],
  /** the signed-in member, the org, its team, invites, phones, sign-in and the WhatsApp webhooks */
  Org: [
    'functions/http/me/',
    'functions/http/members/',
    'functions/http/orgs/',
    'functions/http/team/',
    'functions/http/invites/',
    'functions/http/phones/',
    'functions/http/auth/',
    'functions/channels/whatsapp-cloud/',
  ],
  /** issue 20: API keys, the public REST API (/v1) and the MCP server (/mcp) */
  Public: ['functions/http/api-keys/', 'functions/http/v1/', 'functions/http/mcp/'],
  /** issue 20: outbound webhooks, Zapier / Pabbly REST hooks, Slack (admin routes) */
  Webhooks: ['functions/http/webhooks/'],
  /** issue 17: automation rules and their log */
  Rules: ['functions/http/rules/', 'functions/http/sla/'],
  /** issue 15: contacts and custom property definitions */
  Contacts: ['functions/http/contacts/', 'functions/http/properties/', 'functions/http/replies/', 'functions/http/contact-imports/'],
  /** issue 19: dashboard, analytics and the audit log */
  Insights: ['functions/http/analytics/', 'functions/http/logs/'],
  /** issue 22: plans, checkout, trial extension, incidents and the billing provider's webhook */
  Billing: ['functions/http/plans/', 'functions/channels/billing/'],
  /** issue 16 (part A): WhatsApp message templates and scheduled messages */
  Templates: ['functions/http/templates/', 'functions/http/scheduled/'],
  /** issue 16: broadcasts */
  Broadcasts: ['functions/http/broadcasts/'],
  /** issue 15 (groups): group templates and "Create group" */
  GroupTemplates: ['functions/http/group-templates/'],
} as const satisfies Record<string, readonly string[]>;

export type ApiRouteGroup = keyof typeof API_ROUTE_GROUPS;

/**
 * The group serving a handler reference (`file#export`).
 * @throws Error when the handler's folder is in no group (add it to API_ROUTE_GROUPS)
 */
export function apiRouteGroupOf(handler: string): ApiRouteGroup {
  for (const [group, prefixes] of Object.entries(API_ROUTE_GROUPS) as Array<[ApiRouteGroup, readonly string[]]>) {
    if (prefixes.some((p) => handler.startsWith(p))) return group;
  }
  throw new Error(`No API stack serves ${handler}: add its folder to API_ROUTE_GROUPS (infra/api-areas.ts)`);
}
