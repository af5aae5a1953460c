import { z } from 'zod';
import { httpHandler } from '../../lib/http.ts';
import { RuleParams } from './params.ts';
import { Action, Conditions } from '../../../shared/rules/rule.schemas.ts';
import { dryRunRule } from '../../../shared/rules/dry-run.ts';

/** Optional unsaved conditions / actions to try instead of the saved ones (the editor's "test" button). */
const DryRunInput = z.object({ conditions: Conditions.optional(), actions: z.array(Action).min(1).max(10).optional() }).strict();

/** POST /api/orgs/{org_id}/rules/{rule_id}/dry-run `{ conditions?, actions? }` -> `{ rule_id, evaluated, matched, results }` (the last 100 events of its trigger; nothing changes). */
export const handler = httpHandler({ params: RuleParams, body: DryRunInput }, async ({ guard, params, body }) => {
  const saved = body ?? {};
  const override = saved.conditions || saved.actions ? (saved as never) : undefined;
  return { body: await dryRunRule(guard, params.rule_id, override) };
});
