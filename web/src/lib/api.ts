/**
 * HTTP client of the Chorus API. Every call sends `Authorization: Bearer <ID token>`.
 * Errors come back from the API as `{ error: { code, message, details } }` and are thrown as `ApiError`.
 * A 401 (or no token at all) calls the session-expired handler the app registers, which signs out
 * and returns to /login with spec §8's 'Session expired! Please login again'.
 */
import type { Chat } from '#shared/chat/chat.schemas.ts';
import type { Message } from '#shared/message/message.schemas.ts';
import { MeResponse } from '#shared/me.schemas.ts';
import { getConfig } from './config.ts';
import { getIdToken, SESSION_EXPIRED_MESSAGE } from './auth.ts';

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

/** Error message for the user from anything thrown by this module. */
export function errorMessage(e: unknown): string {
  if (e instanceof Error && e.message) return e.message;
  return 'Something went wrong. Please try again.';
}

async function request<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const token = await getIdToken();
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
    throw new ApiError(res.status, err?.code ?? `http_${res.status}`, err?.message ?? `The server answered HTTP ${res.status}. Please try again.`, err?.details);
  }
  if (json === null) throw new ApiError(res.status, 'bad_response', 'The server sent an unreadable answer. Please try again.');
  return json as T;
}

const enc = encodeURIComponent;

const query = (params: Record<string, string | number | null | undefined>): string => {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== null && v !== undefined && v !== '') q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : '';
};

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

  async listChats(orgId: string, cursor?: string | null, limit = 50): Promise<Page<Chat>> {
    const out = await request<{ chats: Chat[]; cursor?: string | null }>('GET', `/api/orgs/${enc(orgId)}/chats${query({ limit, cursor })}`);
    return { items: out.chats ?? [], cursor: out.cursor ?? null };
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
    return { items: out.messages ?? [], cursor: out.cursor ?? null };
  },

  async sendMessage(orgId: string, chatId: string, input: { body: string; quoted_message_id?: string }): Promise<Message> {
    const out = await request<{ message: Message }>('POST', `/api/orgs/${enc(orgId)}/chats/${enc(chatId)}/messages`, input);
    return out.message;
  },

  async markRead(orgId: string, chatId: string): Promise<Chat> {
    const out = await request<{ chat: Chat }>('POST', `/api/orgs/${enc(orgId)}/chats/${enc(chatId)}/read`, {});
    return out.chat;
  },
};
