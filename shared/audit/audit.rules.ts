/**
 * Audit-log rules (issue 19; spec §2 /logs), pure: which domain events are admin actions and how
 * each reads in the log. Sources: `chat.updated` (assignments, labels, chat access, by a member —
 * system changes such as snooze wake-ups are not admin actions), `ticket.updated` / `ticket.closed`
 * (assignee, labels, status by a member); every other admin action is recorded by the one HTTP
 * wrapper from its route's `audit` kind (functions/routes.ts, functions/lib/http.ts; issue 49).
 * Labels are named, not given as ids, resolved when the row is written.
 * Rows live 90 days (TTL).
 */
export const AUDIT_TTL_DAYS = 90;

/** The areas of the audit log (the /logs Audit tab's filter). */
export const AUDIT_AREAS = ['assignments', 'labels', 'settings', 'team', 'phones', 'tickets', 'rules', 'ai', 'api', 'webhooks', 'contacts', 'imports', 'messaging'] as const;
export type AuditArea = (typeof AUDIT_AREAS)[number];

/** The area of each kind prefix (`<prefix>.<verb>`, the `audit` of a route in functions/routes.ts). */
const AREA_OF_PREFIX: Record<string, AuditArea> = {
  label: 'labels',
  team: 'team',
  settings: 'settings',
  workspace: 'settings',
  phone: 'phones',
  ticket: 'tickets',
  rule: 'rules',
  sla: 'rules',
  ai: 'ai',
  apikey: 'api',
  webhook: 'webhooks',
  slack: 'webhooks',
  property: 'contacts',
  contact: 'contacts',
  import: 'imports',
  reply: 'messaging',
  template: 'messaging',
  broadcast: 'messaging',
  group_template: 'messaging',
};

/** The area (the /logs filter) of an audit kind such as 'rule.created'; undefined for an unknown prefix. */
export const areaOfKind = (kind: string): AuditArea | undefined => AREA_OF_PREFIX[kind.split('.')[0]!];

/** Body keys never copied into an audit row (secrets, and bulk payloads that say nothing to a reader). */
const HIDDEN_KEYS = /secret|token|password|key$|headers|authorization|credential|^data$|^rows$|^chunk/i;

/** A URL as a row keeps it: its origin only (Slack and Zapier URLs carry their secret in the path or query). */
const urlOrigin = (v: string): string => {
  try {
    const u = new URL(v);
    return u.pathname === '/' && !u.search ? u.origin : `${u.origin}/…`;
  } catch {
    return '(a URL)';
  }
};

/**
 * What of a request body an audit row keeps: top-level fields without secrets, URLs as their
 * origin, strings cut to 200 characters and nested values only when small (a trace, not a copy).
 */
export function auditBodyOf(body: unknown): Record<string, unknown> | undefined {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(body)) {
    if (HIDDEN_KEYS.test(k)) continue;
    const kept = keep(v, 0);
    if (kept !== undefined && (typeof kept !== 'object' || kept === null || JSON.stringify(kept).length <= 1000)) out[k] = kept;
  }
  return Object.keys(out).length ? out : undefined;
}

/** One value of a body as a row keeps it (secrets and deep nesting left out, at any depth). */
function keep(v: unknown, depth: number): unknown {
  if (typeof v === 'string') return /^https?:\/\//i.test(v) ? urlOrigin(v) : v.length > 200 ? `${v.slice(0, 200)}…` : v;
  if (v === null || typeof v !== 'object') return v;
  if (depth >= 3) return undefined;
  if (Array.isArray(v)) return v.slice(0, 20).map((x) => keep(x, depth + 1));
  return Object.fromEntries(Object.entries(v).flatMap(([k, x]) => (HIDDEN_KEYS.test(k) ? [] : [[k, keep(x, depth + 1)]])));
}

export interface AuditDraft {
  area: string;
  action: string;
  target: string;
  summary: string;
  details?: Record<string, unknown>;
}

/** 'user:ana@x.com' -> 'ana@x.com'; anything else ('system', 'whatsapp:…') as it is. */
export const actorOf = (metadataActor: string): string => (metadataActor.startsWith('user:') ? metadataActor.slice(5) : metadataActor);

/** Is this metadata actor a person (only people's changes are admin actions)? */
export const isPerson = (metadataActor: string): boolean => metadataActor.startsWith('user:');

/** Label ids -> their names (the org's labels when the row is written; an unknown id stays as it is). */
export type LabelNames = ReadonlyMap<string, string>;

/** 'VIP, Refund' for label ids, by name where known ('none' for no labels). */
export const labelList = (ids: unknown, names: LabelNames = new Map()): string => ((ids as string[] | undefined) ?? []).map((id) => names.get(id) ?? id).join(', ') || 'none';

const CHAT_CHANGES: Record<string, { area: string; action: string; say: (chat: Record<string, unknown>, names: LabelNames) => string }> = {
  assigned_to: { area: 'assignments', action: 'chat.assigned', say: (c) => (c.assigned_to ? `assigned the chat to ${String(c.assigned_to)}` : 'unassigned the chat') },
  label_ids: { area: 'labels', action: 'chat.labelled', say: (c, n) => `set the chat's labels to ${labelList(c.label_ids, n)}` },
  chat_access: { area: 'settings', action: 'chat.access_changed', say: () => "changed who may see the chat" },
};

const TICKET_CHANGES: Record<string, { area: string; action: string; say: (t: Record<string, unknown>, names: LabelNames) => string }> = {
  assignee: { area: 'assignments', action: 'ticket.assigned', say: (t) => (t.assignee ? `assigned the ticket to ${String(t.assignee)}` : 'unassigned the ticket') },
  labels: { area: 'labels', action: 'ticket.labelled', say: (t, n) => `set the ticket's labels to ${labelList(t.labels, n)}` },
  status: { area: 'tickets', action: 'ticket.status_changed', say: (t) => `set the ticket's status to ${String(t.status)}` },
};

/** Does a change list touch labels (so the writer resolves label names first)? */
export const touchesLabels = (changes: string[]): boolean => changes.includes('label_ids') || changes.includes('labels');

/** The audit rows of a `chat.updated` (one per audited change; none for system changes); labels by name. */
export function auditOfChatUpdate(actor: string, chat: Record<string, unknown>, changes: string[], names: LabelNames = new Map()): AuditDraft[] {
  if (!isPerson(actor)) return [];
  return changes.flatMap((ch) => {
    const c = CHAT_CHANGES[ch];
    if (!c) return [];
    const name = chat.chat_name ? ` (${String(chat.chat_name)})` : '';
    return [{ area: c.area, action: c.action, target: String(chat.chat_id), summary: `${c.say(chat, names)}${name}`, details: { [ch]: chat[ch] ?? null } }];
  });
}

/** The audit rows of a `ticket.updated` / `ticket.closed`; labels by name. */
export function auditOfTicketUpdate(actor: string, ticket: Record<string, unknown>, changes: string[], names: LabelNames = new Map()): AuditDraft[] {
  if (!isPerson(actor)) return [];
  return changes.flatMap((ch) => {
    const c = TICKET_CHANGES[ch];
    if (!c) return [];
    return [{ area: c.area, action: c.action, target: String(ticket.ticket_id), summary: `${c.say(ticket, names)}: ${String(ticket.subject ?? '')}`.trim(), details: { [ch]: ticket[ch] ?? null } }];
  });
}

const ADMIN_SAY: Record<string, (target: string, d: Record<string, unknown>) => string> = {
  'label.created': (t, d) => `created the label ${String(d.name ?? t)}`,
  'label.updated': (t, d) => `changed the label ${String(d.name ?? t)}`,
  'label.deleted': (t, d) => `deleted the label ${String(d.name ?? t)}`,
  'team.invited': (t, d) => `invited ${t} as ${String(d.role ?? 'member')}`,
  'team.role_changed': (t, d) => `made ${t} ${String(d.role ?? '')}`.trim(),
  'team.removed': (t) => `removed ${t} from the team`,
  'settings.permissions_changed': () => 'changed the permission settings',
  'settings.tickets_changed': () => 'changed the ticket settings',
  'phone.added': (t) => `added the number ${t}`,
  'phone.relinked': (t) => `linked the number ${t} again`,
  'settings.general_changed': (_t, d) => (d.org_name !== undefined && d.before_org_name !== d.org_name ? `renamed the workspace from ${String(d.before_org_name ?? '(none)')} to ${String(d.org_name)}` : 'changed the general settings'),
  'settings.config_changed': () => 'changed the config settings',
  'settings.library_changed': () => 'changed the media library settings',
  'rule.created': (t, d) => `created the rule ${String(d.name ?? t)}`,
  'rule.updated': (t, d) => `changed the rule ${String(d.name ?? t)}`,
  'rule.deleted': (t) => `deleted the rule ${t}`,
  'sla.created': (t, d) => `created the SLA policy ${String(d.name ?? t)}`,
  'sla.updated': (t, d) => `changed the SLA policy ${String(d.name ?? t)}`,
  'sla.deleted': (t) => `deleted the SLA policy ${t}`,
  'ai.settings_changed': () => 'changed the AI agent settings',
  'ai.faq_created': (t, d) => `added the AI answer ${String(d.question ?? t)}`,
  'ai.faq_updated': (t, d) => `changed the AI answer ${String(d.question ?? t)}`,
  'ai.faq_deleted': (t) => `deleted the AI answer ${t}`,
  'apikey.created': (t, d) => `created the API key ${String(d.name ?? t)}`,
  'apikey.revoked': (t) => `revoked the API key ${t}`,
  'webhook.created': (t, d) => `added the webhook ${String(d.url ?? t)}`,
  'webhook.updated': (t) => `changed the webhook ${t}`,
  'webhook.deleted': (t) => `deleted the webhook ${t}`,
  'webhook.secret_rotated': (t) => `rotated the secret of the webhook ${t}`,
  'webhook.replayed': (t) => `sent a webhook delivery again (${t})`,
  'webhook.hook_subscribed': (t, d) => `subscribed a hook ${String(d.target_url ?? d.url ?? t)}`,
  'webhook.hook_unsubscribed': (t) => `removed the hook ${t}`,
  'slack.connected': () => 'connected Slack',
  'slack.disconnected': () => 'disconnected Slack',
  'import.created': (t) => `prepared the contact import ${t}`,
  'import.started': (t) => `started the contact import ${t}`,
  'import.undone': (t) => `undid the contact import ${t}`,
  'property.created': (t, d) => `created the property ${String(d.name ?? t)}`,
  'property.updated': (t, d) => `changed the property ${String(d.name ?? t)}`,
  'property.deleted': (t) => `deleted the property ${t}`,
  'template.synced': () => 'synced the WhatsApp templates',
  'reply.created': (t, d) => `added the ${d.scope === 'team' ? 'team ' : ''}quick reply ${String(d.shortcut ?? d.name ?? t)}`,
  'reply.updated': (t, d) => `changed the quick reply ${String(d.shortcut ?? d.name ?? t)}`,
  'reply.deleted': (t) => `deleted the quick reply ${t}`,
  'ticket.created': (t, d) => `created the ticket ${String(d.subject ?? t)}`,
  'group_template.created': (t, d) => `created the group template ${String(d.name ?? t)}`,
  'group_template.updated': (t, d) => `changed the group template ${String(d.name ?? t)}`,
  'group_template.deleted': (t) => `deleted the group template ${t}`,
  'broadcast.created': (t, d) => `created the broadcast ${String(d.name ?? t)}`,
  'broadcast.controlled': (t, d) => `${String(d.action ?? 'changed')} the broadcast ${t}`,
};

/** Does the log have its own sentence for this kind (else a row reads '<kind> <target>')? */
export const hasAuditSentence = (kind: string): boolean => kind in ADMIN_SAY;

/** The audit row of an admin action recorded by a handler (labels, settings, team, phones). */
export function auditOfAdminAction(p: { area: string; action: string; target: string; details?: Record<string, unknown> }): AuditDraft {
  const say = ADMIN_SAY[p.action];
  return { area: p.area, action: p.action, target: p.target, summary: say ? say(p.target, p.details ?? {}) : `${p.action} ${p.target}`, details: p.details };
}

/** Sort key of a row: 15-digit epoch ms + '#' + event id (time order; one row per event and change). */
export const auditIdOf = (at: number, eventId: string, n = 0): string => `${String(at).padStart(15, '0')}#${eventId}${n ? `#${n}` : ''}`;

/** An audit row as the API returns it (GET /api/orgs/{org_id}/logs/audit); `at` is epoch ms. */
export interface AuditEntry {
  audit_id: string;
  at: number;
  actor: string;
  area: string;
  action: string;
  target: string;
  summary: string;
  details: Record<string, unknown> | null;
}
