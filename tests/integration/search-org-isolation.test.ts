import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../factories/runtime.ts';
import { eventually } from '../factories/wait.ts';
import { inboundText } from '../../shared/whatsapp/cloud/payloads.ts';
import { seedDemo } from '../../scripts/local/seed.ts';
import { searchPort } from '../../shared/ports/search.ts';
import { reindexOrg } from '../../shared/search/reindex.ts';
import type { SearchItem, SearchResponse } from '../../shared/search-api/search.schemas.ts';

/**
 * Search documents are keyed by (org, id) (issue 41 §6), on the local runtime (embedded engine on
 * its worker thread, fed by the search-indexing consumer): one customer number writes to org A's
 * number and to org B's, so both orgs hold a chat `<number>@c.us` and a contact `<number>`. Each
 * org finds its own chat, contact and message under those public ids; an update (assignment) and
 * a delete (a private note) in one org leave the other's hits as they were; a reindex of both orgs
 * leaves one document of each.
 */
let rt: TestRuntime;
let adminA: string;
let adminB: string;
let orgA: string;
let orgB: string;
const outsiderEmail = 'outsider@search-iso.chorus';
const phoneB = { phone_number_id: '444000555', display_phone_number: '15554440555' };
const CUSTOMER = '15557770001';
const CHAT = `${CUSTOMER}@c.us`;
const enc = encodeURIComponent;

type Results = SearchResponse['results'];
/** The org's search results for `q` (kind=all) as its admin. */
const search = async (token: string, org: string, q: string): Promise<Results> => {
  const r = await rt.api(token, `/api/orgs/${org}/search?kind=all&q=${enc(q)}`);
  if (r.status !== 200) throw new Error(`search ${org} ${q}: ${r.status} ${await r.text()}`);
  return ((await r.json()) as SearchResponse).results;
};
const items = (r: Results, kind: keyof Results): SearchItem[] => r[kind]?.items ?? [];
const call = async (token: string, org: string, method: string, path: string, json?: unknown) => {
  const r = await rt.api(token, `/api/orgs/${org}${path}`, { method, json });
  if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${await r.text()}`);
  return (await r.json()) as Record<string, unknown>;
};

beforeAll(async () => {
  rt = await startTestRuntime();
  orgA = rt.orgId;
  const sub = await rt.createUser(outsiderEmail, rt.password);
  orgB = await seedDemo({ orgName: 'Search Iso B', admin: { email: outsiderEmail, sub, name: 'Outsider' }, member: { email: 'm2@search-iso.chorus', sub: 'x', name: 'M2' }, phone: phoneB });
  [adminA, adminB] = await Promise.all([rt.signIn(rt.adminEmail), rt.signIn(outsiderEmail)]);
  // org A first, then org B: B's documents of the same ids are written last
  expect((await rt.postWebhook(inboundText(rt.phone, CUSTOMER, 'apricot delivery for org A', { name: 'Carla Mendes' }))).status).toBe(200);
  await rt.idle();
  expect((await rt.postWebhook(inboundText(phoneB, CUSTOMER, 'blueberry delivery for org B', { name: 'Carla Mendes' }))).status).toBe(200);
  await rt.idle();
});
afterAll(async () => rt?.cleanup());

/** Both orgs find exactly one chat and one contact for the customer, under the public ids. */
async function bothFindTheCustomer(): Promise<{ a: Results; b: Results }> {
  return eventually(
    async () => {
      const [a, b] = await Promise.all([search(adminA, orgA, 'carla'), search(adminB, orgB, 'carla')]);
      return [a, b].every((r) => items(r, 'chats').length === 1 && items(r, 'contacts').length === 1) && { a, b };
    },
    20_000,
    "both orgs' chat and contact hits",
  );
}

describe('search documents keyed by (org, id) (issue 41 §6)', () => {
  it('each org finds its own chat, contact and message of a customer who wrote to both, under the public ids', async () => {
    const { a, b } = await bothFindTheCustomer();
    for (const r of [a, b]) {
      expect(items(r, 'chats')[0]).toMatchObject({ chat_id: CHAT, title: `Carla Mendes ${CUSTOMER}` });
      expect(items(r, 'contacts')[0]).toMatchObject({ chat_id: CHAT, contact_id: CUSTOMER });
    }
    const messages = async (token: string, org: string, q: string) => items(await search(token, org, q), 'messages');
    expect(await messages(adminA, orgA, 'apricot')).toEqual([expect.objectContaining({ chat_id: CHAT })]);
    expect(await messages(adminB, orgB, 'blueberry')).toEqual([expect.objectContaining({ chat_id: CHAT })]);
    expect(await messages(adminA, orgA, 'blueberry')).toEqual([]);
    expect(await messages(adminB, orgB, 'apricot')).toEqual([]);
  });

  it("an update in one org (an assignment: the chat's and the contact's documents rewritten) leaves the other org's hits", async () => {
    await call(adminB, orgB, 'POST', '/chats/assign', { chat_ids: [CHAT], assigned_to: outsiderEmail });
    await eventually(async () => items(await search(adminB, orgB, 'carla'), 'chats')[0]?.author === outsiderEmail, 20_000, "org B's assignment indexed");
    let { a } = await bothFindTheCustomer();
    expect(items(a, 'chats')[0]).toMatchObject({ chat_id: CHAT, author: null });
    // and back: A's later write leaves B's document
    await call(adminA, orgA, 'POST', '/chats/assign', { chat_ids: [CHAT], assigned_to: rt.adminEmail });
    await eventually(async () => items(await search(adminA, orgA, 'carla'), 'chats')[0]?.author === rt.adminEmail, 20_000, "org A's assignment indexed");
    const both = await bothFindTheCustomer();
    a = both.a;
    expect(items(a, 'chats')[0]).toMatchObject({ chat_id: CHAT, author: rt.adminEmail });
    expect(items(both.b, 'chats')[0]).toMatchObject({ chat_id: CHAT, author: outsiderEmail });
  });

  it("a delete in one org (a private note) leaves the other org's note, chat and contact", async () => {
    const noteA = (await call(adminA, orgA, 'POST', `/chats/${enc(CHAT)}/notes`, { body: 'kiwi escalation agreed' })).message as { unique_id: string };
    const noteB = (await call(adminB, orgB, 'POST', `/chats/${enc(CHAT)}/notes`, { body: 'kiwi escalation agreed' })).message as { unique_id: string };
    const notes = async (token: string, org: string) => items(await search(token, org, 'kiwi'), 'notes');
    await eventually(async () => (await notes(adminA, orgA)).length === 1 && (await notes(adminB, orgB)).length === 1, 20_000, "both orgs' notes indexed");
    await call(adminB, orgB, 'DELETE', `/chats/${enc(CHAT)}/notes/${noteB.unique_id}`);
    await eventually(async () => (await notes(adminB, orgB)).length === 0, 20_000, "org B's note removed");
    expect(await notes(adminA, orgA)).toEqual([expect.objectContaining({ chat_id: CHAT, unique_id: noteA.unique_id })]);
    await bothFindTheCustomer();
  });

  it('a reindex of both orgs writes each document again under its own key: one chat and one contact each, the deleted note stays gone', async () => {
    const port = await searchPort();
    expect(await reindexOrg(orgA, port)).toBeGreaterThan(0);
    expect(await reindexOrg(orgB, port)).toBeGreaterThan(0);
    const [a, b] = await Promise.all([search(adminA, orgA, 'carla'), search(adminB, orgB, 'carla')]);
    for (const r of [a, b]) {
      expect(items(r, 'chats').map((i) => i.chat_id)).toEqual([CHAT]);
      expect(items(r, 'contacts').map((i) => i.contact_id)).toEqual([CUSTOMER]);
    }
    expect(items(await search(adminA, orgA, 'kiwi'), 'notes')).toHaveLength(1);
    expect(items(await search(adminB, orgB, 'kiwi'), 'notes')).toHaveLength(0);
  });
});
