/**
 * Audit-log rules (issue 19; spec §2 /logs), pure: which domain events are admin actions and how
 * each reads in the log. Sources: `chat.updated` (assignments, labels, chat access, by a member —
 * system changes such as snooze wake-ups are not admin actions), `ticket.updated` / `ticket.closed`
 * (assignee, labels, status by a member); label, settings, team and phone changes are recorded
 * by their handlers (audit.ts recordAdminAction: auditOfAdminAction).
 * Rows live 90 days (TTL).
 */
export const AUDIT_TTL_DAYS = 90;

/** The areas of the audit log (the /logs Audit tab's filter). */
export const AUDIT_AREAS = ['assignments', 'labels', 'settings', 'team', 'phones', 'tickets'] as const;
export type AuditArea = (typeof AUDIT_AREAS)[number];

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

const CHAT_CHANGES: Record<string, { area: string; action: string; say: (chat: Record<string, unknown>) => string }> = {
  assigned_to: { area: 'assignments', action: 'chat.assigned', say: (c) => (c.assigned_to ? `assigned the chat to ${String(c.assigned_to)}` : 'unassigned the chat') },
  label_ids: { area: 'labels', action: 'chat.labelled', say: (c) => `set the chat's labels to ${((c.label_ids as string[] | undefined) ?? []).join(', ') || 'none'}` },
  chat_access: { area: 'settings', action: 'chat.access_changed', say: () => "changed who may see the chat" },
};

const TICKET_CHANGES: Record<string, { area: string; action: string; say: (t: Record<string, unknown>) => string }> = {
  assignee: { area: 'assignments', action: 'ticket.assigned', say: (t) => (t.assignee ? `assigned the ticket to ${String(t.assignee)}` : 'unassigned the ticket') },
  labels: { area: 'labels', action: 'ticket.labelled', say: (t) => `set the ticket's labels to ${((t.labels as string[] | undefined) ?? []).join(', ') || 'none'}` },
  status: { area: 'tickets', action: 'ticket.status_changed', say: (t) => `set the ticket's status to ${String(t.status)}` },
};

/** The audit rows of a `chat.updated` (one per audited change; none for system changes). */
export function auditOfChatUpdate(actor: string, chat: Record<string, unknown>, changes: string[]): AuditDraft[] {
  if (!isPerson(actor)) return [];
  return changes.flatMap((ch) => {
    const c = CHAT_CHANGES[ch];
    if (!c) return [];
    const name = chat.chat_name ? ` (${String(chat.chat_name)})` : '';
    return [{ area: c.area, action: c.action, target: String(chat.chat_id), summary: `${c.say(chat)}${name}`, details: { [ch]: chat[ch] ?? null } }];
  });
}

/** The audit rows of a `ticket.updated` / `ticket.closed`. */
export function auditOfTicketUpdate(actor: string, ticket: Record<string, unknown>, changes: string[]): AuditDraft[] {
  if (!isPerson(actor)) return [];
  return changes.flatMap((ch) => {
    const c = TICKET_CHANGES[ch];
    if (!c) return [];
    return [{ area: c.area, action: c.action, target: String(ticket.ticket_id), summary: `${c.say(ticket)}: ${String(ticket.subject ?? '')}`.trim(), details: { [ch]: ticket[ch] ?? null } }];
  });
}

const ADMIN_SAY: Record<string, (target: string, d: Record<string, unknown>) => string> = {
  'label.created': (t, d) => `created the label ${String(d.name ?? t)}`,
  'label.updated': (t, d) => `changed the label ${String(d.name ?? t)}`,
  'label.deleted': (t) => `deleted the label ${t}`,
  'team.invited': (t, d) => `invited ${t} as ${String(d.role ?? 'member')}`,
  'team.role_changed': (t, d) => `made ${t} ${String(d.role ?? '')}`.trim(),
  'team.removed': (t) => `removed ${t} from the team`,
  'settings.permissions_changed': () => 'changed the permission settings',
  'settings.tickets_changed': () => 'changed the ticket settings',
  'phone.added': (t) => `added the number ${t}`,
  'phone.relinked': (t) => `linked the number ${t} again`,
};

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
