/**
 * The AI agent on the chat screen (issue 18 §4, §6), kept tiny because /chats is at its bundle
 * budget: the state icon (chat list and thread header), 'AI is thinking...' (spec §4), and the
 * Take over / Hand back button. No dependencies beyond React and the API client.
 */
import { useState } from 'react';
import type { Chat } from '#shared/chat/chat.schemas.ts';
import { apiRequest, errorMessage } from '../../../lib/api.ts';

type State = NonNullable<Chat['ai_metadata']>['activation_state'];
const AI_AUTHOR = 'ai-agent@chorus.local';

/** Is this message (or note) the agent's? */
export const isAiAuthor = (author: string | null | undefined): boolean => author === AI_AUTHOR;

const LABELS: Record<State, string> = { inactive: 'AI agent off', active: 'AI agent on', thinking: 'AI is thinking...', paused: 'AI agent paused', handed_off: 'AI agent handed off' };
export const aiStateLabel = (s: State): string => LABELS[s];

/** Words of the Take over / Hand back control. */
const TEXT = {
  takeOver: 'Take over',
  handBack: 'Hand back',
  takeOverHint: 'Take over: the AI agent stops answering this chat',
  handBackHint: 'Hand back: the AI agent answers this chat again',
} as const;

const Robot = ({ size }: { size: number }) => (
  <svg width={size} height={size} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
    <rect x="4" y="8" width="16" height="12" rx="3" />
    <path d="M12 4v4M9 14h.01M15 14h.01" />
  </svg>
);

/** A small robot mark coloured by state; nothing for chats the agent never touched. */
export function AiStateIcon({ chat, size = 14 }: { chat: Pick<Chat, 'ai_metadata'>; size?: number }) {
  const s = chat.ai_metadata?.activation_state;
  if (!s || s === 'inactive') return null;
  return (
    <span className={`ai-state ai-state-${s}`} title={LABELS[s]} aria-label={LABELS[s]} role="img" data-testid="ai-state-icon" data-state={s}>
      <Robot size={size} />
    </span>
  );
}

/**
 * Thread header: the state, 'AI is thinking...', and Take over / Hand back. `compact` (a narrow
 * header, issue 49): one icon button, coloured by state, named Take over / Hand back.
 */
export function AiThreadControls({ orgId, chat, onChat, compact = false }: { orgId: string; chat: Chat; onChat?: (c: Chat) => void; compact?: boolean }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const s = chat.ai_metadata?.activation_state;
  if (!s) return null;
  const on = s === 'active' || s === 'thinking';
  const set = async (state: 'active' | 'paused') => {
    setBusy(true);
    setError(null);
    try {
      const r = await apiRequest<{ chat: Chat }>('PUT', `/api/orgs/${encodeURIComponent(orgId)}/chats/${encodeURIComponent(chat.chat_id)}/ai`, { activation_state: state });
      onChat?.(r.chat);
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };
  const word = on ? TEXT.takeOver : TEXT.handBack;
  const hint = error ?? `${on ? TEXT.takeOverHint : TEXT.handBackHint}. ${LABELS[s]}`;
  const onClick = () => void set(on ? 'paused' : 'active');
  const testId = on ? 'ai-take-over' : 'ai-hand-back';
  if (compact) {
    return (
      <span className="ai-controls" data-testid="ai-controls">
        <button type="button" className={`icon-btn ai-takeover-icon ai-state-${s}`} disabled={busy} aria-label={word} title={hint} onClick={onClick} data-testid={testId} data-state={s}>
          <Robot size={20} />
        </button>
      </span>
    );
  }
  return (
    <span className="ai-controls" data-testid="ai-controls">
      <AiStateIcon chat={chat} size={16} />
      <button type="button" className="btn btn-ghost ai-takeover" disabled={busy} title={hint} onClick={onClick} data-testid={testId}>
        {word}
      </button>
    </span>
  );
}
