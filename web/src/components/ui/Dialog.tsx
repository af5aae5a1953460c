/**
 * Modal dialog on Radix's Dialog primitive: focus is trapped inside and returns to the opener,
 * the rest of the page is inert, a backdrop click or Esc closes. Esc is consumed here so
 * page-level shortcuts (Esc closes the chat or the task panel) do not also fire.
 * Mount it to open it and unmount it to close it; `onClose` asks the owner to unmount.
 */
import type { ReactNode } from 'react';
import * as RadixDialog from '@radix-ui/react-dialog';
import { Icon } from './Icon.tsx';

/** A modal dialog with a title row and a close button; `children` is the body. */
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
  return (
    <RadixDialog.Root open onOpenChange={(open) => !open && onClose()}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="dialog-overlay" />
        <RadixDialog.Content
          className={`dialog ${className}`}
          data-testid={testId}
          aria-describedby={undefined}
          onKeyDown={(e) => {
            // Radix closes on Esc at the document; stop it reaching the page's own Esc handlers
            if (e.key === 'Escape') e.stopPropagation();
          }}
        >
          <div className="dialog-head">
            <RadixDialog.Title asChild>
              <h2>{title}</h2>
            </RadixDialog.Title>
            <RadixDialog.Close className="icon-btn" aria-label="Close">
              <Icon name="close" size={18} />
            </RadixDialog.Close>
          </div>
          {children}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}

/**
 * The bottom of a form dialog: the error (if any, announced), Cancel, and the submit button that
 * shows `busyLabel` while the form is being sent. Put it inside the dialog's <form>; without a form,
 * pass `onSubmit` and the primary button calls it instead of submitting.
 */
export function DialogFooter({
  error,
  errorClass = 'form-error',
  errorTestId,
  onCancel,
  onSubmit,
  submitLabel,
  busyLabel,
  busy,
  disabled = false,
  submitTestId,
  cancelLabel = 'Cancel',
  danger = false,
}: {
  error: string | null | undefined;
  errorClass?: 'form-error' | 'field-error';
  errorTestId?: string;
  onCancel: () => void;
  onSubmit?: () => void;
  submitLabel: ReactNode;
  busyLabel: string;
  busy: boolean;
  disabled?: boolean;
  submitTestId?: string;
  cancelLabel?: string;
  /** the action destroys something: a red button */
  danger?: boolean;
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
          {cancelLabel}
        </button>
        <button type={onSubmit ? 'button' : 'submit'} className={`btn ${danger ? 'btn-danger' : 'btn-primary'}`} disabled={disabled} data-testid={submitTestId} onClick={onSubmit}>
          {busy ? busyLabel : submitLabel}
        </button>
      </div>
    </>
  );
}
