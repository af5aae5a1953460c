/**
 * Bounded text fields (issue 49 §7): a field over its limit is refused with a message, never cut.
 * Lengths count as the API's zod `.max` does: UTF-16 code units of the trimmed text.
 */

/** The length the API will check (it trims first). */
export const boundedLength = (value: string): number => value.trim().length;

/**
 * Why `value` is refused, or null when it fits.
 * @param field the field's name as the form shows it ('Title'); the message follows the API's
 *   'must be at most N characters' (spec §9 gives limits, not texts)
 */
export function lengthProblem(value: string, max: number, field: string): string | null {
  return boundedLength(value) > max ? `${field} must be at most ${max} characters` : null;
}
