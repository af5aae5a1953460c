/**
 * Toasts: `useToast().show(message, kind)` shows a short-lived notice at the bottom of the screen
 * (spec §8 wording is passed in by callers). Rendered with Radix's Toast primitive (the viewport is
 * reachable with F8, a toast pauses while hovered or focused, swipe to dismiss); each toast is its
 * own live region (role=alert for errors, status otherwise), so Radix's extra announcer is switched
 * off and the text exists once on the page.
 */
import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from 'react';
import * as RadixToast from '@radix-ui/react-toast';

type ToastKind = 'info' | 'error' | 'success';
interface Toast {
  id: number;
  message: string;
  kind: ToastKind;
}
interface ToastApi {
  show: (message: string, kind?: ToastKind) => void;
}

const ToastContext = createContext<ToastApi>({ show: () => undefined });

/** How long a toast stays (ms): errors longer, they may need reading twice. */
const DURATION: Record<ToastKind, number> = { info: 4000, success: 4000, error: 7000 };

/** Provides {@link useToast} and renders the toasts (at most 4; a repeated message replaces its twin). */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const next = useRef(1);
  const dismiss = useCallback((id: number) => setToasts((t) => t.filter((x) => x.id !== id)), []);
  const show = useCallback((message: string, kind: ToastKind = 'info') => {
    const id = next.current++;
    setToasts((t) => [...t.filter((x) => x.message !== message), { id, message, kind }].slice(-4));
  }, []);
  const api = useMemo(() => ({ show }), [show]);
  return (
    <ToastContext.Provider value={api}>
      <RadixToast.Provider swipeDirection="down" label="Notification">
        {children}
        {toasts.map((t) => (
          <RadixToast.Root
            key={t.id}
            className={`toast toast-${t.kind}`}
            duration={DURATION[t.kind]}
            type={t.kind === 'error' ? 'foreground' : 'background'}
            role={t.kind === 'error' ? 'alert' : 'status'}
            aria-live={t.kind === 'error' ? 'assertive' : 'polite'}
            onOpenChange={(open) => !open && dismiss(t.id)}
          >
            <RadixToast.Description data-radix-toast-announce-exclude="">{t.message}</RadixToast.Description>
            <RadixToast.Close className="icon-btn" aria-label="Dismiss notification">
              ×
            </RadixToast.Close>
          </RadixToast.Root>
        ))}
        <RadixToast.Viewport className="toasts" />
      </RadixToast.Provider>
    </ToastContext.Provider>
  );
}

/** The toast API; outside {@link ToastProvider} `show` does nothing. */
export const useToast = (): ToastApi => useContext(ToastContext);
