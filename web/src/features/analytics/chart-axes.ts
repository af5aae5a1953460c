/**
 * Pure axis rules for the per-day chart (seconds since the epoch, UTC midnights). uPlot's own time
 * ranging pads a single point by months (one day showed 01 Feb – 01 Aug), so the x scale and its
 * ticks come from the days themselves.
 */
const DAY_S = 86_400;

/** The x range: the first day to the last, half a day of margin each side so the ends are not on the frame. */
export function dayRange(days: number[]): [number, number] {
  if (days.length === 0) {
    const now = Math.floor(Date.now() / 1000 / DAY_S) * DAY_S;
    return [now - DAY_S / 2, now + DAY_S / 2];
  }
  const min = Math.min(...days);
  const max = Math.max(...days);
  return [min - DAY_S / 2, max + DAY_S / 2];
}

/**
 * Tick positions: every day when they fit, else every n-th day counted back from the last (so the
 * newest day always has its label). `room`: how many labels fit the width (about 56 px each).
 */
export function daySplits(days: number[], room: number): number[] {
  if (days.length === 0) return [];
  const sorted = [...days].sort((a, b) => a - b);
  const step = Math.max(1, Math.ceil(sorted.length / Math.max(1, Math.floor(room))));
  return sorted.filter((_d, i) => (sorted.length - 1 - i) % step === 0);
}
