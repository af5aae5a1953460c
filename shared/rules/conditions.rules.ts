import type { Condition, ConditionGroup, Conditions } from './rule.schemas.ts';

/**
 * Pure condition evaluation (issue 17 §2): all/any groups nested two levels, the operators of
 * rule.schemas.ts OPERATORS over the fields of the evaluation context.
 *
 * Semantics:
 * - text operators (equals, contains, starts_with, ends_with…) compare case-insensitively and
 *   trimmed; on a list field (labels) `contains` / `equals` mean "one of the items is".
 * - lt/lte/gt/gte compare numbers (numeric strings are numbers; anything else never matches).
 * - is_known: not null/undefined/'' and not an empty list; is_unknown: the opposite.
 * - in / not_in: the value is a list (or a comma-separated string); a list field is `in` when any
 *   item is in it.
 * - on: a date `YYYY-MM-DD` equals the field's day (a `YYYY-MM-DD` string, e.g. time.date).
 * - A field that is absent makes every operator false except is_unknown, not_equals, not_contains
 *   and not_in (so "label is not VIP" holds for a chat without labels).
 */

export interface EvalContext {
  /** dotted paths resolve into this object: message.body, chat.labels, contact.properties.plan… */
  [scope: string]: unknown;
}

export interface EvalResult {
  matched: boolean;
  /** the failed conditions in words (for the log), at most 10 */
  reasons: string[];
}

const norm = (v: unknown): string => String(v ?? '').trim().toLowerCase();
const isList = (v: unknown): v is unknown[] => Array.isArray(v);
const known = (v: unknown) => v !== undefined && v !== null && v !== '' && !(isList(v) && v.length === 0);
const num = (v: unknown): number | undefined => {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  if (typeof v === 'boolean') return v ? 1 : 0;
  return undefined;
};
const listOf = (v: unknown): unknown[] => (isList(v) ? v : typeof v === 'string' ? v.split(',').map((s) => s.trim()).filter(Boolean) : v === undefined || v === null ? [] : [v]);

/** The value at a dotted path (`contact.properties.plan`); undefined when any step is missing. */
export function valueAt(ctx: EvalContext, path: string): unknown {
  let cur: unknown = ctx;
  for (const part of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

/** Does one condition hold for a field value? */
export function testCondition(actual: unknown, c: Pick<Condition, 'op' | 'value'>): boolean {
  const want = c.value;
  const items = isList(actual) ? actual : undefined;
  const anyItem = (f: (x: unknown) => boolean) => (items ? items.some(f) : f(actual));
  switch (c.op) {
    case 'is_known':
      return known(actual);
    case 'is_unknown':
      return !known(actual);
    case 'equals':
      return known(actual) || typeof actual === 'boolean' ? anyItem((x) => eq(x, want)) : false;
    case 'not_equals':
      return !testCondition(actual, { op: 'equals', value: want });
    case 'contains':
      return known(actual) && (items ? items.some((x) => eq(x, want)) : norm(actual).includes(norm(want)));
    case 'not_contains':
      return !testCondition(actual, { op: 'contains', value: want });
    case 'starts_with':
      return known(actual) && anyItem((x) => norm(x).startsWith(norm(want)));
    case 'ends_with':
      return known(actual) && anyItem((x) => norm(x).endsWith(norm(want)));
    case 'lt':
    case 'lte':
    case 'gt':
    case 'gte': {
      const a = num(actual);
      const b = num(want);
      if (a === undefined || b === undefined) return false;
      return c.op === 'lt' ? a < b : c.op === 'lte' ? a <= b : c.op === 'gt' ? a > b : a >= b;
    }
    case 'in': {
      const set = listOf(want).map(norm);
      return known(actual) && anyItem((x) => set.includes(norm(x)));
    }
    case 'not_in':
      return !testCondition(actual, { op: 'in', value: want });
    case 'on':
      return known(actual) && anyItem((x) => norm(x).slice(0, 10) === norm(want).slice(0, 10));
  }
}

function eq(a: unknown, b: unknown): boolean {
  if (typeof a === 'boolean' || typeof b === 'boolean') return norm(a) === norm(b);
  const na = num(a);
  const nb = num(b);
  if (na !== undefined && nb !== undefined && typeof a === 'number') return na === nb;
  return norm(a) === norm(b);
}

/** The operators in words, for the logs' "why not" and the /rules editor's sentence. */
export const OP_WORDS: Record<Condition['op'], string> = {
  equals: 'is',
  not_equals: 'is not',
  contains: 'contains',
  not_contains: 'does not contain',
  starts_with: 'starts with',
  ends_with: 'ends with',
  lt: 'is less than',
  lte: 'is at most',
  gt: 'is more than',
  gte: 'is at least',
  is_known: 'is known',
  is_unknown: 'is unknown',
  in: 'is one of',
  not_in: 'is not one of',
  on: 'is on',
};

/** A condition in words: `chat.labels contains "vip" (was: ["new"])`. */
export function describeCondition(c: Condition, actual?: unknown): string {
  const v = c.op === 'is_known' || c.op === 'is_unknown' ? '' : ` ${JSON.stringify(c.value ?? null)}`;
  const was = arguments.length > 1 ? ` (was ${JSON.stringify(actual ?? null).slice(0, 120)})` : '';
  return `${c.field} ${OP_WORDS[c.op]}${v}${was}`;
}

const isGroup = (x: Condition | ConditionGroup): x is ConditionGroup => 'match' in x;

function evalGroup(g: Conditions | ConditionGroup, ctx: EvalContext, reasons: string[]): boolean {
  if (!g.items.length) return true;
  const local: string[] = [];
  const results = g.items.map((item) => {
    if (isGroup(item)) return evalGroup(item, ctx, local);
    const actual = valueAt(ctx, item.field);
    const ok = testCondition(actual, item);
    if (!ok) local.push(describeCondition(item, actual));
    return ok;
  });
  const matched = g.match === 'all' ? results.every(Boolean) : results.some(Boolean);
  if (!matched) reasons.push(...(g.match === 'any' && local.length > 1 ? [`none of: ${local.join('; ')}`] : local));
  return matched;
}

/** Evaluate a rule's conditions against a context. */
export function evaluateConditions(conditions: Conditions, ctx: EvalContext): EvalResult {
  const reasons: string[] = [];
  const matched = evalGroup(conditions, ctx, reasons);
  return { matched, reasons: matched ? [] : reasons.slice(0, 10) };
}
