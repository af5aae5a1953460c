/**
 * Required assignee selector (spec §5: no clear option; 'Unassigned' is one of the choices) with a
 * search box that matches a member's name or email, case-insensitive (matchesMember). A button
 * opens a popover listbox; Up/Down move, Enter picks, Esc closes (and is consumed so the panel
 * stays open).
 */
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { matchesMember } from '#shared/task/task.rules.ts';
import type { OrgMember } from '../../../lib/api.ts';
import { memberLabel } from '../api/tasks.ts';

const UNASSIGNED = '__unassigned__';

export function AssigneeSelect({
  value,
  onChange,
  members,
  me,
  disabled,
  testId = 'task-assignee-select',
  label = 'Assignee',
  invalid,
}: {
  value: string | null;
  onChange: (email: string | null) => void;
  members: OrgMember[];
  me: string;
  disabled?: boolean;
  testId?: string;
  label?: string;
  invalid?: boolean;
}) {
  const [open, setOpen] = useState(false);
  const [q, setQ] = useState('');
  const [active, setActive] = useState(0);
  const btn = useRef<HTMLButtonElement>(null);
  const box = useRef<HTMLDivElement>(null);
  const listId = useId();

  const options = useMemo(() => {
    const list: Array<{ key: string; email: string | null; name: string; sub: string | null }> = [];
    if (matchesMember({ email: 'unassigned', member_name: 'Unassigned' }, q)) list.push({ key: UNASSIGNED, email: null, name: 'Unassigned', sub: null });
    for (const m of members) {
      if (!matchesMember(m, q)) continue;
      const name = m.member_name?.trim() || m.email;
      list.push({ key: m.email, email: m.email, name: m.email.toLowerCase() === me.toLowerCase() ? `${name} (me)` : name, sub: name === m.email ? null : m.email });
    }
    return list;
  }, [members, q, me]);

  useEffect(() => setActive(0), [q, open]);

  useEffect(() => {
    if (!open) return;
    const onDown = (e: PointerEvent) => {
      if (box.current && !box.current.contains(e.target as Node) && !btn.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onDown, true);
    return () => document.removeEventListener('pointerdown', onDown, true);
  }, [open]);

  const pick = (email: string | null) => {
    setOpen(false);
    setQ('');
    if (email !== value) onChange(email);
    requestAnimationFrame(() => btn.current?.focus());
  };

  return (
    <div className="assignee-select">
      <button
        ref={btn}
        type="button"
        className={`select-btn ${invalid ? 'invalid' : ''}`}
        data-testid={testId}
        data-value={value ?? ''}
        aria-haspopup="listbox"
        aria-expanded={open}
        aria-label={`${label}: ${memberLabel(value, members, me)}`}
        disabled={disabled}
        onClick={() => setOpen((o) => !o)}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown' && !open) {
            e.preventDefault();
            setOpen(true);
          }
        }}
      >
        <span className="select-btn-text">{memberLabel(value, members, me)}</span>
        <span aria-hidden="true" className="select-caret">
          ▾
        </span>
      </button>
      {open && (
        <div ref={box} className="assignee-pop" role="presentation">
          <input
            type="search"
            autoFocus
            className="assignee-search"
            placeholder="Search name or email"
            aria-label="Search members by name or email"
            aria-controls={listId}
            aria-activedescendant={options[active] ? `${listId}-${active}` : undefined}
            data-testid="task-assignee-search"
            value={q}
            onChange={(e) => setQ(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'ArrowDown') setActive((a) => Math.min(options.length - 1, a + 1));
              else if (e.key === 'ArrowUp') setActive((a) => Math.max(0, a - 1));
              else if (e.key === 'Enter') {
                if (options[active]) pick(options[active].email);
              } else if (e.key === 'Escape') {
                setOpen(false);
                requestAnimationFrame(() => btn.current?.focus());
              } else return;
              e.preventDefault();
              e.stopPropagation();
            }}
          />
          <ul className="assignee-options" role="listbox" id={listId} aria-label={label}>
            {options.length === 0 && <li className="muted small assignee-empty">No member matches “{q}”</li>}
            {options.map((o, i) => (
              <li
                key={o.key}
                id={`${listId}-${i}`}
                role="option"
                aria-selected={o.email === value}
                className={`assignee-option ${i === active ? 'active' : ''} ${o.email === value ? 'selected' : ''}`}
                data-testid="task-assignee-option"
                data-email={o.email ?? ''}
                onPointerDown={(e) => e.preventDefault()}
                onClick={() => pick(o.email)}
                onMouseEnter={() => setActive(i)}
              >
                <span>{o.name}</span>
                {o.sub && <span className="muted small">{o.sub}</span>}
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
