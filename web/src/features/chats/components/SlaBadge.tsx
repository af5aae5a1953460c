/**
 * A chat's SLA status (issue 17 §6) as a small chip: the running target due soonest — "SLA 25m"
 * (due in), amber once near its breach, red "SLA breached" once past due. Nothing when the chat
 * has no running SLA; "SLA paused" while the chat is snoozed. Used by the chat list row and the thread header; the rule is
 * shared/sla/sla-badge.rules.ts (no code imports: it stays small in the /chats entry).
 */
import type { Chat } from '#shared/chat/chat.schemas.ts';
import { slaBadge, SLA_TARGET_LABEL } from '#shared/sla/sla-badge.rules.ts';

const short = (ms: number): string => {
  const m = Math.max(1, Math.round(ms / 60_000));
  if (m < 60) return `${m}m`;
  const h = Math.round(m / 60);
  return h < 48 ? `${h}h` : `${Math.round(h / 24)}d`;
};

export function SlaBadge({ chat, now, long = false }: { chat: Chat; now: number; long?: boolean }) {
  const b = slaBadge(chat.sla, now);
  if (!b) return null;
  const what = SLA_TARGET_LABEL[b.target];
  const due = new Date(b.due_at).toLocaleString();
  if (b.state === 'paused') {
    const paused = `${what} SLA paused while the chat is snoozed`;
    return (
      <span className="state-chip sla-chip sla-paused" data-testid="sla-badge" data-state="paused" data-target={b.target} title={paused} aria-label={paused}>
        {long ? paused : 'SLA paused'}
      </span>
    );
  }
  const text = b.state === 'breached' ? (long ? `${what} SLA breached` : 'SLA breached') : long ? `${what} due in ${short(b.due_at - now)}` : `SLA ${short(b.due_at - now)}`;
  const title = b.state === 'breached' ? `${what} was due ${due}` : `${what} due ${due}${b.state === 'near' ? ' (near its breach)' : ''}`;
  return (
    <span className={`state-chip sla-chip sla-${b.state}`} data-testid="sla-badge" data-state={b.state} data-target={b.target} title={title} aria-label={title}>
      {text}
    </span>
  );
}
