import { describe, expect, it } from 'vitest';
import { collapseNotMatched, sampleTokenLeft, takeSampleToken } from './engine.ts';
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

describe('takeSampleToken (dry-run samples per org and trigger)', () => {
  it('keeps a burst of 20, then about 2 a second; orgs and triggers have their own buckets', () => {
    const t0 = 1_800_000_000_000;
    const kept = (org: string, trigger: string, n: number, at: (i: number) => number) => Array.from({ length: n }, (_, i) => takeSampleToken(org, trigger, at(i))).filter(Boolean).length;
    // 200 events in the same instant: the burst only
    expect(kept('org_s1', 'message.received', 200, () => t0)).toBe(20);
    // 200 a second for 10 s afterwards: about 2 a second
    const busy = kept('org_s1', 'message.received', 2000, (i) => t0 + 1 + i * 5);
    expect(busy).toBeGreaterThanOrEqual(19);
    expect(busy).toBeLessThanOrEqual(21);
    // sampleTokenLeft only looks: it takes nothing
    const after = t0 + 1 + 2000 * 5;
    expect(sampleTokenLeft('org_s1', 'message.received', after + 1000)).toBe(true);
    expect(sampleTokenLeft('org_s1', 'message.received', after + 1000)).toBe(true);
    expect(takeSampleToken('org_s1', 'message.received', after + 1000)).toBe(true);
    // another trigger and another org are not affected
    expect(kept('org_s1', 'message.sent', 5, () => t0)).toBe(5);
    expect(kept('org_s2', 'message.received', 5, () => t0)).toBe(5);
    // a quiet trigger (one event every 600 ms) keeps every event
    expect(kept('org_s3', 'message.received', 100, (i) => t0 + i * 600)).toBe(100);
  });
});
