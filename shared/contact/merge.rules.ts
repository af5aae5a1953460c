/**
 * Pure rules of merging two contacts into one and unmerging them (issue 15 item 2: "a customer who
 * writes from two phones"). The documented rules (the confirmation in the web app says them too):
 * - the survivor keeps its id, primary number and shown name; when it has no edited name it takes
 *   the other's edited name;
 * - numbers, WhatsApp Web LIDs, labels and org numbers (phone_ids) are combined (survivor's first);
 * - custom properties: the survivor's values win; the other's fill the ones it has no value for;
 * - notes are joined (survivor's first, then the other's under a "Merged from <name>:" line);
 * - last seen is the later of the two;
 * - the other contact is kept, marked `merged_into` the survivor: it is hidden from lists, a search
 *   that finds it shows the survivor instead, GET of its id answers with the survivor, and its chats
 *   show on the survivor.
 * Unmerge gives back what the merge added, and keeps what was changed on the merged contact since:
 * a list item, property value, edited name or note text the merge brought in is removed only if it
 * is still as the merge left it (`unmergedFields`).
 */
import { displayName, type ContactLike } from './contact.rules.ts';

export interface MergeFields {
  edited_name?: string;
  numbers: string[];
  lids: string[];
  label_ids: string[];
  phone_ids: string[];
  custom_properties: Record<string, string>;
  notes?: string;
  last_seen_at: number;
}

export type MergeSide = ContactLike & { lids?: string[] | null; notes?: string | null; last_seen_at?: number | null; edited_name?: string | null };

const union = (a: readonly string[] | null | undefined, b: readonly string[] | null | undefined) => [...new Set([...(a ?? []), ...(b ?? [])])];
const props = (p: Record<string, unknown> | null | undefined): Record<string, string> => Object.fromEntries(Object.entries(p ?? {}).map(([k, v]) => [k, String(v)]));

/** The merge header put before the other's notes. */
export const mergedNotesHeader = (other: MergeSide): string => `Merged from ${displayName(other) ?? `+${other.phone ?? other.contact_id}`}:`;

/** The survivor's combined fields (see the module doc). */
export function mergedFields(survivor: MergeSide, other: MergeSide): MergeFields {
  const sp = props(survivor.custom_properties);
  const op = props(other.custom_properties);
  const sNotes = survivor.notes?.trim();
  const oNotes = other.notes?.trim();
  return {
    edited_name: survivor.edited_name?.trim() || other.edited_name?.trim() || undefined,
    numbers: union(survivor.numbers?.length ? survivor.numbers : [survivor.contact_id], other.numbers?.length ? other.numbers : [other.contact_id]),
    lids: union(survivor.lids, other.lids),
    label_ids: union(survivor.label_ids, other.label_ids),
    phone_ids: union(survivor.phone_ids, other.phone_ids),
    custom_properties: { ...op, ...Object.fromEntries(Object.entries(sp).filter(([, v]) => v.trim())) },
    notes: sNotes && oNotes ? `${sNotes}\n\n${mergedNotesHeader(other)}\n${oNotes}`.slice(0, 5000) : sNotes || oNotes || undefined,
    last_seen_at: Math.max(survivor.last_seen_at ?? 0, other.last_seen_at ?? 0),
  };
}

/**
 * The survivor's fields after an unmerge: `current` is the survivor now, `before` its fields at
 * the merge (the snapshot in the merge's audit row), `merged` what the merge wrote.
 */
export function unmergedFields(current: MergeFields, before: MergeFields, merged: MergeFields): MergeFields {
  const addedBy = (k: 'numbers' | 'lids' | 'label_ids' | 'phone_ids') => new Set(merged[k].filter((x) => !before[k].includes(x)));
  const minus = (k: 'numbers' | 'lids' | 'label_ids' | 'phone_ids') => {
    const added = addedBy(k);
    return current[k].filter((x) => !added.has(x));
  };
  const cp = { ...current.custom_properties };
  for (const [k, v] of Object.entries(merged.custom_properties)) {
    if (before.custom_properties[k] === v) continue;
    if (cp[k] !== v) continue; // changed since the merge: kept
    if (before.custom_properties[k] !== undefined) cp[k] = before.custom_properties[k]!;
    else delete cp[k];
  }
  const nameFromMerge = merged.edited_name !== before.edited_name && current.edited_name === merged.edited_name;
  const notesFromMerge = merged.notes !== before.notes && current.notes === merged.notes;
  return {
    edited_name: nameFromMerge ? before.edited_name : current.edited_name,
    numbers: minus('numbers'),
    lids: minus('lids'),
    label_ids: minus('label_ids'),
    phone_ids: minus('phone_ids'),
    custom_properties: cp,
    notes: notesFromMerge ? before.notes : current.notes,
    last_seen_at: current.last_seen_at,
  };
}

/** The merge fields of a stored contact (for snapshots and unmerge). */
export function fieldsOf(c: MergeSide): MergeFields {
  return {
    edited_name: c.edited_name?.trim() || undefined,
    numbers: c.numbers?.length ? [...c.numbers] : [c.contact_id],
    lids: [...(c.lids ?? [])],
    label_ids: [...(c.label_ids ?? [])],
    phone_ids: [...(c.phone_ids ?? [])],
    custom_properties: props(c.custom_properties),
    notes: c.notes?.trim() || undefined,
    last_seen_at: c.last_seen_at ?? 0,
  };
}
