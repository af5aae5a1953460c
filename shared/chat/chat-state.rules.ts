/**
 * Pure rules of a chat's workflow state (spec §4 'Chat closed', 'Snoozed'; issue 4). Used on every
 * chat write (the stored `inbox_state` and index keys), by the list filters and counts, and by the
 * web app. Times are epoch **ms**.
 *
 * - closed: `closed_at` is later than the latest message (a new message reopens it by itself; as
 *   WhatsApp timestamps are whole seconds, storing a message also clears `closed_at`, so a reply in
 *   the same second as the close still reopens it);
 * - snoozed: `snooze_metadata.snooze_until` is in the future (a customer message clears the
 *   snooze; otherwise the scheduled wake-up recomputes the state when the time comes);
 * - archived: the `is_archived` flag; an archived chat stays archived when messages arrive.
 *
 * Which folder a chat is in (`inbox_state`) takes the first that holds of archived, snoozed,
 * closed, else open. The 'All' filter is the open folder: closed, snoozed and archived chats have
 * their own filters (as in Front and Chatwoot, so the default view is the work still to do).
 */

export type InboxState = 'open' | 'closed' | 'snoozed' | 'archived';
export const INBOX_STATES: readonly InboxState[] = ['open', 'closed', 'snoozed', 'archived'];

export interface ChatStateFacts {
  latest_message_timestamp: number;
  closed_at?: number | null;
  snooze_metadata?: { snooze_until?: number | null } | null;
  is_archived?: boolean | null;
}

/** Closed when closed_at is strictly later than the latest message (spec §4). */
export const isClosed = (c: Pick<ChatStateFacts, 'closed_at' | 'latest_message_timestamp'>): boolean =>
  c.closed_at != null && c.closed_at > c.latest_message_timestamp;

/** Snoozed while snooze_until is in the future (spec §4). */
export const isSnoozed = (c: Pick<ChatStateFacts, 'snooze_metadata'>, now: number): boolean => {
  const until = c.snooze_metadata?.snooze_until;
  return until != null && until > now;
};

/** The folder a chat is in at `now`. */
export function inboxState(c: ChatStateFacts, now: number): InboxState {
  if (c.is_archived) return 'archived';
  if (isSnoozed(c, now)) return 'snoozed';
  if (isClosed(c)) return 'closed';
  return 'open';
}

/**
 * 'Close for me' (spec §4, §7 chat close type 'me'): offered only while the chat is not closed;
 * a member's own close holds until the next message, like a close.
 */
export const canCloseForMe = (c: Pick<ChatStateFacts, 'closed_at' | 'latest_message_timestamp'>): boolean => !isClosed(c);

/**
 * Is the chat closed for this member: by everyone's close, or by their own 'close for me', which
 * holds while the chat's latest message is still the one it had then (`closedForMeMessage`, a
 * unique_id). Compared by id, not time: WhatsApp timestamps have whole seconds, so a message in the
 * same second as the close would otherwise not reopen it.
 */
export const isClosedFor = (
  c: Pick<ChatStateFacts, 'closed_at' | 'latest_message_timestamp'> & { latest_message?: { unique_id: string } | null },
  closedForMeMessage: string | null | undefined,
): boolean => isClosed(c) || (closedForMeMessage != null && closedForMeMessage === (c.latest_message?.unique_id ?? ''));

/** Facts the list filters and counts are built from. */
export interface ChatBucketFacts extends ChatStateFacts {
  assigned_to?: string | null;
  message_unread_count?: number | null;
  marked_unread?: boolean | null;
  label_ids?: string[] | null;
  org_phone: string;
  chat_type: 'user' | 'group' | 'other';
}

/** Index key of the assignee filter: the member's email, or 'none' (Unassigned). */
export const assigneeKey = (assignedTo: string | null | undefined): string => (assignedTo ? assignedTo.toLowerCase() : 'none');

/** Unread filter: customer messages not yet read, or a member marked it unread. */
export const isUnread = (c: Pick<ChatBucketFacts, 'message_unread_count' | 'marked_unread'>): boolean => (c.message_unread_count ?? 0) > 0 || !!c.marked_unread;

/** Index key of the unread filter. */
export const unreadKey = (c: Pick<ChatBucketFacts, 'message_unread_count' | 'marked_unread'>): 'unread' | 'read' => (isUnread(c) ? 'unread' : 'read');

/**
 * The counter buckets a chat belongs to: `{state}` and `{state}#unread`, `{state}#assignee#{key}`,
 * `{state}#label#{id}`, `{state}#phone#{org_phone}`, `{state}#type#{chat_type}`. A counter item
 * per bucket is kept on write (ADD of the difference), so the filter counts are one Query.
 */
export function chatBuckets(c: ChatBucketFacts, state: InboxState): string[] {
  const out = [state, `${state}#assignee#${assigneeKey(c.assigned_to)}`, `${state}#phone#${c.org_phone}`, `${state}#type#${c.chat_type}`];
  if (isUnread(c)) out.push(`${state}#unread`);
  for (const l of new Set(c.label_ids ?? [])) out.push(`${state}#label#${l}`);
  return out;
}

/** Counter changes of one chat write: bucket -> +1 / -1 (only buckets that changed). */
export function bucketDeltas(before: string[] | null, after: string[] | null): Record<string, number> {
  const d: Record<string, number> = {};
  for (const b of before ?? []) d[b] = (d[b] ?? 0) - 1;
  for (const b of after ?? []) d[b] = (d[b] ?? 0) + 1;
  for (const k of Object.keys(d)) if (d[k] === 0) delete d[k];
  return d;
}

/** Add counter deltas of several chats written in one transaction (one operation per counter item). */
export function mergeDeltas(into: Record<string, number>, more: Record<string, number>): Record<string, number> {
  for (const [k, v] of Object.entries(more)) {
    into[k] = (into[k] ?? 0) + v;
    if (into[k] === 0) delete into[k];
  }
  return into;
}

/** Filter counts of one folder, from its counter buckets; `mine` is for `email`. */
export interface FolderCounts {
  total: number;
  unread: number;
  mine: number;
  unassigned: number;
  labels: Record<string, number>;
  phones: Record<string, number>;
  types: Record<string, number>;
}

/** Turn counter items (bucket -> n) into counts per folder for one member. Negative drift reads as 0. */
export function countsFromBuckets(rows: Record<string, number>, email: string): Record<InboxState, FolderCounts> {
  const me = assigneeKey(email);
  const out = {} as Record<InboxState, FolderCounts>;
  for (const s of INBOX_STATES) out[s] = { total: 0, unread: 0, mine: 0, unassigned: 0, labels: {}, phones: {}, types: {} };
  for (const [bucket, raw] of Object.entries(rows)) {
    const n = Math.max(0, raw);
    const [state, kind, ...rest] = bucket.split('#');
    const f = out[state as InboxState];
    if (!f) continue;
    const value = rest.join('#');
    if (kind === undefined) f.total = n;
    else if (kind === 'unread') f.unread = n;
    else if (kind === 'assignee' && value === 'none') f.unassigned = n;
    else if (kind === 'assignee' && value === me) f.mine = n;
    else if (kind === 'label') f.labels[value] = n;
    else if (kind === 'phone') f.phones[value] = n;
    else if (kind === 'type') f.types[value] = n;
  }
  return out;
}

/** Snooze presets offered by the snooze menu (ms from now, or the next 9:00 local for 'tomorrow'/'next week'). */
export const SNOOZE_LIMIT_MS = 365 * 24 * 60 * 60 * 1000;

/**
 * Validate a snooze time: in the future and within a year.
 * @returns a reason (for a 400 detail on `snooze_until`), or null when valid
 */
export function snoozeUntilProblem(snoozeUntil: number, now: number): string | null {
  if (!Number.isFinite(snoozeUntil)) return 'must be a time (epoch ms)';
  if (snoozeUntil <= now) return 'must be in the future';
  if (snoozeUntil > now + SNOOZE_LIMIT_MS) return 'must be within a year';
  return null;
}
