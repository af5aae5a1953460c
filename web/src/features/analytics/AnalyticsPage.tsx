/**
 * /analytics (issue 19; spec §2, §9): a date range (presets or two dates; the spec §9 picker rules:
 * clamped to the last year and today, reversed ends swapped, an end before the start set to it;
 * shown 'DD MMM YY'), the figures compared with the previous period of the same length, charts
 * (lazy: uPlot loads with them), tables per member, number and label with drill-down links to the
 * chats behind them, busiest hours, most active groups, and a CSV export. Members follow
 * member_permissions.analytics (the route's PageGate shows Restricted). Desktop only.
 * Days and hours are the org's (its time zone; the report says which and what 'today' is there).
 * Starter (spec §9: no advanced analytics, no exports): the basic figures and the per-day chart
 * stay; the comparison, busiest hours, tables and groups show an upgrade note (PlanGate's data:
 * useHasFeature), and Export CSV is offered only with `exports`. Groups load in a second request.
 */
import { lazy, Suspense, useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { useQuery } from '@tanstack/react-query';
import { format } from 'date-fns';
import { MenuButton } from '../../app/shell/MenuButton.tsx';
import { useSession } from '../../app/session.tsx';
import { useToast } from '../../app/toast.tsx';
import { errorMessage } from '../../lib/api.ts';
import { formatPhone, chatNumber } from '../../lib/format.ts';
import { editRange, RANGE_DATE_FORMAT, type DayRange } from '#shared/analytics/date-range.rules.ts';
import { useHasFeature } from '../plans/index.ts';
import { analyticsApi, analyticsKeys, type AnalyticsReport, type Figures } from './api.ts';
import './analytics.css';

const Charts = {
  Traffic: lazy(() => import('./Charts.tsx').then((m) => ({ default: m.TrafficChart }))),
  Hours: lazy(() => import('./Charts.tsx').then((m) => ({ default: m.HoursChart }))),
};

const DAY = 86_400_000;
const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const show = (d: string) => format(Date.parse(`${d}T12:00:00Z`), RANGE_DATE_FORMAT);

/** ms -> '1h 5m', '3m 20s', '45s'; '—' without samples. */
export function duration(ms: number | null): string {
  if (ms === null) return '—';
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${s % 60}s`;
  const h = Math.floor(m / 60);
  if (h < 48) return `${h}h ${m % 60}m`;
  return `${Math.floor(h / 24)}d ${h % 24}h`;
}

const PRESETS = [
  { label: 'Today', days: 1 },
  { label: 'Last 7 days', days: 7 },
  { label: 'Last 30 days', days: 30 },
  { label: 'Last 90 days', days: 90 },
];

const KPIS: Array<{ key: keyof Figures; label: string; time?: boolean; lowerIsBetter?: boolean; to?: string }> = [
  { key: 'conversations_opened', label: 'Conversations opened', to: '/chats' },
  { key: 'conversations_closed', label: 'Conversations closed', to: '/chats?state=closed' },
  { key: 'messages_in', label: 'Messages in' },
  { key: 'messages_out', label: 'Messages out' },
  { key: 'first_response_ms', label: 'First response', time: true, lowerIsBetter: true },
  { key: 'response_ms', label: 'Avg. response', time: true, lowerIsBetter: true },
  { key: 'resolution_ms', label: 'Resolution', time: true, lowerIsBetter: true },
  { key: 'tickets_created', label: 'Tickets created', to: '/tickets' },
  { key: 'tickets_resolved', label: 'Tickets resolved', to: '/tickets?status=closed' },
  // issue 17 §6: SLA targets breached (the breach report is on /rules, SLA tab)
  { key: 'sla_breaches', label: 'SLA breaches', lowerIsBetter: true, to: '/rules' },
];

function Delta({ now, before, lowerIsBetter }: { now: number | null; before: number | null | undefined; lowerIsBetter?: boolean }) {
  if (before === undefined) return null;
  if (now === null || before === null || before === 0) return <span className="an-delta muted">no earlier figure</span>;
  const pct = Math.round(((now - before) / before) * 100);
  if (pct === 0) return <span className="an-delta muted">same as before</span>;
  const good = lowerIsBetter ? pct < 0 : pct > 0;
  return <span className={`an-delta ${good ? 'an-good' : 'an-bad'}`}>{`${pct > 0 ? '+' : ''}${pct}% vs previous`}</span>;
}

function FigureTable({ title, rows, name, link, testId }: { title: string; rows: Array<Figures & { key: string }>; name: (k: string) => string; link: (k: string) => string; testId: string }) {
  return (
    <section className="an-card" aria-label={title}>
      <h2>{title}</h2>
      {rows.length === 0 ? (
        <p className="muted small">Nothing in this range.</p>
      ) : (
        <table className="an-table" data-testid={testId}>
          <thead>
            <tr>
              <th scope="col">{title.replace(/^By (.)/, (_m, c: string) => c.toUpperCase())}</th>
              <th scope="col">In</th>
              <th scope="col">Out</th>
              <th scope="col">Opened</th>
              <th scope="col">Closed</th>
              <th scope="col">Assigned</th>
              <th scope="col">First response</th>
              <th scope="col">Avg. response</th>
              <th scope="col">SLA breaches</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.key}>
                <td>
                  <Link to={link(r.key)}>{name(r.key)}</Link>
                </td>
                <td>{r.messages_in}</td>
                <td>{r.messages_out}</td>
                <td>{r.conversations_opened}</td>
                <td>{r.conversations_closed}</td>
                <td>{r.assigned}</td>
                <td>{duration(r.first_response_ms)}</td>
                <td>{duration(r.response_ms)}</td>
                <td>{r.sla_breaches ?? 0}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** Where Starter's advanced parts would be: what they are and where to upgrade (spec §9). */
function Upgrade({ what }: { what: string }) {
  const { org } = useSession();
  return (
    <section className="an-card an-upgrade" data-testid="analytics-upgrade">
      <h2>{what}</h2>
      <p className="muted small">
        Advanced analytics is not included in your plan.{' '}
        {org.role === 'admin' ? <Link to="/settings/plans/select">See plans</Link> : 'Ask an admin to upgrade the plan.'}
      </p>
    </section>
  );
}

function Groups({ orgId, from, to }: { orgId: string; from: string; to: string }) {
  const q = useQuery({ queryKey: analyticsKeys.groups(orgId, from, to), queryFn: () => analyticsApi.groups(orgId, from, to), placeholderData: (prev) => prev });
  return (
    <section className="an-card" aria-label="Most active groups">
      <h2>Most active groups</h2>
      {q.isPending ? (
        <p className="muted small">Loading groups…</p>
      ) : q.isError ? (
        <p className="muted small" role="alert">
          Could not load the groups: {errorMessage(q.error)}
        </p>
      ) : q.data.groups.length === 0 ? (
        <p className="muted small">No group messages in this range.</p>
      ) : (
        <ol className="an-groups" data-testid="groups">
          {q.data.groups.map((g) => (
            <li key={g.chat_id}>
              <Link to={`/chats/${encodeURIComponent(g.chat_id)}`}>{chatNumber(g.chat_id)}</Link> — {g.messages} messages
              {g.top_members.length > 0 && <span className="muted small"> · most active: {g.top_members.map((m) => `${formatPhone(m.author)} (${m.messages})`).join(', ')}</span>}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

/** Tables per member, number and label: a second request (GET /analytics/breakdown). */
function Breakdown({ orgId, from, to }: { orgId: string; from: string; to: string }) {
  const q = useQuery({ queryKey: analyticsKeys.breakdown(orgId, from, to), queryFn: () => analyticsApi.breakdown(orgId, from, to), placeholderData: (prev) => prev });
  const phones = useQuery({ queryKey: analyticsKeys.phones(orgId), queryFn: () => analyticsApi.phones(orgId), staleTime: 60_000 });
  const labels = useQuery({ queryKey: analyticsKeys.labels(orgId), queryFn: () => analyticsApi.labels(orgId), staleTime: 60_000 });
  const phoneOf = useMemo(() => new Map((phones.data ?? []).map((p) => [p.phone_id, p])), [phones.data]);
  const labelOf = useMemo(() => new Map((labels.data ?? []).map((l) => [l.label_id, l.name])), [labels.data]);
  if (q.isPending) return <p className="muted small">Loading members, numbers and labels…</p>;
  if (q.isError)
    return (
      <div className="inline-state" role="alert">
        <span>Could not load the tables: {errorMessage(q.error)}</span>
        <button type="button" className="link-btn" onClick={() => void q.refetch()}>
          Retry
        </button>
      </div>
    );
  const b = q.data;
  return (
    <>
      <FigureTable title="By member" testId="table-members" rows={b.members.map((m) => ({ ...m, key: m.email }))} name={(k) => k} link={(k) => `/chats?assignee=${encodeURIComponent(k)}`} />
      <FigureTable
        title="By number"
        testId="table-numbers"
        rows={b.phones.map((p) => ({ ...p, key: p.phone_id }))}
        name={(k) => (phoneOf.get(k) ? formatPhone(phoneOf.get(k)!.org_phone) : k)}
        link={(k) => (phoneOf.get(k) ? `/chats?phone=${phoneOf.get(k)!.org_phone}` : '/chats')}
      />
      <FigureTable title="By label" testId="table-labels" rows={b.labels.map((l) => ({ ...l, key: l.label_id }))} name={(k) => labelOf.get(k) ?? k} link={(k) => `/chats?label_id=${encodeURIComponent(k)}`} />
    </>
  );
}

function Report({ r, orgId }: { r: AnalyticsReport; orgId: string }) {
  const hours = r.busiest_hours;
  const peak = hours ? hours.indexOf(Math.max(...hours)) : -1;
  return (
    <>
      <div className="an-kpis" data-testid="analytics-kpis">
        {KPIS.map((k) => {
          const v = r.totals[k.key];
          const text = k.time ? duration(v) : (v ?? 0).toLocaleString();
          return (
            <div key={k.key} className="an-kpi" data-testid={`kpi-${k.key}`}>
              <span className="an-kpi-label">{k.label}</span>
              {k.to ? (
                <Link className="an-kpi-value" to={k.to} title="See the chats behind this figure">
                  {text}
                </Link>
              ) : (
                <span className="an-kpi-value">{text}</span>
              )}
              <Delta now={v} before={r.previous ? r.previous.totals[k.key] : undefined} lowerIsBetter={k.lowerIsBetter} />
            </div>
          );
        })}
      </div>
      <div className="an-charts">
        <section className="an-card" aria-label="Messages per day">
          <h2>Messages per day</h2>
          <Suspense fallback={<div className="an-chart an-chart-loading muted">Loading chart…</div>}>
            <Charts.Traffic days={r.series.map((s) => s.day)} inbound={r.series.map((s) => s.messages_in)} outbound={r.series.map((s) => s.messages_out)} />
          </Suspense>
        </section>
        {hours ? (
          <section className="an-card" aria-label="Busiest hours">
            <h2>Busiest hours</h2>
            <Suspense fallback={<div className="an-chart an-chart-loading muted">Loading chart…</div>}>
              <Charts.Hours hours={hours} />
            </Suspense>
            <p className="muted small" data-testid="busiest">
              {hours[peak] ? `Busiest: ${peak}:00–${peak + 1}:00 (${hours[peak]} messages)` : 'No messages in this range.'}
            </p>
          </section>
        ) : (
          <Upgrade what="Busiest hours" />
        )}
      </div>
      {r.advanced ? (
        <>
          <Breakdown orgId={orgId} from={r.from} to={r.to} />
          <Groups orgId={orgId} from={r.from} to={r.to} />
        </>
      ) : (
        <Upgrade what="Members, numbers, labels and groups" />
      )}
    </>
  );
}

export function AnalyticsPage() {
  const { org } = useSession();
  const toast = useToast();
  const exportsOk = useHasFeature('exports');
  // 'today' is the org's (its time zone), known from the last report; UTC's until the first one
  const [orgToday, setOrgToday] = useState<string | null>(null);
  const today = orgToday ?? utcDay(Date.now());
  const minus = (d: string, n: number) => utcDay(Date.parse(`${d}T00:00:00Z`) - n * DAY);
  const min = minus(today, 365);
  const [sel, setSel] = useState<{ preset: number } | DayRange>({ preset: 7 });
  const range: DayRange = 'preset' in sel ? { from: minus(today, sel.preset - 1), to: today } : sel;
  const setRange = (r: DayRange) => setSel(r);
  const q = useQuery({ queryKey: analyticsKeys.report(org.org_id, range.from, range.to), queryFn: () => analyticsApi.report(org.org_id, range.from, range.to), placeholderData: (prev) => prev });
  if (q.data && q.data.today !== orgToday) setOrgToday(q.data.today);
  const [exporting, setExporting] = useState(false);
  const exportCsv = async () => {
    setExporting(true);
    try {
      await analyticsApi.exportCsv(org.org_id, range.from, range.to);
    } catch (e) {
      toast.show(errorMessage(e), 'error');
    } finally {
      setExporting(false);
    }
  };
  return (
    <div className="page an-page" data-testid="analytics-page">
      <header className="page-header">
        <MenuButton />
        <h1>Analytics</h1>
      </header>
      <div className="page-body an-body">
        <div className="an-toolbar" role="group" aria-label="Date range">
          {PRESETS.map((p) => {
            const from = minus(today, p.days - 1);
            return (
              <button key={p.label} type="button" className={`btn ${range.from === from && range.to === today ? 'btn-primary' : ''}`} onClick={() => setSel({ preset: p.days })}>
                {p.label}
              </button>
            );
          })}
          <label className="an-date">
            From
            <input type="date" data-testid="range-from" value={range.from} min={min} max={today} onChange={(e) => e.target.value && setRange(editRange(range, { from: e.target.value }, min, today))} />
          </label>
          <label className="an-date">
            To
            <input type="date" data-testid="range-to" value={range.to} min={min} max={today} onChange={(e) => e.target.value && setRange(editRange(range, { to: e.target.value }, min, today))} />
          </label>
          <span className="an-range" data-testid="range-label">
            {show(range.from)} – {show(range.to)}
          </span>
          {exportsOk !== false && (
            <button type="button" className="btn" onClick={() => void exportCsv()} disabled={exporting} data-testid="export-csv">
              {exporting ? 'Exporting…' : 'Export CSV'}
            </button>
          )}
        </div>
        {q.data && (
          <p className="muted small" data-testid="compare-label">
            {q.data.previous ? `Compared with ${show(q.data.previous.from)} – ${show(q.data.previous.to)}. ` : ''}Days and hours are in {q.data.time_zone.replace(/_/g, ' ')}.
          </p>
        )}
        {q.isPending && <p className="muted">Loading figures…</p>}
        {q.isError && (
          <div className="inline-state" role="alert">
            <span>Could not load the figures: {errorMessage(q.error)}</span>
            <button type="button" className="link-btn" onClick={() => void q.refetch()}>
              Retry
            </button>
          </div>
        )}
        {q.data && <Report r={q.data} orgId={org.org_id} />}
      </div>
    </div>
  );
}
