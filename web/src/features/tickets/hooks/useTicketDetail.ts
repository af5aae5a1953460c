/**
 * One ticket of the detail panel with its attached messages: loaded from GET /tickets/{id}, kept
 * live from ticket.* events (messages refetched when the count changes, everything after a
 * resync), changed with `patch` (optimistic, rolled back with the API's message in a toast) and
 * `detach` (a message off the ticket). `version` bumps on every change (the audit log refetches).
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { Ticket, TicketMessage, UpdateTicketInput } from '#shared/ticket/ticket.schemas.ts';
import { api, ApiError, errorMessage } from '../../../lib/api.ts';
import { useSession } from '../../../app/session.tsx';
import { useInbox } from '../../../app/inbox.tsx';
import { useToast } from '../../../app/toast.tsx';

export function useTicketDetail(ticketId: string, onTicket: (t: Ticket) => void) {
  const { org } = useSession();
  const { subscribe } = useInbox();
  const toast = useToast();
  const [ticket, setTicket] = useState<Ticket | null>(null);
  const [messages, setMessages] = useState<TicketMessage[]>([]);
  const [state, setState] = useState<'loading' | 'ready' | 'error' | 'missing'>('loading');
  const [error, setError] = useState<string | null>(null);
  const [version, setVersion] = useState(0);
  const [detaching, setDetaching] = useState<string | null>(null);
  const ticketRef_ = useRef<Ticket | null>(null);
  ticketRef_.current = ticket;

  const load = useCallback(
    async (quiet = false) => {
      if (!quiet) {
        setState('loading');
        setError(null);
      }
      try {
        const r = await api.getTicket(org.org_id, ticketId);
        setTicket(r.ticket);
        setMessages([...r.messages].sort((a, b) => a.timestamp - b.timestamp));
        setState('ready');
      } catch (e) {
        if (quiet) return;
        setError(errorMessage(e));
        setState(e instanceof ApiError && (e.status === 404 || e.status === 403) ? 'missing' : 'error');
      }
    },
    [org.org_id, ticketId],
  );

  useEffect(() => {
    void load();
  }, [load]);

  useEffect(
    () =>
      subscribe((e) => {
        if (e.kind === 'ticket' && e.ticket.ticket_id === ticketId) {
          const prev = ticketRef_.current;
          if (prev && prev.last_updated_at > e.ticket.last_updated_at) return;
          setTicket(e.ticket);
          setVersion((v) => v + 1);
          if (!prev || prev.message_count !== e.ticket.message_count) void load(true);
        } else if (e.kind === 'resync') {
          void load(true);
          setVersion((v) => v + 1);
        }
      }),
    [subscribe, ticketId, load],
  );

  const patch = useCallback(
    async (input: UpdateTicketInput) => {
      const before = ticketRef_.current;
      if (!before) return;
      const optimistic = { ...before, ...input } as Ticket;
      setTicket(optimistic);
      onTicket(optimistic);
      try {
        const t = await api.updateTicket(org.org_id, ticketId, input);
        setTicket(t);
        onTicket(t);
        setVersion((v) => v + 1);
      } catch (e) {
        setTicket(before);
        onTicket(before);
        toast.show(errorMessage(e), 'error');
      }
    },
    [org.org_id, ticketId, onTicket, toast],
  );

  const detach = async (m: TicketMessage) => {
    setDetaching(m.unique_id);
    try {
      const r = await api.setMessageTicket(org.org_id, m.chat_id, m.unique_id, null);
      setMessages((prev) => prev.filter((x) => x.unique_id !== m.unique_id));
      if (r.ticket) {
        setTicket(r.ticket);
        onTicket(r.ticket);
      }
      setVersion((v) => v + 1);
      toast.show('Message detached from the ticket', 'success');
    } catch (e) {
      toast.show(errorMessage(e), 'error');
    } finally {
      setDetaching(null);
    }
  };

  return { ticket, messages, state, error, version, detaching, load, patch, detach };
}
