/**
 * /logs (issue 19; spec §2), admins only (Restricted for members): tabs for the audit log of admin
 * actions (filters: area, who, date range), public API requests (status), webhook deliveries (per
 * endpoint: the webhooks feature's DeliveryLog, with replay), the rules log (GET /logs/rules;
 * outcome), the broadcast runs (GET /broadcasts; status, with each run's counts), the AI agent's
 * decisions (GET /ai/decisions; outcome) and the rejected WhatsApp webhooks (GET
 * /logs/webhook-rejections: signed bodies no schema accepted, with reason, size and body). Every table
 * is the one PagedLog (components/ui): cursor paging with "Load more", 50 a page. Rows are kept 90
 * days (broadcasts: runs of the last 90 days).
 */
import { useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { format } from 'date-fns';
import { MenuButton } from '../../app/shell/MenuButton.tsx';
import { useSession } from '../../app/session.tsx';
import { Tabs } from '../../components/ui/Tabs.tsx';
import { PagedLog } from '../../components/ui/PagedLog.tsx';
import { chatNumber } from '../../lib/format.ts';
import { DeliveryLog } from '../webhooks/index.ts';
import { logKeys, logsApi, type AuditFilters, type WebhookRejection } from './api.ts';
import { AUDIT_AREAS } from '#shared/audit/audit.rules.ts';
import './logs.css';

const BROADCAST_STATUSES = ['scheduled', 'running', 'paused', 'completed', 'cancelled'] as const;
const NINETY_DAYS_MS = 90 * 86_400_000;
const AREAS = AUDIT_AREAS;
/** How a kind of audit row reads in the filter and the table (the stored area, else capitalised). */
const AREA_LABELS: Partial<Record<string, string>> = { ai: 'AI agent', api: 'API keys', rules: 'Rules and SLA' };
const areaLabel = (a: string) => AREA_LABELS[a] ?? a[0]!.toUpperCase() + a.slice(1);
const RULE_OUTCOMES = ['matched', 'not_matched', 'skipped', 'failed', 'partial'] as const;
const when = (ms: number) => format(ms, 'dd MMM yy, HH:mm:ss');
const words = (s: string) => s.replace(/_/g, ' ');
const bytes = (n: number) => (n < 1024 ? `${n} B` : n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KB` : `${(n / 1024 / 1024).toFixed(1)} MB`);
/** A kept body for reading: JSON indented, anything else as it is. */
const pretty = (raw: string) => {
  try {
    return JSON.stringify(JSON.parse(raw), null, 2);
  } catch {
    return raw;
  }
};

/** A cursor-paged infinite query of one log endpoint. */
function usePaged<P extends { cursor: string | null }>(key: readonly unknown[], fetch: (cursor?: string) => Promise<P>, enabled = true) {
  return useInfiniteQuery({ queryKey: key, queryFn: ({ pageParam }) => fetch(pageParam ?? undefined), initialPageParam: null as string | null, getNextPageParam: (last) => last.cursor, enabled });
}

function AuditTab({ orgId }: { orgId: string }) {
  const [f, setF] = useState<AuditFilters>({ area: '', actor: '', from: '', to: '' });
  const [actorDraft, setActorDraft] = useState('');
  const q = usePaged(logKeys.audit(orgId, f), (c) => logsApi.audit(orgId, f, c));
  return (
    <div data-testid="audit-tab">
      <PagedLog
        q={q}
        rows={q.data?.pages.flatMap((p) => p.entries) ?? []}
        testId="audit-log"
        rowKey={(r) => r.audit_id}
        rowProps={(r) => ({ 'data-testid': 'audit-row', 'data-action': r.action })}
        empty="No admin actions match these filters in the last 90 days."
        filters={
          <form
            className="paged-log-filters"
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
                    {areaLabel(a)}
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
        }
        columns={[
          { header: 'When', cell: (r) => when(r.at), nowrap: true },
          { header: 'Who', cell: (r) => r.actor },
          { header: 'Area', cell: (r) => areaLabel(r.area) },
          {
            header: 'What',
            cell: (r) => (
              <>
                {r.summary}
                <div className="muted small">
                  {r.action} · {r.target}
                </div>
              </>
            ),
          },
        ]}
      />
    </div>
  );
}

function ApiTab({ orgId }: { orgId: string }) {
  const [status, setStatus] = useState('');
  const q = usePaged(logKeys.api(orgId), (c) => logsApi.api(orgId, c));
  const all = q.data?.pages.flatMap((p) => p.logs) ?? [];
  return (
    <div data-testid="api-tab">
      <PagedLog
        q={q}
        rows={status ? all.filter((r) => String(r.status)[0] === status) : all}
        testId="api-log"
        rowKey={(r) => r.log_id}
        empty="No public API requests yet (API keys: Settings → Integrations → API)."
        filters={
          <label>
            Status
            <select value={status} onChange={(e) => setStatus(e.target.value)}>
              <option value="">Any</option>
              <option value="2">2xx</option>
              <option value="4">4xx</option>
              <option value="5">5xx</option>
            </select>
          </label>
        }
        columns={[
          { header: 'When', cell: (r) => when(r.at), nowrap: true },
          { header: 'Request', cell: (r) => `${r.method} ${r.path}` },
          { header: 'Status', cell: (r) => r.status },
          { header: 'Latency', cell: (r) => `${r.latency_ms} ms` },
          { header: 'Key', cell: (r) => <span className="muted">{r.key_id}</span> },
        ]}
      />
    </div>
  );
}

/** The endpoint picker over the webhooks feature's own delivery log (status, attempts, replay). */
function WebhooksTab({ orgId }: { orgId: string }) {
  const endpoints = useQuery({ queryKey: logKeys.endpoints(orgId), queryFn: () => logsApi.endpoints(orgId) });
  const [picked, setPicked] = useState('');
  const endpointId = picked || endpoints.data?.[0]?.endpoint_id || '';
  if (endpoints.isPending) return <p className="muted">Loading…</p>;
  if (!endpoints.data?.length) return <p className="muted" data-testid="log-empty">No webhook endpoints yet (Settings → Integrations → Webhooks).</p>;
  return (
    <div className="paged-log" data-testid="webhooks-tab">
      <div className="paged-log-filters">
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
      </div>
      <DeliveryLog key={endpointId} orgId={orgId} endpointId={endpointId} />
    </div>
  );
}

/** The Outcome (or Status) select of the Rules, Broadcasts and AI tabs ('' = any). */
function OutcomeFilter({ value, onChange, outcomes, testId, label = 'Outcome' }: { value: string; onChange: (v: string) => void; outcomes: readonly string[]; testId: string; label?: string }) {
  return (
    <label>
      {label}
      <select value={value} onChange={(e) => onChange(e.target.value)} data-testid={testId}>
        <option value="">Any</option>
        {outcomes.map((o) => (
          <option key={o} value={o}>
            {words(o)}
          </option>
        ))}
      </select>
    </label>
  );
}

function RulesTab({ orgId }: { orgId: string }) {
  const [outcome, setOutcome] = useState('');
  const q = usePaged(logKeys.rules(orgId, outcome), (c) => logsApi.rules(orgId, outcome, c));
  return (
    <div data-testid="rules-tab">
      <PagedLog
        q={q}
        rows={q.data?.pages.flatMap((p) => p.logs) ?? []}
        testId="rules-log"
        rowKey={(r) => r.log_id}
        rowProps={(r) => ({ 'data-testid': 'rule-log-row', 'data-outcome': r.outcome })}
        empty="No rule runs match in the last 90 days."
        filters={
          <OutcomeFilter value={outcome} onChange={setOutcome} outcomes={RULE_OUTCOMES} testId="rules-outcome" />
        }
        columns={[
          { header: 'When', cell: (r) => when(r.at), nowrap: true },
          // a rule's name opens its log on /rules; a summary row ('*': the rules an event did not match) names no one rule
          { header: 'Rule', cell: (r) => (r.rule_id === '*' ? r.rule_name : <Link to={`/rules?log=${encodeURIComponent(r.rule_id)}`}>{r.rule_name}</Link>) },
          { header: 'Trigger', cell: (r) => words(r.trigger) },
          { header: 'Chat', cell: (r) => (r.chat_id ? <Link to={`/chats/${encodeURIComponent(r.chat_id)}`}>{chatNumber(r.chat_id)}</Link> : '—') },
          {
            header: 'Outcome',
            cell: (r) => (
              <>
                {words(r.outcome)}
                {(r.reasons.length > 0 || r.actions.length > 0) && (
                  <div className="muted small">{[...r.reasons, ...r.actions.map((a) => `${words(a.type)}: ${a.status}${a.detail ? ` (${a.detail})` : ''}`)].join(' · ')}</div>
                )}
              </>
            ),
          },
        ]}
      />
    </div>
  );
}

function AiTab({ orgId }: { orgId: string }) {
  const [outcome, setOutcome] = useState('');
  const q = usePaged(logKeys.ai(orgId), (c) => logsApi.ai(orgId, c));
  const all = q.data?.pages.flatMap((p) => p.decisions) ?? [];
  const outcomes = [...new Set(all.map((d) => d.outcome))].sort();
  return (
    <div data-testid="ai-tab">
      <PagedLog
        q={q}
        rows={outcome ? all.filter((d) => d.outcome === outcome) : all}
        testId="ai-log"
        rowKey={(d) => d.decision_id}
        rowProps={(d) => ({ 'data-testid': 'ai-log-row', 'data-outcome': d.outcome })}
        empty="No AI agent decisions in the last 90 days."
        filters={
          <OutcomeFilter value={outcome} onChange={setOutcome} outcomes={outcomes} testId="ai-outcome" />
        }
        columns={[
          { header: 'When', cell: (d) => when(d.created_at), nowrap: true },
          { header: 'Chat', cell: (d) => <Link to={`/chats/${encodeURIComponent(d.chat_id)}`}>{chatNumber(d.chat_id)}</Link> },
          { header: 'Question', cell: (d) => d.question ?? <span className="muted">hidden</span> },
          {
            header: 'Outcome',
            cell: (d) => (
              <>
                {words(d.outcome)}
                {d.confidence !== null && <span className="muted small"> · {Math.round(d.confidence * 100)}%</span>}
                {(d.reason || d.answer) && <div className="muted small">{d.answer ?? d.reason}</div>}
              </>
            ),
          },
          { header: 'Latency', cell: (d) => (d.latency_ms === null ? '—' : `${d.latency_ms} ms`) },
        ]}
      />
    </div>
  );
}

/**
 * The broadcast runs of the last 90 days, newest first (GET /broadcasts, which follows
 * member_permissions.bulk_message; /logs is admins only anyway). The status filter applies to the
 * loaded pages, like the AI tab's outcome; each run links to its detail on /broadcast.
 */
function BroadcastsTab({ orgId }: { orgId: string }) {
  const [status, setStatus] = useState('');
  const q = usePaged(logKeys.broadcasts(orgId), (c) => logsApi.broadcasts(orgId, c));
  const since = Date.now() - NINETY_DAYS_MS;
  const all = (q.data?.pages.flatMap((p) => p.broadcasts) ?? []).filter((b) => b.created_at >= since);
  return (
    <div data-testid="broadcasts-tab">
      <PagedLog
        q={q}
        rows={status ? all.filter((b) => b.status === status) : all}
        testId="broadcasts-log"
        rowKey={(b) => b.broadcast_id}
        rowProps={(b) => ({ 'data-testid': 'broadcast-log-row', 'data-status': b.status })}
        empty="No broadcasts match in the last 90 days."
        filters={<OutcomeFilter value={status} onChange={setStatus} outcomes={BROADCAST_STATUSES} testId="broadcasts-status" label="Status" />}
        columns={[
          { header: 'When', cell: (b) => when(b.started_at ?? b.send_at ?? b.created_at), nowrap: true },
          { header: 'Broadcast', cell: (b) => <Link to={`/broadcast?broadcast=${encodeURIComponent(b.broadcast_id)}`}>{b.name}</Link> },
          { header: 'By', cell: (b) => b.created_by },
          {
            header: 'Status',
            cell: (b) => (
              <>
                {words(b.status)}
                {b.finished_at !== null && <div className="muted small">finished {when(b.finished_at)}</div>}
              </>
            ),
          },
          {
            header: 'Recipients',
            cell: (b) => (
              <span data-testid="broadcast-log-counts">
                {b.stats.sent} sent · {b.stats.delivered} delivered · {b.stats.read} read · {b.stats.replied} replied
                {(b.stats.failed > 0 || b.stats.skipped > 0 || b.stats.pending > 0) && (
                  <div className="muted small">
                    {[b.stats.failed && `${b.stats.failed} failed`, b.stats.skipped && `${b.stats.skipped} skipped`, b.stats.pending && `${b.stats.pending} waiting`].filter(Boolean).join(' · ')} of {b.stats.total}
                  </div>
                )}
              </span>
            ),
          },
        ]}
      />
    </div>
  );
}

/**
 * A rejected webhook's body: the list's preview, folded; a longer body is loaded whole (GET
 * /logs/webhook-rejections/{id}) when opened.
 */
function RejectionBody({ orgId, row }: { orgId: string; row: WebhookRejection }) {
  const [open, setOpen] = useState(false);
  const whole = useQuery({ queryKey: logKeys.rejection(orgId, row.rejection_id), queryFn: () => logsApi.rejection(orgId, row.rejection_id), enabled: open && row.truncated });
  const raw = row.truncated ? (whole.data?.raw_body ?? row.raw_body) : row.raw_body;
  return (
    <details onToggle={(e) => setOpen((e.target as HTMLDetailsElement).open)} data-testid="rejection-body">
      <summary>{bytes(row.size_bytes)}</summary>
      {open && row.truncated && whole.isPending && <p className="muted small">Loading the whole body…</p>}
      {open && whole.isError && <p className="muted small">Only the first part could be loaded.</p>}
      <pre className="rejection-raw">{pretty(raw)}</pre>
    </details>
  );
}

/** Signed WhatsApp webhooks no schema accepted: answered 200 (Meta would retry for 7 days) and kept here with the reason. */
function RejectionsTab({ orgId }: { orgId: string }) {
  const q = usePaged(logKeys.rejections(orgId), (c) => logsApi.rejections(orgId, c));
  return (
    <div data-testid="rejections-tab">
      <PagedLog
        q={q}
        rows={q.data?.pages.flatMap((p) => p.rejections) ?? []}
        testId="rejections-log"
        rowKey={(r) => r.rejection_id}
        rowProps={(r) => ({ 'data-testid': 'rejection-row', 'data-rejection-id': r.rejection_id })}
        empty="No WhatsApp webhook was rejected in the last 90 days."
        columns={[
          { header: 'When', cell: (r) => when(r.received_at), nowrap: true },
          { header: 'Reason', cell: (r) => r.reason },
          { header: 'Body', cell: (r) => <RejectionBody orgId={orgId} row={r} /> },
        ]}
      />
    </div>
  );
}

export function LogsPage() {
  const { org } = useSession();
  const [tab, setTab] = useState('audit');
  const items = useMemo(
    () => [
      { value: 'audit', label: 'Audit', testId: 'logs-tab-audit', panel: <AuditTab orgId={org.org_id} /> },
      { value: 'api', label: 'API requests', testId: 'logs-tab-api', panel: <ApiTab orgId={org.org_id} /> },
      { value: 'webhooks', label: 'Webhook deliveries', testId: 'logs-tab-webhooks', panel: <WebhooksTab orgId={org.org_id} /> },
      { value: 'rules', label: 'Rules', testId: 'logs-tab-rules', panel: <RulesTab orgId={org.org_id} /> },
      { value: 'broadcasts', label: 'Broadcasts', testId: 'logs-tab-broadcasts', panel: <BroadcastsTab orgId={org.org_id} /> },
      { value: 'ai', label: 'AI', testId: 'logs-tab-ai', panel: <AiTab orgId={org.org_id} /> },
      { value: 'rejections', label: 'Rejected webhooks', testId: 'logs-tab-rejections', panel: <RejectionsTab orgId={org.org_id} /> },
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
