/**
 * Toasts: `useToast().show(message, kind)` shows a short-lived notice at the bottom of the screen
 * (spec §8 wording is passed in by callers). The list itself (Radix Toast, app/ToastList.tsx) is
 * loaded with the first toast, keeping it out of the first screen's JS (issue 12: /chats ≤ 250 KB).
 */
import { createContext, lazy, Suspense, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from 'react';

export type ToastKind = 'info' | 'error' | 'success';
/** One toast on screen. */
export interface ToastItem {
  id: number;
  message: string;
  kind: ToastKind;
}
interface ToastApi {
  show: (message: string, kind?: ToastKind) => void;
}

const ToastContext = createContext<ToastApi>({ show: () => undefined });
const ToastList = lazy(() => import('./ToastList.tsx'));

/** Provides {@link useToast} and renders the toasts (at most 4; a repeated message replaces its twin). */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<ToastItem[]>([]);
  const [used, setUsed] = useState(false);
  const next = useRef(1);
  const dismiss = useCallback((id: number) => setToasts((t) => t.filter((x) => x.id !== id)), []);
  const show = useCallback((message: string, kind: ToastKind = 'info') => {
    const id = next.current++;
    setUsed(true);
    setToasts((t) => [...t.filter((x) => x.message !== message), { id, message, kind }].slice(-4));
  }, []);
  const api = useMemo(() => ({ show }), [show]);
  return (
    <ToastContext.Provider value={api}>
      {children}
      {used && (
        <Suspense fallback={null}>
          <ToastList toasts={toasts} dismiss={dismiss} />
        </Suspense>
      )}
    </ToastContext.Provider>
  );
}

/** The toast API; outside {@link ToastProvider} `show` does nothing. */
export const useToast = (): ToastApi => useContext(ToastContext);
