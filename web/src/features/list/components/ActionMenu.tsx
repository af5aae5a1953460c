/**
 * A button of the bulk action bar that opens a small menu under it (assignees, labels, mute or
 * unmute). Up/Down move between items, Esc or a click outside closes it, a pick closes it too.
 * The menu has a search box when it has many items; it is placed under its button with fixed
 * positioning, so the action bar's sideways scroll on phones does not clip it.
 */
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { ToolbarButton } from '../../../components/ui/Toolbar.tsx';

export interface MenuChoice {
  key: string;
  label: string;
  /** a colour dot before the label (labels) */
  color?: string;
  hint?: string;
}

export function ActionMenu({ label, choices, onPick, disabled, testId, searchable = false }: { label: ReactNode; choices: MenuChoice[]; onPick: (key: string) => void; disabled?: boolean; testId: string; searchable?: boolean }) {
  const [open, setOpen] = useState(false);
  const [q, setQ] = useState('');
  /** where the menu opens (fixed: the action bar scrolls sideways on phones and would clip it) */
  const [at, setAt] = useState<{ top: number; left: number } | null>(null);
  const box = useRef<HTMLDivElement>(null);
  const btn = useRef<HTMLButtonElement>(null);
  const id = useId();
  const shown = useMemo(() => {
    const needle = q.trim().toLowerCase();
    return needle ? choices.filter((c) => c.label.toLowerCase().includes(needle) || c.hint?.toLowerCase().includes(needle)) : choices;
  }, [choices, q]);

  useEffect(() => {
    if (!open) return;
    const onDown = (e: PointerEvent) => {
      if (!box.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onDown, true);
    return () => document.removeEventListener('pointerdown', onDown, true);
  }, [open]);
  useEffect(() => {
    if (!open) return;
    setQ('');
    // focus the search box, or the first item
    requestAnimationFrame(() => box.current?.querySelector<HTMLElement>('input, [role="menuitem"]')?.focus());
  }, [open]);

  const close = () => {
    setOpen(false);
    btn.current?.focus();
  };
  const onKeyDown = (e: KeyboardEvent) => {
    const items = [...(box.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
    const i = items.indexOf(document.activeElement as HTMLElement);
    if (e.key === 'Escape') close();
    else if (e.key === 'ArrowDown') items[Math.min(items.length - 1, i + 1)]?.focus();
    else if (e.key === 'ArrowUp') (i <= 0 ? box.current?.querySelector<HTMLElement>('input') : items[i - 1])?.focus();
    else return;
    e.preventDefault();
    e.stopPropagation();
  };

  return (
    <div className="bulk-menu-wrap" ref={box} onKeyDown={onKeyDown}>
      <ToolbarButton ref={btn} className="btn bulk-btn" aria-haspopup="menu" aria-expanded={open} aria-controls={open ? id : undefined} disabled={disabled} data-testid={testId} onClick={() => {
          const r = btn.current?.getBoundingClientRect();
          if (r) setAt({ top: r.bottom + 4, left: Math.max(8, Math.min(r.left, window.innerWidth - 228)) });
          setOpen((o) => !o);
        }}>
        {label} <span aria-hidden="true">▾</span>
      </ToolbarButton>
      {open && (
        <div className="bulk-menu" id={id} role="menu" data-testid={`${testId}-menu`} style={at ?? undefined}>
          {searchable && (
            <input type="search" className="bulk-menu-search" placeholder="Search" aria-label="Search" value={q} onChange={(e) => setQ(e.target.value)} />
          )}
          <div className="bulk-menu-items">
            {shown.map((c) => (
              <button
                key={c.key}
                type="button"
                role="menuitem"
                className="menu-item bulk-menu-item"
                onClick={() => {
                  setOpen(false);
                  onPick(c.key);
                }}
              >
                {c.color && <span className="list-dot" style={{ background: c.color }} aria-hidden="true" />}
                <span className="bulk-menu-label">{c.label}</span>
                {c.hint && <span className="muted small bulk-menu-hint">{c.hint}</span>}
              </button>
            ))}
            {shown.length === 0 && <p className="muted small bulk-menu-empty">Nothing matches.</p>}
          </div>
        </div>
      )}
    </div>
  );
}
