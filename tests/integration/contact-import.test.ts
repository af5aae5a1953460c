import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../factories/runtime.ts';
import { eventually } from '../factories/wait.ts';
import { inboundText, newWamid } from '../../shared/whatsapp/cloud/payloads.ts';
import { previewImport } from '../../shared/contact/import.rules.ts';
import { IMPORT_CHUNK, type ContactImport } from '../../shared/contact/import.schemas.ts';
import type { ContactView } from '../../shared/contact/contact.schemas.ts';

/**
 * The contacts CSV import as a background job over HTTP (issue 15 item 3): the preview's rows
 * uploaded in chunks, started, run chunk by chunk on the queue (progress counters), an existing
 * contact left as it is, and undo deleting exactly what the import created.
 */
let rt: TestRuntime;
let admin: string;
const EXISTING = '919812345678';
const N = 2 * IMPORT_CHUNK + 500;

beforeAll(async () => {
  rt = await startTestRuntime();
  admin = await rt.signIn(rt.adminEmail);
  await rt.postWebhook(inboundText(rt.phone, EXISTING, 'hello', { name: 'Ravi Kumar', id: newWamid() }));
  await rt.idle();
}, 120_000);
afterAll(async () => rt?.cleanup());

const getJob = async (id: string) => (await rt.orgCall<{ import: ContactImport }>(admin, 'GET', `/contacts/imports/${id}`)).body.import;

describe('CSV import job', () => {
  let job: ContactImport;
  it('uploads the preview in chunks, runs in the background and leaves existing contacts alone', async () => {
    const table = [['Name', 'Phone'], ['Ravi (import)', `+${EXISTING}`], ...Array.from({ length: N - 1 }, (_, i) => [`Import Person ${i}`, `+1 415 ${String(2000000 + i).slice(0, 3)} ${String(2000000 + i).slice(3)}`])];
    const p = previewImport(table, ['name', 'phone'], []);
    expect(p.errors).toEqual([]);
    expect(p.rows).toHaveLength(N);
    const created = await rt.orgCall<{ import: ContactImport }>(admin, 'POST', '/contacts/imports', { total: p.rows.length, file_name: 'people.csv' });
    expect(created.status).toBe(201);
    job = created.body.import;
    expect(job).toMatchObject({ status: 'uploading', chunks: 3, total: N });
    // starting before every chunk is there is refused
    expect((await rt.orgCall(admin, 'POST', `/contacts/imports/${job.job_id}/start`)).status).toBe(409);
    for (let seq = 0; seq < job.chunks; seq++) {
      const r = await rt.orgCall(admin, 'PUT', `/contacts/imports/${job.job_id}/chunks/${seq}`, { rows: p.rows.slice(seq * IMPORT_CHUNK, (seq + 1) * IMPORT_CHUNK) });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
    }
    const bad = await rt.orgCall<{ error: { details: unknown } }>(admin, 'PUT', `/contacts/imports/${job.job_id}/chunks/0`, { rows: [{ phone: '+1 415' }] });
    expect(bad.status).toBe(400);
    // issue 42 §4: a chunk over DynamoDB's 400 KB item limit (under the 1 MiB body limit) is a 400 naming its rows, not a 500
    const heavy = p.rows.slice(IMPORT_CHUNK, 2 * IMPORT_CHUNK).map((r) => ({ ...r, notes: 'n'.repeat(450) }));
    const tooBig = await rt.orgCall<{ error: { code: string; details: Array<{ field: string; reason: string }> } }>(admin, 'PUT', `/contacts/imports/${job.job_id}/chunks/1`, { rows: heavy });
    expect(tooBig.status, JSON.stringify(tooBig.body)).toBe(400);
    expect(tooBig.body.error.details).toEqual([{ field: 'rows', reason: expect.stringMatching(/^rows 1001–2000 are \d+ KB together/) }]);
    // the chunk uploaded before is still there (the refused one replaced nothing)
    const resent = await rt.orgCall(admin, 'PUT', `/contacts/imports/${job.job_id}/chunks/1`, { rows: p.rows.slice(IMPORT_CHUNK, 2 * IMPORT_CHUNK) });
    expect(resent.status).toBe(200);
    const started = await rt.orgCall<{ import: ContactImport }>(admin, 'POST', `/contacts/imports/${job.job_id}/start`);
    expect(started.status).toBe(202);
    expect(started.body.import.status).toBe('running');
    const done = await eventually(async () => {
      const j = await getJob(job.job_id);
      if (j.status !== 'done') throw new Error(`still ${j.status} ${j.processed}/${j.total}`);
      return j;
    }, 120_000, 'the import job');
    expect(done).toMatchObject({ processed: N, created: N - 1, existing: 1 });
    const ravi = (await rt.orgCall<{ contact: ContactView }>(admin, 'GET', `/contacts/${EXISTING}`)).body.contact;
    expect(ravi).toMatchObject({ display_name: 'Ravi Kumar', source: 'whatsapp' });
    const found = (await rt.orgCall<{ contacts: ContactView[] }>(admin, 'GET', '/contacts?q=import%20person%2012')).body.contacts;
    expect(found.map((c) => c.display_name)).toContain('Import Person 12');
    expect(found[0]!.source).toBe('import');
  }, 180_000);

  it('undo deletes what the import created, and nothing else', async () => {
    const r = await rt.orgCall<{ import: ContactImport }>(admin, 'POST', `/contacts/imports/${job.job_id}/undo`);
    expect(r.status).toBe(202);
    const undone = await eventually(async () => {
      const j = await getJob(job.job_id);
      if (j.status !== 'undone') throw new Error(`still ${j.status} ${j.removed}`);
      return j;
    }, 120_000, 'the import job');
    expect(undone.removed).toBe(N - 1);
    const left = (await rt.orgCall<{ contacts: ContactView[] }>(admin, 'GET', '/contacts?limit=200')).body.contacts;
    expect(left.map((c) => c.contact_id)).toEqual([EXISTING]);
    expect((await rt.orgCall<{ contacts: ContactView[] }>(admin, 'GET', '/contacts?q=import')).body.contacts).toEqual([]);
    expect((await rt.orgCall(admin, 'POST', `/contacts/imports/${job.job_id}/undo`)).status).toBe(409);
  }, 180_000);
});
