import { GetCommand, PutCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from './client.ts';
import { db } from './service.ts';
import { config } from '../config.ts';
import { assigneeKey, inboxState, unreadKey } from '../chat/chat-state.rules.ts';
import { propertyLinksOf } from '../property/property.rules.ts';
import { toChatWire } from '../inbox/wire.ts';
import { groupLinkOf, type ChatRow } from '../chat/chat-write.ts';
import { facetsOf, splitFacet } from '../contact/contact.rules.ts';
import { facetCopy, type Row as ContactRow } from '../contact/contact.ts';
import { backfillPhoneIds } from '../contact/identity.ts';

/**
 * One-off data migrations of the single table, each run once per table and recorded in a marker
 * item (`pk = 'migration'`, `sk = <id>`, outside ElectroDB's key space). `npm start` runs the
 * pending ones at start (scripts/local/runtime.ts); in AWS run `npm run migrate` with TABLE_NAME
 * (and AWS_ENDPOINT_URL for LocalStack) after a deploy that lists a new one (README "Migrations").
 *
 * A migration reads the whole table with a paged Scan: it is an offline job, never a request path
 * (request paths use key and index lookups only, ACCESS_PATTERNS.md). Each must be idempotent:
 * a crash before the marker is written re-runs it from the start.
 */
export interface Migration {
  id: string;
  description: string;
  /** rewrites what needs it; `progress(done)` after each page; @returns items rewritten */
  run: (progress: (done: number) => void) => Promise<number>;
}

type Raw = Record<string, unknown>;

/** Every item of one ElectroDB entity (`__edb_e__`), page by page (Scan: offline use only). */
async function forEachItem(entity: string, fn: (items: Raw[]) => Promise<void>): Promise<void> {
  let start: Record<string, unknown> | undefined;
  do {
    const page = await documentClient().send(
      new ScanCommand({ TableName: config().TABLE_NAME, FilterExpression: '#e = :e', ExpressionAttributeNames: { '#e': '__edb_e__' }, ExpressionAttributeValues: { ':e': entity }, ExclusiveStartKey: start, Limit: 1000 }),
    );
    if (page.Items?.length) await fn(page.Items);
    start = page.LastEvaluatedKey;
  } while (start);
}

/** The subset of an ElectroDB entity a rewrite needs. */
interface Rewritable<R> {
  parse: (r: { Item: Raw }) => { data: R | null };
  put: (rows: R[]) => { go: (o: { concurrency: number }) => Promise<unknown> };
}

/**
 * Put every stored item of `entity` again (after `fix`), so it gets the index keys its ElectroDB
 * entity now declares. @returns items rewritten, counted on from `done` for `progress`
 */
async function rewriteEntity<R>(entity: string, model: Rewritable<R>, fix: (row: R) => R, done: number, progress: (n: number) => void): Promise<number> {
  let n = done;
  await forEachItem(entity, async (items) => {
    const rows = items.map((i) => model.parse({ Item: i }).data).filter((r): r is R => !!r).map(fix);
    if (rows.length) await model.put(rows).go({ concurrency: 4 });
    n += rows.length;
    progress(n);
  });
  return n;
}

const asRewritable = <R>(entity: unknown) => entity as Rewritable<R>;
const same = <R>(r: R) => r;

export const MIGRATIONS: Migration[] = [
  {
    id: '2026-11-26-chat-combined-filter-keys',
    description: 'issue 14 item 8: chat rows get the assignee+unread index keys (gsi7), label rows their assignee and unread keys (gsi1, gsi2)',
    run: async (progress) => {
      const e = db().entities;
      const chats = await rewriteEntity('chat', asRewritable<Raw>(e.chat), same, 0, progress);
      type Link = { chat?: { assigned_to?: string | null; message_unread_count?: number; marked_unread?: boolean } };
      return rewriteEntity('chatLabelLink', asRewritable<Link>(e.chatLabelLink), (r) => ({ ...r, assignee_key: assigneeKey(r.chat?.assigned_to), unread_key: unreadKey(r.chat ?? {}) }), chats, progress);
    },
  },
  {
    id: '2026-11-26-ticket-status-assignee-keys',
    description: 'issue 14 item 8: ticket rows get the status+assignee index keys (gsi8)',
    run: (progress) => rewriteEntity('ticket', asRewritable<Raw>(db().entities.ticket), same, 0, progress),
  },
  {
    id: '2026-11-26-chat-property-links',
    description: 'issue 15 item 4: a ChatPropertyLink row per (custom property value, chat) for chats that already carry custom_properties (the chat-list filter by property)',
    run: async (progress) => {
      const e = db().entities;
      let n = 0;
      await forEachItem('chat', async (items) => {
        type Row = { org_id: string; chat_id: string; inbox_state?: string; latest_message_timestamp: number; assignee_key?: string; unread_key?: string; custom_properties?: unknown };
        const rows = items.map((i) => e.chat.parse({ Item: i }).data as Row | null).filter((r): r is Row => !!r);
        const links = rows.flatMap((r) =>
          propertyLinksOf(r.custom_properties).map((p) => ({
            org_id: r.org_id,
            property_id: p.property_id,
            value_key: p.value_key,
            inbox_state: r.inbox_state ?? 'open',
            latest_message_timestamp: r.latest_message_timestamp,
            chat_id: r.chat_id,
            assignee_key: r.assignee_key ?? 'none',
            unread_key: r.unread_key ?? 'read',
            chat: toChatWire(r as never),
          })),
        );
        // a put is idempotent: a re-run writes the same rows again
        if (links.length) await e.chatPropertyLink.put(links).go({ concurrency: 4 });
        n += links.length;
        progress(n);
      });
      return n;
    },
  },
  {
    id: '2026-11-26-contact-property-set-facets',
    description: 'issue 15 item 4: a `pset#<property_id>` ContactFacet row per (custom property set, contact), so a deleted definition finds every contact carrying it without a scan',
    run: async (progress) => {
      const e = db().entities;
      let n = 0;
      await forEachItem('contact', async (items) => {
        const rows = items.map((i) => e.contact.parse({ Item: i }).data as ContactRow | null).filter((r): r is ContactRow => !!r);
        const put = rows.flatMap((r) =>
          facetsOf(r)
            .filter((f) => f.startsWith('pset#'))
            .map((f) => ({ org_id: r.org_id, ...splitFacet(f), contact_id: r.contact_id, c: facetCopy(r) })),
        );
        // a put is idempotent: a re-run writes the same rows again
        if (put.length) await e.contactFacet.put(put).go({ concurrency: 4 });
        n += put.length;
        progress(n);
      });
      return n;
    },
  },
  {
    id: '2026-11-27-chat-group-filter-keys',
    description: 'issue 14 item 8: group chat rows get the sparse group + assignee + unread index keys (gsi8); user chat rows are left as they are',
    run: async (progress) => {
      const chat = asRewritable<Raw>(db().entities.chat);
      let n = 0;
      await forEachItem('chat', async (items) => {
        const rows = items.filter((i) => i.chat_type === 'group').flatMap((i): Raw[] => {
          const row = chat.parse({ Item: i }).data;
          return row ? [row] : [];
        });
        if (rows.length) await chat.put(rows).go({ concurrency: 4 });
        n += rows.length;
        progress(n);
      });
      return n;
    },
  },
  {
    id: '2026-11-27-chat-group-link-rows',
    description: 'issue 14 item 8: a ChatGroupLink row per group chat (the group + assignee and group + unread filters, gsi1 and gsi2 of that row); user chats get none',
    run: async (progress) => {
      const e = db().entities;
      let n = 0;
      await forEachItem('chat', async (items) => {
        const links = items.flatMap((i) => {
          if (i.chat_type !== 'group') return [];
          const row = e.chat.parse({ Item: i }).data as ChatRow | null;
          // rows stored before the key attributes existed get them as the write path computes them
          const link = row ? groupLinkOf({ ...row, assignee_key: row.assignee_key ?? assigneeKey(row.assigned_to), unread_key: row.unread_key ?? unreadKey(row), inbox_state: row.inbox_state ?? inboxState(row as never, Date.now()) }) : null;
          return link ? [link] : [];
        });
        // a put is idempotent: a re-run writes the same rows again
        if (links.length) await e.chatGroupLink.put(links).go({ concurrency: 4 });
        n += links.length;
        progress(n);
      });
      return n;
    },
  },
  {
    id: '2026-11-29-customer-phone-ids',
    description: 'issue 41: a phone lookup row (CustomerIdEntity) per 1:1 chat stored before customer identifiers had rows, so a number seen before 2026 joins its BSUID',
    run: async (progress) => {
      let n = 0;
      let read = 0;
      await forEachItem('chat', async (items) => {
        read += items.length;
        n += await backfillPhoneIds(items as never);
        progress(read);
      });
      return n;
    },
  },
];

const marker = (id: string) => ({ pk: 'migration', sk: id });

/**
 * Run the migrations this table has not recorded yet, in order.
 * @returns the ids run now (empty when the table is up to date: one GetItem per migration)
 */
export async function runMigrations(opts: { log?: (line: string) => void } = {}): Promise<string[]> {
  const ran: string[] = [];
  for (const m of MIGRATIONS) {
    const done = await documentClient().send(new GetCommand({ TableName: config().TABLE_NAME, Key: marker(m.id) }));
    if (done.Item) continue;
    const t0 = Date.now();
    const n = await m.run((k) => opts.log?.(`migration ${m.id}: ${k} items`));
    await documentClient().send(new PutCommand({ TableName: config().TABLE_NAME, Item: { ...marker(m.id), done_at: Date.now(), items: n } }));
    if (n > 0) opts.log?.(`migration ${m.id}: ${n} items rewritten in ${Date.now() - t0} ms`);
    ran.push(m.id);
  }
  return ran;
}
