import { parseArgs } from 'node:util';
import { backfillContacts } from '../shared/contact/contact.ts';
import { listOrgIds } from '../shared/media/media-backfill.ts';
import { config } from '../shared/config.ts';

/**
 * Contact backfill (issue 15): a contact for every 1:1 chat stored before contacts were written
 * (name from the chat's members, last seen from the customer's latest message). Idempotent: a
 * second run creates nothing.
 *   npm run backfill:contacts -- [--org <org_id>]...
 * Runs against the table the environment names (TABLE_NAME, AWS_REGION, AWS_ENDPOINT_URL), like
 * the handlers. Without --org every org is listed (listOrgIds, shared/media/media-backfill.ts);
 * chats are read page by page from the recent-chats index, contacts by BatchGet.
 */
const { values } = parseArgs({ options: { org: { type: 'string', multiple: true } } });

async function main() {
  const started = Date.now();
  const orgIds = values.org?.length ? values.org : await listOrgIds();
  console.log(`backfill:contacts on table ${config().TABLE_NAME}, ${orgIds.length} org(s)`);
  let created = 0;
  for (const orgId of orgIds) {
    const r = await backfillContacts(orgId);
    created += r.created;
    console.log(`  ${orgId}: ${r.chats} chat(s) read, ${r.created} contact(s) created`);
  }
  console.log(`done in ${((Date.now() - started) / 1000).toFixed(1)} s: ${created} contact(s) created`);
}

main().catch((e) => {
  console.error('backfill:contacts failed:', e);
  process.exit(1);
});
