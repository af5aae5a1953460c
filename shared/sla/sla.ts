import { ulid } from 'ulid';
import { db } from '../db/service.ts';
import { AppError, notFound } from '../errors.ts';
import type { Actor } from '../auth/actor.ts';
import { automationActor, type ChatGuard } from '../access/guard.ts';
import { log } from '../log.ts';
import { requireFeature } from '../plan/gate.ts';
import { assertActionsAllowed, assertRulesAccess, checkRefs, maskText, RULE_AUTOMATION_EMAIL } from '../rules/rules.ts';
import type { Action } from '../rules/rule.schemas.ts';
import type { ListSlaBreachesQuery, SlaBreach, SlaPolicy, SlaPolicyInput, UpdateSlaPolicyInput } from './sla.schemas.ts';

/**
 * SLA policies CRUD and the breach report (issue 17 §6). Access like the rules (spec §2: admins,
 * or members when `member_permissions.rules` allows). Plans (spec §9): SLA policies are part of
 * the rules engine — creating or enabling one on Starter is 403 `plan_feature`;
 * reading, disabling and deleting stay allowed.
 * @throws AppError 403 rules.forbidden; 403 plan_feature; 404 sla_policy.not_found
 *   (also another org's id: every key carries the actor's org_id); 400 validation.failed with
 *   `{ field, reason }` for an unknown label / member / number in the scope or the actions;
 *   409 sla.limit past SLA_POLICY_LIMIT policies.
 */

/** Policies per org at most (a documented setting: the plans do not name a number). */
export const SLA_POLICY_LIMIT = 20;
export const SLA_BREACH_TTL_DAYS = 90;

/**
 * A stored policy; `owner` / `owner_role` (issue 42 §1) are absent on rows made before owners
 * (owner: `created_by`), `paused_reason` / `paused_at` on policies that were never paused.
 */
export type SlaPolicyRow = Omit<SlaPolicy, 'owner' | 'paused_reason' | 'paused_at'> & { org_id: string; owner?: string; owner_role?: 'admin' | 'member'; paused_reason?: string; paused_at?: number };

/** Whose rights a stored policy acts with (issue 42 §1): its `owner`, else (older rows) its creator. */
export const slaPolicyOwner = (r: Pick<SlaPolicyRow, 'owner' | 'created_by'>): string => r.owner ?? r.created_by;

/** The API shape of a policy. */
export function policyView(r: SlaPolicyRow): SlaPolicy {
  return {
    policy_id: r.policy_id,
    name: r.name,
    enabled: r.enabled,
    scope: r.scope,
    targets: r.targets,
    business_hours: r.business_hours,
    near_breach_percent: r.near_breach_percent ?? null,
    near_breach_actions: r.near_breach_actions ?? [],
    breach_actions: r.breach_actions ?? [],
    created_by: r.created_by,
    created_at: r.created_at,
    updated_by: r.updated_by,
    updated_at: r.updated_at,
    owner: slaPolicyOwner(r),
    paused_reason: r.paused_reason ?? null,
    paused_at: r.paused_at ?? null,
  };
}

/**
 * The actor a policy's actions act as now (its owner's rights), or why it may not act: the rules'
 * check (shared/access/guard.ts automationActor over owner.rules.ts ownerProblem) with the policy's
 * near-breach and breach action types.
 */
export function slaAutomationActor(p: SlaPolicyRow): ReturnType<typeof automationActor> {
  const types = [...((p.near_breach_actions ?? []) as Action[]), ...((p.breach_actions ?? []) as Action[])].map((a) => a.type);
  return automationActor(p.org_id, { owner: slaPolicyOwner(p), owner_role: p.owner_role, action_types: types, email: RULE_AUTOMATION_EMAIL, user_id: `sla:${p.policy_id}` });
}

/**
 * Pause a policy whose owner lost the rights it acts with (issue 42 §1, like rules.ts pauseRule):
 * switched off with the reason and time shown on the SLA tab of /rules. Conditional on the row
 * still being on and unchanged since it was read (`updated_at`, the policy's version), so a
 * concurrent save wins and a second process pausing the same policy writes nothing. Never throws.
 * @param now epoch ms
 * @returns whether this call paused it (false: already paused or changed meanwhile, or the write failed)
 */
export async function pauseSlaPolicy(p: SlaPolicyRow, reason: string, now = Date.now()): Promise<boolean> {
  let paused = false;
  try {
    await db()
      .entities.slaPolicy.patch({ org_id: p.org_id, policy_id: p.policy_id })
      .set({ enabled: false, paused_reason: reason.slice(0, 500), paused_at: now })
      .where((a, op) => `${op.eq(a.enabled, true)} AND ${op.eq(a.updated_at, p.updated_at)}`)
      .go();
    paused = true;
    log('info', 'sla.paused', { org_id: p.org_id, policy_id: p.policy_id, reason });
  } catch (e) {
    if (!/conditional/i.test(String((e as Error).message))) log('warn', 'sla.pause_failed', { org_id: p.org_id, policy_id: p.policy_id, error: String(e) });
  }
  forgetSlaPolicies(p.org_id);
  return paused;
}

/**
 * Pause every enabled policy of the org whose owner may no longer act (slaAutomationActor). Run
 * where policies are listed and by the SLA engine at run time (sla-engine.ts), as the rules do
 * (rules.ts pauseOrphanedRules): every way an owner loses rights is covered without hooks.
 * @returns the policies as they are now (paused ones switched off, with the reason)
 */
export async function pauseOrphanedSlaPolicies(policies: SlaPolicyRow[], now = Date.now()): Promise<SlaPolicyRow[]> {
  return Promise.all(
    policies.map(async (p) => {
      if (!p.enabled) return p;
      const { problem } = await slaAutomationActor(p);
      if (!problem) return p;
      await pauseSlaPolicy(p, problem, now);
      return { ...p, enabled: false, paused_reason: problem, paused_at: now };
    }),
  );
}

// --- an org's policies, cached per process for the engine (2 s, single flight) ---
const cache = new Map<string, { at: number; rows: SlaPolicyRow[] | null; loading: Promise<SlaPolicyRow[]> | null }>();
const CACHE_MS = 2_000;

/** Every policy of an org (one Query). `fresh`: read now; otherwise cached up to 2 s per process. */
export async function orgSlaPolicies(orgId: string, fresh = false): Promise<SlaPolicyRow[]> {
  const entry = cache.get(orgId) ?? cache.set(orgId, { at: 0, rows: null, loading: null }).get(orgId)!;
  if (!fresh && entry.rows && Date.now() - entry.at < CACHE_MS) return entry.rows;
  if (!fresh && entry.loading) return entry.rows ?? entry.loading;
  const p = db()
    .entities.slaPolicy.query.byOrg({ org_id: orgId })
    .go({ pages: 'all' })
    .then((res) => {
      const rows = (res.data as unknown as SlaPolicyRow[]).map((r) => ({ ...r, near_breach_percent: r.near_breach_percent ?? null }));
      Object.assign(entry, { at: Date.now(), rows });
      return rows;
    })
    .finally(() => {
      if (entry.loading === p) entry.loading = null;
    });
  entry.loading = p;
  return fresh ? p : (entry.rows ?? p);
}

/** Forget the cached policies (after a change in this process; all: tests). */
export function forgetSlaPolicies(orgId?: string): void {
  if (!orgId) return cache.clear();
  cache.delete(orgId);
}

const invalid = (field: string, reason: string) => new AppError('validation.failed', `${field}: ${reason}`, { status: 400, details: [{ field, reason }] });

/** Labels, numbers, members and templates the schema cannot check. */
async function checkPolicyRefs(orgId: string, input: Partial<SlaPolicyInput>): Promise<void> {
  if (input.scope?.label_ids.length) {
    const labels = new Set((await db().entities.chatLabel.query.byOrg({ org_id: orgId }).go({ pages: 'all', attributes: ['label_id'] })).data.map((l) => l.label_id));
    input.scope.label_ids.forEach((l, i) => {
      if (!labels.has(l)) throw invalid(`scope.label_ids.${i}`, 'is not a label of this workspace');
    });
  }
  if (input.scope?.phone_ids.length) {
    const phones = new Set((await db().entities.phone.query.byOrg({ org_id: orgId }).go({ pages: 'all' })).data.map((p) => (p as { phone_id: string }).phone_id));
    input.scope.phone_ids.forEach((p, i) => {
      if (!phones.has(p)) throw invalid(`scope.phone_ids.${i}`, 'is not a number of this workspace');
    });
  }
  for (const k of ['near_breach_actions', 'breach_actions'] as const) {
    const actions = input[k];
    if (!actions?.length) continue;
    try {
      await checkRefs(orgId, { actions: actions as Action[] });
    } catch (e) {
      // the rules' checker names `actions.N.field`: name this list instead
      const d = e instanceof AppError ? (e.details as Array<{ field: string; reason: string }> | undefined)?.[0] : undefined;
      if (d) {
        throw invalid(d.field.replace(/^actions\./, `${k}.`), d.reason);
      }
      throw e;
    }
  }
}

async function getPolicyRow(orgId: string, policyId: string): Promise<SlaPolicyRow> {
  const r = (await db().entities.slaPolicy.get({ org_id: orgId, policy_id: policyId }).go({ consistent: true })).data as unknown as SlaPolicyRow | null;
  if (!r) throw notFound('sla_policy');
  return { ...r, near_breach_percent: r.near_breach_percent ?? null };
}

const toItem = (r: SlaPolicyRow) => {
  const { near_breach_percent, ...rest } = r;
  return { ...rest, ...(near_breach_percent != null ? { near_breach_percent } : {}) };
};

/** GET /sla-policies: oldest first; policies whose owner lost the rights they act with are paused first (pauseOrphanedSlaPolicies), so the list says why. */
export async function listSlaPolicies(actor: Actor): Promise<SlaPolicy[]> {
  await assertRulesAccess(actor);
  return (await pauseOrphanedSlaPolicies(await orgSlaPolicies(actor.org_id, true))).sort((a, b) => a.created_at - b.created_at).map(policyView);
}

export async function createSlaPolicy(actor: Actor, input: SlaPolicyInput): Promise<SlaPolicy> {
  await assertRulesAccess(actor);
  await requireFeature(actor.org_id, 'rules_engine');
  assertActionsAllowed(actor, input.near_breach_actions, 'near_breach_actions');
  assertActionsAllowed(actor, input.breach_actions, 'breach_actions');
  await checkPolicyRefs(actor.org_id, input);
  if ((await orgSlaPolicies(actor.org_id, true)).length >= SLA_POLICY_LIMIT) throw new AppError('sla.limit', `A workspace can have at most ${SLA_POLICY_LIMIT} SLA policies. Delete one to create another.`, { status: 409 });
  const now = Date.now();
  const row: SlaPolicyRow = { org_id: actor.org_id, policy_id: `sla_${ulid(now)}`, ...input, created_by: actor.email, created_at: now, updated_by: actor.email, updated_at: now, owner: actor.email, owner_role: actor.role };
  await db().entities.slaPolicy.create(toItem(row) as never).go();
  forgetSlaPolicies(actor.org_id);
  return policyView(row);
}

export async function updateSlaPolicy(actor: Actor, policyId: string, input: UpdateSlaPolicyInput): Promise<SlaPolicy> {
  await assertRulesAccess(actor);
  const cur = await getPolicyRow(actor.org_id, policyId);
  if (input.enabled === true && !cur.enabled) await requireFeature(actor.org_id, 'rules_engine');
  // issue 42 §1: saving a policy (anything but switching it off) makes the saver its owner: it then acts with their rights
  const takesOwnership = !(Object.keys(input).every((k) => k === 'enabled') && input.enabled === false);
  if (takesOwnership) {
    assertActionsAllowed(actor, input.near_breach_actions ?? (cur.near_breach_actions as Action[]), 'near_breach_actions');
    assertActionsAllowed(actor, input.breach_actions ?? (cur.breach_actions as Action[]), 'breach_actions');
  }
  await checkPolicyRefs(actor.org_id, input);
  const row: SlaPolicyRow = { ...cur, ...input, updated_by: actor.email, updated_at: Date.now(), ...(takesOwnership ? { owner: actor.email, owner_role: actor.role } : {}) };
  // turned on again (by its new owner): no longer paused
  if (row.enabled) {
    delete row.paused_reason;
    delete row.paused_at;
  }
  await db().entities.slaPolicy.put(toItem(row) as never).go();
  forgetSlaPolicies(actor.org_id);
  return policyView(row);
}

/** Delete a policy. Running clocks of chats under it keep their state and fire as moot (no actions). */
export async function deleteSlaPolicy(actor: Actor, policyId: string): Promise<void> {
  await assertRulesAccess(actor);
  await getPolicyRow(actor.org_id, policyId);
  await db().entities.slaPolicy.delete({ org_id: actor.org_id, policy_id: policyId }).go();
  forgetSlaPolicies(actor.org_id);
}

type BreachRow = Omit<SlaBreach, 'chat_name' | 'assignee' | 'phone_id' | 'label_ids'> & { chat_name?: string; assignee?: string; phone_id?: string; label_ids?: string[] };

/**
 * GET /logs/sla: the breach report, newest first (one paged Query of the org's breaches; the
 * policy and target filters apply to the index's pages). Members only see breaches of chats they
 * can see (the guard), numbers masked for them when the org masks.
 * @throws AppError 403 rules.forbidden; 400 validation.failed `query.cursor`
 */
export async function listSlaBreaches(guard: ChatGuard, q: ListSlaBreachesQuery): Promise<{ breaches: SlaBreach[]; cursor: string | null }> {
  await assertRulesAccess(guard.actor);
  let query = db().entities.slaBreach.query.byOrg({ org_id: guard.actor.org_id }) as unknown as {
    where: (fn: (a: Record<string, unknown>, op: { eq: (a: unknown, v: unknown) => string }) => string) => typeof query;
    go: (o: Record<string, unknown>) => Promise<{ data: BreachRow[]; cursor: string | null }>;
  };
  if (q.policy_id) query = query.where((a, op) => op.eq(a.policy_id, q.policy_id));
  if (q.target) query = query.where((a, op) => op.eq(a.target, q.target));
  let res: { data: BreachRow[]; cursor: string | null };
  try {
    res = await query.go({ order: 'desc', limit: q.limit, cursor: q.cursor ?? null });
  } catch (err) {
    if (q.cursor) throw invalid('query.cursor', 'is not a cursor of this list');
    throw err;
  }
  const rows = await guard.filter(res.data, (r) => r.chat_id);
  return {
    breaches: rows.map((r) => ({
      breach_id: r.breach_id,
      policy_id: r.policy_id,
      policy_name: r.policy_name,
      target: r.target,
      chat_id: r.chat_id,
      chat_name: r.chat_name ? maskText(guard, r.chat_name) : null,
      started_at: r.started_at,
      due_at: r.due_at,
      breached_at: r.breached_at,
      assignee: r.assignee ?? null,
      phone_id: r.phone_id ?? null,
      label_ids: r.label_ids ?? [],
    })),
    cursor: res.cursor ?? null,
  };
}
