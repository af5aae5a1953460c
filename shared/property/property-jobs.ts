import type { Actor } from '../auth/actor.ts';
import { startPropertyCleanup } from '../bulk/bulk-job.ts';
import type { BulkJob } from '../bulk/bulk-job.schemas.ts';
import type { PropertyDef, PropertyInput } from './property.schemas.ts';
import { deleteProperty, listProperties, updateProperty } from './property.ts';

/**
 * Changes of a custom property definition that reach its stored values (issue 15 item 4), in the
 * background: a 'clear_property' bulk job (shared/bulk/bulk-job.ts `startPropertyCleanup`: chats
 * found through their ChatPropertyLink rows, never a scan; progress on the job, `bulk_job.updated`
 * to the admin who made the change, GET /chats/bulk-jobs/{job_id}).
 * - delete: every chat's value of the property is removed;
 * - dropdown options removed by a PATCH: the chats holding one of those options lose that value
 *   (others keep theirs). Values are keyed by property id and hold option ids, so renaming a
 *   definition changes no value, and neither does relabelling an option given by its id
 *   (`{ option_id, label }`, `optionMap`) or keeping its label: only options left out start a job.
 * Contacts' values are not rewritten here (their facet rows are keyed by value; see the issue note).
 */

/** DELETE /properties/{id}: the definition, then the job clearing its values. @throws as deleteProperty */
export async function deletePropertyAndValues(actor: Actor, propertyId: string): Promise<{ deleted: true; job: BulkJob }> {
  const r = await deleteProperty(actor, propertyId);
  return { ...r, job: await startPropertyCleanup(actor, propertyId) };
}

/** PATCH /properties/{id}: the definition, then one job per removed dropdown option. @throws as updateProperty */
export async function updatePropertyAndValues(actor: Actor, propertyId: string, input: PropertyInput): Promise<{ property: PropertyDef; jobs: BulkJob[] }> {
  const before = (await listProperties(actor.org_id)).find((d) => d.property_id === propertyId);
  const property = await updateProperty(actor, propertyId, input);
  const removed = before?.property_value_type === 'dropdown' ? Object.keys(before.property_value).filter((id) => !(id in property.property_value)) : [];
  const jobs: BulkJob[] = [];
  for (const option of removed) jobs.push(await startPropertyCleanup(actor, propertyId, option));
  return { property, jobs };
}
