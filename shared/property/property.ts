import { ulid } from 'ulid';
import { db } from '../db/service.ts';
import type { Actor } from '../auth/actor.ts';
import { AppError, notFound } from '../errors.ts';
import type { PropertyDef, PropertyInput } from './property.schemas.ts';
import { optionMap, unknownOptionId, valueProblem } from './property.rules.ts';

/**
 * Custom property definitions of an org (spec §3; issue 15): every member lists them (the details
 * panel and /contacts show them), admins define them on /settings/properties. Values are keyed by
 * `property_id`, so a rename changes no value; a deleted definition's values are ignored where
 * they are shown and dropped on the next write of that chat or contact.
 */
const defs = () => db().entities.propertyDef;
const MAX_DEFS = 50;

/**
 * A definition as the API shows it. `property_value` (option id -> label) comes back in the order the
 * admin gave the options (`option_order`; DynamoDB maps keep none), options missing from it last.
 */
const toWire = (r: { property_id: string; property_name: string; property_value_type: PropertyDef['property_value_type']; property_value?: unknown; option_order?: string[] }): PropertyDef => {
  const map = (r.property_value as Record<string, string> | undefined) ?? {};
  const order = (r.option_order ?? []).filter((id) => id in map);
  const ids = [...order, ...Object.keys(map).filter((id) => !order.includes(id))];
  return {
    property_id: r.property_id,
    property_name: r.property_name,
    property_value_type: r.property_value_type,
    property_value: Object.fromEntries(ids.map((id) => [id, map[id]!])),
  };
};

/** The org's definitions, by name (one Query, ACCESS_PATTERNS c7). */
export async function listProperties(orgId: string): Promise<PropertyDef[]> {
  const rows = (await defs().query.byOrg({ org_id: orgId }).go({ pages: 'all' })).data;
  return rows.map(toWire).sort((a, b) => a.property_name.localeCompare(b.property_name));
}

const adminOnly = (actor: Actor) => {
  if (actor.role !== 'admin') throw new AppError('properties.forbidden', 'Only admins can change custom properties.', { status: 403 });
};

async function assertUniqueName(orgId: string, name: string, except?: string) {
  const taken = (await listProperties(orgId)).some((p) => p.property_id !== except && p.property_name.toLowerCase() === name.toLowerCase());
  if (taken) throw new AppError('validation.failed', 'property_name: is already used by another property', { status: 400, details: [{ field: 'property_name', reason: 'is already used by another property' }] });
}

/** The input's options, after checking that every `option_id` is one of `previous`. @throws 400 `options.<i>.option_id` */
function assertOptionIds(previous: Record<string, string>, input: PropertyInput): NonNullable<PropertyInput['options']> {
  const bad = unknownOptionId(previous, input.options ?? []);
  if (bad) throw new AppError('validation.failed', `${bad.field}: ${bad.reason}`, { status: 400, details: [bad] });
  return input.options ?? [];
}

/** POST /properties (admins). @throws 403; 400 name taken or too many */
export async function createProperty(actor: Actor, input: PropertyInput): Promise<PropertyDef> {
  adminOnly(actor);
  await assertUniqueName(actor.org_id, input.property_name);
  if ((await listProperties(actor.org_id)).length >= MAX_DEFS) throw new AppError('properties.too_many', `A workspace can have at most ${MAX_DEFS} custom properties.`, { status: 400 });
  const row = {
    org_id: actor.org_id,
    property_id: `prp_${ulid()}`,
    property_name: input.property_name,
    property_value_type: input.property_value_type,
    property_value: input.property_value_type === 'dropdown' ? optionMap({}, assertOptionIds({}, input), () => `opt_${ulid()}`) : {},
    option_order: [] as string[],
  };
  row.option_order = Object.keys(row.property_value);
  await defs().create(row).go();
  return toWire(row);
}

/**
 * PATCH /properties/{property_id} (admins): rename, change options. An option given by its id
 * (`{ option_id, label }`) or by its unchanged label keeps its id, so a relabel keeps every stored
 * value; options left out are removed. The type cannot change. @throws 403; 404; 400 (name taken,
 * type changed, `options.<i>.option_id` unknown)
 */
export async function updateProperty(actor: Actor, propertyId: string, input: PropertyInput): Promise<PropertyDef> {
  adminOnly(actor);
  const cur = (await defs().get({ org_id: actor.org_id, property_id: propertyId }).go()).data;
  if (!cur) throw notFound('property');
  if (cur.property_value_type !== input.property_value_type) throw new AppError('validation.failed', 'property_value_type: cannot change once created', { status: 400, details: [{ field: 'property_value_type', reason: 'cannot change once created' }] });
  await assertUniqueName(actor.org_id, input.property_name, propertyId);
  const previous = (cur.property_value as Record<string, string> | undefined) ?? {};
  const property_value = cur.property_value_type === 'dropdown' ? optionMap(previous, assertOptionIds(previous, input), () => `opt_${ulid()}`) : {};
  const res = await defs().patch({ org_id: actor.org_id, property_id: propertyId }).set({ property_name: input.property_name, property_value, option_order: Object.keys(property_value) }).go({ response: 'all_new' });
  return toWire(res.data as never);
}

/** DELETE /properties/{property_id} (admins). Values already stored are ignored from now on. */
export async function deleteProperty(actor: Actor, propertyId: string): Promise<{ deleted: true }> {
  adminOnly(actor);
  const cur = (await defs().get({ org_id: actor.org_id, property_id: propertyId }).go()).data;
  if (!cur) throw notFound('property');
  await defs().delete({ org_id: actor.org_id, property_id: propertyId }).go();
  return { deleted: true };
}

/**
 * Check values against the org's definitions ('' clears one, so it is always fine).
 * @param field the request field holding them (for the 400's details), e.g. 'custom_properties'
 * @throws AppError 400 validation.failed with one `{ field: 'custom_properties.<id>', reason }` per bad value
 */
export async function assertPropertyValues(orgId: string, values: Record<string, string>, field = 'custom_properties'): Promise<void> {
  const entries = Object.entries(values);
  if (!entries.length) return;
  const all = new Map((await listProperties(orgId)).map((d) => [d.property_id, d]));
  const details = entries.flatMap(([id, v]) => {
    if (!v.trim()) return [];
    const p = valueProblem(all.get(id), v);
    return p ? [{ field: `${field}.${id}`, reason: p }] : [];
  });
  if (details.length) throw new AppError('validation.failed', details.map((d) => `${d.field}: ${d.reason}`).join('; '), { status: 400, details });
}
