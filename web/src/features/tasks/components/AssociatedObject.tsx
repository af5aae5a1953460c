/**
 * What a task is linked to (spec §3 associated_object_metadata): a chat, a message (or private
 * note) or a ticket, loaded to show its name / excerpt / subject, with a 'View Object' button
 * that goes to it (the message is scrolled to and highlighted like the tickets' 'Jump to chat').
 * When it cannot be loaded, spec §8's 'Error while fetching associated …' is shown (the button
 * stays).
 */
import { useEffect, useState } from 'react';
import type { AssociatedObjectMetadata } from '#shared/task/task.schemas.ts';
import { api } from '../../../lib/api.ts';
import { chatDisplayName, previewText } from '../../../lib/format.ts';
import { ASSOCIATED_TYPE_LABELS, associatedError, associatedPath } from '../api/tasks.ts';
import { ticketRef } from '../../tickets/index.ts';
import { useSession } from '../../../app/session.tsx';
import { Icon } from '../../../components/ui/Icon.tsx';

type Loaded = { state: 'loading' } | { state: 'ready'; title: string; detail: string | null } | { state: 'error' };

export function AssociatedObject({ link, onView }: { link: AssociatedObjectMetadata; onView: (path: string) => void }) {
  const { org } = useSession();
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });
  const chatId = link.object?.chat_id ?? (link.type === 'chat' ? link.id : null);
  const path = associatedPath(link);

  useEffect(() => {
    let cancelled = false;
    setLoaded({ state: 'loading' });
    (async () => {
      try {
        if (link.type === 'ticket') {
          const { ticket } = await api.getTicket(org.org_id, link.object?.ticket_id ?? link.id);
          if (!cancelled) setLoaded({ state: 'ready', title: ticket.subject, detail: `Ticket ${ticketRef(ticket.ticket_id)}` });
          return;
        }
        if (!chatId) throw new Error('no chat');
        const chat = await api.getChat(org.org_id, chatId);
        const name = chatDisplayName(chat);
        if (link.type === 'chat') {
          if (!cancelled) setLoaded({ state: 'ready', title: name, detail: null });
          return;
        }
        if (link.type === 'message') {
          // the message itself, when it is among the chat's recent ones (there is no single-message read)
          const page = await api.listMessages(org.org_id, chatId, null, 100);
          const m = page.items.find((x) => x.unique_id === link.id || (link.object?.message_id && x.message_id === link.object.message_id));
          const text = m ? previewText(m) : '';
          if (!cancelled) setLoaded({ state: 'ready', title: text ? (text.length > 140 ? `${text.slice(0, 139)}…` : text) : link.object?.is_private_note ? 'Private note' : 'Message', detail: `In ${name}` });
          return;
        }
        throw new Error('unknown type');
      } catch {
        if (!cancelled) setLoaded({ state: 'error' });
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [org.org_id, link.type, link.id, link.object?.ticket_id, link.object?.message_id, link.object?.is_private_note, chatId]);

  const typeLabel = link.type === 'message' && link.object?.is_private_note ? 'Private note' : (ASSOCIATED_TYPE_LABELS[link.type] ?? 'Object');

  return (
    <section className="task-link" data-testid="task-associated" data-type={link.type} aria-label={`Linked ${typeLabel.toLowerCase()}`}>
      <div className="task-link-main">
        <span className="task-link-type">
          <Icon name={link.type === 'ticket' ? 'tickets' : 'chats'} size={16} />
          {typeLabel}
        </span>
        {loaded.state === 'loading' && <span className="skeleton-line" style={{ width: '60%' }} aria-label="Loading linked object" />}
        {loaded.state === 'ready' && (
          <>
            <span className="task-link-title">{loaded.title}</span>
            {loaded.detail && <span className="muted small">{loaded.detail}</span>}
          </>
        )}
        {loaded.state === 'error' && (
          <span className="form-error small" role="alert" data-testid="task-associated-error">
            {associatedError(link)}
          </span>
        )}
      </div>
      {path && (
        <button type="button" className="btn small-btn" data-testid="task-view-object" onClick={() => onView(path)}>
          View Object
        </button>
      )}
    </section>
  );
}
