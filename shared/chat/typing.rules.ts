/**
 * Typing indicator rules (spec §4 'Typing indicator'). Pure; used by the WebSocket `$default`
 * handler (server-side throttle) and by the web app (client throttle, the text under the thread).
 * All durations are milliseconds; all times are epoch ms.
 */

/** The server ignores a 'start' from the same connection and chat within this window. */
export const TYPING_SERVER_THROTTLE_MS = 2_000;
/** The client sends 'start' at most this often while the member keeps typing. */
export const TYPING_CLIENT_START_EVERY_MS = 3_000;
/** The client sends 'stop' after this long without a keystroke. */
export const TYPING_IDLE_STOP_MS = 5_000;
/** A teammate shown as typing is dropped this long after their last 'start' (a lost 'stop' cannot stick). */
export const TYPING_SHOW_FOR_MS = 6_000;

/** Someone shown as typing in a chat. */
export interface Typer {
  email: string;
  member_name?: string | null;
  /** epoch ms of their latest 'start' */
  at: number;
}

/** The name shown for a typer: the member name, else the local part of the email ('alan@x.io' -> 'alan'). */
export function typerName(t: Pick<Typer, 'email' | 'member_name'>): string {
  const name = t.member_name?.trim();
  if (name) return name;
  const at = t.email.indexOf('@');
  return at > 0 ? t.email.slice(0, at) : t.email;
}

/**
 * The indicator text: `'Alan is typing...'` for one typer, `'Alan + 2 are typing...'` for three,
 * naming the most recent typer (largest `at`). `null` when nobody types.
 */
export function typingText(typers: readonly Typer[]): string | null {
  if (typers.length === 0) return null;
  const first = typers.reduce((a, b) => (b.at > a.at ? b : a));
  const name = typerName(first);
  return typers.length === 1 ? `${name} is typing...` : `${name} + ${typers.length - 1} are typing...`;
}

/**
 * Lets a 'start' through at most once per `windowMs` per key (server: `connection_id:chat_id`;
 * client: the chat id). A 'stop' ({@link TypingThrottle.reset}) lets the next 'start' through at
 * once. Bounded: past `maxKeys` the oldest keys are forgotten (which only lets one extra 'start'
 * through), so a long-lived process cannot grow it without limit.
 */
export class TypingThrottle {
  private readonly last = new Map<string, number>();

  /**
   * @param windowMs minimum gap between two 'start's of one key, ms
   * @param maxKeys keys remembered at most
   */
  constructor(
    private readonly windowMs: number,
    private readonly maxKeys = 10_000,
  ) {}

  /**
   * Should this 'start' go through? Records it when it does.
   * @param nowMs epoch ms (injectable for tests)
   */
  allow(key: string, nowMs: number = Date.now()): boolean {
    const prev = this.last.get(key);
    if (prev !== undefined && nowMs - prev < this.windowMs) return false;
    // re-insert so Map order is oldest-first for eviction
    this.last.delete(key);
    this.last.set(key, nowMs);
    while (this.last.size > this.maxKeys) {
      const oldest = this.last.keys().next().value as string;
      this.last.delete(oldest);
    }
    return true;
  }

  /** Forget a key (after its 'stop'). */
  reset(key: string): void {
    this.last.delete(key);
  }

  /** Keys remembered (for tests and metrics). */
  get size(): number {
    return this.last.size;
  }
}
