/**
 * Realtime connection: one WebSocket per (signed-in user, org) at
 * `${wsUrl}?token=<ID token>&org_id=<org>&session_id=<browser session>`.
 *
 * The server pushes `{ type, properties, metadata }` JSON frames (message.received, message.sent,
 * message.status_updated, message.updated, chat.read, and the socket-only chat.typing) and takes
 * client frames through `send` (typing). This class only transports them: it reconnects
 * with exponential backoff (1 s doubling to 30 s, with jitter; at once when the browser comes back
 * online or the tab becomes visible), takes a fresh token for every attempt, and reports
 * `onReconnected` after a reconnect so the app can refetch what it may have missed.
 */

export type SocketState = 'connecting' | 'open' | 'closed';

export interface RealtimeEvent {
  type: string;
  properties: Record<string, unknown>;
  metadata?: Record<string, unknown>;
}

export interface RealtimeSocketOptions {
  wsUrl: string;
  orgId: string;
  /** the ID token; null: nobody is signed in any more; a throw: none can be had now (retried) */
  getToken: (forceRefresh: boolean) => Promise<string | null>;
  onEvent: (event: RealtimeEvent) => void;
  onState: (state: SocketState) => void;
  /** the socket is open again after having been open before */
  onReconnected: () => void;
  /** no token can be obtained any more */
  onAuthLost: () => void;
  /** this browser's session (single active session, shared/realtime/session.rules.ts), sent as `session_id` */
  sessionId?: string;
  /** the socket is open (every time, first open and reconnects) */
  onOpen?: () => void;
}

const MAX_BACKOFF_MS = 30_000;
/** how many event ids the socket remembers to drop repeats */
const RECENT_IDS = 2_000;

/**
 * The server's fan-out is at-least-once (a consumer that dies after pushing is delivered again),
 * so an event may arrive twice; the app gets each event id once (issue 23 item 2). Remembers the
 * last `size` ids.
 */
export class RecentIds {
  private readonly ids = new Set<string>();
  constructor(private readonly size = RECENT_IDS) {}
  /** true the first time `id` is seen */
  firstTime(id: string): boolean {
    if (this.ids.has(id)) return false;
    this.ids.add(id);
    if (this.ids.size > this.size) this.ids.delete(this.ids.values().next().value as string);
    return true;
  }
}
/** API Gateway drops idle sockets after 10 minutes; a small frame keeps ours alive. */
const KEEPALIVE_MS = 8 * 60_000;

/** Absolute ws(s):// URL from the configured one (which may be relative to this origin). */
export function socketUrl(wsUrl: string, token: string, orgId: string, sessionId?: string): string {
  let base = wsUrl;
  if (!/^wss?:\/\//i.test(base)) {
    const proto = window.location.protocol === 'https:' ? 'wss:' : 'ws:';
    base = /^https?:\/\//i.test(base) ? base.replace(/^http/i, 'ws') : `${proto}//${window.location.host}${base.startsWith('/') ? '' : '/'}${base}`;
  }
  const sep = base.includes('?') ? '&' : '?';
  const session = sessionId ? `&session_id=${encodeURIComponent(sessionId)}` : '';
  return `${base}${sep}token=${encodeURIComponent(token)}&org_id=${encodeURIComponent(orgId)}${session}`;
}

export class RealtimeSocket {
  private ws: WebSocket | null = null;
  private stopped = false;
  private attempt = 0;
  private everOpened = false;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private keepAliveTimer: ReturnType<typeof setInterval> | null = null;
  private state: SocketState = 'closed';
  private readonly recent = new RecentIds();

  constructor(private readonly opts: RealtimeSocketOptions) {}

  start(): void {
    this.stopped = false;
    window.addEventListener('online', this.connectNow);
    document.addEventListener('visibilitychange', this.onVisibility);
    void this.connect();
  }

  stop(): void {
    this.stopped = true;
    window.removeEventListener('online', this.connectNow);
    document.removeEventListener('visibilitychange', this.onVisibility);
    this.clearTimers();
    const ws = this.ws;
    this.ws = null;
    if (ws) {
      ws.onopen = ws.onclose = ws.onerror = ws.onmessage = null;
      ws.close(1000, 'bye');
    }
  }

  /**
   * Send a client frame (JSON) on the open socket, e.g. `{ type: 'typing', chat_id, state }`.
   * Nothing is queued: ephemeral frames are dropped while the socket is not open.
   * @returns whether the frame was handed to the socket
   */
  send(obj: unknown): boolean {
    const ws = this.ws;
    if (!ws || ws.readyState !== WebSocket.OPEN) return false;
    ws.send(JSON.stringify(obj));
    return true;
  }

  private setState(s: SocketState): void {
    if (this.state === s) return;
    this.state = s;
    this.opts.onState(s);
  }

  private clearTimers(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (this.keepAliveTimer) clearInterval(this.keepAliveTimer);
    this.retryTimer = null;
    this.keepAliveTimer = null;
  }

  private readonly onVisibility = (): void => {
    if (document.visibilityState === 'visible') this.connectNow();
  };

  /** Skip the remaining backoff (browser back online, tab visible again). */
  private readonly connectNow = (): void => {
    if (this.stopped || this.ws || this.state === 'connecting') return;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    void this.connect();
  };

  private async connect(): Promise<void> {
    if (this.stopped) return;
    this.setState('connecting');
    // after repeated failures the token may be the problem (the handshake does not tell us): refresh it
    let token: string | null;
    try {
      token = await this.opts.getToken(this.attempt >= 3);
    } catch {
      // no fresh token now (the server is restarting or unreachable), but still signed in: try
      // again later; only `null` (nobody signed in) ends the session (issue 49 item 9)
      if (!this.stopped) this.scheduleReconnect();
      return;
    }
    if (this.stopped) return;
    if (!token) {
      this.setState('closed');
      this.opts.onAuthLost();
      return;
    }
    let ws: WebSocket;
    try {
      ws = new WebSocket(socketUrl(this.opts.wsUrl, token, this.opts.orgId, this.opts.sessionId));
    } catch (e) {
      console.error('realtime: bad socket URL', e);
      this.scheduleReconnect();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      const reconnected = this.everOpened;
      this.everOpened = true;
      this.attempt = 0;
      this.setState('open');
      this.keepAliveTimer = setInterval(() => {
        if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ action: 'ping' }));
      }, KEEPALIVE_MS);
      this.opts.onOpen?.();
      if (reconnected) this.opts.onReconnected();
    };
    ws.onmessage = (msg) => {
      if (typeof msg.data !== 'string') return;
      let data: unknown;
      try {
        data = JSON.parse(msg.data);
      } catch {
        return;
      }
      if (data && typeof data === 'object' && typeof (data as RealtimeEvent).type === 'string') {
        const ev = data as RealtimeEvent;
        const id = ev.metadata?.id;
        if (typeof id === 'string' && !this.recent.firstTime(id)) return;
        if (ev.properties && typeof ev.properties === 'object') this.opts.onEvent(ev);
      }
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.keepAliveTimer) clearInterval(this.keepAliveTimer);
      this.keepAliveTimer = null;
      this.scheduleReconnect();
    };
  }

  private scheduleReconnect(): void {
    if (this.stopped) return;
    this.setState('closed');
    const delay = Math.min(MAX_BACKOFF_MS, 1000 * 2 ** this.attempt) * (0.75 + Math.random() * 0.5);
    this.attempt += 1;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      void this.connect();
    }, delay);
  }
}
