/**
 * The list half of a settings page that manages a few dozen things (quick replies, custom
 * properties, group templates): a titled section with the loading / error / empty states, the
 * rows, and one row at a time switched to its edit form; plus the delete confirmation dialog those
 * pages share (busy and error state inside). Generic: the page renders its own rows and forms.
 */
import { Fragment, useState, type ReactNode } from 'react';
import { Dialog, DialogFooter } from './Dialog.tsx';
import { ListSkeleton, LoadError } from './ListStates.tsx';
import { errorMessage } from '../../lib/api.ts';

/** What SettingsList reads of a TanStack Query result. */
export interface ListQuery<T> {
  isPending: boolean;
  isError: boolean;
  error: unknown;
  data: T[] | undefined;
}

export function SettingsList<T>({
  title,
  headingId,
  what,
  empty,
  query,
  onRetry,
  listClassName,
  idOf,
  editingId,
  renderEdit,
  renderRow,
}: {
  /** the section's heading, e.g. 'Quick replies' */
  title: string;
  headingId: string;
  /** plural noun for the loading and error states, e.g. 'quick replies' */
  what: string;
  /** shown when the list is empty */
  empty: ReactNode;
  query: ListQuery<T>;
  onRetry: () => void;
  listClassName: string;
  idOf: (item: T) => string;
  /** the id of the row shown as its edit form, if any */
  editingId: string | null;
  /** the edit form of a row (wrapped in an `<li>`) */
  renderEdit: (item: T) => ReactNode;
  /** a row in view mode: its own `<li>` */
  renderRow: (item: T) => ReactNode;
}) {
  return (
    <section className="settings-section" aria-labelledby={headingId}>
      <h2 id={headingId}>{title}</h2>
      {query.isPending && <ListSkeleton rows={3} label={`Loading ${what}`} />}
      {query.isError && <LoadError what={what} error={errorMessage(query.error)} onRetry={onRetry} />}
      {query.data && query.data.length === 0 && <p className="muted">{empty}</p>}
      <ul className={listClassName}>{query.data?.map((item) => (editingId === idOf(item) ? <li key={idOf(item)}>{renderEdit(item)}</li> : <Fragment key={idOf(item)}>{renderRow(item)}</Fragment>))}</ul>
    </section>
  );
}

/**
 * "Delete …?" confirmation: says what happens (`children`), runs `onConfirm` (busy while it runs,
 * its error shown in the dialog), then `onDone`. Closing or cancelling calls `onClose`.
 */
export function ConfirmDeleteDialog({
  title,
  children,
  onConfirm,
  onDone,
  onClose,
  submitLabel,
  testId,
  submitTestId,
}: {
  title: string;
  children: ReactNode;
  onConfirm: () => Promise<unknown>;
  onDone: () => void;
  onClose: () => void;
  submitLabel: string;
  testId?: string;
  submitTestId?: string;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <Dialog title={title} onClose={onClose} testId={testId}>
      <div className="dialog-body form-grid">
        {children}
        <DialogFooter
          error={error}
          onCancel={onClose}
          onSubmit={() => {
            setBusy(true);
            setError(null);
            onConfirm()
              .then(onDone)
              .catch((e: unknown) => setError(errorMessage(e)))
              .finally(() => setBusy(false));
          }}
          submitLabel={submitLabel}
          busyLabel="Deleting…"
          busy={busy}
          disabled={busy}
          submitTestId={submitTestId}
          danger
        />
      </div>
    </Dialog>
  );
}

/**
 * A settings form's `onSubmit`: runs `save`, answers null when it worked, else the words of
 * `problem(e)` for the form to show (the forms of SettingsList pages take this contract).
 */
export function formSubmit<I>(save: (input: I) => Promise<unknown>, problem: (e: unknown) => string): (input: I) => Promise<string | null> {
  return async (input) => {
    try {
      await save(input);
      return null;
    } catch (e) {
      return problem(e);
    }
  };
}
