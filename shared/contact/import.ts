import { ulid } from 'ulid';
import { db } from '../db/service.ts';
import type { Actor } from '../auth/actor.ts';
import { AppError, notFound } from '../errors.ts';
import { enqueue } from '../ports/commands.ts';
import { log } from '../log.ts';
import { facetsOf, splitFacet } from './contact.rules.ts';
import { requireContactsAccess, type Row } from './contact.ts';
import { facetRowsOf, newContactRow } from './contact-rows.ts';
import { contactCreatedEvent, publishContactEvents } from './contact-events.ts';
import { assertPropertyValues } from '../property/property.ts';
import { IMPORT_CHUNK, type ContactImport, type ImportRow } from './import.schemas.ts';
import { chunkSizeProblem } from './import.rules.ts';

/**
 * CSV import of contacts as a background job (issue 15 item 3). The browser parses the file, maps
 * its columns and previews it (import.rules.ts: E.164, dedupe, an error per row), then:
 * 1. POST /contacts/imports `{ total, file_name }` -> the job ('uploading');
 * 2. PUT /contacts/imports/{job_id}/chunks/{seq} `{ rows }` for each chunk of ≤ IMPORT_CHUNK rows;
 * 3. POST /contacts/imports/{job_id}/start -> 'running': one queue step per chunk reads which
 *    numbers are contacts already (BatchGet), writes the new ones with `import_job_id` and their
 *    facet rows (BatchWrite), counts, and enqueues the next chunk; the web app polls GET for the
 *    progress bar;
 * 4. POST /contacts/imports/{job_id}/undo -> 'undoing': the same chunks again, deleting the contacts
 *    this job created (their `import_job_id`) and their facet rows -> 'undone'.
 * Steps travel on the chat-bulk command queue (its consumer hands `cimp_` jobs here), so no queue
 * was added to events/catalog.ts; a queue of its own is a one-line catalogue change later.
 * Only admins and members allowed /contacts import (spec §6 `member_permissions.contacts`); the rows
 * are written as the org's contacts, no chat is touched. Contacts that exist are left as they are.
 */
const jobs = () => db().entities.contactImport;
const chunks = () => db().entities.contactImportChunk;
const contacts = () => db().entities.contact;
const facets = () => db().entities.contactFacet;
const TTL_S = 30 * 86_400;

type JobRow = {
  org_id: string;
  job_id: string;
  status: ContactImport['status'];
  chunks: number;
  total: number;
  step: number;
  processed: number;
  created: number;
  existing: number;
  removed: number;
  error?: string;
  file_name?: string;
  created_by: string;
  created_at: number;
  finished_at?: number;
};

const toWire = (j: JobRow): ContactImport => ({
  job_id: j.job_id,
  status: j.status,
  total: j.total,
  chunks: j.chunks,
  processed: j.processed,
  created: j.created,
  existing: j.existing,
  removed: j.removed,
  error: j.error ?? null,
  file_name: j.file_name ?? null,
  created_by: j.created_by,
  created_at: j.created_at,
  finished_at: j.finished_at ?? null,
});

/** The import step command (on the chat-bulk queue; the job id starts with 'cimp_'). */
export interface ImportStepCommand {
  org_id: string;
  job_id: string;
  seq: number;
}
export const isImportJobId = (id: string): boolean => id.startsWith('cimp_');

async function requireJob(actor: Actor, jobId: string): Promise<JobRow> {
  await requireContactsAccess(actor);
  const j = (await jobs().get({ org_id: actor.org_id, job_id: jobId }).go()).data as JobRow | null;
  if (!j || (actor.role !== 'admin' && j.created_by !== actor.email)) throw notFound('import');
  return j;
}

const conflict = (msg: string) => new AppError('import.state', msg, { status: 409 });

/** POST /contacts/imports. @throws 403 contacts.restricted */
export async function createImport(actor: Actor, input: { total: number; file_name?: string }, chunkSize: number): Promise<ContactImport> {
  await requireContactsAccess(actor);
  const now = Date.now();
  const row: JobRow = { org_id: actor.org_id, job_id: `cimp_${ulid()}`, status: 'uploading', chunks: Math.ceil(input.total / chunkSize), total: input.total, step: 0, processed: 0, created: 0, existing: 0, removed: 0, created_by: actor.email, created_at: now, ...(input.file_name ? { file_name: input.file_name } : {}) };
  await jobs().create({ ...row, expires_at: Math.floor(now / 1000) + TTL_S }).go();
  return toWire(row);
}

/**
 * PUT /contacts/imports/{job_id}/chunks/{seq}: one chunk of rows (idempotent: a resend replaces it).
 * @throws 404; 409 not uploading; 400 seq / property values / rows (a chunk over one item's size, MAX_CHUNK_BYTES, with its row range)
 */
export async function putImportChunk(actor: Actor, jobId: string, seq: number, rows: ImportRow[]): Promise<{ seq: number; rows: number }> {
  const j = await requireJob(actor, jobId);
  if (j.status !== 'uploading') throw conflict('This import has started already.');
  if (seq >= j.chunks) throw new AppError('validation.failed', `seq: must be below ${j.chunks}`, { status: 400, details: [{ field: 'seq', reason: `must be below ${j.chunks}` }] });
  const props: Record<string, string> = {};
  for (const r of rows) Object.assign(props, r.custom_properties ?? {});
  await assertPropertyValues(actor.org_id, props, 'rows.custom_properties');
  // issue 42 §4: a chunk past DynamoDB's item limit is the client's 400, with its rows, never a 500
  const first = seq * IMPORT_CHUNK + 1;
  const problem = chunkSizeProblem(rows, first);
  if (problem) throw chunkTooLarge(problem);
  try {
    await chunks().put({ org_id: actor.org_id, job_id: jobId, seq, rows, expires_at: Math.floor(Date.now() / 1000) + TTL_S }).go();
  } catch (e) {
    // DynamoDB measures the item itself; the estimate above stays below its limit, this is the backstop
    if (/item size has exceeded|item size to update has exceeded/i.test(`${(e as Error)?.message ?? ''} ${String((e as { cause?: Error })?.cause?.message ?? '')}`)) throw chunkTooLarge({ field: 'rows', reason: `rows ${first}–${first + rows.length - 1} are too large to store together; send them in smaller chunks or shorten long notes` });
    throw e;
  }
  return { seq, rows: rows.length };
}

/** The 400 of a chunk too large for one item (field `rows`, the row range in the reason). */
const chunkTooLarge = (p: { field: string; reason: string }) => new AppError('validation.failed', `${p.field}: ${p.reason}`, { status: 400, details: [{ field: p.field, reason: p.reason }] });

/** POST /contacts/imports/{job_id}/start. @throws 404; 409 not uploading or a chunk missing */
export async function startImport(actor: Actor, jobId: string): Promise<ContactImport> {
  const j = await requireJob(actor, jobId);
  if (j.status !== 'uploading') throw conflict('This import has started already.');
  const got = (await chunks().query.byJob({ org_id: actor.org_id, job_id: jobId }).go({ attributes: ['seq'], pages: 'all' })).data.length;
  if (got !== j.chunks) throw conflict(`${j.chunks - got} of ${j.chunks} chunks have not been uploaded.`);
  const res = await jobs().patch({ org_id: actor.org_id, job_id: jobId }).set({ status: 'running', step: 0, started_at: Date.now() }).where((a, op) => op.eq(a.status, 'uploading')).go({ response: 'all_new' });
  await enqueue('chat-bulk', { org_id: actor.org_id, job_id: jobId, seq: 0 } satisfies ImportStepCommand);
  return toWire(res.data as JobRow);
}

/** GET /contacts/imports/{job_id} (the progress bar polls it). */
export async function getImport(actor: Actor, jobId: string): Promise<ContactImport> {
  return toWire(await requireJob(actor, jobId));
}

/** POST /contacts/imports/{job_id}/undo: delete what the import created, in the background. @throws 409 unless done (or failed) */
export async function undoImport(actor: Actor, jobId: string): Promise<ContactImport> {
  const j = await requireJob(actor, jobId);
  if (j.status !== 'done' && j.status !== 'failed') throw conflict('Only a finished import can be undone.');
  const res = await jobs().patch({ org_id: actor.org_id, job_id: jobId }).set({ status: 'undoing', step: 0, removed: 0 }).remove(['finished_at']).where((a, op) => op.eq(a.status, j.status)).go({ response: 'all_new' });
  await enqueue('chat-bulk', { org_id: actor.org_id, job_id: jobId, seq: 0 } satisfies ImportStepCommand);
  return toWire(res.data as JobRow);
}

async function batchGet(orgId: string, ids: string[]): Promise<Map<string, Row>> {
  const found = new Map<string, Row>();
  let keys = ids.map((contact_id) => ({ org_id: orgId, contact_id }));
  for (let i = 0; keys.length && i < 6; i++) {
    const res = await contacts().get(keys).go({ concurrency: 4 });
    for (const r of res.data) found.set(r.contact_id, r as Row);
    keys = res.unprocessed as typeof keys;
  }
  return found;
}

/** The import side of one chunk: write the rows whose number is not a contact yet. */
async function importChunk(job: JobRow, rows: ImportRow[]): Promise<{ created: number; existing: number }> {
  const have = await batchGet(job.org_id, rows.map((r) => r.phone));
  const now = Date.now();
  const fresh: Row[] = [];
  let existing = 0;
  for (const r of rows) {
    const cur = have.get(r.phone);
    // a redelivered step finds its own rows: they count as created, not as existing
    if (cur && cur.import_job_id !== job.job_id) {
      existing++;
      continue;
    }
    // a redelivered step keeps the first creation time, so its contact.created event has the same id (consumers dedupe)
    fresh.push(newContactRow({ org_id: job.org_id, contact_id: r.phone, custom_properties: r.custom_properties ?? {}, source: 'import', import_job_id: job.job_id, created_at: cur?.created_at ?? now, updated_by: job.created_by.toLowerCase(), ...(r.name ? { edited_name: r.name } : {}), ...(r.notes ? { notes: r.notes } : {}) }, now));
  }
  if (fresh.length) {
    await contacts().put(fresh as Parameters<ReturnType<typeof contacts>['put']>[0] & unknown[]).go({ concurrency: 4 });
    // each facet row carries the contact's copy, so filters and search read no contact (contact.ts facetCopy)
    const rowsF = fresh.flatMap(facetRowsOf);
    if (rowsF.length) await facets().put(rowsF).go({ concurrency: 4 });
    // contact.created for each (the rules' trigger), through the outbox, 100 per transaction. After
    // the rows: a crash in between fails the step, and the queue's redelivery writes and publishes again.
    for (let i = 0; i < fresh.length; i += 100) await publishContactEvents(fresh.slice(i, i + 100).map((c) => contactCreatedEvent(job.org_id, c, `user:${job.created_by.toLowerCase()}`)));
  }
  return { created: fresh.length, existing };
}

/** The undo side of one chunk: delete the rows' contacts this job created, and their facets. */
async function undoChunk(job: JobRow, rows: ImportRow[]): Promise<number> {
  const have = await batchGet(job.org_id, rows.map((r) => r.phone));
  const mine = [...have.values()].filter((c) => c.import_job_id === job.job_id);
  if (!mine.length) return 0;
  const rowsF = mine.flatMap((c) => facetsOf(c).map((f) => ({ org_id: job.org_id, ...splitFacet(f) })));
  if (rowsF.length) await facets().delete(rowsF).go({ concurrency: 4 });
  await contacts().delete(mine.map((c) => ({ org_id: job.org_id, contact_id: c.contact_id }))).go({ concurrency: 4 });
  return mine.length;
}

/**
 * One step of an import or its undo (the chat-bulk consumer). A step whose seq is not the job's
 * `step` is a redelivery and is dropped; the counters move with a condition on `step`, so a step
 * never counts twice. @throws unexpected errors (the queue retries; the last attempt fails the job)
 */
export async function runImportStep(cmd: ImportStepCommand, attempt = 1, maxAttempts = 5): Promise<'done' | 'next' | 'skipped'> {
  const job = (await jobs().get({ org_id: cmd.org_id, job_id: cmd.job_id }).go()).data as JobRow | null;
  if (!job || (job.status !== 'running' && job.status !== 'undoing') || job.step !== cmd.seq) return 'skipped';
  const undo = job.status === 'undoing';
  let add: Record<string, number>;
  try {
    const chunk = (await chunks().get({ org_id: job.org_id, job_id: job.job_id, seq: cmd.seq }).go()).data;
    const rows = (chunk?.rows ?? []) as ImportRow[];
    if (undo) add = { removed: job.removed + (await undoChunk(job, rows)) };
    else {
      const r = await importChunk(job, rows);
      add = { processed: job.processed + rows.length, created: job.created + r.created, existing: job.existing + r.existing };
    }
  } catch (e) {
    log('error', 'contact_import.step_failed', { org_id: job.org_id, job_id: job.job_id, step: job.step, attempt, error: String((e as Error)?.stack ?? e) });
    if (attempt < maxAttempts) throw e;
    await jobs().patch({ org_id: job.org_id, job_id: job.job_id }).set({ status: 'failed', error: 'The import stopped because of an error. What was written stays; you can undo it.', finished_at: Date.now() }).go();
    return 'done';
  }
  const last = cmd.seq + 1 >= job.chunks;
  const set = { ...add, step: cmd.seq + 1, ...(last ? { status: undo ? ('undone' as const) : ('done' as const), finished_at: Date.now() } : {}) };
  try {
    await jobs().patch({ org_id: job.org_id, job_id: job.job_id }).set(set).where((a, op) => op.eq(a.step, cmd.seq)).go();
  } catch (e) {
    if (/conditional/i.test(String((e as Error).message))) return 'skipped';
    throw e;
  }
  if (last) return 'done';
  await enqueue('chat-bulk', { org_id: job.org_id, job_id: job.job_id, seq: cmd.seq + 1 } satisfies ImportStepCommand);
  return 'next';
}
