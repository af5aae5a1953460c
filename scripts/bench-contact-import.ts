import { parseArgs } from 'node:util';
import { startTestRuntime } from '../tests/factories/runtime.ts';
import { previewImport } from '../shared/contact/import.rules.ts';
import { IMPORT_CHUNK, type ContactImport } from '../shared/contact/import.schemas.ts';

/**
 * bench:contact-import (issue 15 item 3): a CSV import of `--rows` contacts through the real API
 * and queue of the local runtime (the test runtime: in-memory table, local file queues), timed in
 * three parts: the browser-side preview (previewImport: E.164 + dedupe), the upload of the chunks,
 * and the background job from start to 'done'; then the undo. The machine's other load shows in
 * the figures: report them as taken under load.
 *   npm run bench:contact-import -- --rows 50000
 */
async function main() {
  const { values } = parseArgs({ options: { rows: { type: 'string', default: '50000' } } });
  const n = Number(values.rows);
  const rt = await startTestRuntime();
  try {
    const admin = await rt.signIn(rt.adminEmail);
    const table = [['Name', 'Phone'], ...Array.from({ length: n }, (_, i) => [`Bench Person ${i}`, `+1 628 ${String(2000000 + i).slice(0, 3)} ${String(2000000 + i).slice(3)}`])];
    let t = performance.now();
    const p = previewImport(table, ['name', 'phone'], []);
    const previewMs = performance.now() - t;
    t = performance.now();
    if (p.rows.length !== n) throw new Error(`preview kept ${p.rows.length} of ${n} rows: ${JSON.stringify(p.errors.slice(0, 3))}`);
    const job = (await rt.orgCall<{ import: ContactImport }>(admin, 'POST', '/contacts/imports', { total: p.rows.length, file_name: 'bench.csv' })).body.import;
    for (let seq = 0; seq < job.chunks; seq++) {
      const r = await rt.orgCall(admin, 'PUT', `/contacts/imports/${job.job_id}/chunks/${seq}`, { rows: p.rows.slice(seq * IMPORT_CHUNK, (seq + 1) * IMPORT_CHUNK) });
      if (r.status !== 200) throw new Error(`chunk ${seq}: ${r.status} ${JSON.stringify(r.body)}`);
    }
    const uploadMs = performance.now() - t;
    t = performance.now();
    await rt.orgCall(admin, 'POST', `/contacts/imports/${job.job_id}/start`);
    const wait = async (status: string) => {
      for (;;) {
        const j = (await rt.orgCall<{ import: ContactImport }>(admin, 'GET', `/contacts/imports/${job.job_id}`)).body.import;
        if (j.status === status) return j;
        if (j.status === 'failed') throw new Error(j.error ?? 'failed');
        await new Promise((r) => setTimeout(r, 500));
      }
    };
    const done = await wait('done');
    const jobMs = performance.now() - t;
    t = performance.now();
    await rt.orgCall(admin, 'POST', `/contacts/imports/${job.job_id}/undo`);
    const undone = await wait('undone');
    const undoMs = performance.now() - t;
    console.log(`rows ${n}: preview ${previewMs.toFixed(0)} ms, upload ${job.chunks} chunks ${(uploadMs / 1000).toFixed(1)} s, job ${(jobMs / 1000).toFixed(1)} s (${Math.round(done.created / (jobMs / 1000))} contacts/s, created ${done.created}), undo ${(undoMs / 1000).toFixed(1)} s (removed ${undone.removed})`);
  } finally {
    await rt.cleanup();
  }
}

void main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
