import { useLayoutEffect, useRef, type RefObject } from 'react';

/**
 * For composers that insert text at the caret (the note @mention picker, the quick reply `/`
 * picker): `valueRef` always holds the latest value (for callbacks that outlive a render), and
 * `caretAt.current = n` places the caret at `n` once the new value is in the input — before the
 * next key event is handled, so fast typing lands after the inserted text.
 */
export function useCaretAfterInsert(value: string, inputRef: RefObject<HTMLTextAreaElement | HTMLInputElement | null>) {
  const valueRef = useRef(value);
  valueRef.current = value;
  const caretAt = useRef<number | null>(null);
  useLayoutEffect(() => {
    const el = inputRef.current;
    if (caretAt.current === null || !el) return;
    el.focus();
    el.setSelectionRange(caretAt.current, caretAt.current);
    caretAt.current = null;
  }, [value, inputRef]);
  return { valueRef, caretAt };
}
