/**
 * /logs (issue 19; spec §2), admins only (Restricted for members): tabs for the audit log of admin
 * actions (filters: area, who, date range; 50 a page), public API requests and webhook deliveries
 * (issue 20's logs; filters: status; cursor paged), and the Rules, Broadcasts and AI logs, which
 * arrive with those features. Rows are kept 90 days.
 */
import { useMemo, useState } from 'react';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { format } from 'date-fns';
import { MenuButton } from '../../app/shell/MenuButton.tsx';
import { useSession } from '../../app/session.tsx';
import { Tabs } from '../../components/ui/Tabs.tsx';
import { errorMessage } from '../../lib/api.ts';
import { logKeys, logsApi, type AuditFilters } from './api.ts';
import './logs.css';

const AREAS = ['assignments', 'labels', 'settings', 'team', 'phones', 'tickets'] as const;
const when = (ms: number) => format(ms, 'dd MMM yy, HH:mm:ss');

function Paged<T>({ q, rows, empty, children }: { q: { isPending: boolean; isError: boolean; error: unknown; refetch: () => unknown; hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage: () => unknown }; rows: T[]; empty: string; children: React.ReactNode }) {
  if (q.isPending) return <p className="muted">Loading…</p>;
  if (q.isError)
    return (
      <div className="inline-state" role="alert">
        <span>Could not load the log: {errorMessage(q.error)}</span>
        <button type="button" className="link-btn" onClick={() => void q.refetch()}>
          Retry
        </button>
      </div>
    );
  if (!rows.length) return <p className="muted" data-testid="log-empty">{empty}</p>;
  return (
    <>
      {children}
      {q.hasNextPage && (
        <button type="button" className="btn logs-more" disabled={q.isFetchingNextPage} onClick={() => void q.fetchNextPage()}>
          {q.isFetchingNextPage ? 'Loading…' : 'Load more'}
        </button>
      )}
    </>
  );
}

function AuditTab({ orgId }: { orgId: string }) {
  const [f, setF] = useState<AuditFilters>({ area: '', actor: '', from: '', to: '' });
  const [actorDraft, setActorDraft] = useState('');
  const q = useInfiniteQuery({
    queryKey: logKeys.audit(orgId, f),
    queryFn: ({ pageParam }) => logsApi.audit(orgId, f, pageParam ?? undefined),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.cursor,
  });
  const rows = q.data?.pages.flatMap((p) => p.entries) ?? [];
  return (
    <div className="logs-tab" data-testid="audit-tab">
      <form
        className="logs-filters"
        role="search"
        aria-label="Audit filters"
        onSubmit={(e) => {
          e.preventDefault();
          setF({ ...f, actor: actorDraft });
        }}
      >
        <label>
          Area
          <select value={f.area} onChange={(e) => setF({ ...f, area: e.target.value })} data-testid="audit-area">
            <option value="">All areas</option>
            {AREAS.map((a) => (
              <option key={a} value={a}>
                {a[0]!.toUpperCase() + a.slice(1)}
              </option>
            ))}
          </select>
        </label>
        <label>
          Who
          <input type="email" placeholder="member email" value={actorDraft} onChange={(e) => setActorDraft(e.target.value)} onBlur={() => setF({ ...f, actor: actorDraft })} />
        </label>
        <label>
          From
          <input type="date" value={f.from} max={f.to || undefined} onChange={(e) => setF({ ...f, from: e.target.value })} />
        </label>
        <label>
          To
          <input type="date" value={f.to} min={f.from || undefined} onChange={(e) => setF({ ...f, to: e.target.value })} />
        </label>
      </form>
      <Paged q={q} rows={rows} empty="No admin actions match these filters in the last 90 days.">
        <table className="logs-table" data-testid="audit-log">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Who</th>
              <th scope="col">Area</th>
              <th scope="col">What</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.audit_id} data-testid="audit-row" data-action={r.action}>
                <td className="nowrap">{when(r.at)}</td>
                <td>{r.actor}</td>
                <td>{r.area}</td>
                <td>
                  {r.summary}
                  <div className="muted small">{r.action} · {r.target}</div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </Paged>
    </div>
  );
}

function ApiTab({ orgId }: { orgId: string }) {
  const [status, setStatus] = useState('');
  const q = useInfiniteQuery({
    queryKey: logKeys.api(orgId),
    queryFn: ({ pageParam }) => logsApi.api(orgId, pageParam ?? undefined),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.cursor,
  });
  const all = q.data?.pages.flatMap((p) => p.logs) ?? [];
  const rows = status ? all.filter((r) => String(r.status)[0] === status) : all;
  return (
    <div className="logs-tab" data-testid="api-tab">
      <div className="logs-filters">
        <label>
          Status
          <select value={status} onChange={(e) => setStatus(e.target.value)}>
            <option value="">Any</option>
            <option value="2">2xx</option>
            <option value="4">4xx</option>
            <option value="5">5xx</option>
          </select>
        </label>
      </div>
      <Paged q={q} rows={rows} empty="No public API requests yet (API keys: Settings → Integrations → API).">
        <table className="logs-table">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Request</th>
              <th scope="col">Status</th>
              <th scope="col">Latency</th>
              <th scope="col">Key</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.log_id}>
                <td className="nowrap">{when(r.at)}</td>
                <td>
                  {r.method} {r.path}
                </td>
                <td>{r.status}</td>
                <td>{r.latency_ms} ms</td>
                <td className="muted">{r.key_id}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </Paged>
    </div>
  );
}

function WebhooksTab({ orgId }: { orgId: string }) {
  const endpoints = useQuery({ queryKey: logKeys.endpoints(orgId), queryFn: () => logsApi.endpoints(orgId) });
  const [picked, setPicked] = useState('');
  const [status, setStatus] = useState('');
  const endpointId = picked || endpoints.data?.[0]?.endpoint_id || '';
  const q = useInfiniteQuery({
    queryKey: logKeys.deliveries(orgId, endpointId),
    queryFn: ({ pageParam }) => logsApi.deliveries(orgId, endpointId, pageParam ?? undefined),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.cursor,
    enabled: !!endpointId,
  });
  const all = q.data?.pages.flatMap((p) => p.deliveries) ?? [];
  const rows = status ? all.filter((d) => d.status === status) : all;
  if (endpoints.isPending) return <p className="muted">Loading…</p>;
  if (!endpoints.data?.length) return <p className="muted" data-testid="log-empty">No webhook endpoints yet (Settings → Integrations → Webhooks).</p>;
  return (
    <div className="logs-tab" data-testid="webhooks-tab">
      <div className="logs-filters">
        <label>
          Endpoint
          <select value={endpointId} onChange={(e) => setPicked(e.target.value)}>
            {endpoints.data.map((e) => (
              <option key={e.endpoint_id} value={e.endpoint_id}>
                {e.kind} · {e.url}
              </option>
            ))}
          </select>
        </label>
        <label>
          Status
          <select value={status} onChange={(e) => setStatus(e.target.value)}>
            <option value="">Any</option>
            <option value="succeeded">Succeeded</option>
            <option value="failed">Failed</option>
            <option value="pending">Pending</option>
          </select>
        </label>
      </div>
      <Paged q={q} rows={rows} empty="No deliveries match.">
        <table className="logs-table">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Event</th>
              <th scope="col">Status</th>
              <th scope="col">Response</th>
              <th scope="col">Attempts</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((d) => (
              <tr key={d.delivery_id}>
                <td className="nowrap">{when(d.created_at)}</td>
                <td>{d.event_type}</td>
                <td>{d.status}</td>
                <td>{d.response_code ?? '—'}</td>
                <td>
                  {d.attempts}/{d.max_attempts}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </Paged>
    </div>
  );
}

const Later = ({ what }: { what: string }) => (
  <p className="muted logs-later" data-testid="log-later">
    The {what} log arrives with {what === 'AI' ? 'the AI agent' : `the ${what.toLowerCase()} feature`}: it will list here what it did, with filters and paging, kept 90 days.
  </p>
);

export function LogsPage() {
  const { org } = useSession();
  const [tab, setTab] = useState('audit');
  const items = useMemo(
    () => [
      { value: 'audit', label: 'Audit', testId: 'logs-tab-audit', panel: <AuditTab orgId={org.org_id} /> },
      { value: 'api', label: 'API requests', testId: 'logs-tab-api', panel: <ApiTab orgId={org.org_id} /> },
      { value: 'webhooks', label: 'Webhook deliveries', testId: 'logs-tab-webhooks', panel: <WebhooksTab orgId={org.org_id} /> },
      { value: 'rules', label: 'Rules', testId: 'logs-tab-rules', panel: <Later what="Rules" /> },
      { value: 'broadcasts', label: 'Broadcasts', testId: 'logs-tab-broadcasts', panel: <Later what="Broadcasts" /> },
      { value: 'ai', label: 'AI', testId: 'logs-tab-ai', panel: <Later what="AI" /> },
    ],
    [org.org_id],
  );
  return (
    <div className="page logs-page" data-testid="logs-page">
      <header className="page-header">
        <MenuButton />
        <h1>Logs</h1>
      </header>
      <div className="page-body">
        <Tabs items={items} value={tab} onChange={setTab} label="Logs" />
      </div>
    </div>
  );
}
