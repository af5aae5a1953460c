/**
 * A message's action menu (WAI-ARIA menu pattern): opened by the bubble's "⋯" button, a right
 * click or Shift+F10 / the context-menu key on a focused bubble. Arrow keys / Home / End move,
 * Enter activates, Esc or Tab closes (focus returns to the button). Rendered in a portal with fixed
 * positioning so the thread's scroll box never clips it. Also the task rows' menu (testId 'task-menu').
 */
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';

export interface MenuItem {
  id: string;
  label: string;
  testId?: string;
  onSelect: () => void;
}

export function MessageMenu({
  at,
  items,
  onClose,
  label,
  testId = 'message-menu',
}: {
  at: { x: number; y: number };
  items: MenuItem[];
  onClose: (restoreFocus: boolean) => void;
  label: string;
  testId?: string;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const [pos, setPos] = useState(at);

  // keep inside the viewport
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const r = el.getBoundingClientRect();
    const x = Math.max(8, Math.min(at.x, window.innerWidth - r.width - 8));
    const y = at.y + r.height > window.innerHeight - 8 ? Math.max(8, at.y - r.height) : at.y;
    setPos({ x, y });
  }, [at]);

  useEffect(() => {
    ref.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
    const onDown = (e: PointerEvent) => {
      if (ref.current && !ref.current.contains(e.target as Node)) onClose(false);
    };
    const onScroll = () => onClose(false);
    document.addEventListener('pointerdown', onDown, true);
    window.addEventListener('resize', onScroll);
    document.querySelector('.thread-scroll')?.addEventListener('scroll', onScroll);
    return () => {
      document.removeEventListener('pointerdown', onDown, true);
      window.removeEventListener('resize', onScroll);
      document.querySelector('.thread-scroll')?.removeEventListener('scroll', onScroll);
    };
  }, [onClose]);

  const move = (delta: number | 'first' | 'last') => {
    const els = [...(ref.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
    if (els.length === 0) return;
    const i = els.indexOf(document.activeElement as HTMLElement);
    const next = delta === 'first' ? 0 : delta === 'last' ? els.length - 1 : (i + delta + els.length) % els.length;
    els[next]?.focus();
  };

  return createPortal(
    <div
      ref={ref}
      className="menu"
      role="menu"
      aria-label={label}
      data-testid={testId}
      style={{ left: pos.x, top: pos.y }}
      onKeyDown={(e) => {
        if (e.key === 'ArrowDown') move(1);
        else if (e.key === 'ArrowUp') move(-1);
        else if (e.key === 'Home') move('first');
        else if (e.key === 'End') move('last');
        else if (e.key === 'Escape') onClose(true);
        else if (e.key === 'Tab') onClose(true);
        else return;
        e.preventDefault();
        e.stopPropagation();
      }}
    >
      {items.length === 0 && (
        <div role="menuitem" aria-disabled="true" tabIndex={-1} className="menu-item disabled">
          No actions for this message
        </div>
      )}
      {items.map((it) => (
        <button
          key={it.id}
          type="button"
          role="menuitem"
          tabIndex={-1}
          className="menu-item"
          data-testid={it.testId}
          onClick={() => {
            onClose(false);
            it.onSelect();
          }}
        >
          {it.label}
        </button>
      ))}
    </div>,
    document.body,
  );
}
