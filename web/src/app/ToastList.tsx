/**
 * The toasts on screen, rendered with Radix's Toast primitive (the viewport is reachable with F8
 * once a toast has been shown, a toast pauses while hovered or focused, swipe to dismiss). Loaded
 * on the first toast (app/toast.tsx), so Radix Toast is not part of the first screen's JS.
 */
import * as RadixToast from '@radix-ui/react-toast';
import type { ToastItem, ToastKind } from './toast.tsx';

/** How long a toast stays (ms): errors longer, they may need reading twice. */
const DURATION: Record<ToastKind, number> = { info: 4000, success: 4000, error: 7000 };

/** Each toast is its own live region (role=alert for errors, status otherwise), so Radix's extra announcer is switched off and the text exists once on the page. */
export default function ToastList({ toasts, dismiss }: { toasts: ToastItem[]; dismiss: (id: number) => void }) {
  return (
    <RadixToast.Provider swipeDirection="down" label="Notification">
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
  );
}
