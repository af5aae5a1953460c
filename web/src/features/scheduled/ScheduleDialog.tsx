/**
 * The composer's Schedule action (issue 16 item 6): the message text, when (date and time in the
 * org's time zone), how often (once, daily, weekly on chosen days, monthly) and until when (never,
 * after N times, on a date), and for a Cloud API chat the template to use if the 24-hour window has
 * closed by then. Native inputs: keyboard friendly and usable on a phone.
 */
import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Dialog, DialogFooter } from '../../components/ui/Dialog.tsx';
import { useSession } from '../../app/session.tsx';
import { errorMessage, fieldErrors } from '../../lib/api.ts';
import { useToast } from '../../app/toast.tsx';
import { templateKeys, templatesApi, TemplateFormLazy } from '../templates/index.ts';
import type { TemplateValues, TemplateView } from '#shared/template/template.schemas.ts';
import { scheduledApi, type Recurrence } from './api.ts';
import './scheduled.css';

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const pad = (n: number) => String(n).padStart(2, '0');

export function ScheduleDialog({ chatId, phoneId, cloud, initialText, onClose }: { chatId: string; phoneId: string; cloud: boolean; initialText: string; onClose: () => void }) {
  const { org } = useSession();
  const toast = useToast();
  const soon = new Date(Date.now() + 3_600_000);
  const [body, setBody] = useState(initialText);
  const [date, setDate] = useState(`${soon.getFullYear()}-${pad(soon.getMonth() + 1)}-${pad(soon.getDate())}`);
  const [time, setTime] = useState(`${pad(soon.getHours())}:00`);
  const [kind, setKind] = useState<Recurrence['kind']>('once');
  const [weekdays, setWeekdays] = useState<number[]>([soon.getDay()]);
  const [end, setEnd] = useState<'never' | 'after' | 'on'>('never');
  const [count, setCount] = useState(5);
  const [endDate, setEndDate] = useState('');
  const [useTpl, setUseTpl] = useState(false);
  const [tpl, setTpl] = useState<{ t: TemplateView | null; values: TemplateValues }>({ t: null, values: {} });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const templates = useQuery({ queryKey: templateKeys.list(org.org_id, phoneId, 'APPROVED'), queryFn: () => templatesApi.list(org.org_id, phoneId, 'APPROVED'), enabled: cloud && useTpl });

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    const recurrence: Recurrence = {
      kind,
      start_date: date,
      time,
      ...(kind === 'weekly' ? { weekdays } : {}),
      end: kind === 'once' || end === 'never' ? { type: 'never' } : end === 'after' ? { type: 'after', count } : { type: 'on', date: endDate },
    };
    try {
      await scheduledApi.create(org.org_id, {
        chat_id: chatId,
        ...(body.trim() ? { body } : {}),
        ...(useTpl && tpl.t ? { template: { name: tpl.t.name, language: tpl.t.language, values: tpl.values } } : {}),
        recurrence,
      });
      toast.show('Message scheduled');
      onClose();
    } catch (err) {
      const f = fieldErrors(err)[0];
      setError(f ? `${f.field.replace(/^recurrence\./, '')}: ${f.reason}` : errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog title="Schedule message" onClose={onClose} testId="schedule-dialog" className="schedule-dialog">
      <form onSubmit={submit} className="sched-form">
        <label className="sched-field">
          <span>Message</span>
          <textarea value={body} onChange={(e) => setBody(e.target.value)} rows={3} data-testid="schedule-body" placeholder="Type the message to send" />
        </label>
        <div className="sched-row">
          <label className="sched-field">
            <span>Date</span>
            <input type="date" value={date} onChange={(e) => setDate(e.target.value)} required data-testid="schedule-date" />
          </label>
          <label className="sched-field">
            <span>Time</span>
            <input type="time" value={time} onChange={(e) => setTime(e.target.value)} required data-testid="schedule-time" />
          </label>
          <label className="sched-field">
            <span>Repeat</span>
            <select value={kind} onChange={(e) => setKind(e.target.value as Recurrence['kind'])} data-testid="schedule-kind">
              <option value="once">Does not repeat</option>
              <option value="daily">Daily</option>
              <option value="weekly">Weekly</option>
              <option value="monthly">Monthly</option>
            </select>
          </label>
        </div>
        {kind === 'weekly' && (
          <fieldset className="sched-days">
            <legend>On</legend>
            {DAYS.map((d, i) => (
              <label key={d} className="sched-day">
                <input type="checkbox" checked={weekdays.includes(i)} onChange={(e) => setWeekdays((w) => (e.target.checked ? [...w, i] : w.filter((x) => x !== i)))} />
                {d}
              </label>
            ))}
          </fieldset>
        )}
        {kind !== 'once' && (
          <div className="sched-row">
            <label className="sched-field">
              <span>Ends</span>
              <select value={end} onChange={(e) => setEnd(e.target.value as typeof end)} data-testid="schedule-end">
                <option value="never">Never</option>
                <option value="after">After a number of times</option>
                <option value="on">On a date</option>
              </select>
            </label>
            {end === 'after' && (
              <label className="sched-field">
                <span>Times</span>
                <input type="number" min={1} max={1000} value={count} onChange={(e) => setCount(Number(e.target.value))} />
              </label>
            )}
            {end === 'on' && (
              <label className="sched-field">
                <span>Last date</span>
                <input type="date" value={endDate} onChange={(e) => setEndDate(e.target.value)} required />
              </label>
            )}
          </div>
        )}
        <p className="sched-hint">Times are in the workspace's time zone. It is sent as you.</p>
        {cloud && (
          <label className="sched-check">
            <input type="checkbox" checked={useTpl} onChange={(e) => setUseTpl(e.target.checked)} data-testid="schedule-use-template" />
            If the 24-hour window has closed by then, send a template instead
          </label>
        )}
        {useTpl && templates.data && <TemplateFormLazy templates={templates.data.templates} idPrefix="sched-tpl" onChange={(t, values) => setTpl({ t, values })} />}
        <DialogFooter error={error} onCancel={onClose} submitLabel="Schedule" busy={busy} busyLabel="Scheduling…" submitTestId="schedule-submit" />
      </form>
    </Dialog>
  );
}
