import { config } from '../config.ts';
import { explainGraphError } from '../whatsapp/cloud/errors.ts';
import { GraphApiError } from '../whatsapp/cloud/graph-client.ts';
import { MetaTemplatePage } from './template.schemas.ts';

/**
 * Graph API call of the template sync (Meta "Message templates": `GET /{waba_id}/message_templates`),
 * through the same base URL, version and token rules as shared/whatsapp/cloud/graph-client.ts.
 */

/** Fields asked for (Meta returns a smaller default set otherwise). */
export const TEMPLATE_FIELDS = 'id,name,language,status,category,parameter_format,components';

/**
 * One page of a WABA's templates: `GET {WHATSAPP_GRAPH_URL}/{version}/{waba_id}/message_templates?fields=…&limit=…&after=…`.
 * @param after the cursor of the previous page (`paging.cursors.after`), none for the first page
 * @param limit page size (Meta's default 25; at most 100 here)
 * @returns the raw rows (validated one by one by the caller) and the next cursor, null on the last page
 * @throws GraphApiError on a Graph error answer or a network failure (network, 5xx and 429 retryable)
 */
export async function fetchTemplatePage(wabaId: string, accessToken: string | undefined, after?: string, limit = 100): Promise<{ rows: unknown[]; after: string | null }> {
  const { WHATSAPP_GRAPH_URL, WHATSAPP_GRAPH_VERSION } = config();
  const token = accessToken || config().WHATSAPP_ACCESS_TOKEN;
  const qs = new URLSearchParams({ fields: TEMPLATE_FIELDS, limit: String(limit) });
  if (after) qs.set('after', after);
  const url = `${WHATSAPP_GRAPH_URL.replace(/\/$/, '')}/${WHATSAPP_GRAPH_VERSION}/${encodeURIComponent(wabaId)}/message_templates?${qs}`;
  let res: Response;
  try {
    res = await fetch(url, { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(15_000) });
  } catch (e) {
    throw new GraphApiError(null, null, String((e as Error).message), 'Chorus could not reach WhatsApp to read the templates. Please try again.', true, 0);
  }
  const json = (await res.json().catch(() => ({}))) as { error?: { code?: number; message?: string; error_data?: { details?: string } } };
  if (res.ok) {
    const page = MetaTemplatePage.safeParse(json);
    if (!page.success) throw new GraphApiError(null, null, 'unexpected message_templates answer', 'WhatsApp answered the template list in an unexpected shape.', false, res.status);
    const next = page.data.paging?.next ? (page.data.paging.cursors?.after ?? null) : null;
    return { rows: page.data.data, after: next };
  }
  const code = json.error?.code ?? null;
  const title = json.error?.message ?? null;
  const info = explainGraphError(code, title);
  throw new GraphApiError(code, title, json.error?.error_data?.details ?? null, info.reason, info.retryable || res.status >= 500 || res.status === 429, res.status);
}
