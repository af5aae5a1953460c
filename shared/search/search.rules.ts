/**
 * Search document keys (pure; issue 41 §6). A document's public id (SearchDoc.id: a chat id, a
 * contact's number, `chat_id|unique_id`, a ticket id) is unique only within its org: the same
 * customer writing to two orgs gives both the same chat and contact ids. So an engine stores, and
 * deletes, a document under its org and its id together, never under the id alone; hits still
 * carry the public id.
 */

/** Separator between the org and the public id in a key; org ids (`org_<ulid>`) never hold it. */
const SEP = ':';

/**
 * The engine key of a search document: `${orgId}:${id}` (issue 41 §6), the OpenSearch `_id` and
 * the batch dedupe key of the indexing consumer. Every writer and deleter keys documents by it.
 * @param orgId the document's org (SearchDoc.org_id)
 * @param id the document's public id (SearchDoc.id)
 * @throws Error when `orgId` is empty or holds ':' (the key would not say where the org ends)
 */
export function searchDocId(orgId: string, id: string): string {
  if (!orgId || orgId.includes(SEP)) throw new Error(`search document of org ${JSON.stringify(orgId)}: an org id is required and may not hold '${SEP}'`);
  return `${orgId}${SEP}${id}`;
}

/**
 * The public id inside a key made by searchDocId for `orgId` (issue 41 §6).
 * @returns the id, or undefined when `key` is not a key of `orgId` (another org's, or an old
 *   unprefixed one)
 */
export function publicIdOf(orgId: string, key: string): string | undefined {
  const prefix = `${orgId}${SEP}`;
  return orgId && key.startsWith(prefix) ? key.slice(prefix.length) : undefined;
}
