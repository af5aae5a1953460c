/**
 * The current time, refreshed every `everyMs` and whenever `refresh` changes (e.g. the panel opens),
 * for overdue marks, 'N mins ago' and the not-in-the-past limits.
 */
import { useEffect, useState } from 'react';

export function useNow(everyMs = 30_000, refresh?: unknown): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    setNow(Date.now());
    const t = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(t);
  }, [everyMs, refresh]);
  return now;
}
