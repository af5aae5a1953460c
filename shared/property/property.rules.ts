import { optionLabelOf, type OptionInput, type PropertyDef } from './property.schemas.ts';

/**
 * Pure rules of custom property values (issue 15): a value is stored as text and must fit its
 * definition's type: text (≤ 500 characters), number (a finite decimal), date (`YYYY-MM-DD`, a real
 * calendar day), dropdown (one of the option ids). '' clears a value.
 * @returns the reason a value is refused, or null when it is fine
 */
export function valueProblem(def: Pick<PropertyDef, 'property_value_type' | 'property_value'> | undefined, value: string): string | null {
  if (!def) return 'is not a property of this workspace';
  const v = value.trim();
  if (!v) return null;
  switch (def.property_value_type) {
    case 'number':
      return /^-?\d+(\.\d+)?$/.test(v) && Number.isFinite(Number(v)) ? null : 'must be a number';
    case 'date': {
      const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v);
      if (!m) return 'must be a date (YYYY-MM-DD)';
      const d = new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!));
      return d.getUTCFullYear() === +m[1]! && d.getUTCMonth() === +m[2]! - 1 && d.getUTCDate() === +m[3]! ? null : 'must be a real date';
    }
    case 'dropdown':
      return v in (def.property_value ?? {}) ? null : 'must be one of the dropdown’s options';
    default:
      return v.length <= 500 ? null : 'must be at most 500 characters';
  }
}

/**
 * New option map of a dropdown (option id -> label) from the options given (issue 15: values store
 * option ids, so a relabel must keep the id):
 * - `{ option_id, label }` whose id is an existing option keeps that id with the new label;
 * - a bare label (or an object without id) takes the id of the existing option with that label
 *   (any case) when no other entry claimed it, else gets `makeId()`.
 * Existing options not given are removed (their values are cleared by the definition job).
 * Unknown option ids are checked first by `unknownOptionId` (they would get a new id here).
 */
export function optionMap(previous: Record<string, string>, options: OptionInput[], makeId: () => string): Record<string, string> {
  const claimed = new Set(options.flatMap((o) => (typeof o !== 'string' && o.option_id && o.option_id in previous ? [o.option_id] : [])));
  const byLabel = new Map(Object.entries(previous).filter(([id]) => !claimed.has(id)).map(([id, l]) => [l.toLowerCase(), id]));
  return Object.fromEntries(
    options.map((o) => {
      const label = optionLabelOf(o);
      if (typeof o !== 'string' && o.option_id && o.option_id in previous) return [o.option_id, label];
      const id = byLabel.get(label.toLowerCase());
      if (id) byLabel.delete(label.toLowerCase());
      return [id ?? makeId(), label];
    }),
  );
}

/** The first `options[i].option_id` that is not an option of `previous` (400 field and reason), else null. Pure. */
export function unknownOptionId(previous: Record<string, string>, options: OptionInput[]): { field: string; reason: string } | null {
  const i = options.findIndex((o) => typeof o !== 'string' && !!o.option_id && !(o.option_id in previous));
  return i < 0 ? null : { field: `options.${i}.option_id`, reason: 'is not an option of this property' };
}

/** How a stored value reads for people: a dropdown's option label, else the text. */
export function valueLabel(def: Pick<PropertyDef, 'property_value_type' | 'property_value'> | undefined, value: string): string {
  if (def?.property_value_type === 'dropdown') return def.property_value[value] ?? value;
  return value;
}

/**
 * The filter key of a stored value (issue 15 item 4: ChatPropertyLink rows and the chat-list
 * filter): the value trimmed and lower-cased, so a text filter matches whatever the case; a
 * dropdown value is its option id (ids are lower-case-insensitive ULIDs). '' = no value.
 */
export function propertyValueKey(value: unknown): string {
  return typeof value === 'string' || typeof value === 'number' ? String(value).trim().toLowerCase() : '';
}

/**
 * The (property_id, value key) pairs a chat's `custom_properties` is filed under: one per set
 * value (empty values are none), sorted by property id. Pure.
 */
export function propertyLinksOf(customProperties: unknown): Array<{ property_id: string; value_key: string }> {
  if (!customProperties || typeof customProperties !== 'object') return [];
  return Object.entries(customProperties as Record<string, unknown>)
    .map(([property_id, v]) => ({ property_id, value_key: propertyValueKey(v) }))
    .filter((l) => l.property_id && l.value_key)
    .sort((a, b) => a.property_id.localeCompare(b.property_id));
}
