import { ulid } from 'ulid';
import { db } from '../db/service.ts';
import { AppError, notFound } from '../errors.ts';
import type { Actor } from '../auth/actor.ts';
import { automationActor, type ChatGuard } from '../access/guard.ts';
import { log } from '../log.ts';
import { isOrgLevelOwner, memberActionProblem } from './owner.rules.ts';
import { getOrgPreferences } from '../org/preferences.ts';
import { permissionGranted } from '../org/permissions.rules.ts';
import { generateSecret } from '../webhooks/ids.ts';
import { templateProblem } from './template.ts';
import { listProperties } from '../property/property.ts';
import { valueProblem } from '../property/property.rules.ts';
import { getOrgPlanState, requireFeature } from '../plan/gate.ts';
import { ruleLimit } from '../plan/entitlements.rules.ts';
import { RULES_PER_LICENCE } from '../plan/catalog.rules.ts';
import type { ListRuleLogsQuery, Rule, RuleInput, RuleLog, UpdateRuleInput, Action } from './rule.schemas.ts';

/**
 * Rules CRUD, version history and the log (issue 17 §4, §7, §8, §9). Access: admins, or members
 * when `member_permissions.rules` allows (spec §2/§6, shared/org/permissions.rules.ts).
 * Plans (spec §9): Starter lacks the rules engine — creating or enabling a rule there is refused
 * with 403 `plan_feature` (shared/plan/gate.ts); reading, editing a disabled rule,
 * disabling and deleting stay allowed so an org that downgraded can tidy up.
 * Owners (issue 42 §1): whoever creates a rule, changes its trigger, conditions or actions, or turns
 * a paused rule back on becomes its owner; the rule acts with that person's rights (engine.ts
 * ruleActor), and a member's rule may not call a webhook (owner.rules.ts MEMBER_RULE_ACTIONS).
 * @throws AppError 403 rules.forbidden; 403 rules.action_forbidden `{ field: 'actions.<i>.type', reason }`;
 *   403 plan_feature; 404 rule.not_found (also another org's ids: every key
 *   carries the actor's org_id); 409 rules.limit when the plan's rule count is reached; 400
 *   validation.failed with `{ field, reason }` for a template that does not parse or an unknown label/member.
 */

/**
 * The org's rule count limit (spec §9: 2 automation rules per licence on Pro and Enterprise; none on
 * Starter), from the one entitlement module (`ruleLimit`) over the org's plan state (5 s cache).
 */
export async function orgRuleLimit(orgId: string): Promise<number> {
  return ruleLimit(await getOrgPlanState(orgId));
}

export const RULE_LOG_TTL_DAYS = 90;
/** The automation's identity in the inbox (author of messages and notes a rule writes; engine.ts AUTOMATION_EMAIL). */
export const RULE_AUTOMATION_EMAIL = 'automation@rules.chorus';

export async function assertRulesAccess(actor: Actor): Promise<void> {
  if (actor.role === 'admin') return;
  const prefs = await getOrgPreferences(actor.org_id);
  if (!permissionGranted(prefs.member_permissions, 'rules')) throw new AppError('rules.forbidden', 'This page is restricted for non-admin members. Contact an administrator if you think this is a mistake.', { status: 403 });
}

/**
 * A rule as stored: the API shape's fields, where the ones added by issue 42 may be absent on older
 * rows (owner → `created_by`, allow_after_automation → false, not paused).
 */
export type RuleRow = Omit<Rule, 'owner' | 'allow_after_automation' | 'paused_reason' | 'paused_at'> & {
  org_id: string;
  secret?: string;
  owner?: string;
  owner_role?: 'admin' | 'member';
  allow_after_automation?: boolean;
  paused_reason?: string;
  paused_at?: number;
};

/** Whose rights a stored rule acts with (issue 42 §1): its `owner`, else (older rows) its creator. */
export const ruleOwner = (r: Pick<RuleRow, 'owner' | 'created_by'>): string => r.owner ?? r.created_by;

/** The API shape of a rule (its webhook secret included only when it has a webhook action). */
export function ruleView(r: RuleRow): Rule & { webhook_secret?: string } {
  const hasHook = (r.actions as Action[]).some((a) => a.type === 'webhook');
  return {
    rule_id: r.rule_id,
    name: r.name,
    trigger: r.trigger,
    conditions: r.conditions,
    actions: r.actions,
    enabled: r.enabled,
    version: r.version,
    created_by: r.created_by,
    created_at: r.created_at,
    updated_by: r.updated_by,
    updated_at: r.updated_at,
    owner: ruleOwner(r),
    allow_after_automation: r.allow_after_automation === true,
    paused_reason: r.paused_reason ?? null,
    paused_at: r.paused_at ?? null,
    ...(hasHook && r.secret ? { webhook_secret: r.secret } : {}),
  };
}

/**
 * Refuse actions the actor's rules may not take (issue 42 §1, owner.rules.ts MEMBER_RULE_ACTIONS:
 * 'call webhook' is for admins' rules only). Checked when a rule or SLA policy is saved (the saver
 * becomes its owner) and again whenever it runs (automationActor).
 * @param field the path of the action list in the input (`actions`, `breach_actions`…)
 * @throws AppError 403 rules.action_forbidden with `{ field: '<field>.<i>.type', reason }`
 */
export function assertActionsAllowed(actor: Actor, actions: Array<{ type: Action['type'] }> | undefined, field = 'actions'): void {
  if (!actions || isOrgLevelOwner(actor.email)) return;
  actions.forEach((a, i) => {
    const problem = memberActionProblem(actor.role, a.type);
    if (problem) throw new AppError('rules.action_forbidden', `${field}.${i}.type: ${problem}`, { status: 403, details: [{ field: `${field}.${i}.type`, reason: problem }] });
  });
}

/**
 * Pause a rule whose owner lost the rights it acts with (issue 42 §1): disabled, with the reason
 * and time shown on /rules and a 'paused' version; conditional on the version read, so a
 * concurrent edit wins (and is checked again on its next run). Never throws: a pause that could not
 * be written is retried at the next evaluation (the rule does not act meanwhile either way).
 * @param now epoch ms
 */
export async function pauseRule(r: RuleRow, reason: string, now = Date.now()): Promise<RuleRow> {
  const next: RuleRow = { ...r, enabled: false, paused_reason: reason, paused_at: now, version: r.version + 1 };
  try {
    await db()
      .entities.rule.patch({ org_id: r.org_id, rule_id: r.rule_id })
      .set({ enabled: false, paused_reason: reason.slice(0, 500), paused_at: now, version: next.version })
      .where((a, op) => op.eq(a.version, r.version))
      .go();
    await saveVersion(next, 'paused', 'system', now);
    log('info', 'rules.paused', { org_id: r.org_id, rule_id: r.rule_id, reason });
  } catch (e) {
    log('warn', 'rules.pause_failed', { org_id: r.org_id, rule_id: r.rule_id, error: String(e) });
  }
  forgetRules(r.org_id);
  return next;
}

/**
 * Pause every enabled rule of the org whose owner may no longer act (ownerProblem through
 * automationActor). Run lazily where rules are read (the /rules list) and by the engine at run time,
 * rather than hooked into the places an owner loses rights: removal, a role change, a member
 * permission switched off, a chat's access list, a deactivation — all paths, in any process, are
 * covered, and nothing is missed when a new path appears.
 */
export async function pauseOrphanedRules(orgId: string, rules: RuleRow[]): Promise<RuleRow[]> {
  return Promise.all(
    rules.map(async (r) => {
      if (!r.enabled) return r;
      const { problem } = await ruleAutomationActor(r);
      return problem ? pauseRule(r, problem) : r;
    }),
  );
}

/** The actor a rule acts as now (its owner's rights), or why it may not act (shared/access/guard.ts automationActor). */
export function ruleAutomationActor(r: RuleRow): ReturnType<typeof automationActor> {
  return automationActor(r.org_id, { owner: ruleOwner(r), owner_role: r.owner_role, action_types: (r.actions as Action[]).map((a) => a.type), email: RULE_AUTOMATION_EMAIL, user_id: `rule:${r.rule_id}` });
}

// --- the rules of an org, cached per process for the consumer (rules change rarely) ---
/**
 * Per-process cache of an org's rules: one Query per org at most every CACHE_MS, shared by every
 * concurrent event (single flight: the in-flight promise is cached, so a burst of events after
 * expiry costs one Query, not one each), and served stale while the refresh runs (the hot path
 * never waits for it after the first load). A change in this process (create/update/delete)
 * bumps the org's version, so a refresh started before the change never overwrites the newer
 * rows; other processes see a change within CACHE_MS.
 */
interface CacheEntry {
  at: number;
  rules: RuleRow[] | null;
  loading: Promise<RuleRow[]> | null;
  version: number;
}
const cache = new Map<string, CacheEntry>();
const CACHE_MS = 2_000;

function load(orgId: string, entry: CacheEntry): Promise<RuleRow[]> {
  const version = entry.version;
  const p = db()
    .entities.rule.query.byOrg({ org_id: orgId })
    .go({ pages: 'all' })
    .then((res) => {
      const rows = res.data as unknown as RuleRow[];
      const cur = cache.get(orgId);
      if (cur === entry && entry.version === version) Object.assign(entry, { at: Date.now(), rules: rows, loading: null });
      return rows;
    })
    .finally(() => {
      if (entry.loading === p) entry.loading = null;
    });
  entry.loading = p;
  return p;
}

/**
 * Every rule of an org (one Query; an org has a handful — 2 per licence). `fresh`: read now
 * (the API, wake-ups); otherwise the cached list, refreshed in the background once older than 2 s.
 */
export async function orgRules(orgId: string, fresh = false): Promise<RuleRow[]> {
  let entry = cache.get(orgId);
  if (!entry) cache.set(orgId, (entry = { at: 0, rules: null, loading: null, version: 0 }));
  if (fresh) return load(orgId, entry);
  if (entry.rules && Date.now() - entry.at < CACHE_MS) return entry.rules;
  const loading = entry.loading ?? load(orgId, entry);
  // stale while revalidating: the previous list answers while the refresh runs
  return entry.rules ?? loading;
}

/** Forget an org's cached rules after a change in this process (bumps its version), or all (tests). */
export function forgetRules(orgId?: string): void {
  if (!orgId) return cache.clear();
  const entry = cache.get(orgId);
  if (entry) Object.assign(entry, { at: 0, rules: null, loading: null, version: entry.version + 1 });
}

async function getRuleRow(orgId: string, ruleId: string): Promise<RuleRow> {
  const r = (await db().entities.rule.get({ org_id: orgId, rule_id: ruleId }).go({ consistent: true })).data as unknown as RuleRow | null;
  if (!r) throw notFound('rule');
  return r;
}

const invalid = (field: string, reason: string) => new AppError('validation.failed', `${field}: ${reason}`, { status: 400, details: [{ field, reason }] });

/** Checks the schema cannot: templates parse, labels and members exist in this org. */
export async function checkRefs(orgId: string, input: Partial<RuleInput>): Promise<void> {
  if (!input.actions) return;
  const labels = new Set((await db().entities.chatLabel.query.byOrg({ org_id: orgId }).go({ pages: 'all', attributes: ['label_id'] })).data.map((l) => l.label_id));
  const members = new Set((await db().entities.member.query.byOrg({ org_id: orgId }).go({ pages: 'all' })).data.filter((m) => m.is_active !== false).map((m) => m.email.toLowerCase()));
  const props = input.actions.some((a) => a.type === 'set_property') ? new Map((await listProperties(orgId)).map((d) => [d.property_id, d])) : new Map();
  input.actions.forEach((a, i) => {
    const f = (k: string) => `actions.${i}.${k}`;
    if (a.type === 'set_property') {
      const def = props.get(a.property_id);
      if (!def) throw invalid(f('property_id'), 'is not a custom property of this workspace');
      // a fixed value is checked now; one with variables when the rule runs (setChatProperties)
      const problem = a.value.trim() && !a.value.includes('{{') ? valueProblem(def, a.value.trim()) : null;
      if (problem) throw invalid(f('value'), problem);
    }
    for (const k of ['body', 'text', 'title', 'subject', 'value'] as const) {
      const t = (a as Record<string, unknown>)[k];
      if (typeof t === 'string') {
        const problem = templateProblem(t);
        if (problem) throw invalid(f(k), `is not a valid template: ${problem}`);
      }
    }
    for (const k of ['label_id', 'then_label_id'] as const) {
      const l = (a as Record<string, unknown>)[k];
      if (typeof l === 'string' && !labels.has(l)) throw invalid(f(k), 'is not a label of this workspace');
    }
    for (const k of ['member', 'assignee'] as const) {
      const m = (a as Record<string, unknown>)[k];
      if (typeof m === 'string' && !members.has(m)) throw invalid(f(k), 'is not a member of this workspace');
    }
    if (a.type === 'assign' && a.mode === 'member' && !a.member) throw invalid(f('member'), 'is required to assign to a member');
    if (a.type === 'follow_up' && a.then === 'label' && !a.then_label_id) throw invalid(f('then_label_id'), 'is required when then is label');
  });
}

async function saveVersion(r: RuleRow, change: 'created' | 'updated' | 'enabled' | 'disabled' | 'deleted' | 'paused', by: string, at: number): Promise<void> {
  await db()
    .entities.ruleVersion.put({ org_id: r.org_id, rule_id: r.rule_id, version_key: String(r.version).padStart(8, '0'), version: r.version, rule: ruleView(r), change, by, at })
    .go();
}

/** GET /rules: oldest first; rules whose owner lost the rights they act with are paused first (pauseOrphanedRules), so the list says why. */
export async function listRules(actor: Actor): Promise<Rule[]> {
  await assertRulesAccess(actor);
  const rules = await pauseOrphanedRules(actor.org_id, await orgRules(actor.org_id, true));
  return rules.sort((a, b) => a.created_at - b.created_at).map(ruleView);
}

export async function getRule(actor: Actor, ruleId: string): Promise<{ rule: Rule; versions: unknown[] }> {
  await assertRulesAccess(actor);
  const r = await getRuleRow(actor.org_id, ruleId);
  const versions = (await db().entities.ruleVersion.query.byRule({ org_id: actor.org_id, rule_id: ruleId }).go({ order: 'desc', limit: 50 })).data.map((v) => ({ version: v.version, change: v.change, by: v.by, at: v.at, rule: v.rule }));
  return { rule: ruleView(r), versions };
}

/**
 * Does a rule change need the rules engine in the plan (spec §9)? Enabling, or saving a rule that
 * stays enabled, does; disabling, or editing a disabled rule, does not (an org that moved to
 * Starter can still switch its rules off and tidy them up). Pure.
 */
export function changeNeedsRulesEngine(currentlyEnabled: boolean, input: { enabled?: boolean }): boolean {
  return input.enabled === true || (input.enabled === undefined && currentlyEnabled);
}

/**
 * POST /rules.
 * @throws 403 plan_feature on a plan without the rules engine (Starter);
 *   409 rules.limit past the plan's `ruleLimit` (2 per licence, spec §9).
 */
export async function createRule(actor: Actor, input: RuleInput): Promise<Rule> {
  await assertRulesAccess(actor);
  await requireFeature(actor.org_id, 'rules_engine');
  assertActionsAllowed(actor, input.actions);
  await checkRefs(actor.org_id, input);
  const existing = await orgRules(actor.org_id, true);
  const limit = await orgRuleLimit(actor.org_id);
  if (existing.length >= limit) {
    throw new AppError('rules.limit', `Your plan allows ${limit} automation rule${limit === 1 ? '' : 's'} (${RULES_PER_LICENCE} per licence). Delete a rule or add licences to create another.`, { status: 409 });
  }
  const now = Date.now();
  const row: RuleRow = {
    org_id: actor.org_id,
    rule_id: `rule_${ulid(now)}`,
    name: input.name,
    trigger: input.trigger,
    conditions: input.conditions,
    actions: input.actions,
    enabled: input.enabled,
    version: 1,
    secret: generateSecret(),
    created_by: actor.email,
    created_at: now,
    updated_by: actor.email,
    updated_at: now,
    owner: actor.email,
    owner_role: actor.role,
    ...(input.allow_after_automation ? { allow_after_automation: true } : {}),
  };
  await db().entities.rule.create(row as never).go();
  await saveVersion(row, 'created', actor.email, now);
  forgetRules(actor.org_id);
  return ruleView(row);
}

/** PUT /rules/{id}: any of name, trigger, conditions, actions, enabled; a new version each time. */
export async function updateRule(actor: Actor, ruleId: string, input: UpdateRuleInput): Promise<Rule> {
  await assertRulesAccess(actor);
  const cur = await getRuleRow(actor.org_id, ruleId);
  if (changeNeedsRulesEngine(cur.enabled, input)) await requireFeature(actor.org_id, 'rules_engine');
  // issue 42 §1: whoever defines what the rule does (trigger, conditions, actions) or resumes a paused
  // rule becomes its owner, so it never acts with more than that person's rights
  const resumes = !!cur.paused_reason && input.enabled === true;
  const takesOwnership = resumes || input.trigger !== undefined || input.conditions !== undefined || input.actions !== undefined;
  if (takesOwnership) assertActionsAllowed(actor, input.actions ?? (cur.actions as Action[]));
  await checkRefs(actor.org_id, input);
  const now = Date.now();
  const next: RuleRow = { ...cur, ...Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)), version: cur.version + 1, updated_by: actor.email, updated_at: now, ...(takesOwnership ? { owner: actor.email, owner_role: actor.role } : {}) } as RuleRow;
  if (resumes) {
    delete next.paused_reason;
    delete next.paused_at;
  }
  const onlyToggle = Object.keys(input).every((k) => k === 'enabled') && input.enabled !== undefined && input.enabled !== cur.enabled;
  const { org_id: _o, rule_id: _r, paused_reason: _pr, paused_at: _pa, ...set } = next;
  try {
    const patch = db()
      .entities.rule.patch({ org_id: actor.org_id, rule_id: ruleId })
      .set(set as never);
    await (resumes ? patch.remove(['paused_reason', 'paused_at']) : patch)
      .where((a, op) => op.eq(a.version, cur.version))
      .go();
  } catch (e) {
    if ((e as Error).message.includes('conditional')) throw new AppError('rule.conflict', 'Someone else changed this rule at the same time. Reload and try again.', { status: 409 });
    throw e;
  }
  await saveVersion(next, onlyToggle ? (input.enabled ? 'enabled' : 'disabled') : 'updated', actor.email, now);
  forgetRules(actor.org_id);
  return ruleView(next);
}

/** DELETE /rules/{id}: the rule goes; its versions and logs stay until their TTL / for the history. */
export async function deleteRule(actor: Actor, ruleId: string): Promise<void> {
  await assertRulesAccess(actor);
  const cur = await getRuleRow(actor.org_id, ruleId);
  await db().entities.rule.delete({ org_id: actor.org_id, rule_id: ruleId }).go();
  await saveVersion({ ...cur, version: cur.version + 1 }, 'deleted', actor.email, Date.now());
  forgetRules(actor.org_id);
}

// --- the log ---

/** Store evaluation rows (BatchWrite, 25 a request). */
export async function writeRuleLogs(orgId: string, logs: RuleLog[]): Promise<void> {
  await writeRuleLogRows(logs.map((log) => ({ orgId, log })));
}

/**
 * Write log rows of any orgs in BatchWrites (25 rows a call): the rules consumer writes a whole
 * SQS batch's evaluations at once (engine.ts flushRuleWrites), one or two calls instead of one per
 * event. Unprocessed rows are put once more. A row whose actions were all found done already (a
 * redelivered event) is put only over a missing or not 'matched' row (one conditional PutItem each: rare).
 * @throws the database error (the caller's records are retried)
 */
export async function writeRuleLogRows(entries: Array<{ orgId: string; log: RuleLog }>): Promise<void> {
  if (!entries.length) return;
  const expires = (at: number) => Math.floor(at / 1000) + RULE_LOG_TTL_DAYS * 86_400;
  const rows = entries.map(({ orgId, log: l }) => ({
    org_id: orgId,
    log_id: l.log_id,
    rule_id: l.rule_id,
    rule_name: l.rule_name,
    rule_version: l.rule_version,
    trigger: l.trigger,
    event_id: l.event_id,
    chat_key: l.chat_id ?? '-',
    outcome: l.outcome,
    reasons: l.reasons,
    actions: l.actions,
    at: l.at,
    ...(l.latency_ms != null ? { latency_ms: l.latency_ms } : {}),
    expires_at: expires(l.at),
  }));
  // a redelivered event's evaluation whose every action was already done: its row (same log_id,
  // engine.ts logRow) replaces the first delivery's only if that one is missing (a crash before its
  // log write) or did not end 'matched' (its answer was lost: it said 'failed'), so a row that says
  // what was done and when is not turned into 'duplicate'
  const replayed = (l: RuleLog) => l.actions.length > 0 && l.actions.every((a) => a.status === 'duplicate');
  const fresh = rows.filter((_, i) => !replayed(entries[i]!.log));
  const again = rows.filter((_, i) => replayed(entries[i]!.log));
  await Promise.all(
    again.map((r) =>
      db()
        .entities.ruleLog.put(r)
        .where((a, op) => `${op.notExists(a.log_id)} OR ${op.ne(a.outcome, 'matched')}`)
        .go()
        .catch((e) => {
          if (!/conditional/i.test((e as Error).message)) throw e;
        }),
    ),
  );
  if (!fresh.length) return;
  const res = await db().entities.ruleLog.put(fresh).go({ concurrency: 4 });
  if (res.unprocessed?.length) await db().entities.ruleLog.put(res.unprocessed as never).go();
}

/** Numbers in free text (reasons, outcomes) masked for a viewer whose numbers are masked (spec §6 mask_phone_numbers). */
export const maskText = (guard: ChatGuard, text: string): string => (guard.masks ? text.replace(/\d{6,}/g, (n) => guard.mask(n)) : text);
const maskLog = (guard: ChatGuard, l: RuleLog): RuleLog =>
  guard.masks ? { ...l, reasons: l.reasons.map((r) => maskText(guard, r)), actions: l.actions.map((a) => ({ ...a, ...(a.detail ? { detail: maskText(guard, a.detail) } : {}) })) } : l;

type LogRow = { log_id: string; rule_id: string; rule_name: string; rule_version: number; trigger: string; event_id: string; chat_key: string; outcome: string; reasons?: string[]; actions?: unknown; at: number; latency_ms?: number };
const logView = (r: LogRow): RuleLog => ({
  log_id: r.log_id,
  rule_id: r.rule_id,
  rule_name: r.rule_name,
  rule_version: r.rule_version,
  trigger: r.trigger as RuleLog['trigger'],
  event_id: r.event_id,
  chat_id: r.chat_key === '-' ? null : r.chat_key,
  outcome: r.outcome as RuleLog['outcome'],
  reasons: r.reasons ?? [],
  actions: (r.actions as RuleLog['actions']) ?? [],
  at: r.at,
  latency_ms: r.latency_ms ?? null,
});

/**
 * GET /logs/rules: newest first, by org, rule (gsi1) or chat (gsi2); `outcome` filters the
 * index's pages (a Query filter, not a scan). A member only sees logs of chats they can see
 * (the guard), and org-level rows.
 */
export async function listRuleLogs(guard: ChatGuard, q: ListRuleLogsQuery): Promise<{ logs: RuleLog[]; cursor: string | null }> {
  const actor = guard.actor;
  await assertRulesAccess(actor);
  const e = db().entities.ruleLog;
  const base = q.chat_id
    ? e.query.byChat({ org_id: actor.org_id, chat_key: q.chat_id })
    : q.rule_id
      ? e.query.byRule({ org_id: actor.org_id, rule_id: q.rule_id })
      : e.query.byOrg({ org_id: actor.org_id });
  let query = base as unknown as { where: (fn: (a: Record<string, unknown>, op: { eq: (a: unknown, v: unknown) => string }) => string) => typeof query; go: (o: Record<string, unknown>) => Promise<{ data: LogRow[]; cursor: string | null }> };
  if (q.outcome) query = query.where((a, op) => op.eq(a.outcome, q.outcome));
  if (q.chat_id && q.rule_id) query = query.where((a, op) => op.eq(a.rule_id, q.rule_id));
  let res: { data: LogRow[]; cursor: string | null };
  try {
    res = await query.go({ order: 'desc', limit: q.limit, cursor: q.cursor ?? null });
  } catch (err) {
    if (q.cursor) throw invalid('query.cursor', 'is not a cursor of this list');
    throw err;
  }
  const rows = await guard.filter(res.data, (r) => (r.chat_key === '-' ? null : r.chat_key));
  return { logs: rows.map((r) => maskLog(guard, logView(r))), cursor: res.cursor ?? null };
}
