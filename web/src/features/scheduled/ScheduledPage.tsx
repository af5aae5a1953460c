/**
 * /settings/scheduled (spec §2, open to members; issue 16 item 6): scheduled messages, a member's
 * own (admins: everyone's), with what, where, when next (in the org's time zone), the last run and
 * its outcome; Skip next, Pause / Resume, Edit (the text) and Delete. New ones are made from a chat
 * composer's Schedule action.
 */
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useSession } from '../../app/session.tsx';
import { useToast } from '../../app/toast.tsx';
import { MenuButton } from '../../app/shell/MenuButton.tsx';
import { ListSkeleton, LoadError } from '../../components/ui/ListStates.tsx';
import { SettingsTitle } from '../settings/index.ts';
import { errorMessage } from '../../lib/api.ts';
import { chatIdLabel } from '../../lib/format.ts';
import { scheduledApi, scheduledKeys, type ScheduledMessageView } from './api.ts';
import './scheduled.css';

function whenIn(ms: number, tz: string): string {
  return new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short', timeZone: tz }).format(ms);
}

export function ScheduledPage() {
  const { org } = useSession();
  const toast = useToast();
  const qc = useQueryClient();
  const q = useQuery({ queryKey: scheduledKeys.list(org.org_id), queryFn: () => scheduledApi.list(org.org_id) });
  const [editing, setEditing] = useState<{ id: string; text: string } | null>(null);
  const [busy, setBusy] = useState<string | null>(null);

  async function act(id: string, what: string, fn: () => Promise<unknown>) {
    setBusy(id);
    try {
      await fn();
      await qc.invalidateQueries({ queryKey: scheduledKeys.all(org.org_id) });
      toast.show(what);
    } catch (e) {
      toast.show(errorMessage(e), 'error');
    } finally {
      setBusy(null);
    }
  }

  const items = q.data?.scheduled ?? [];
  const tz = q.data?.time_zone ?? 'UTC';
  return (
    <div className="page" data-testid="scheduled-page">
      <header className="page-header">
        <MenuButton />
        <SettingsTitle title="Scheduled messages" />
      </header>
      <div className="page-body">
        <p className="tpl-intro sched-hint">
          {org.role === 'admin' ? 'Everyone’s scheduled messages.' : 'Your scheduled messages.'} Times are in the workspace’s time zone ({tz}). Schedule a new one from a chat: the clock button next to Send.
        </p>
        {q.isPending && <ListSkeleton rows={3} label="Loading scheduled messages" />}
        {q.isError && <LoadError what="scheduled messages" error={errorMessage(q.error)} onRetry={() => void q.refetch()} />}
        {q.data && items.length === 0 && (
          <div className="state-box empty" data-testid="scheduled-empty">
            <p>No scheduled messages.</p>
          </div>
        )}
        {items.length > 0 && (
          <ul className="sched-list" data-testid="scheduled-list">
            {items.map((s: ScheduledMessageView) => (
              <li key={s.schedule_id} className="sched-item" data-testid="scheduled-item" data-status={s.status}>
                <div>
                  {editing?.id === s.schedule_id ? (
                    <form
                      onSubmit={(e) => {
                        e.preventDefault();
                        void act(s.schedule_id, 'Saved', () => scheduledApi.update(org.org_id, s.schedule_id, { body: editing.text })).then(() => setEditing(null));
                      }}
                      className="sched-form"
                    >
                      <label className="sched-field">
                        <span>Message</span>
                        <textarea value={editing.text} onChange={(e) => setEditing({ ...editing, text: e.target.value })} rows={3} data-testid="scheduled-edit-text" />
                      </label>
                      <div className="sched-actions">
                        <button type="button" className="btn" onClick={() => setEditing(null)}>
                          Cancel
                        </button>
                        <button type="submit" className="btn btn-primary" data-testid="scheduled-save">
                          Save
                        </button>
                      </div>
                    </form>
                  ) : (
                    <div className="sched-text">{s.body ?? (s.template ? `Template ${s.template.name} (${s.template.language})` : '')}</div>
                  )}
                  <div className="sched-meta">
                    <span className={`sched-status sched-status-${s.status}`}>{s.status}</span>
                    <span>
                      to <Link to={`/chats/${encodeURIComponent(s.chat_id)}`}>{s.chat_name || chatIdLabel(s.chat_id)}</Link>
                    </span>
                    <span data-testid="scheduled-summary">{s.summary}</span>
                    {s.next_at != null && s.status === 'active' && <span data-testid="scheduled-next">Next: {whenIn(s.next_at, tz)}</span>}
                    {s.template && s.body && <span>Template if the window is closed: {s.template.name}</span>}
                    {org.role === 'admin' && <span>by {s.created_by}</span>}
                    {s.last_run && (
                      <span className={s.last_run.outcome === 'failed' ? 'sched-failed' : undefined}>
                        Last: {s.last_run.outcome}
                        {s.last_run.reason ? ` (${s.last_run.reason})` : ''}
                      </span>
                    )}
                  </div>
                </div>
                <div className="sched-actions">
                  {s.status === 'active' && (
                    <button type="button" className="btn" disabled={busy === s.schedule_id} onClick={() => void act(s.schedule_id, 'Next time skipped', () => scheduledApi.skip(org.org_id, s.schedule_id))} data-testid="scheduled-skip">
                      Skip next
                    </button>
                  )}
                  {s.status !== 'done' && (
                    <button
                      type="button"
                      className="btn"
                      disabled={busy === s.schedule_id}
                      onClick={() => void act(s.schedule_id, s.status === 'active' ? 'Paused' : 'Resumed', () => scheduledApi.update(org.org_id, s.schedule_id, { status: s.status === 'active' ? 'paused' : 'active' }))}
                      data-testid="scheduled-pause"
                    >
                      {s.status === 'active' ? 'Pause' : 'Resume'}
                    </button>
                  )}
                  {s.body != null && (
                    <button type="button" className="btn" onClick={() => setEditing({ id: s.schedule_id, text: s.body ?? '' })} data-testid="scheduled-edit">
                      Edit
                    </button>
                  )}
                  <button type="button" className="btn btn-danger" disabled={busy === s.schedule_id} onClick={() => void act(s.schedule_id, 'Deleted', () => scheduledApi.remove(org.org_id, s.schedule_id))} data-testid="scheduled-delete">
                    Delete
                  </button>
                </div>
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}
