import { db } from '../db/service.ts';
import { config } from '../config.ts';
import { AppError, notFound } from '../errors.ts';
import { log } from '../log.ts';
import type { Actor } from '../auth/actor.ts';
import { phoneAccessToken } from '../phone/phone.ts';
import { GraphApiError } from '../whatsapp/cloud/graph-client.ts';
import { fetchTemplatePage } from './template-graph.ts';
import { badCursor } from '../db/paging.ts';
import { MetaTemplate, type TemplateView } from './template.schemas.ts';

/**
 * WhatsApp message templates of an org's Cloud API numbers (issue 16 item 1): the sync from Meta
 * (`GET /{waba_id}/message_templates`, paged) into one row per phone × name × language
 * (shared/template/template.entity.ts), and key reads for the templates view, the composer and
 * broadcasts. Pure rules (variables, preview, send body, window): template.rules.ts.
 */

type TemplateRow = {
  org_id: string;
  phone_id: string;
  name: string;
  language: string;
  waba_id?: string;
  template_id?: string;
  status: string;
  category: string;
  parameter_format: 'POSITIONAL' | 'NAMED';
  components: unknown;
  synced_at: number;
};

/** Wire shape of a stored template. */
export function toTemplateView(r: TemplateRow): TemplateView {
  return {
    phone_id: r.phone_id,
    waba_id: r.waba_id ?? null,
    template_id: r.template_id ?? null,
    name: r.name,
    language: r.language,
    status: r.status,
    category: r.category,
    parameter_format: r.parameter_format ?? 'POSITIONAL',
    components: r.components as TemplateView['components'],
    synced_at: r.synced_at,
  };
}

/** A phone of the org, or 404 (never says whether it exists in another org). */
async function orgPhone(orgId: string, phoneId: string) {
  const phone = (await db().entities.phone.get({ org_id: orgId, phone_id: phoneId }).go()).data;
  if (!phone) throw notFound('phone');
  return phone;
}

/**
 * One page of a phone's templates, sorted by name then language (a key Query, no scan).
 * @param opts.status only this status (e.g. 'APPROVED' for pickers), a filter on the page
 * @param opts.cursor ElectroDB cursor of the previous page; `limit` 1–200 (default 100)
 * @returns `{ templates, cursor }` (cursor null on the last page)
 * @throws AppError 404 phone.not_found when the phone is not the org's
 */
export async function listTemplates(orgId: string, phoneId: string, opts: { cursor?: string | null; limit?: number; status?: string } = {}): Promise<{ templates: TemplateView[]; cursor: string | null }> {
  await orgPhone(orgId, phoneId);
  const q = db().entities.waTemplate.query.byPhone({ org_id: orgId, phone_id: phoneId });
  const res = await (opts.status ? q.where(({ status }, { eq }) => eq(status, opts.status!)) : q)
    .go({ cursor: opts.cursor ?? null, limit: Math.min(Math.max(opts.limit ?? 100, 1), 200) })
    .catch((e: unknown) => {
      // DynamoDB refuses a start key that is not of this partition
      if (opts.cursor) throw badCursor();
      throw e;
    });
  return { templates: (res.data as TemplateRow[]).map(toTemplateView), cursor: res.cursor ?? null };
}

/**
 * One template by key (sending, scheduling, broadcasts).
 * @returns undefined when the phone has no such template (not synced, or removed by the last sync)
 */
export async function getTemplate(orgId: string, phoneId: string, name: string, language: string): Promise<TemplateView | undefined> {
  const row = (await db().entities.waTemplate.get({ org_id: orgId, phone_id: phoneId, name, language }).go()).data;
  return row ? toTemplateView(row as TemplateRow) : undefined;
}

/** What one sync did. */
export interface SyncResult {
  phone_id: string;
  waba_id: string;
  /** templates Meta returned and Chorus stored (any status) */
  synced: number;
  /** rows removed because Meta no longer lists them */
  removed: number;
  /** rows Meta returned that did not match the template shape (logged, skipped) */
  skipped: number;
  /** Graph pages read */
  pages: number;
  /** epoch ms */
  synced_at: number;
}

/** Most pages one sync reads (100 templates a page: 20,000 templates; Meta caps a WABA at 6,000). */
const MAX_PAGES = 200;

/**
 * Sync one Cloud API phone's templates from its WhatsApp Business Account: read every page of
 * `GET /{waba_id}/message_templates` with the phone's token (or WHATSAPP_ACCESS_TOKEN), upsert one
 * row per name × language, then delete the phone's rows Meta did not return. The WABA is the phone's
 * `waba_id`, else the WHATSAPP_WABA_ID setting (the env phone).
 * Admins only.
 * @param now epoch ms stamped as `synced_at` (injected clock in tests)
 * @throws AppError 403 template.forbidden (members); 404 phone.not_found; 400 template.not_cloud (a
 *   WhatsApp Web number: templates are a Cloud API feature); 400 template.no_waba (no WABA id known,
 *   details field `waba_id`); 502 template.graph_failed with Meta's reason when the Graph call fails
 */
export async function syncTemplates(actor: Actor, phoneId: string, now = Date.now()): Promise<SyncResult> {
  if (actor.role !== 'admin') throw new AppError('template.forbidden', 'Only admins can sync templates.', { status: 403 });
  const phone = await orgPhone(actor.org_id, phoneId);
  if (phone.connection_type === 'wa_web') {
    throw new AppError('template.not_cloud', 'Templates are a WhatsApp Cloud API feature; this number is linked through WhatsApp Web.', { details: [{ field: 'phone_id', reason: 'is a WhatsApp Web number' }] });
  }
  const wabaId = phone.waba_id || config().WHATSAPP_WABA_ID;
  if (!wabaId) {
    throw new AppError('template.no_waba', 'This number has no WhatsApp Business Account id. Add it on Settings → Phones.', { details: [{ field: 'waba_id', reason: 'is not set for this number' }] });
  }
  const token = await phoneAccessToken(phoneId);
  const seen = new Set<string>();
  let synced = 0;
  let skipped = 0;
  let pages = 0;
  let after: string | undefined;
  try {
    do {
      const page = await fetchTemplatePage(wabaId, token, after);
      pages++;
      const rows = [];
      for (const raw of page.rows) {
        const t = MetaTemplate.safeParse(raw);
        if (!t.success) {
          skipped++;
          log('warn', 'template.sync_skipped', { org_id: actor.org_id, phone_id: phoneId, name: (raw as { name?: unknown })?.name, issue: t.error.issues[0]?.message });
          continue;
        }
        const key = `${t.data.name}\u0000${t.data.language}`;
        if (seen.has(key)) continue;
        seen.add(key);
        rows.push({
          org_id: actor.org_id,
          phone_id: phoneId,
          name: t.data.name,
          language: t.data.language,
          waba_id: wabaId,
          ...(t.data.id ? { template_id: t.data.id } : {}),
          status: t.data.status,
          category: t.data.category,
          parameter_format: t.data.parameter_format ?? 'POSITIONAL',
          components: t.data.components,
          synced_at: now,
        });
      }
      if (rows.length) {
        const res = await db().entities.waTemplate.put(rows).go();
        if (res.unprocessed?.length) throw new AppError('template.sync_busy', 'The database is busy; please sync again.', { status: 503 });
      }
      synced += rows.length;
      after = page.after ?? undefined;
    } while (after && pages < MAX_PAGES);
  } catch (e) {
    if (e instanceof GraphApiError) {
      throw new AppError('template.graph_failed', `WhatsApp refused the template list: ${e.reason}`, { status: 502, details: [{ field: 'waba_id', reason: e.title ?? e.reason }] });
    }
    throw e;
  }
  // rows Meta no longer returns (deleted templates, a language removed): the phone's partition, paged
  let removed = 0;
  let cursor: string | null = null;
  do {
    const res: { data: TemplateRow[]; cursor: string | null } = await db().entities.waTemplate.query.byPhone({ org_id: actor.org_id, phone_id: phoneId }).go({ cursor, limit: 200 });
    const gone = res.data.filter((r) => !seen.has(`${r.name}\u0000${r.language}`));
    if (gone.length) {
      await db().entities.waTemplate.delete(gone.map((r) => ({ org_id: r.org_id, phone_id: r.phone_id, name: r.name, language: r.language }))).go();
      removed += gone.length;
    }
    cursor = res.cursor ?? null;
  } while (cursor);
  log('info', 'template.synced', { org_id: actor.org_id, phone_id: phoneId, synced, removed, skipped, pages });
  return { phone_id: phoneId, waba_id: wabaId, synced, removed, skipped, pages, synced_at: now };
}

/**
 * GET /templates: a phone's templates (any member: the composer and the templates view need them).
 * Without `phone_id`, the org's first Cloud API number (none: an empty list, `phone_id: null`).
 * @throws AppError 404 phone.not_found for a phone of another org
 */
export async function listTemplatesFor(actor: Actor, q: { phone_id?: string; status?: string; cursor?: string; limit?: number }): Promise<{ phone_id: string | null; templates: TemplateView[]; cursor: string | null }> {
  let phoneId = q.phone_id;
  if (!phoneId) {
    const phones = (await db().entities.phone.query.byOrg({ org_id: actor.org_id }).go({ pages: 'all' })).data;
    phoneId = phones.filter((p) => p.connection_type !== 'wa_web').sort((a, b) => (a.created_at ?? 0) - (b.created_at ?? 0))[0]?.phone_id;
    if (!phoneId) return { phone_id: null, templates: [], cursor: null };
  }
  const page = await listTemplates(actor.org_id, phoneId, { cursor: q.cursor ?? null, limit: q.limit, status: q.status });
  return { phone_id: phoneId, ...page };
}

/**
 * POST /templates/sync: sync one phone, or every Cloud API number of the org (admins).
 * @throws the AppErrors of syncTemplates (403 members, 400 WhatsApp Web / no WABA, 502 Graph)
 */
export async function syncTemplatesFor(actor: Actor, phoneId: string | undefined, now = Date.now()): Promise<SyncResult[]> {
  if (actor.role !== 'admin') throw new AppError('template.forbidden', 'Only admins can sync templates.', { status: 403 });
  if (phoneId) return [await syncTemplates(actor, phoneId, now)];
  const phones = (await db().entities.phone.query.byOrg({ org_id: actor.org_id }).go({ pages: 'all' })).data.filter((p) => p.connection_type !== 'wa_web');
  const out: SyncResult[] = [];
  for (const p of phones) out.push(await syncTemplates(actor, p.phone_id, now));
  return out;
}
