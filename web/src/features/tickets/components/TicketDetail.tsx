/**
 * The ticket detail panel on /tickets?ticket=<id>: subject (editable), status, priority, assignee,
 * due date, labels (each saved at once with PATCH, optimistic with rollback and the API's message
 * in a toast), the attached messages (each with 'Jump to chat' and 'Detach'), and the audit log.
 * Kept live from ticket.* events (messages refetched when the count changes). 'Create task' opens
 * the task panel's New Task linked to the ticket.
 */
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import type { Ticket, TicketPriority, TicketStatus } from '#shared/ticket/ticket.schemas.ts';
import { MAX_SUBJECT } from '#shared/ticket/ticket.schemas.ts';
import { useToast } from '../../../app/toast.tsx';
import { Icon } from '../../../components/ui/Icon.tsx';
import { chatNumber, exactTime, formatPhone, previewText } from '../../../lib/format.ts';
import { PRIORITY_OPTIONS, STATUS_OPTIONS, durationText, dueFromDay, isOverdue, msToDay, relTime, shortDate, ticketRef } from '../api/tickets.ts';
import { AssigneeInput, LabelPicker } from './fields.tsx';
import { AuditLog } from './AuditLog.tsx';
import { useTaskActions } from '../../tasks/index.ts';
import { useTicketDetail } from '../hooks/useTicketDetail.ts';
import { Options } from '../../../components/ui/Options.tsx';
import { CharCount } from '../../../components/ui/CharCount.tsx';
import { lengthProblem } from '../../../lib/length.ts';

/** The detail panel of ticket `ticketId` (see the file's comment). */
export function TicketDetail({
  ticketId,
  onClose,
  onTicket,
  suggestions,
}: {
  ticketId: string;
  onClose: () => void;
  /** the ticket changed (optimistic, server answer, rollback or event) */
  onTicket: (t: Ticket) => void;
  suggestions: string[];
}) {
  const toast = useToast();
  const { openNew: openNewTask } = useTaskActions();
  const { ticket, messages, state, error, version, detaching, load, patch, detach } = useTicketDetail(ticketId, onTicket);
  const [subject, setSubject] = useState<string | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    setSubject(null);
  }, [ticketId]);

  useEffect(() => {
    if (state === 'ready') headingRef.current?.focus({ preventScroll: true });
  }, [state, ticketId]);

  const commitSubject = () => {
    if (subject === null || !ticket) return;
    const v = subject.trim();
    // an overlong subject stays in the field with the refusal (issue 49 §7), never cut
    const tooLong = lengthProblem(v, MAX_SUBJECT, 'Subject');
    if (tooLong) {
      toast.show(tooLong, 'error');
      return;
    }
    setSubject(null);
    if (!v) {
      toast.show('Subject is required.', 'error');
      return;
    }
    if (v !== ticket.subject) void patch({ subject: v });
  };

  return (
    <aside
      className="ticket-detail"
      data-testid="ticket-detail"
      data-ticket-id={ticketId}
      data-status={ticket?.status}
      aria-label="Ticket details"
      onKeyDown={(e) => {
        if (e.key === 'Escape' && !(e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement || e.target instanceof HTMLTextAreaElement)) {
          e.preventDefault();
          onClose();
        }
      }}
    >
      <header className="detail-head">
        <button type="button" className="icon-btn" aria-label="Close ticket (Esc)" title="Close ticket (Esc)" onClick={onClose}>
          <Icon name="back" />
        </button>
        <h2 ref={headingRef} tabIndex={-1}>
          Ticket <span className="mono">{ticketRef(ticketId)}</span>
        </h2>
        {ticket && (
          <button
            type="button"
            className="btn btn-ghost small-btn"
            data-testid="ticket-create-task"
            onClick={() =>
              openNewTask({
                title: ticket.subject.slice(0, 150),
                associated: { id: ticket.ticket_id, type: 'ticket', object: { ticket_id: ticket.ticket_id, chat_id: ticket.chat_id, quoted_message_id: ticket.quoted_message_id } },
              })
            }
          >
            <Icon name="task-add" size={16} />
            <span>Create task</span>
          </button>
        )}
        {ticket && (
          <Link className="btn btn-ghost small-btn" to={`/chats/${encodeURIComponent(ticket.chat_id)}`}>
            <Icon name="chats" size={16} />
            <span>Open chat</span>
          </Link>
        )}
      </header>

      {state === 'loading' && (
        <div className="detail-body" aria-busy="true" aria-label="Loading ticket">
          <span className="skeleton-line" style={{ width: '70%', height: 20 }} />
          <span className="skeleton-line" style={{ width: '45%' }} />
          <span className="skeleton-line" style={{ width: '55%' }} />
        </div>
      )}
      {(state === 'error' || state === 'missing') && (
        <div className="state-box" role="alert">
          <p>{state === 'missing' ? 'This ticket does not exist, or you cannot see it.' : `Could not load this ticket: ${error}`}</p>
          {state === 'error' && (
            <button type="button" className="btn" onClick={() => void load()}>
              Retry
            </button>
          )}
        </div>
      )}
      {state === 'ready' && ticket && (
        <div className="detail-body">
          <label className="field">
            <span className="visually-hidden">Subject</span>
            <input
              className="subject-input"
              data-testid="ticket-subject-input"
              value={subject ?? ticket.subject}
              onChange={(e) => setSubject(e.target.value)}
              onBlur={commitSubject}
              onKeyDown={(e) => {
                if (e.key === 'Enter') {
                  e.preventDefault();
                  commitSubject();
                } else if (e.key === 'Escape') {
                  e.preventDefault();
                  setSubject(null);
                }
              }}
            />
            {subject !== null && <CharCount value={subject} max={MAX_SUBJECT} field="Subject" testId="ticket-subject-count" />}
          </label>
          <p className="detail-sub muted small">
            <Link to={`/chats/${encodeURIComponent(ticket.chat_id)}`}>{ticket.chat_name || formatPhone(chatNumber(ticket.chat_id))}</Link>
            {' · '}via {formatPhone(ticket.org_phone)}
            {' · '}created <span title={exactTime(ticket.created_at)}>{relTime(ticket.created_at)}</span> by {ticket.created_by}
          </p>

          <div className="detail-grid">
            <label className="field">
              <span>Status</span>
              <select
                data-testid="ticket-status-select"
                className={`status-select status-${ticket.status}`}
                value={ticket.status}
                onChange={(e) => void patch({ status: e.target.value as TicketStatus })}
              >
                <Options options={STATUS_OPTIONS} />
              </select>
            </label>
            <label className="field">
              <span>Priority</span>
              <select data-testid="ticket-priority-select" value={ticket.priority} onChange={(e) => void patch({ priority: Number(e.target.value) as TicketPriority })}>
                <Options options={PRIORITY_OPTIONS} />
              </select>
            </label>
            <div className="field span-2">
              <span>Assignee</span>
              <AssigneeInput value={ticket.assignee} onCommit={(a) => void patch({ assignee: a })} suggestions={suggestions} testId="ticket-assignee-input" />
            </div>
            <label className="field">
              <span>Due date</span>
              <span className="due-input">
                <input
                  type="date"
                  data-testid="ticket-due-input"
                  value={msToDay(ticket.due_date)}
                  onChange={(e) => void patch({ due_date: e.target.value ? dueFromDay(e.target.value) : null })}
                />
              </span>
              {ticket.due_date !== null && isOverdue(ticket) && <span className="overdue small">Overdue</span>}
            </label>
            <div className="field">
              <span>First response</span>
              <span className="muted small field-value">
                {ticket.first_response_time !== null ? `${durationText(ticket.first_response_time)} after creation` : 'Not yet'}
              </span>
            </div>
            <div className="field span-2">
              <span>Labels</span>
              <LabelPicker value={ticket.labels} onChange={(labels) => void patch({ labels })} />
            </div>
          </div>

          <section className="detail-section" aria-labelledby="ticket-messages-title">
            <h3 id="ticket-messages-title">
              Messages <span className="muted">· {messages.length}</span>
            </h3>
            {messages.length === 0 ? (
              <p className="muted small">No messages are attached to this ticket.</p>
            ) : (
              <ul className="ticket-messages">
                {messages.map((m) => (
                  <li key={m.unique_id} className={`ticket-message ${m.from_me ? 'out' : 'in'}`} data-testid="ticket-message" data-unique-id={m.unique_id}>
                    <div className="ticket-message-head">
                      <strong>{m.from_me ? (m.author && m.author.includes('@') ? m.author : 'Agent') : m.author && !/^\d+$/.test(m.author) ? m.author : 'Customer'}</strong>
                      <time className="muted small" dateTime={new Date(m.timestamp).toISOString()} title={exactTime(m.timestamp)}>
                        {shortDate(m.timestamp)} {new Date(m.timestamp).toTimeString().slice(0, 5)}
                      </time>
                      {m.unique_id === ticket.quoted_message_id && <span className="tag">First message</span>}
                    </div>
                    <p className="ticket-message-body">{previewText({ message_type: m.message_type, body: m.body }) || 'Message'}</p>
                    <div className="ticket-message-actions">
                      <Link to={`/chats/${encodeURIComponent(m.chat_id)}?message=${encodeURIComponent(m.unique_id)}`} className="link-btn small" data-testid="ticket-message-jump">
                        Jump to chat
                      </Link>
                      {m.unique_id === ticket.quoted_message_id ? (
                        <span className="muted small" title="A ticket keeps the message it was created from">
                          Created from this message
                        </span>
                      ) : (
                        <button
                          type="button"
                          className="link-btn small danger"
                          data-testid="ticket-message-detach"
                          disabled={detaching === m.unique_id}
                          onClick={() => void detach(m)}
                        >
                          {detaching === m.unique_id ? 'Detaching…' : 'Detach'}
                        </button>
                      )}
                    </div>
                  </li>
                ))}
              </ul>
            )}
          </section>

          <section className="detail-section" aria-labelledby="ticket-audit-title">
            <h3 id="ticket-audit-title">Audit log</h3>
            <AuditLog ticketId={ticketId} version={version} />
          </section>
        </div>
      )}
    </aside>
  );
}
