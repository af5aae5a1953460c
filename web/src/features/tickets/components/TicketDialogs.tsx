/**
 * Dialogs opened from a message's menu:
 * - Create ticket: subject prefilled from the message (editable), priority, assignee, due date and
 *   labels prefilled from the ticket settings defaults; POST /tickets with chat_id and
 *   quoted_message_id = the message's unique_id.
 * - Attach to ticket: choose one of the chat's open tickets; PUT .../messages/{unique_id}/ticket.
 */
import { useMemo, useState, type FormEvent } from 'react';
import type { Chat } from '#shared/chat/chat.schemas.ts';
import type { Message } from '#shared/message/message.schemas.ts';
import type { Ticket, TicketPriority } from '#shared/ticket/ticket.schemas.ts';
import { MAX_SUBJECT } from '#shared/ticket/ticket.schemas.ts';
import { isOpenTicket, sortChatTickets, subjectFromMessage } from '#shared/ticket/ticket.rules.ts';
import { api, errorMessage } from '../../../lib/api.ts';
import { useSession } from '../../../app/session.tsx';
import { useTickets } from '../hooks/useTickets.tsx';
import { useToast } from '../../../app/toast.tsx';
import { PRIORITY_OPTIONS, dueFromDay, ticketRef } from '../api/tickets.ts';
import { previewText } from '../../../lib/format.ts';
import { Dialog, DialogFooter } from '../../../components/ui/Dialog.tsx';
import { AssigneeInput, LabelPicker, PriorityTag, StatusPill, useKnownAssignees } from './fields.tsx';
import { Options } from '../../../components/ui/Options.tsx';
import { CharCount } from '../../../components/ui/CharCount.tsx';

function Excerpt({ m }: { m: Message }) {
  const text = previewText(m) || 'Message';
  return (
    <blockquote className="dialog-excerpt">
      <span className="muted small">{m.from_me ? 'You' : 'Customer'}</span>
      <span>{text.length > 200 ? `${text.slice(0, 199)}…` : text}</span>
    </blockquote>
  );
}

export function CreateTicketDialog({
  message,
  chat,
  chatTickets,
  onClose,
  onCreated,
}: {
  message: Message;
  chat: Chat | null;
  chatTickets: Ticket[];
  onClose: () => void;
  onCreated: (t: Ticket) => void;
}) {
  const { org } = useSession();
  const { settings } = useTickets();
  const toast = useToast();
  const suggestions = useKnownAssignees(chatTickets);
  const defaultAssignee = settings.default_assignee === 'chat_assignee' ? (chat?.assigned_to ?? null) : null;
  const [subject, setSubject] = useState(() => subjectFromMessage(message));
  const [priority, setPriority] = useState<TicketPriority>(settings.default_priority);
  const [assignee, setAssignee] = useState<string | null>(defaultAssignee);
  const [due, setDue] = useState('');
  const [labels, setLabels] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (busy) return;
    if (!subject.trim()) {
      setError('Subject is required.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const t = await api.createTicket(org.org_id, {
        chat_id: message.chat_id,
        quoted_message_id: message.unique_id,
        subject: subject.trim(),
        priority,
        assignee,
        due_date: due ? dueFromDay(due) : null,
        labels,
      });
      toast.show('Ticket created', 'success');
      onCreated(t);
    } catch (err) {
      const msg = errorMessage(err);
      setError(msg);
      toast.show(msg, 'error');
      setBusy(false);
    }
  }

  return (
    <Dialog title="Create ticket" onClose={onClose} testId="ticket-create-dialog">
      <form className="dialog-body form-grid" onSubmit={(e) => void submit(e)}>
        <Excerpt m={message} />
        <label className="field">
          <span>Subject</span>
          <input
            autoFocus
            value={subject}
            required
            onChange={(e) => setSubject(e.target.value)}
            data-testid="ticket-create-subject"
          />
          <CharCount value={subject} max={MAX_SUBJECT} field="Subject" testId="ticket-create-subject-count" />
        </label>
        <div className="form-row">
          <label className="field">
            <span>Priority</span>
            <select value={priority} onChange={(e) => setPriority(Number(e.target.value) as TicketPriority)} data-testid="ticket-create-priority">
              <Options options={PRIORITY_OPTIONS} />
            </select>
          </label>
          <label className="field">
            <span>Due date</span>
            <input type="date" value={due} onChange={(e) => setDue(e.target.value)} data-testid="ticket-create-due" />
          </label>
        </div>
        <div className="field">
          <span>Assignee</span>
          <AssigneeInput value={assignee} onCommit={setAssignee} suggestions={suggestions} testId="ticket-create-assignee" />
        </div>
        <div className="field">
          <span>Labels</span>
          <LabelPicker value={labels} onChange={setLabels} />
        </div>
        <DialogFooter error={error} onCancel={onClose} submitLabel="Create ticket" busyLabel="Creating…" busy={busy} disabled={busy} submitTestId="ticket-create-submit" />
      </form>
    </Dialog>
  );
}

export function AttachTicketDialog({
  message,
  chatTickets,
  onClose,
  onAttached,
}: {
  message: Message;
  chatTickets: Ticket[];
  onClose: () => void;
  onAttached: (r: { ticket: Ticket | null; message: Message | null }, ticketId: string) => void;
}) {
  const { org } = useSession();
  const toast = useToast();
  const open = useMemo(() => sortChatTickets(chatTickets.filter(isOpenTicket)), [chatTickets]);
  const [choice, setChoice] = useState<string>(open[0]?.ticket_id ?? '');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!choice || busy) return;
    setBusy(true);
    setError(null);
    try {
      const r = await api.setMessageTicket(org.org_id, message.chat_id, message.unique_id, choice);
      toast.show('Message attached to the ticket', 'success');
      onAttached(r, choice);
    } catch (err) {
      const msg = errorMessage(err);
      setError(msg);
      toast.show(msg, 'error');
      setBusy(false);
    }
  }

  return (
    <Dialog title="Attach to ticket" onClose={onClose} testId="ticket-attach-dialog">
      <form className="dialog-body form-grid" onSubmit={(e) => void submit(e)}>
        <Excerpt m={message} />
        {open.length === 0 ? (
          <p className="muted">This chat has no open tickets. Create one from a message first.</p>
        ) : (
          <fieldset className="ticket-choices">
            <legend>Choose an open ticket of this chat</legend>
            {open.map((t, i) => (
              <label key={t.ticket_id} className={`ticket-choice ${choice === t.ticket_id ? 'on' : ''}`} data-testid="ticket-attach-option" data-ticket-id={t.ticket_id}>
                <input type="radio" name="ticket" value={t.ticket_id} checked={choice === t.ticket_id} autoFocus={i === 0} onChange={() => setChoice(t.ticket_id)} />
                <span className="ticket-choice-main">
                  <span className="ticket-choice-subject">{t.subject}</span>
                  <span className="ticket-choice-meta">
                    <span className="mono">{ticketRef(t.ticket_id)}</span>
                    <StatusPill status={t.status} />
                    <PriorityTag priority={t.priority} />
                    <span>{t.message_count} message{t.message_count === 1 ? '' : 's'}</span>
                  </span>
                </span>
              </label>
            ))}
          </fieldset>
        )}
        <DialogFooter error={error} onCancel={onClose} submitLabel="Attach" busyLabel="Attaching…" busy={busy} disabled={busy || !choice} submitTestId="ticket-attach-submit" />
      </form>
    </Dialog>
  );
}
