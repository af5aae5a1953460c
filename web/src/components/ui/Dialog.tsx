/**
 * Modal dialog on the native <dialog> element (focus kept inside, backdrop, Esc closes). Esc is
 * consumed here so page-level shortcuts (Esc closes the chat) do not also fire.
 */
import { useEffect, useRef, type ReactNode } from 'react';
import { Icon } from './Icon.tsx';

export function Dialog({
  title,
  onClose,
  children,
  testId,
  className = '',
}: {
  title: string;
  onClose: () => void;
  children: ReactNode;
  testId?: string;
  className?: string;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) d.showModal();
    return () => {
      if (d?.open) d.close();
    };
  }, []);
  return (
    <dialog
      ref={ref}
      className={`dialog ${className}`}
      data-testid={testId}
      aria-labelledby="dialog-title"
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.preventDefault();
          e.stopPropagation();
          onClose();
        }
      }}
      onClick={(e) => {
        // a click on the backdrop (the dialog element itself, outside its box) closes
        if (e.target === ref.current) {
          const r = ref.current.getBoundingClientRect();
          if (e.clientX < r.left || e.clientX > r.right || e.clientY < r.top || e.clientY > r.bottom) onClose();
        }
      }}
    >
      <div className="dialog-head">
        <h2 id="dialog-title">{title}</h2>
        <button type="button" className="icon-btn" aria-label="Close" onClick={onClose}>
          <Icon name="close" size={18} />
        </button>
      </div>
      {children}
    </dialog>
  );
}

/**
 * The bottom of a form dialog: the error (if any, announced), Cancel, and the submit button that
 * shows `busyLabel` while the form is being sent. Put it inside the dialog's <form>.
 */
export function DialogFooter({
  error,
  errorClass = 'form-error',
  errorTestId,
  onCancel,
  submitLabel,
  busyLabel,
  busy,
  disabled = false,
  submitTestId,
}: {
  error: string | null | undefined;
  errorClass?: 'form-error' | 'field-error';
  errorTestId?: string;
  onCancel: () => void;
  submitLabel: ReactNode;
  busyLabel: string;
  busy: boolean;
  disabled?: boolean;
  submitTestId?: string;
}) {
  return (
    <>
      {error && (
        <p className={errorClass} role="alert" data-testid={errorTestId}>
          {error}
        </p>
      )}
      <div className="dialog-actions">
        <button type="button" className="btn" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="btn btn-primary" disabled={disabled} data-testid={submitTestId}>
          {busy ? busyLabel : submitLabel}
        </button>
      </div>
    </>
  );
}
