/**
 * Mounted once in the app shell: Ctrl/Cmd+F (spec §2) opens the search dialog instead of the
 * browser's find, and `openSearch(text)` (the box above the chat list) opens it with that text.
 * The dialog is its own chunk, loaded on first open.
 */
import { lazy, Suspense, useEffect, useState } from 'react';

const SearchDialog = lazy(() => import('./SearchDialog.tsx').then((m) => ({ default: m.SearchDialog })));
const OPEN_EVENT = 'chorus:open-search';

/** Open the global search dialog with `text` typed in. */
export function openSearch(text = ''): void {
  window.dispatchEvent(new CustomEvent(OPEN_EVENT, { detail: text }));
}

export function GlobalSearch() {
  const [open, setOpen] = useState<{ text: string; n: number } | null>(null);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && e.key.toLowerCase() === 'f') {
        e.preventDefault();
        setOpen((o) => o ?? { text: '', n: Date.now() });
      }
    };
    const onOpen = (e: Event) => setOpen({ text: String((e as CustomEvent).detail ?? ''), n: Date.now() });
    window.addEventListener('keydown', onKey);
    window.addEventListener(OPEN_EVENT, onOpen);
    return () => {
      window.removeEventListener('keydown', onKey);
      window.removeEventListener(OPEN_EVENT, onOpen);
    };
  }, []);
  if (!open) return null;
  return (
    <Suspense fallback={null}>
      <SearchDialog key={open.n} initial={open.text} onClose={() => setOpen(null)} />
    </Suspense>
  );
}
