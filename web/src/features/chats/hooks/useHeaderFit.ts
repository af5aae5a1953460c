/**
 * How much of the chat header's actions fit: every button, buttons without the assignee's name, or
 * only "⋯" (as on phones). Measured on the header element (the parent of `rootRef`).
 */
import { useLayoutEffect, useRef, useState } from 'react';
import { PHONE_QUERY, useMediaQuery } from '../../../lib/useMediaQuery.ts';

/** Header widths (px) below which: the assignee's name is left out; Labels and Snooze move into "⋯"; all actions are in "⋯". */
const NAMES_BELOW = 720;
const NARROW_BELOW = 560;
const COMPACT_BELOW = 420;

/** `shown` re-measures when the actions appear. */
export function useHeaderFit(shown: boolean) {
  const phoneScreen = useMediaQuery(PHONE_QUERY);
  const rootRef = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(1000);
  useLayoutEffect(() => {
    const header = rootRef.current?.parentElement;
    if (!header || typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(() => setWidth(header.clientWidth));
    ro.observe(header);
    setWidth(header.clientWidth);
    return () => ro.disconnect();
  }, [shown]);
  const compact = phoneScreen || width < COMPACT_BELOW;
  const wide = !compact && width >= NARROW_BELOW;
  return {
    rootRef,
    compact,
    noText: width < NAMES_BELOW,
    /** the buttons shown in the header (the rest are in "⋯") */
    inHeader: { assign: !compact, close: !compact, labels: wide, snooze: wide },
  };
}
