import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { startTestRuntime, type TestRuntime } from '../factories/runtime.ts';
import { inboundImage, inboundMedia } from '../../shared/whatsapp/cloud/payloads.ts';
import { seedDemo } from '../../scripts/local/seed.ts';
import { db } from '../../shared/db/service.ts';
import { backfillMediaItems, listOrgIds, type BackfillProgress } from '../../shared/media/media-backfill.ts';
import { REPO_ROOT } from '../../scripts/local/handlers.ts';

/**
 * MediaItem backfill (issue 5): media stored before the library existed (their rows deleted here)
 * get their rows back from a walk over chats and messages; a second run writes nothing; failed
 * downloads get none; the CLI prints its progress.
 */
let rt: TestRuntime;
let token: string;
let otherOrg: string;
const run = promisify(execFile);

const rowsOf = async () => (await db().entities.mediaItem.query.byOrg({ org_id: rt.orgId }).go({ pages: 'all' })).data;

beforeAll(async () => {
  rt = await startTestRuntime();
  token = await rt.signIn(rt.adminEmail);
  const sub = await rt.createUser('outsider@backfill.chorus', rt.password);
  otherOrg = await seedDemo({ orgName: 'Other Co', admin: { email: 'outsider@backfill.chorus', sub, name: 'Outsider' }, member: { email: 'm2@backfill.chorus', sub: 'x', name: 'M2' }, phone: { phone_number_id: '555000777', display_phone_number: '15555550777' } });
  const jpeg = await sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 1, g: 2, b: 3 } } }).jpeg().toBuffer();
  rt.graph.addMedia('bf-1', jpeg, 'image/jpeg');
  rt.graph.addMedia('bf-2', jpeg, 'image/jpeg');
  rt.graph.addMedia('bf-3', Buffer.from('%PDF-1.4\n%%EOF\n'), 'application/pdf');
  await rt.postWebhook(inboundImage(rt.phone, '15556130001', { id: 'bf-1' }));
  await rt.postWebhook(inboundImage(rt.phone, '15556130001', { id: 'bf-2' }));
  await rt.postWebhook(inboundMedia(rt.phone, '15556130002', 'document', { id: 'bf-3', mime_type: 'application/pdf', filename: 'terms.pdf' }));
  // a download that fails for good (Meta no longer has the id): no file, no row
  await rt.postWebhook(inboundMedia(rt.phone, '15556130002', 'image', { id: 'bf-gone', mime_type: 'image/jpeg' }));
  await rt.idle();
});
afterAll(async () => rt?.cleanup());

describe('backfill:media', () => {
  it('writes the rows missing for stored files, and nothing on a second run', async () => {
    const live = await rowsOf();
    expect(live).toHaveLength(3);
    // as before the library existed: no rows
    for (const r of live) await db().entities.mediaItem.delete({ org_id: r.org_id, timestamp: r.timestamp, unique_id: r.unique_id }).go();
    expect(await rowsOf()).toHaveLength(0);

    const progress: BackfillProgress[] = [];
    const totals = await backfillMediaItems({ orgIds: [rt.orgId] }, (p) => progress.push(p));
    expect(totals).toEqual({ orgs: 1, chats: 2, media: 3, written: 3 });
    expect(progress.map((p) => [p.chat_id, p.media, p.written]).sort()).toEqual([
      ['15556130001@c.us', 2, 2],
      ['15556130002@c.us', 1, 1],
    ]);
    const back = await rowsOf();
    expect(back.map((r) => [r.unique_id, r.chat_id, r.message_type, r.path, r.thumbnail ?? null, r.size, r.from_me]).sort()).toEqual(
      live.map((r) => [r.unique_id, r.chat_id, r.message_type, r.path, r.thumbnail ?? null, r.size, r.from_me]).sort(),
    );
    // the library lists them again
    const lib = await rt.api(token, `/api/orgs/${rt.orgId}/media`);
    expect(((await lib.json()) as { items: unknown[] }).items).toHaveLength(3);

    expect(await backfillMediaItems({ orgIds: [rt.orgId] })).toEqual({ orgs: 1, chats: 2, media: 3, written: 0 });
  });

  it('without org ids, lists every org by a paginated parallel Scan', async () => {
    const ids = await listOrgIds({ segments: 3, limit: 5 });
    expect(ids).toEqual(expect.arrayContaining([rt.orgId, otherOrg]));
    const totals = await backfillMediaItems();
    expect(totals.orgs).toBe(ids.length);
    expect(totals.written).toBe(0);
  });

  it('the npm script prints progress and totals', async () => {
    const one = (await rowsOf())[0]!;
    await db().entities.mediaItem.delete({ org_id: one.org_id, timestamp: one.timestamp, unique_id: one.unique_id }).go();
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'scripts/backfill-media-items.ts', '--org', rt.orgId], { cwd: REPO_ROOT, env: process.env, timeout: 60_000 });
    expect(stdout).toContain(`${rt.orgId} ${one.chat_id}:`);
    expect(stdout).toMatch(/1 org\(s\), 2 chat\(s\), 3 stored file\(s\), 1 row\(s\) written/);
    expect(await rowsOf()).toHaveLength(3);
  });
});
