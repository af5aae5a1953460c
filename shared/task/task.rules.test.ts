import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { TZDate } from '@date-fns/tz';
import { auditActionsFor, canSeeTask, auditTimeText, deriveRemindAt, filterTasks, isOverdue, matchesMember, nextOccurrence, normalizeDateRange, occurrence, remindIn, shortenTitle, sortTasks, validateReminder, withDueDate, withReminderChoice, type ReminderState } from './task.rules.ts';
import { CreateTaskInput, REMINDER_CHOICES, type Task, type TaskFilters } from './task.schemas.ts';

const H = 3_600_000;
const D = 24 * H;
const ZONES = ['UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Kolkata', 'Australia/Sydney'] as const;
const state = (s: Partial<ReminderState> = {}): ReminderState => ({ due_date: null, remind_at: null, reminder_setting: { remind_in: 'none', repeat: null }, ...s });

describe('remind_at derivation (spec §4)', () => {
  it('derives each choice from the due date', () => {
    const due = Date.UTC(2027, 2, 10, 15, 0);
    expect(deriveRemindAt('none', due, 5, 'UTC')).toBeNull();
    expect(deriveRemindAt('due_time', due, null, 'UTC')).toBe(due);
    expect(deriveRemindAt('repeat', due, null, 'UTC')).toBe(due);
    expect(deriveRemindAt('30_minutes_before', due, null, 'UTC')).toBe(due - H / 2);
    expect(deriveRemindAt('1_hour_before', due, null, 'UTC')).toBe(due - H);
    expect(deriveRemindAt('1_day_before', due, null, 'UTC')).toBe(due - D);
    expect(deriveRemindAt('custom_date', due, 42, 'UTC')).toBe(42);
    expect(deriveRemindAt('due_time', null, null, 'UTC')).toBeNull();
  });

  it('property: a due-tied reminder is never after the due date, and 1 day before keeps the local wall time across DST', () => {
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(2026, 0, 1), max: Date.UTC(2030, 0, 1) }), fc.constantFrom(...ZONES), fc.constantFrom('due_time', '30_minutes_before', '1_hour_before', '1_day_before', 'repeat' as const), (due, tz, choice) => {
        const r = deriveRemindAt(choice, due, null, tz)!;
        expect(r).toBeLessThanOrEqual(due);
        if (choice === '1_day_before') {
          const a = new TZDate(due, tz);
          const b = new TZDate(r, tz);
          // same local clock time one calendar day earlier, unless that time does not exist (DST gap)
          if (b.getHours() === a.getHours()) expect(b.getMinutes()).toBe(a.getMinutes());
          expect(Math.abs(due - r - D)).toBeLessThanOrEqual(H);
        }
      }),
    );
  });

  it('setting a due date recomputes remind_at from the current choice; clearing resets a due-tied choice', () => {
    const s1 = withReminderChoice(state(), '1_hour_before', 'UTC');
    expect(s1.remind_at).toBeNull();
    const s2 = withDueDate(s1, 10 * H, 'UTC');
    expect(s2.remind_at).toBe(9 * H);
    const s3 = withDueDate(s2, 20 * H, 'UTC');
    expect(s3.remind_at).toBe(19 * H);
    // the reading we chose (see withDueDate): clearing the due date drops a due-tied reminder
    expect(withDueDate(s3, null, 'UTC')).toEqual({ due_date: null, remind_at: null, reminder_setting: { remind_in: 'none', repeat: null } });
    const rep = withDueDate(withReminderChoice(state({ due_date: 5 * H }), 'repeat', 'UTC'), null, 'UTC');
    expect(rep.reminder_setting.remind_in).toBe('none');
    // a custom reminder does not depend on the due date and is kept
    const custom = withDueDate(state({ due_date: 5 * H, remind_at: 3 * H, reminder_setting: { remind_in: 'custom_date', repeat: null } }), null, 'UTC');
    expect(custom).toMatchObject({ due_date: null, remind_at: 3 * H, reminder_setting: { remind_in: 'custom_date' } });
  });

  it('repeat defaults to every 1 days, end never, remind_at = due date', () => {
    expect(withReminderChoice(state({ due_date: 7 * H }), 'repeat', 'UTC')).toEqual({ due_date: 7 * H, remind_at: 7 * H, reminder_setting: { remind_in: 'repeat', repeat: { frequency: 1, interval: 'days', end: 'never' } } });
  });

  it('Remind In sets remind_at from now and the choice to custom_date', () => {
    expect(remindIn(state({ due_date: 99 * H, reminder_setting: { remind_in: '1_day_before', repeat: null } }), H, 1000)).toEqual({ due_date: 99 * H, remind_at: 1000 + H, reminder_setting: { remind_in: 'custom_date', repeat: null } });
  });
});

describe('validation (spec §5)', () => {
  const now = Date.UTC(2027, 0, 1);
  it("needs a due date for every choice but none and custom_date: 'Due date is required'", () => {
    for (const choice of REMINDER_CHOICES) {
      const errs = validateReminder(state({ reminder_setting: { remind_in: choice, repeat: choice === 'repeat' ? { frequency: 1, interval: 'days', end: 'never' } : null }, remind_at: choice === 'custom_date' ? now + H : null }), now, {});
      const needs = choice !== 'none' && choice !== 'custom_date';
      expect(errs.some((e) => e.field === 'due_date' && e.reason === 'Due date is required'), choice).toBe(needs);
    }
  });
  it('refuses a due date or remind-at being set in the past, not an old one left alone', () => {
    expect(validateReminder(state({ due_date: now - D }), now, { due_date: true })).toEqual([{ field: 'due_date', reason: 'cannot be in the past' }]);
    expect(validateReminder(state({ due_date: now - D }), now, {})).toEqual([]);
    expect(validateReminder(state({ remind_at: now - D, reminder_setting: { remind_in: 'custom_date', repeat: null } }), now, { remind_at: true })).toEqual([{ field: 'remind_at', reason: 'cannot be in the past' }]);
    expect(validateReminder(state({ reminder_setting: { remind_in: 'custom_date', repeat: null } }), now, {})).toEqual([{ field: 'remind_at', reason: 'is required for a custom reminder' }]);
  });
  it('the title is required and at most 150 characters; defaults per spec §9', () => {
    expect(CreateTaskInput.safeParse({ title: '  ' }).error?.issues[0]?.message).toBe('is required');
    expect(CreateTaskInput.safeParse({ title: 'x'.repeat(151) }).error?.issues[0]?.message).toBe('must be at most 150 characters');
    expect(CreateTaskInput.parse({ title: 'Call back' })).toMatchObject({ priority: 1, status: 'open', reminder_setting: { remind_in: 'none' }, due_date: null, notes: '' });
    expect(CreateTaskInput.safeParse({ title: 'x', reminder_setting: { remind_in: 'repeat', repeat: { frequency: 'two', interval: 'days', end: 'never' } } }).error?.issues[0]).toMatchObject({ path: ['reminder_setting', 'repeat', 'frequency'], message: 'must be a number' });
    expect(CreateTaskInput.safeParse({ title: 'x', time_zone: 'Mars/Olympus' }).error?.issues[0]?.message).toBe('must be an IANA time zone such as Asia/Kolkata');
  });
});

describe('repeats (day / week / month, month ends, DST)', () => {
  it('monthly from the 31st lands on each month end and comes back to the 31st', () => {
    const anchor = new TZDate(2027, 0, 31, 9, 0, 0, 'Europe/Berlin').getTime();
    const days = [0, 1, 2, 3].map((k) => new TZDate(occurrence(anchor, { frequency: 1, interval: 'months' }, k, 'Europe/Berlin'), 'Europe/Berlin').getDate());
    expect(days).toEqual([31, 28, 31, 30]);
  });
  it('a daily 09:00 reminder stays at 09:00 local across the spring and autumn DST changes', () => {
    for (const [tz, start] of [['Europe/Berlin', new TZDate(2027, 2, 25, 9, 0, 0, 'Europe/Berlin')], ['America/New_York', new TZDate(2027, 10, 5, 9, 0, 0, 'America/New_York')]] as const) {
      let t = start.getTime();
      for (let i = 0; i < 5; i++) {
        t = nextOccurrence(start.getTime(), { frequency: 1, interval: 'days', end: 'never' }, t, tz)!;
        expect(new TZDate(t, tz).getHours()).toBe(9);
      }
    }
  });
  it('property: the next occurrence is after the given time, on the series, and the first such', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: Date.UTC(2026, 0, 1), max: Date.UTC(2028, 0, 1) }),
        fc.integer({ min: 0, max: 400 * D }),
        fc.integer({ min: 1, max: 4 }),
        fc.constantFrom('days', 'weeks', 'months' as const),
        fc.constantFrom(...ZONES),
        (anchor, offset, frequency, interval, tz) => {
          const after = anchor + offset;
          const repeat = { frequency, interval, end: 'never' as const };
          const next = nextOccurrence(anchor, repeat, after, tz)!;
          expect(next).toBeGreaterThan(after);
          // it is some occurrence k, and occurrence k-1 is not after `after`
          let k = 0;
          while (occurrence(anchor, repeat, k, tz) < next) k++;
          expect(occurrence(anchor, repeat, k, tz)).toBe(next);
          if (k > 0) expect(occurrence(anchor, repeat, k - 1, tz)).toBeLessThanOrEqual(after);
        },
      ),
      { numRuns: 300 },
    );
  });
  it('stops after the end', () => {
    expect(nextOccurrence(0, { frequency: 1, interval: 'days', end: 2 * D }, 2 * D, 'UTC')).toBeNull();
    expect(nextOccurrence(0, { frequency: 1, interval: 'days', end: 2 * D }, D, 'UTC')).toBe(2 * D);
  });
});

const task = (p: Partial<Task>): Task => ({
  task_id: 't',
  org_id: 'o',
  title: 'T',
  type: 'todo',
  status: 'open',
  priority: 1,
  assignee: null,
  due_date: null,
  remind_at: null,
  reminder_setting: { remind_in: 'none', repeat: null },
  time_zone: 'UTC',
  notes: '',
  created_by: 'a@x',
  created_at: 0,
  last_updated_by: 'a@x',
  last_updated_at: 0,
  completed_metadata: null,
  associated_object_metadata: null,
  ...p,
});

describe('filters and sorts (spec §9)', () => {
  const tasks = [
    task({ task_id: '1', priority: 1, status: 'open', assignee: 'a@x', due_date: 10, created_at: 1 }),
    task({ task_id: '2', priority: 2, status: 'inprogress', assignee: null, due_date: 20, created_at: 2 }),
    task({ task_id: '3', priority: 3, status: 'closed', assignee: 'b@x', due_date: null, created_at: 3 }),
  ];
  const ids = (f: Partial<TaskFilters>) => filterTasks(tasks, { overall: 'ALL', ...f }).map((t) => t.task_id);
  it('ANY, ALL and NOT per filter; Unassigned is null', () => {
    expect(ids({ priority: { values: [1, 3], condition: 'ANY' } })).toEqual(['1', '3']);
    expect(ids({ priority: { values: [1, 3], condition: 'NOT' } })).toEqual(['2']);
    expect(ids({ status: { values: ['open', 'closed'], condition: 'ALL' } })).toEqual([]);
    expect(ids({ status: { values: ['open'], condition: 'ALL' } })).toEqual(['1']);
    expect(ids({ assignee: { values: [null], condition: 'ANY' } })).toEqual(['2']);
    expect(ids({ due: { from: 5, to: 15, condition: 'ANY' } })).toEqual(['1']);
    expect(ids({ due: { from: 5, to: 15, condition: 'NOT' } })).toEqual(['2', '3']);
    expect(ids({})).toEqual(['1', '2', '3']);
  });
  it('combines filters with overall ANY or ALL', () => {
    const f = { priority: { values: [3 as const], condition: 'ANY' as const }, assignee: { values: [null], condition: 'ANY' as const } };
    expect(ids({ ...f, overall: 'ANY' })).toEqual(['2', '3']);
    expect(ids({ ...f, overall: 'ALL' })).toEqual([]);
  });
  it('sorts both ways, no due date last, default created_at desc', () => {
    const s = (k: Parameters<typeof sortTasks>[1]) => sortTasks(tasks, k).map((t) => t.task_id);
    expect(s('created_at_desc')).toEqual(['3', '2', '1']);
    expect(s('created_at_asc')).toEqual(['1', '2', '3']);
    expect(s('due_date_asc')).toEqual(['1', '2', '3']);
    expect(s('due_date_desc')).toEqual(['2', '1', '3']);
    expect(s('priority_desc')).toEqual(['3', '2', '1']);
    expect(s('priority_asc')).toEqual(['1', '2', '3']);
  });
  it('date ranges: whole days in the zone, clamped, reversed ends swapped', () => {
    const r = normalizeDateRange(Date.UTC(2027, 4, 9, 12), Date.UTC(2027, 4, 3, 8), 'UTC');
    expect(r).toEqual({ from: Date.UTC(2027, 4, 3, 0, 0, 0, 0), to: Date.UTC(2027, 4, 9, 23, 59, 59, 999) });
    expect(normalizeDateRange(0, Date.UTC(2030, 0, 1), 'UTC', Date.UTC(2027, 0, 1), Date.UTC(2027, 0, 31)).to).toBe(Date.UTC(2027, 0, 31, 23, 59, 59, 999));
  });
  it('dropdown search matches name or email, any case; overdue only when open past due', () => {
    expect(matchesMember({ email: 'ana@x.com', member_name: 'Ana Lima' }, 'LIM')).toBe(true);
    expect(matchesMember({ email: 'ana@x.com', member_name: 'Ana Lima' }, 'X.C')).toBe(true);
    expect(matchesMember({ email: 'ana@x.com' }, 'bob')).toBe(false);
    expect(isOverdue({ status: 'open', due_date: 5 }, 10)).toBe(true);
    expect(isOverdue({ status: 'closed', due_date: 5 }, 10)).toBe(false);
  });
});

describe('audit (spec §4, §9)', () => {
  it('one action per changed field; TASK_UPDATED when nothing tracked changed', () => {
    const a = task({});
    expect(auditActionsFor(a, { ...a, title: 'U', priority: 3, remind_at: 5 })).toEqual(['TITLE_CHANGED', 'PRIORITY_CHANGED', 'REMIND_AT_CHANGED']);
    expect(auditActionsFor(a, { ...a, associated_object_metadata: { id: 'c', type: 'chat', object: {} } })).toEqual(['TASK_UPDATED']);
    expect(auditActionsFor(a, { ...a, last_updated_at: 99 })).toEqual([]);
  });
  it('time text: just now, mins, an hour, hours, a day, days to 30, months to 3, then the date', () => {
    const now = Date.UTC(2027, 6, 15, 12);
    const t = (ms: number) => auditTimeText(now - ms, now, 'UTC');
    expect([t(10_000), t(60_000), t(5 * 60_000), t(H), t(5 * H), t(D), t(12 * D), t(30 * D)]).toEqual(['just now', '1 min ago', '5 mins ago', 'an hour ago', '5 hours ago', 'a day ago', '12 days ago', '30 days ago']);
    expect(t(45 * D)).toBe('a month ago');
    expect(t(80 * D)).toBe('2 months ago');
    expect(t(100 * D)).toBe('3 months ago');
    expect(t(200 * D)).toBe('27 Dec 26');
    expect(shortenTitle('Call the customer back')).toBe('Call the custom...');
    expect(shortenTitle('Short title')).toBe('Short title');
  });
});

describe('canSeeTask (the one task visibility rule)', () => {
  const task = { assignee: 'ann@x.co', created_by: 'bob@x.co' };
  it('admins see every task; members only those assigned to or created by them (case-insensitive)', () => {
    expect(canSeeTask({ role: 'admin', email: 'zed@x.co' }, task)).toBe(true);
    expect(canSeeTask({ role: 'member', email: 'ANN@x.co' }, task)).toBe(true);
    expect(canSeeTask({ role: 'member', email: 'bob@x.co' }, task)).toBe(true);
    expect(canSeeTask({ role: 'member', email: 'zed@x.co' }, task)).toBe(false);
    expect(canSeeTask({ role: 'member', email: 'zed@x.co' }, { assignee: null, created_by: 'bob@x.co' })).toBe(false);
  });
});
