/**
 * How a private note shows in the thread (issue 4): a 'Private note' label with a lock, the text
 * with its @mentions highlighted (mine more strongly), or 'This note was deleted' once its author
 * deleted it (the row stays, for the record). The bubble itself is yellow (`.msg-note`).
 */
import { Fragment } from 'react';
import type { Message } from '#shared/message/message.schemas.ts';
import { noteSegments } from '#shared/message/private-note.rules.ts';
import './notes.css';

function Lock() {
  return (
    <svg className="icon" width={12} height={12} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2.2} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
      <rect x="4" y="11" width="16" height="10" rx="2" />
      <path d="M8 11V7a4 4 0 0 1 8 0v4" />
    </svg>
  );
}

/** 'Private note' with a lock: only the team sees it, never the customer. */
export function NoteLabel() {
  return (
    <div className="note-label" data-testid="note-label" title="Only your team can see this note">
      <Lock /> Private note
    </div>
  );
}

/** The note's text with mentions highlighted; `me` is the signed-in member's email. */
export function NoteText({ m, me }: { m: Message; me?: string }) {
  if (m.is_deleted) return <p className="msg-text muted deleted" data-testid="note-deleted">🚫 This note was deleted</p>;
  // issue 18: the AI agent's audit of a decision folds to its first line
  if (m.author === 'ai-agent@chorus.local' && m.body) {
    const [head, ...rest] = m.body.split('\n');
    return (
      <details className="ai-audit" data-testid="ai-audit-note">
        <summary>{head}</summary>
        <p className="msg-text">{rest.join('\n')}</p>
      </details>
    );
  }
  const mine = me?.toLowerCase();
  return (
    <p className="msg-text">
      {noteSegments(m.body ?? '', m.mentions).map((s, i) =>
        s.mention ? (
          <span key={i} className={`mention ${s.mention.toLowerCase() === mine ? 'me' : ''}`} data-testid="note-mention" title={s.mention}>
            {s.text}
          </span>
        ) : (
          <Fragment key={i}>{s.text}</Fragment>
        ),
      )}
    </p>
  );
}
