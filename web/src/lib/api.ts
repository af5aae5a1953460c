/**
 * HTTP client of the Chorus API. Every call sends `Authorization: Bearer <ID token>`.
 * Errors come back from the API as `{ error: { code, message, details } }` and are thrown as `ApiError`.
 * A 401 (or no token at all) calls the session-expired handler the app registers, which signs out
 * and returns to /login with spec §8's 'Session expired! Please login again'.
 */
import type { Chat, ChatBatchResult, ChatLabel } from '#shared/chat/chat.schemas.ts';
import type { SubscribeInput, UnsubscribeInput } from '#shared/push/push.schemas.ts';
import type { FolderCounts, InboxState } from '#shared/chat/chat-state.rules.ts';
import type { Message } from '#shared/message/message.schemas.ts';
import type { ReactionEntry } from '#shared/message/reaction.schemas.ts';
import type {
  BulkUpdateResult,
  BulkUpdateTicketsInput,
  CreateTicketInput,
  Ticket,
  TicketAuditEntry,
  TicketMessage,
  TicketSettings,
  TicketSettingsInput,
  UpdateTicketInput,
} from '#shared/ticket/ticket.schemas.ts';
import type {
  BulkUpdateTasksInput,
  CreateTaskInput,
  RemindInInput,
  Task,
  TaskAuditLogRow,
  UpdateTaskInput,
} from '#shared/task/task.schemas.ts';
import { TASK_FETCH_LIMIT } from '#shared/task/task.schemas.ts';
import { MeResponse } from '#shared/me.schemas.ts';
import type { CreateOrgInput, CreateOrgResponse, PermissionSettings, UpdatePermissionSettingsInput } from '#shared/org/org.schemas.ts';
import type { InviteMemberInput, MemberRole, TeamMember } from '#shared/member/team.schemas.ts';
import type { CreateNoteInput } from '#shared/message/private-note.schemas.ts';
import type { AddPhoneInput, PhoneList, PhoneView, WaWebSessionView } from '#shared/phone/phone.schemas.ts';
import type { UpdatePreferencesInput, UserPreferences } from '#shared/user/preferences.schemas.ts';
import type { ListNotificationsResponse, MarkNotificationsReadResponse } from '#shared/notification/notification.schemas.ts';
import type { LibraryMediaType, ListMediaResponse, MediaUrlResponse } from '#shared/media/media.schemas.ts';
import { getConfig } from './config.ts';
import { getIdToken, SESSION_EXPIRED_MESSAGE } from './auth.ts';
import type { SearchResponse } from '#shared/search-api/search.schemas.ts';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

let onUnauthorized: () => void = () => undefined;

/** Register what happens when the API says the session is no longer valid. */
export function setUnauthorizedHandler(fn: () => void): void {
  onUnauthorized = fn;
}

/** Refusals of the server's entitlement gate (issue 42, shared/plan/entitlements.rules.ts): the subscription or trial ended (402), the plan lacks a feature (403). */
export const ENTITLEMENT_CODES = ['subscription_ended', 'trial_ended', 'plan_feature'] as const;
export type EntitlementCode = (typeof ENTITLEMENT_CODES)[number];
/** Is `e` a refusal of the entitlement gate (402/403 with one of {@link ENTITLEMENT_CODES})? */
export const isEntitlementError = (e: unknown): e is ApiError & { code: EntitlementCode } => e instanceof ApiError && (ENTITLEMENT_CODES as readonly string[]).includes(e.code);

let onEntitlement: (e: ApiError & { code: EntitlementCode }) => void = () => undefined;

/** Register what happens when the API refuses a call for the plan or an ended subscription (the lifecycle layer shows the matching screen or upgrade prompt). */
export function setEntitlementHandler(fn: (e: ApiError & { code: EntitlementCode }) => void): void {
  onEntitlement = fn;
}

/** Error message for the user from anything thrown by this module. */
export function errorMessage(e: unknown): string {
  if (e instanceof Error && e.message) return e.message;
  return 'Something went wrong. Please try again.';
}

async function request<T>(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, body?: unknown): Promise<T> {
  let token: string | null;
  try {
    token = await getIdToken();
  } catch {
    // signed in, but the token could not be refreshed now (server restarting, offline): not a sign-out
    throw new ApiError(0, 'network', 'Could not reach the Chorus server. Check your connection and try again.');
  }
  if (!token) {
    onUnauthorized();
    throw new ApiError(401, 'unauthorized', SESSION_EXPIRED_MESSAGE);
  }
  let res: Response;
  try {
    res = await fetch(`${getConfig().apiUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        accept: 'application/json',
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
  } catch {
    throw new ApiError(0, 'network', 'Could not reach the Chorus server. Check your connection and try again.');
  }
  if (res.status === 401) {
    onUnauthorized();
    throw new ApiError(401, 'unauthorized', SESSION_EXPIRED_MESSAGE);
  }
  const text = await res.text();
  let json: unknown = null;
  if (text) {
    try {
      json = JSON.parse(text);
    } catch {
      json = null;
    }
  }
  if (!res.ok) {
    const err = (json as { error?: { code?: string; message?: string; details?: unknown } } | null)?.error;
    const e = new ApiError(res.status, err?.code ?? `http_${res.status}`, err?.message ?? `The server answered HTTP ${res.status}. Please try again.`, err?.details);
    if (isEntitlementError(e)) onEntitlement(e);
    throw e;
  }
  if (json === null) throw new ApiError(res.status, 'bad_response', 'The server sent an unreadable answer. Please try again.');
  return json as T;
}

const enc = encodeURIComponent;
const messagePath = (orgId: string, chatId: string, uniqueId: string): string => `/api/orgs/${enc(orgId)}/chats/${enc(chatId)}/messages/${enc(uniqueId)}`;

const query = (params: Record<string, string | number | null | undefined>): string => {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== null && v !== undefined && v !== '') q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : '';
};

/**
 * Server snapshots of a message are complete: a missing `message_ticket_id` means "no ticket"
 * (the API omits unset attributes), so it is made explicit for merges to clear a detached ticket;
 * the same for a pin, a flag and a reaction error.
 */
export const withTicketField = (m: Message): Message => ({
  ...m,
  message_ticket_id: m.message_ticket_id ?? null,
  // likewise a removed pin, flag or reaction error must clear what an older snapshot had
  pinned_until: m.pinned_until ?? null,
  flag_status: m.flag_status ?? null,
  reaction_error: m.reaction_error ?? null,
  reactions: m.reactions ?? null,
});

/** Filters of GET /tickets as the web app sends them (all optional; see ListTicketsQuery). */
export interface TicketListParams {
  status?: string;
  priority?: string | number;
  assignee?: string;
  label?: string;
  phone_id?: string;
  due_from?: number;
  due_to?: number;
  q?: string;
  sort?: string;
  limit?: number;
  cursor?: string | null;
}

/** A member of the org as GET /members lists it (assignee pickers). */
export interface OrgMember {
  email: string;
  member_name: string | null;
  role: string;
  /** spec §4 User status; absent from older servers, read as online */
  is_online?: boolean;
}

/** `details` of an API error as field reasons (`[{ field, reason }]`), when it has them. */
export function fieldErrors(e: unknown): Array<{ field: string; reason: string }> {
  if (!(e instanceof ApiError) || !Array.isArray(e.details)) return [];
  return (e.details as unknown[])
    .filter((d): d is { field: string; reason: string } => !!d && typeof d === 'object' && typeof (d as { field?: unknown }).field === 'string' && typeof (d as { reason?: unknown }).reason === 'string')
    .map((d) => ({ field: d.field, reason: d.reason }));
}

/** Filters of GET /chats as the web app sends them (see ListChatsQuery). */
export interface ChatListFilter {
  state?: InboxState;
  unread?: boolean;
  assignee?: string;
  label_id?: string;
  phone?: string;
  type?: 'user' | 'group';
  property_id?: string;
  property_value?: string;
}

/** GET /chats/counts: per folder, the count of each single filter. */
export type ChatCounts = Record<InboxState, FolderCounts>;
export type ChatBatchAction = 'assign' | 'labels' | 'close' | 'snooze' | 'archive' | 'mute' | 'pin';

export interface Page<T> {
  items: T[];
  cursor: string | null;
}

export const api = {
  async me(): Promise<MeResponse> {
    const json = await request<unknown>('GET', '/api/me');
    const parsed = MeResponse.safeParse(json);
    if (!parsed.success) {
      console.warn('GET /api/me: unexpected shape', parsed.error.issues);
      return json as MeResponse;
    }
    return parsed.data;
  },

  /**
   * One page of a folder with filters (GET /chats). The first page also fetches, at the same time,
   * the viewer's pinned chats of that filter (GET /chats/pinned), so pins stay on top.
   */
  async listChats(orgId: string, cursor?: string | null, limit = 50, filter: ChatListFilter = {}): Promise<Page<Chat> & { pinned: Chat[] }> {
    const f = { ...filter, unread: filter.unread === undefined ? undefined : String(filter.unread) };
    const [out, pins] = await Promise.all([
      request<{ chats: Chat[]; cursor?: string | null }>('GET', `/api/orgs/${enc(orgId)}/chats${query({ ...f, limit, cursor })}`),
      cursor ? Promise.resolve({ chats: [] as Chat[] }) : request<{ chats: Chat[] }>('GET', `/api/orgs/${enc(orgId)}/chats/pinned${query(f)}`),
    ]);
    return { items: out.chats ?? [], cursor: out.cursor ?? null, pinned: pins.chats ?? [] };
  },

  async getChat(orgId: string, chatId: string): Promise<Chat> {
    const out = await request<{ chat: Chat }>('GET', `/api/orgs/${enc(orgId)}/chats/${enc(chatId)}`);
    return out.chat;
  },

  /** Messages newest first (as the API returns them). */
  async listMessages(orgId: string, chatId: string, cursor?: string | null, limit = 50): Promise<Page<Message>> {
    const out = await request<{ messages: Message[]; cursor?: string | null }>(
      'GET',
      `/api/orgs/${enc(orgId)}/chats/${enc(chatId)}/messages${query({ limit, cursor })}`,
    );
    return { items: (out.messages ?? []).map(withTicketField), cursor: out.cursor ?? null };
  },

  async sendMessage(orgId: string, chatId: string, input: { body: string; client_id?: string; quoted_message_id?: string; quoted_chat_id?: string }): Promise<Message> {
    const out = await request<{ message: Message }>('POST', `/api/orgs/${enc(orgId)}/chats/${enc(chatId)}/messages`, input);
    return out.message;
  },

  // ---- message actions (shared/message/message-actions.ts) ------------------------------
  /** Our reaction ('' removes it); sent in the background (202), a refusal comes back as `reaction_error`. */
  async reactToMessage(orgId: string, chatId: string, uniqueId: string, reaction: string): Promise<Message> {
    const out = await request<{ message: Message }>('POST', `${messagePath(orgId, chatId, uniqueId)}/reaction`, { reaction });
    return withTicketField(out.message);
  },

  /** Edit our sent message (202): the new body shows at once with `edit_status: 'pending'` until the number's WhatsApp session confirms it. */
  async editMessage(orgId: string, chatId: string, uniqueId: string, body: string): Promise<Message> {
    const out = await request<{ message: Message }>('PATCH', messagePath(orgId, chatId, uniqueId), { body });
    return withTicketField(out.message);
  },

  /** Delete for everyone (202): deleted for the team at once, `delete_status: 'pending'` until the number's WhatsApp session confirms it. */
  async deleteMessage(orgId: string, chatId: string, uniqueId: string): Promise<Message> {
    const out = await request<{ message: Message }>('DELETE', messagePath(orgId, chatId, uniqueId));
    return withTicketField(out.message);
  },

  async flagMessage(orgId: string, chatId: string, uniqueId: string, flagStatus: boolean | null): Promise<{ message: Message; chat: Chat }> {
    const out = await request<{ message: Message; chat: Chat }>('PUT', `${messagePath(orgId, chatId, uniqueId)}/flag`, { flag_status: flagStatus });
    return { message: withTicketField(out.message), chat: out.chat };
  },

  async pinMessage(orgId: string, chatId: string, uniqueId: string, pin: boolean, duration: '24h' | '7d' | '30d' = '7d'): Promise<{ message: Message; chat: Chat }> {
    const out = await request<{ message: Message; chat: Chat }>('PUT', `${messagePath(orgId, chatId, uniqueId)}/pin`, { pin, duration });
    return { message: withTicketField(out.message), chat: out.chat };
  },

  async refreshMessage(orgId: string, chatId: string, uniqueId: string): Promise<Message> {
    const out = await request<{ message: Message }>('POST', `${messagePath(orgId, chatId, uniqueId)}/refresh`, {});
    return withTicketField(out.message);
  },

  /** Send again a message of ours that failed or may not have been sent (issue 23): it comes back pending. */
  async retryMessage(orgId: string, chatId: string, uniqueId: string): Promise<Message> {
    const out = await request<{ message: Message }>('POST', `${messagePath(orgId, chatId, uniqueId)}/retry`, {});
    return withTicketField(out.message);
  },

  /** Forward text or media to chats; chats whose send was refused come back in `failed` with the reason. */
  async forwardMessage(orgId: string, chatId: string, uniqueId: string, chatIds: string[]): Promise<{ messages: Message[]; failed: Array<{ chat_id: string; reason: string }> }> {
    const out = await request<{ messages: Message[]; failed?: Array<{ chat_id: string; reason: string }> }>('POST', `${messagePath(orgId, chatId, uniqueId)}/forward`, { chat_ids: chatIds });
    return { messages: out.messages ?? [], failed: out.failed ?? [] };
  },

  /** Reply privately: the 1:1 chat with a group message's sender (created when needed) and the quote to send with. */
  async replyPrivately(orgId: string, chatId: string, uniqueId: string): Promise<{ chat: Chat; created: boolean; quote: NonNullable<Message['quoted_message']> }> {
    return request('POST', `${messagePath(orgId, chatId, uniqueId)}/reply-privately`, {});
  },

  /** Who reacted to a message (its Reaction rows), one page. */
  async listReactions(orgId: string, chatId: string, uniqueId: string, cursor?: string | null, limit = 50): Promise<Page<ReactionEntry>> {
    const out = await request<{ reactions: ReactionEntry[]; cursor: string | null }>('GET', `${messagePath(orgId, chatId, uniqueId)}/reactions${query({ limit, cursor })}`);
    return { items: out.reactions ?? [], cursor: out.cursor ?? null };
  },

  /** Short-lived URLs of a media message's file and thumbnail, with its download state. */
  async mediaUrl(orgId: string, chatId: string, uniqueId: string): Promise<MediaUrlResponse> {
    return request<MediaUrlResponse>('GET', `${messagePath(orgId, chatId, uniqueId)}/media`);
  },

  /** The org's stored files newest first (GET /media), each with 5-minute URLs. */
  async listMedia(orgId: string, params: { type?: LibraryMediaType; chat_id?: string; from?: number; to?: number; limit?: number; cursor?: string | null }): Promise<Page<ListMediaResponse['items'][number]>> {
    const out = await request<ListMediaResponse>('GET', `/api/orgs/${enc(orgId)}/media${query({ ...params })}`);
    return { items: out.items ?? [], cursor: out.cursor ?? null };
  },

  async markRead(orgId: string, chatId: string): Promise<Chat> {
    const out = await request<{ chat: Chat }>('POST', `/api/orgs/${enc(orgId)}/chats/${enc(chatId)}/read`, {});
    return out.chat;
  },

  // ---- tickets (shared/ticket/ticket.schemas.ts) ----------------------------------------
  async listTickets(orgId: string, params: TicketListParams): Promise<Page<Ticket>> {
    const out = await request<{ tickets: Ticket[]; cursor?: string | null }>('GET', `/api/orgs/${enc(orgId)}/tickets${query({ ...params })}`);
    return { items: out.tickets ?? [], cursor: out.cursor ?? null };
  },

  async createTicket(orgId: string, input: CreateTicketInput): Promise<Ticket> {
    const out = await request<{ ticket: Ticket }>('POST', `/api/orgs/${enc(orgId)}/tickets`, input);
    return out.ticket;
  },

  async ticketBadge(orgId: string): Promise<number> {
    const out = await request<{ count: number }>('GET', `/api/orgs/${enc(orgId)}/tickets/badge`);
    return typeof out.count === 'number' ? out.count : 0;
  },

  async bulkUpdateTickets(orgId: string, input: BulkUpdateTicketsInput): Promise<BulkUpdateResult> {
    const out = await request<BulkUpdateResult>('POST', `/api/orgs/${enc(orgId)}/tickets/bulk`, input);
    return { updated: out.updated ?? [], failed: out.failed ?? [] };
  },

  async getTicket(orgId: string, ticketId: string): Promise<{ ticket: Ticket; messages: TicketMessage[] }> {
    const out = await request<{ ticket: Ticket; messages?: TicketMessage[] }>('GET', `/api/orgs/${enc(orgId)}/tickets/${enc(ticketId)}`);
    return { ticket: out.ticket, messages: out.messages ?? [] };
  },

  async updateTicket(orgId: string, ticketId: string, input: UpdateTicketInput): Promise<Ticket> {
    const out = await request<{ ticket: Ticket }>('PATCH', `/api/orgs/${enc(orgId)}/tickets/${enc(ticketId)}`, input);
    return out.ticket;
  },

  async ticketAudit(orgId: string, ticketId: string, cursor?: string | null): Promise<Page<TicketAuditEntry>> {
    const out = await request<{ entries: TicketAuditEntry[]; cursor?: string | null }>(
      'GET',
      `/api/orgs/${enc(orgId)}/tickets/${enc(ticketId)}/audit${query({ cursor })}`,
    );
    return { items: out.entries ?? [], cursor: out.cursor ?? null };
  },

  /** Attach a message to a ticket, or detach it (`ticketId` null). */
  async setMessageTicket(orgId: string, chatId: string, uniqueId: string, ticketId: string | null): Promise<{ ticket: Ticket | null; message: Message | null }> {
    const out = await request<{ ticket?: Ticket | null; message?: Message | null }>(
      'PUT',
      `/api/orgs/${enc(orgId)}/chats/${enc(chatId)}/messages/${enc(uniqueId)}/ticket`,
      { message_ticket_id: ticketId },
    );
    return { ticket: out.ticket ?? null, message: out.message ? withTicketField(out.message) : null };
  },

  async chatTickets(orgId: string, chatId: string): Promise<Ticket[]> {
    const out = await request<{ tickets: Ticket[] }>('GET', `/api/orgs/${enc(orgId)}/chats/${enc(chatId)}/tickets`);
    return out.tickets ?? [];
  },

  async ticketSettings(orgId: string): Promise<TicketSettings> {
    const out = await request<{ settings: TicketSettings }>('GET', `/api/orgs/${enc(orgId)}/settings/tickets`);
    return out.settings;
  },

  async saveTicketSettings(orgId: string, input: TicketSettingsInput): Promise<TicketSettings> {
    const out = await request<{ settings: TicketSettings }>('PUT', `/api/orgs/${enc(orgId)}/settings/tickets`, input);
    return out.settings;
  },

  // ---- tasks (shared/task/task.schemas.ts) -----------------------------------------------
  async listTasks(orgId: string, scope: 'mine' | 'all', cursor?: string | null, limit = TASK_FETCH_LIMIT): Promise<Page<Task>> {
    const out = await request<{ tasks: Task[]; cursor?: string | null }>('GET', `/api/orgs/${enc(orgId)}/tasks${query({ scope, limit, cursor })}`);
    return { items: out.tasks ?? [], cursor: out.cursor ?? null };
  },

  async createTask(orgId: string, input: Partial<CreateTaskInput> & { title: string }): Promise<Task> {
    const out = await request<{ task: Task }>('POST', `/api/orgs/${enc(orgId)}/tasks`, input);
    return out.task;
  },

  async getTask(orgId: string, taskId: string): Promise<Task> {
    const out = await request<{ task: Task }>('GET', `/api/orgs/${enc(orgId)}/tasks/${enc(taskId)}`);
    return out.task;
  },

  /** The whole editable task (spec §7). */
  async updateTask(orgId: string, taskId: string, input: UpdateTaskInput): Promise<Task> {
    const out = await request<{ task: Task }>('PUT', `/api/orgs/${enc(orgId)}/tasks/${enc(taskId)}`, input);
    return out.task;
  },

  async remindTaskIn(orgId: string, taskId: string, input: RemindInInput): Promise<Task> {
    const out = await request<{ task: Task }>('POST', `/api/orgs/${enc(orgId)}/tasks/${enc(taskId)}/remind-in`, input);
    return out.task;
  },

  async bulkUpdateTasks(orgId: string, input: BulkUpdateTasksInput): Promise<{ updated: Task[]; failed: Array<{ task_id: string; reason: string }> }> {
    const out = await request<{ updated?: Task[]; failed?: Array<{ task_id: string; reason: string }> }>('POST', `/api/orgs/${enc(orgId)}/tasks/bulk`, input);
    return { updated: out.updated ?? [], failed: out.failed ?? [] };
  },

  async taskAudit(orgId: string, taskId: string, cursor?: string | null): Promise<Page<TaskAuditLogRow>> {
    const out = await request<{ entries: TaskAuditLogRow[]; cursor?: string | null }>('GET', `/api/orgs/${enc(orgId)}/tasks/${enc(taskId)}/audit${query({ cursor })}`);
    return { items: out.entries ?? [], cursor: out.cursor ?? null };
  },

  // ---- private notes and in-app notifications (issue 4) ----------------------------------
  /** A private note (never sent to WhatsApp); `mentions` are member emails. */
  async createNote(orgId: string, chatId: string, input: CreateNoteInput): Promise<Message> {
    const out = await request<{ message: Message }>('POST', `/api/orgs/${enc(orgId)}/chats/${enc(chatId)}/notes`, input);
    return withTicketField(out.message);
  },

  /** Delete one's own note; answers the tombstone (`is_deleted`, no text). */
  async deleteNote(orgId: string, chatId: string, uniqueId: string): Promise<Message> {
    const out = await request<{ message: Message }>('DELETE', `/api/orgs/${enc(orgId)}/chats/${enc(chatId)}/notes/${enc(uniqueId)}`);
    return withTicketField(out.message);
  },

  /** My notifications newest first, with my unread total. */
  async notifications(orgId: string, cursor?: string | null, limit = 30): Promise<ListNotificationsResponse> {
    const out = await request<ListNotificationsResponse>('GET', `/api/orgs/${enc(orgId)}/notifications${query({ limit, cursor })}`);
    return { notifications: out.notifications ?? [], cursor: out.cursor ?? null, unread_count: out.unread_count ?? 0 };
  },

  async markNotificationsRead(orgId: string, input: { ids: string[] } | { all: true }): Promise<MarkNotificationsReadResponse> {
    return request<MarkNotificationsReadResponse>('POST', `/api/orgs/${enc(orgId)}/notifications/read`, input);
  },

  // ---- chat workflow (issue 4; shared/chat/chat-workflow.ts) --------------------------------
  /** Per folder, the count of every single filter. */
  async chatCounts(orgId: string): Promise<ChatCounts> {
    const out = await request<{ counts: ChatCounts }>('GET', `/api/orgs/${enc(orgId)}/chats/counts`);
    return out.counts;
  },

  /** A write over several chats (assign, labels, close, snooze, archive, mute, pin): what changed and why others did not. */
  async chatBatch(orgId: string, action: ChatBatchAction, input: Record<string, unknown> & { chat_ids: string[] }): Promise<ChatBatchResult> {
    const out = await request<ChatBatchResult>('POST', `/api/orgs/${enc(orgId)}/chats/${action}`, input);
    return { chats: out.chats ?? [], failed: out.failed ?? [] };
  },

  async markChatUnread(orgId: string, chatId: string): Promise<Chat> {
    const out = await request<{ chat: Chat }>('POST', `/api/orgs/${enc(orgId)}/chats/${enc(chatId)}/unread`, {});
    return out.chat;
  },

  async setActivePhone(orgId: string, chatId: string, phone: string): Promise<Chat> {
    const out = await request<{ chat: Chat }>('PUT', `/api/orgs/${enc(orgId)}/chats/${enc(chatId)}/active-phone`, { phone });
    return out.chat;
  },

  /** Who may see a chat (admins); `{}` = every member. */
  async setChatAccess(orgId: string, chatId: string, chatAccess: Record<string, boolean>): Promise<Chat> {
    const out = await request<{ chat: Chat }>('PUT', `/api/orgs/${enc(orgId)}/chats/${enc(chatId)}/access`, { chat_access: chatAccess });
    return out.chat;
  },

  async chatLabels(orgId: string): Promise<ChatLabel[]> {
    const out = await request<{ labels: ChatLabel[] }>('GET', `/api/orgs/${enc(orgId)}/labels`);
    return out.labels ?? [];
  },

  async createChatLabel(orgId: string, input: { name: string; color: string }): Promise<ChatLabel> {
    const out = await request<{ label: ChatLabel }>('POST', `/api/orgs/${enc(orgId)}/labels`, input);
    return out.label;
  },

  async updateChatLabel(orgId: string, labelId: string, input: { name?: string; color?: string }): Promise<ChatLabel> {
    const out = await request<{ label: ChatLabel }>('PATCH', `/api/orgs/${enc(orgId)}/labels/${enc(labelId)}`, input);
    return out.label;
  },

  /** @returns how many chats lost the label */
  async deleteChatLabel(orgId: string, labelId: string): Promise<number> {
    const out = await request<{ removed_from?: number }>('DELETE', `/api/orgs/${enc(orgId)}/labels/${enc(labelId)}`);
    return out.removed_from ?? 0;
  },

  async members(orgId: string): Promise<OrgMember[]> {
    const out = await request<{ members: OrgMember[] }>('GET', `/api/orgs/${enc(orgId)}/members`);
    return (out.members ?? []).map((m) => ({ email: m.email, member_name: m.member_name ?? null, role: m.role, is_online: m.is_online !== false }));
  },

  // ---- web push (issue 21; spec §7 private/notifications/…) ---------------------------------
  /** GET …/notifications/vapid-public-key: the applicationServerKey (base64url). */
  async vapidPublicKey(orgId: string): Promise<string> {
    return (await request<{ public_key: string }>('GET', `/api/orgs/${enc(orgId)}/notifications/vapid-public-key`)).public_key;
  },
  /** POST …/notifications/subscribe (spec §7). */
  async subscribePush(orgId: string, input: SubscribeInput): Promise<void> {
    await request('POST', `/api/orgs/${enc(orgId)}/notifications/subscribe`, input);
  },
  /** POST …/notifications/unsubscribe (spec §7). */
  async unsubscribePush(orgId: string, input: UnsubscribeInput): Promise<void> {
    await request('POST', `/api/orgs/${enc(orgId)}/notifications/unsubscribe`, input);
  },
  /** POST …/notifications/unsubscribe-all-for-device (spec §7; sign-out). */
  async unsubscribeAllForDevice(orgId: string, deviceId: string): Promise<void> {
    await request('POST', `/api/orgs/${enc(orgId)}/notifications/unsubscribe-all-for-device`, { device_id: deviceId });
  },
  /** POST …/notifications/test: a test push to this device. */
  async testPush(orgId: string, deviceId: string): Promise<{ sent: number; removed: number }> {
    return request('POST', `/api/orgs/${enc(orgId)}/notifications/test`, { device_id: deviceId });
  },

  /** GET /api/me/preferences (spec §3 User preferences, defaults filled in). */
  async preferences(): Promise<UserPreferences> {
    return (await request<{ preferences: UserPreferences }>('GET', '/api/me/preferences')).preferences;
  },

  /** PUT /api/me/preferences: keys left out keep their stored value. */
  async savePreferences(input: UpdatePreferencesInput): Promise<UserPreferences> {
    return (await request<{ preferences: UserPreferences }>('PUT', '/api/me/preferences', input)).preferences;
  },

  /** GET /api/me/password: may the password dialog leave out the current password (just signed in by email code). */
  async passwordStatus(): Promise<{ set_without_current: boolean; until: number | null }> {
    return request('GET', '/api/me/password');
  },

  /** PUT /api/me/password: set a password without the current one (15 minutes after a code sign-in). */
  async setPasswordAfterCode(password: string): Promise<void> {
    await request('PUT', '/api/me/password', { password });
  },

  /** PUT /api/orgs/{org_id}/me/status (spec §4 User status). */
  async setMyStatus(orgId: string, isOnline: boolean): Promise<{ is_online: boolean }> {
    return request<{ is_online: boolean }>('PUT', `/api/orgs/${enc(orgId)}/me/status`, { is_online: isOnline });
  },

  /** GET /settings/permissions (any member; spec §6). */
  permissionSettings(orgId: string): Promise<PermissionSettings> {
    return request<PermissionSettings>('GET', `/api/orgs/${enc(orgId)}/settings/permissions`);
  },

  /** PUT /settings/permissions (admins). */
  savePermissionSettings(orgId: string, input: UpdatePermissionSettingsInput): Promise<PermissionSettings> {
    return request<PermissionSettings>('PUT', `/api/orgs/${enc(orgId)}/settings/permissions`, input);
  },

  /** GET /team (admins): members and pending invites. */
  async team(orgId: string): Promise<TeamMember[]> {
    return (await request<{ members: TeamMember[] }>('GET', `/api/orgs/${enc(orgId)}/team`)).members ?? [];
  },

  async inviteMember(orgId: string, input: InviteMemberInput): Promise<TeamMember> {
    return (await request<{ member: TeamMember }>('POST', `/api/orgs/${enc(orgId)}/team/invites`, input)).member;
  },

  async setMemberRole(orgId: string, email: string, role: MemberRole): Promise<TeamMember> {
    return (await request<{ member: TeamMember }>('PATCH', `/api/orgs/${enc(orgId)}/team/${enc(email)}`, { role })).member;
  },

  async removeMember(orgId: string, email: string): Promise<void> {
    await request<unknown>('DELETE', `/api/orgs/${enc(orgId)}/team/${enc(email)}`);
  },

  /** GET /phones (any member): the org's phones and the spec §9 counter. */
  phones(orgId: string): Promise<PhoneList> {
    return request<PhoneList>('GET', `/api/orgs/${enc(orgId)}/phones`);
  },

  /** POST /phones (admins): connect a Cloud API number; the token is checked by the server and never returned. */
  async addPhone(orgId: string, input: AddPhoneInput): Promise<PhoneView> {
    return (await request<{ phone: PhoneView }>('POST', `/api/orgs/${enc(orgId)}/phones`, input)).phone;
  },

  /** POST /phones/wa-web (admins): link a number as a WhatsApp Web device; its QR follows (socket, waWebSession). */
  async addWaWebPhone(orgId: string, phone: string): Promise<PhoneView> {
    return (await request<{ phone: PhoneView }>('POST', `/api/orgs/${enc(orgId)}/phones/wa-web`, { phone })).phone;
  },

  /** GET /phones/{phone_id}/wa-web-session (admins): linking state and QR. */
  async waWebSession(orgId: string, phoneId: string): Promise<WaWebSessionView> {
    return (await request<{ session: WaWebSessionView }>('GET', `/api/orgs/${enc(orgId)}/phones/${enc(phoneId)}/wa-web-session`)).session;
  },

  /** POST /phones/{phone_id}/wa-web-session/relink (admins): link a logged-out number again. */
  async relinkWaWeb(orgId: string, phoneId: string): Promise<WaWebSessionView> {
    return (await request<{ session: WaWebSessionView }>('POST', `/api/orgs/${enc(orgId)}/phones/${enc(phoneId)}/wa-web-session/relink`, {})).session;
  },

  /** POST /api/invites/{org}/join (spec §4). */
  joinInvite(orgId: string): Promise<{ org_id: string; org_name: string }> {
    return request<{ org_id: string; org_name: string }>('POST', `/api/invites/${enc(orgId)}/join`, {});
  },

  async declineInvite(orgId: string): Promise<void> {
    await request<unknown>('POST', `/api/invites/${enc(orgId)}/decline`);
  },

  /** POST /api/orgs (spec §5). */
  createOrg(input: CreateOrgInput): Promise<CreateOrgResponse> {
    return request<CreateOrgResponse>('POST', '/api/orgs', input);
  },

  // --- search (issue 14) ---
  /** GET /api/orgs/{org_id}/search: hits per kind (`results.messages.items`, …), each with a cursor. */
  search(orgId: string, params: Record<string, string | number | undefined>): Promise<SearchResponse> {
    return request<SearchResponse>('GET', `/api/orgs/${enc(orgId)}/search${query(params)}`);
  },
};

/** issue 20: the authenticated request of this module, for feature modules with their own calls (integrations). */
export { request as apiRequest };
