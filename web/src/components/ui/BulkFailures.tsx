/** The dismissable alert under a bulk toolbar: how many items the last bulk change could not update, one line each. */
import type { ReactNode } from 'react';
import { Icon } from './Icon.tsx';

export function BulkFailures<T>({
  failures,
  noun,
  testId,
  itemKey,
  renderItem,
  onDismiss,
}: {
  failures: readonly T[];
  /** singular, e.g. "task"; an "s" is added for more than one */
  noun: string;
  testId: string;
  itemKey: (failure: T) => string;
  renderItem: (failure: T) => ReactNode;
  onDismiss: () => void;
}) {
  return (
    <div className="bulk-failures" role="alert" data-testid={testId}>
      <div className="bulk-failures-head">
        <strong>
          {failures.length} {noun}
          {failures.length === 1 ? '' : 's'} not updated
        </strong>
        <button type="button" className="icon-btn" aria-label="Dismiss" onClick={onDismiss}>
          <Icon name="close" size={16} />
        </button>
      </div>
      <ul>
        {failures.map((f) => (
          <li key={itemKey(f)}>{renderItem(f)}</li>
        ))}
      </ul>
    </div>
  );
}
