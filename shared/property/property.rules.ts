import type { PropertyDef } from './property.schemas.ts';

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
 * New option map of a dropdown from the labels given: an existing label keeps its option id (so
 * stored values stay valid), new labels get `makeId()`.
 */
export function optionMap(previous: Record<string, string>, labels: string[], makeId: () => string): Record<string, string> {
  const byLabel = new Map(Object.entries(previous).map(([id, l]) => [l.toLowerCase(), id]));
  return Object.fromEntries(labels.map((l) => [byLabel.get(l.toLowerCase()) ?? makeId(), l]));
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
