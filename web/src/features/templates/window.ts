/**
 * The thread header's words for the 24-hour customer service window (issue 16; Meta A.8), from
 * windowState (shared/template/template.rules.ts). Pure; tested beside this file.
 */
import type { WindowState } from '#shared/template/template.schemas.ts';

/**
 * 'Window closes in 3 h 20 min' / 'in 12 min' / 'in less than a minute' while open,
 * 'Window closed' after, 'No customer message yet' when the customer never wrote.
 * @param now epoch ms
 */
export function windowText(w: WindowState, now: number): string {
  if (w.closes_at == null) return 'No customer message yet';
  if (!w.open) return 'Window closed';
  const min = Math.floor((w.closes_at - now) / 60_000);
  if (min < 1) return 'Window closes in less than a minute';
  const h = Math.floor(min / 60);
  const m = min % 60;
  return `Window closes in ${h ? `${h} h` : ''}${h && m ? ' ' : ''}${m ? `${m} min` : ''}`;
}
