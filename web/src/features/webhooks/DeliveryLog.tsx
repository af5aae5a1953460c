/**
 * The delivery log of one endpoint (issue 20 item 4): event, status, response code, latency,
 * attempts and time, newest first (cursor paged by the API, 25 a page); each row opens the
 * request body and the attempts, and a finished delivery can be replayed.
 */
import { useState } from 'react';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { errorMessage } from '../../lib/api.ts';
import { useToast } from '../../app/toast.tsx';
import { webhookKeys, webhooksApi, type Delivery } from './api.ts';

const time = (ms: number) => new Date(ms).toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'medium' });

export function DeliveryLog({ orgId, endpointId }: { orgId: string; endpointId: string }) {
  const qc = useQueryClient();
  const toast = useToast();
  const [open, setOpen] = useState<string | null>(null);
  const q = useInfiniteQuery({
    queryKey: webhookKeys.deliveries(orgId, endpointId),
    queryFn: ({ pageParam }) => webhooksApi.deliveries(orgId, endpointId, pageParam ?? undefined),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.cursor,
    // deliveries move (pending -> succeeded) on their own: refresh while the log is open
    refetchInterval: 3_000,
  });
  const replay = useMutation({
    mutationFn: (d: Delivery) => webhooksApi.replay(orgId, endpointId, d.delivery_id),
    onSuccess: () => {
      toast.show('Replay queued', 'success');
      void qc.invalidateQueries({ queryKey: webhookKeys.deliveries(orgId, endpointId) });
    },
    onError: (e) => toast.show(errorMessage(e), 'error'),
  });
  const rows = q.data?.pages.flatMap((p) => p.deliveries) ?? [];
  if (q.isPending) return <p className="muted small">Loading deliveries…</p>;
  if (q.isError)
    return (
      <div className="inline-state" role="alert">
        <span>Could not load the deliveries: {errorMessage(q.error)}</span>
        <button type="button" className="link-btn" onClick={() => void q.refetch()}>
          Retry
        </button>
      </div>
    );
  if (!rows.length) return <p className="muted small">No deliveries yet. Send a test event to see one here.</p>;
  return (
    <div className="wh-log" data-testid="delivery-log">
      <table className="wh-table">
        <thead>
          <tr>
            <th scope="col">Event</th>
            <th scope="col">Status</th>
            <th scope="col">Response</th>
            <th scope="col">Latency</th>
            <th scope="col">Attempts</th>
            <th scope="col">Time</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((d) => (
            <DeliveryRow key={d.delivery_id} d={d} open={open === d.delivery_id} onToggle={() => setOpen(open === d.delivery_id ? null : d.delivery_id)} onReplay={() => replay.mutate(d)} />
          ))}
        </tbody>
      </table>
      {q.hasNextPage && (
        <button type="button" className="btn" disabled={q.isFetchingNextPage} onClick={() => void q.fetchNextPage()}>
          {q.isFetchingNextPage ? 'Loading…' : 'Load more'}
        </button>
      )}
    </div>
  );
}

function DeliveryRow({ d, open, onToggle, onReplay }: { d: Delivery; open: boolean; onToggle: () => void; onReplay: () => void }) {
  const done = d.status === 'succeeded' || d.status === 'failed';
  return (
    <>
      <tr data-testid="delivery-row" data-status={d.status} data-event={d.event_type}>
        <td>
          <button type="button" className="link-btn" aria-expanded={open} onClick={onToggle}>
            {d.event_type}
          </button>
        </td>
        <td>
          <span className={`wh-status wh-${d.status}`}>{d.status}</span>
          {d.next_attempt_at && <div className="muted small">next try {time(d.next_attempt_at)}</div>}
        </td>
        <td data-testid="delivery-code">{d.response_code ? d.response_code : d.attempts ? 'no response' : '—'}</td>
        <td>{d.latency_ms != null ? `${d.latency_ms} ms` : '—'}</td>
        <td>
          {d.attempts} / {d.max_attempts}
        </td>
        <td className="small wh-when">{time(d.created_at)}</td>
        <td>
          {done && (
            <button type="button" className="link-btn" onClick={onReplay} data-testid="delivery-replay">
              Replay
            </button>
          )}
        </td>
      </tr>
      {open && (
        <tr className="wh-detail">
          <td colSpan={7}>
            <div className="muted small">webhook-id {d.delivery_id}</div>
            <pre className="wh-pre">{pretty(d.request_body)}</pre>
            {d.response_excerpt && (
              <>
                <div className="muted small">Last response</div>
                <pre className="wh-pre">{d.response_excerpt}</pre>
              </>
            )}
          </td>
        </tr>
      )}
    </>
  );
}

const pretty = (s: string) => {
  try {
    return JSON.stringify(JSON.parse(s), null, 2);
  } catch {
    return s;
  }
};
