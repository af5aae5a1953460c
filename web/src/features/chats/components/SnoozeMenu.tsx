/**
 * Snooze choices for a chat (issue 4; spec §4 'Snoozed while snooze_until is in the future'):
 * presets 1 hour, 3 hours, Tomorrow 9:00, Next week Monday 9:00 (local time), and a custom date
 * and time (within a year, shared/chat/chat-state.rules.ts snoozeUntilProblem). A snoozed chat
 * also offers 'Unsnooze'. The chat comes back by itself when the customer writes or the time comes.
 */
import { useId, useMemo, useState, type FormEvent } from 'react';
import { addDays, addHours, format, nextMonday, set } from 'date-fns';
import { snoozeUntilProblem, SNOOZE_LIMIT_MS } from '#shared/chat/chat-state.rules.ts';

export interface SnoozePreset {
  id: string;
  label: string;
  /** epoch ms */
  until: number;
}

const at9 = (d: Date): Date => set(d, { hours: 9, minutes: 0, seconds: 0, milliseconds: 0 });

/** The presets at `now` (local time zone). */
export function snoozePresets(now: number): SnoozePreset[] {
  const d = new Date(now);
  return [
    { id: '1h', label: '1 hour', until: addHours(d, 1).getTime() },
    { id: '3h', label: '3 hours', until: addHours(d, 3).getTime() },
    { id: 'tomorrow', label: 'Tomorrow 9:00', until: at9(addDays(d, 1)).getTime() },
    { id: 'next-week', label: 'Next week Monday 9:00', until: at9(nextMonday(d)).getTime() },
  ];
}

/** 'until Tue 14 May, 09:00' (or just the time today). */
export function snoozeUntilText(until: number, now = Date.now()): string {
  const sameDay = new Date(until).toDateString() === new Date(now).toDateString();
  return `until ${format(until, sameDay ? 'HH:mm' : 'EEE d MMM, HH:mm')}`;
}

const LOCAL_INPUT = "yyyy-MM-dd'T'HH:mm";

export function SnoozeMenu({ snoozedUntil, onPick }: { snoozedUntil: number | null; onPick: (until: number | null) => void }) {
  const now = useMemo(() => Date.now(), []);
  const presets = useMemo(() => snoozePresets(now), [now]);
  const [custom, setCustom] = useState(() => format(addDays(new Date(now), 1), LOCAL_INPUT).replace(/T\d\d:\d\d$/, 'T09:00'));
  const [error, setError] = useState<string | null>(null);
  const inputId = useId();

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const until = new Date(custom).getTime();
    const problem = Number.isNaN(until) ? 'must be a date and time' : snoozeUntilProblem(until, Date.now());
    if (problem) return setError(`The snooze time ${problem}.`);
    onPick(until);
  };

  return (
    <div className="snooze-menu" data-testid="snooze-menu">
      <ul className="pop-list" role="list">
        {presets.map((p) => (
          <li key={p.id}>
            <button type="button" className="pop-item" data-testid={`snooze-${p.id}`} onClick={() => onPick(p.until)}>
              <span>{p.label}</span>
              <span className="muted small">{format(p.until, 'EEE HH:mm')}</span>
            </button>
          </li>
        ))}
        {snoozedUntil !== null && (
          <li>
            <button type="button" className="pop-item" data-testid="snooze-clear" onClick={() => onPick(null)}>
              <span>Unsnooze</span>
              <span className="muted small">{snoozeUntilText(snoozedUntil, now)}</span>
            </button>
          </li>
        )}
      </ul>
      <form className="snooze-custom" onSubmit={submit}>
        <label htmlFor={inputId} className="small muted">
          Pick a date and time
        </label>
        <div className="snooze-custom-row">
          <input
            id={inputId}
            type="datetime-local"
            value={custom}
            min={format(now, LOCAL_INPUT)}
            max={format(now + SNOOZE_LIMIT_MS, LOCAL_INPUT)}
            onChange={(e) => {
              setCustom(e.target.value);
              setError(null);
            }}
            data-testid="snooze-custom-input"
            aria-invalid={error ? true : undefined}
          />
          <button type="submit" className="btn btn-primary small-btn" data-testid="snooze-custom-save">
            Snooze
          </button>
        </div>
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
      </form>
    </div>
  );
}
