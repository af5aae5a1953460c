/**
 * The date range picker's behaviour (spec §9), pure: both ends are clamped to [min, max]; a
 * reversed range (start after end, when the start is changed) is swapped; an end before the start
 * (when the end is changed) is set to the start. Days are 'YYYY-MM-DD'; the range shows as
 * 'DD MMM YY' (date-fns 'dd MMM yy'); default times are 00:00 to 23:59:59 (the API reads whole UTC days).
 */
export interface DayRange {
  from: string;
  to: string;
}

const clamp = (d: string, min: string, max: string) => (d < min ? min : d > max ? max : d);

/** Apply an edit of one end to a range. */
export function editRange(range: DayRange, edit: { from?: string; to?: string }, min: string, max: string): DayRange {
  let from = clamp(edit.from ?? range.from, min, max);
  let to = clamp(edit.to ?? range.to, min, max);
  if (from > to) {
    if (edit.to !== undefined && edit.from === undefined) to = from; // end before start: end = start
    else [from, to] = [to, from]; // reversed: swap
  }
  return { from, to };
}

/** The date-fns pattern of spec §9's 'DD MMM YY'. */
export const RANGE_DATE_FORMAT = 'dd MMM yy';
