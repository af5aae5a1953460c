import { db } from '../db/service.ts';
import type { ChatGuard } from '../access/guard.ts';
import { evaluateConditions, type EvalContext } from './conditions.rules.ts';
import { actionSummary } from './actions.ts';
import { assertRulesAccess, getRule, maskText } from './rules.ts';
import type { ActionContext, RuleRow } from './engine.ts';
import type { Action, Rule } from './rule.schemas.ts';

/**
 * POST /rules/{id}/dry-run (issue 17 §4): evaluates the rule against the last 100 events of its
 * trigger that the rules consumer saw (rule samples, kept 14 days; 'no reply' rules against
 * customer messages) and says what it would have done. Nothing is changed. A member sees only
 * events of chats they may see (the guard).
 */
export const DRY_RUN_EVENTS = 100;

export interface DryRunResult {
  rule_id: string;
  evaluated: number;
  matched: number;
  results: Array<{ event_id: string; chat_id: string | null; at: number; matched: boolean; reasons: string[]; actions: Array<{ index: number; type: string; would: string }> }>;
}

/** Template variables from a stored evaluation context. */
function varsOf(ctx: EvalContext): Record<string, unknown> {
  const c = ctx as { contact?: Record<string, unknown>; chat?: Record<string, unknown>; message?: Record<string, unknown>; ticket?: unknown; time?: unknown };
  return { contact: { ...(c.contact ?? {}), number: c.message?.number ?? null }, chat: c.chat ?? {}, message: c.message ?? {}, ticket: c.ticket ?? {}, time: c.time };
}

export async function dryRunRule(guard: ChatGuard, ruleId: string, override?: Pick<Rule, 'conditions' | 'actions'>): Promise<DryRunResult> {
  const actor = guard.actor;
  await assertRulesAccess(actor);
  const { rule } = await getRule(actor, ruleId);
  const r = { ...rule, ...(override ?? {}), org_id: actor.org_id } as RuleRow;
  const trigger = r.trigger.type === 'no_reply' ? 'message.received' : r.trigger.type;
  const rows = (await db().entities.ruleSample.query.byTrigger({ org_id: actor.org_id, trigger }).go({ order: 'desc', limit: DRY_RUN_EVENTS })).data;
  const samples = await guard.filter(rows, (s) => s.chat_id ?? null);
  const results: DryRunResult['results'] = [];
  for (const s of samples) {
    const ctx = s.context as EvalContext;
    const ev = evaluateConditions(r.conditions, ctx);
    const actions = [];
    if (ev.matched) {
      const ac: ActionContext = { orgId: actor.org_id, rule: r, chatId: s.chat_id ?? null, messageUniqueId: null, vars: { ...varsOf(ctx), rule: { name: r.name } }, keyPrefix: 'dry-run', eventId: s.event_id, trigger: r.trigger.type };
      for (const [index, a] of (r.actions as Action[]).entries()) actions.push({ index, type: a.type, would: maskText(guard, await actionSummary(ac, a)) });
    }
    results.push({ event_id: s.event_id, chat_id: s.chat_id ?? null, at: s.at, matched: ev.matched, reasons: ev.reasons.map((r) => maskText(guard, r)), actions });
  }
  return { rule_id: ruleId, evaluated: results.length, matched: results.filter((x) => x.matched).length, results };
}
