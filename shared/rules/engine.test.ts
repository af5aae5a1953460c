import { describe, expect, it } from 'vitest';
import { collapseNotMatched } from './engine.ts';
import type { RuleLog } from './rule.schemas.ts';

const row = (i: number, outcome: RuleLog['outcome']): RuleLog => ({ log_id: `l${i}`, rule_id: `r${i}`, rule_name: `rule ${i}`, rule_version: 1, trigger: 'message.received', event_id: 'e', chat_id: 'c', outcome, reasons: outcome === 'not_matched' ? [`reason ${i}`] : [], actions: [], at: 1, latency_ms: 5 });

describe('collapseNotMatched', () => {
  it('keeps per-rule rows up to the limit, then one summary row; matched rows always stay', () => {
    const few = [row(1, 'matched'), ...Array.from({ length: 5 }, (_, i) => row(i + 2, 'not_matched'))];
    expect(collapseNotMatched(few)).toEqual(few);
    const many = [row(0, 'matched'), ...Array.from({ length: 99 }, (_, i) => row(i + 1, 'not_matched'))];
    const out = collapseNotMatched(many);
    expect(out).toHaveLength(2);
    expect(out[0].outcome).toBe('matched');
    expect(out[1]).toMatchObject({ rule_id: '*', rule_name: '99 rules', outcome: 'not_matched' });
    expect(out[1].reasons[0]).toBe('rule 1: reason 1');
    expect(out[1].reasons).toHaveLength(25);
  });
});
