/**
 * /dashboard (issue 19; spec §2): today at a glance — open, unassigned, unread, my chats, my open
 * tickets, overdue tasks — each linking to the filtered list, today's traffic, and the connected
 * numbers with their health. A platform organization (no inbox) sees its numbers and its queues
 * (depth, dead letters) and the last activity. Refreshed every 30 s.
 */
import { Link } from 'react-router-dom';
import { useQuery } from '@tanstack/react-query';
import { formatDistanceToNow } from 'date-fns';
import { MenuButton } from '../../app/shell/MenuButton.tsx';
import { useSession } from '../../app/session.tsx';
import { errorMessage } from '../../lib/api.ts';
import { formatPhone } from '../../lib/format.ts';
import { dashboardApi, dashboardKeys, type Dashboard } from './api.ts';
import './dashboard.css';

const HEALTH_LABEL = { connected: 'Connected', attention: 'Needs attention', disconnected: 'Disconnected' } as const;

function Tile({ label, value, to, testId }: { label: string; value: number; to?: string; testId: string }) {
  const body = (
    <>
      <span className="dash-value">{value.toLocaleString()}</span>
      <span className="dash-label">{label}</span>
    </>
  );
  return to ? (
    <Link className="dash-tile" to={to} data-testid={testId}>
      {body}
    </Link>
  ) : (
    <div className="dash-tile" data-testid={testId}>
      {body}
    </div>
  );
}

function Phones({ phones }: { phones: Dashboard['phones'] }) {
  if (!phones.length)
    return (
      <p className="muted">
        No numbers connected yet. <Link to="/settings/phones">Connect a number</Link>
      </p>
    );
  return (
    <ul className="dash-phones" data-testid="dashboard-phones">
      {phones.map((p) => (
        <li key={p.phone_id} className="dash-phone">
          <span className={`dash-dot dash-${p.health}`} aria-hidden />
          <Link to={`/chats?phone=${encodeURIComponent(p.org_phone)}`}>{p.verified_name ? `${p.verified_name} · ` : ''}{formatPhone(p.org_phone)}</Link>
          <span className="muted small">{p.connection_type === 'wa_web' ? 'WhatsApp Web' : 'Cloud API'}</span>
          <span className={`dash-health dash-${p.health}`}>{HEALTH_LABEL[p.health]}</span>
        </li>
      ))}
    </ul>
  );
}

export function DashboardPage() {
  const { org } = useSession();
  const q = useQuery({ queryKey: dashboardKeys.summary(org.org_id), queryFn: () => dashboardApi.get(org.org_id), refetchInterval: 30_000 });
  const d = q.data;
  return (
    <div className="page dash-page" data-testid="dashboard-page">
      <header className="page-header">
        <MenuButton />
        <h1>Dashboard</h1>
      </header>
      <div className="page-body dash-body">
        {q.isPending && <p className="muted">Loading today’s figures…</p>}
        {q.isError && (
          <div className="inline-state" role="alert">
            <span>Could not load the dashboard: {errorMessage(q.error)}</span>
            <button type="button" className="link-btn" onClick={() => void q.refetch()}>
              Retry
            </button>
          </div>
        )}
        {d && !d.is_platform && (
          <section aria-labelledby="dash-today">
            <h2 id="dash-today">Today at a glance</h2>
            <div className="dash-grid">
              <Tile label="Open chats" value={d.today.open} to="/chats" testId="dash-open" />
              <Tile label="Unassigned" value={d.today.unassigned} to="/chats?assignee=none" testId="dash-unassigned" />
              <Tile label="Unread" value={d.today.unread} to="/chats?unread=true" testId="dash-unread" />
              <Tile label="My chats" value={d.today.mine} to="/chats?assignee=me" testId="dash-mine" />
              <Tile label="My open tickets" value={d.today.my_open_tickets} to="/tickets?assignee=me&status=open" testId="dash-tickets" />
              <Tile label="Overdue tasks" value={d.today.overdue_tasks} testId="dash-overdue" />
            </div>
            <p className="muted small dash-traffic" data-testid="dash-traffic">
              Today: {d.today.messages_in.toLocaleString()} messages in, {d.today.messages_out.toLocaleString()} out, {d.today.conversations_opened.toLocaleString()} conversations opened.{' '}
              <Link to="/analytics">See analytics</Link>
            </p>
          </section>
        )}
        {d && (
          <section aria-labelledby="dash-phones">
            <h2 id="dash-phones">Numbers</h2>
            <Phones phones={d.phones} />
          </section>
        )}
        {d?.is_platform && (
          <section aria-labelledby="dash-queues">
            <h2 id="dash-queues">Queues</h2>
            {d.queues ? (
              <table className="dash-table" data-testid="dashboard-queues">
                <thead>
                  <tr>
                    <th scope="col">Queue</th>
                    <th scope="col">Waiting</th>
                    <th scope="col">Dead letters</th>
                  </tr>
                </thead>
                <tbody>
                  {d.queues.map((x) => (
                    <tr key={x.name}>
                      <td>{x.name}</td>
                      <td>{x.depth}</td>
                      <td className={x.dead_letters ? 'dash-bad' : undefined}>{x.dead_letters}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            ) : (
              <p className="muted">Queue status is not available in this deployment.</p>
            )}
            <p className="muted small">Last activity: {d.last_activity_at ? `${formatDistanceToNow(d.last_activity_at)} ago` : 'none yet'}</p>
          </section>
        )}
      </div>
    </div>
  );
}
