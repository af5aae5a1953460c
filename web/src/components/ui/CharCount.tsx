/**
 * The counter under a bounded text field, and its refusal when over (issue 49 §7: fields were cut
 * silently by maxLength). The field keeps everything typed or pasted; the form refuses to save.
 */
import { boundedLength, lengthProblem } from '../../lib/length.ts';

export function CharCount({ value, max, field, testId, id }: { value: string; max: number; field: string; testId?: string; id?: string }) {
  const n = boundedLength(value);
  const problem = lengthProblem(value, max, field);
  return (
    <span className="char-counter-row">
      {problem && (
        <span className="field-error" role="alert" id={id} data-testid={testId ? `${testId}-error` : undefined}>
          {problem}
        </span>
      )}
      <span className={`char-counter ${problem ? 'over' : ''}`} data-testid={testId} aria-live="polite">
        {n}/{max}
      </span>
    </span>
  );
}
