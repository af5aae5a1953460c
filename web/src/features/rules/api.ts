/**
 * Client of the rules API (issue 17: /api/orgs/{org_id}/rules…, /logs/rules, a chat's
 * /rule-pending) and its TanStack Query keys (`['orgs', orgId, 'rules', …]`).
 */
import { apiRequest } from '../../lib/api.ts';
import type { Rule, RuleInput, RuleLog, UpdateRuleInput } from '#shared/rules/rule.schemas.ts';

export type { Rule, RuleLog };
const enc = encodeURIComponent;
const base = (orgId: string) => `/api/orgs/${enc(orgId)}`;

export interface RuleVersion {
  version: number;
  change: string;
  by: string;
  at: number;
}
export interface DryRun {
  evaluated: number;
  matched: number;
  results: Array<{ event_id: string; chat_id: string | null; at: number; matched: boolean; reasons: string[]; actions: Array<{ index: number; type: string; would: string }> }>;
}
export interface PendingItem {
  key: string;
  rule_id: string;
  rule_name: string;
  summary: string;
  due_at: number;
}
export interface LogFilter {
  rule_id?: string;
  chat_id?: string;
  outcome?: string;
}

export const ruleKeys = {
  all: (orgId: string) => ['orgs', orgId, 'rules'] as const,
  list: (orgId: string) => ['orgs', orgId, 'rules', 'list'] as const,
  one: (orgId: string, ruleId: string) => ['orgs', orgId, 'rules', 'one', ruleId] as const,
  logs: (orgId: string, f: LogFilter) => ['orgs', orgId, 'rules', 'logs', f] as const,
  pending: (orgId: string, chatId: string) => ['orgs', orgId, 'rules', 'pending', chatId] as const,
};

export const rulesApi = {
  list: (orgId: string) => apiRequest<{ rules: Rule[]; per_licence: number; limit: number }>('GET', `${base(orgId)}/rules`),
  get: (orgId: string, id: string) => apiRequest<{ rule: Rule; versions: RuleVersion[] }>('GET', `${base(orgId)}/rules/${enc(id)}`),
  create: async (orgId: string, input: RuleInput) => (await apiRequest<{ rule: Rule }>('POST', `${base(orgId)}/rules`, input)).rule,
  update: async (orgId: string, id: string, input: UpdateRuleInput) => (await apiRequest<{ rule: Rule }>('PUT', `${base(orgId)}/rules/${enc(id)}`, input)).rule,
  remove: (orgId: string, id: string) => apiRequest<{ deleted: boolean }>('DELETE', `${base(orgId)}/rules/${enc(id)}`),
  dryRun: (orgId: string, id: string) => apiRequest<DryRun>('POST', `${base(orgId)}/rules/${enc(id)}/dry-run`, {}),
  logs: (orgId: string, f: LogFilter, cursor?: string | null) => {
    const q = new URLSearchParams(Object.entries({ ...f, ...(cursor ? { cursor } : {}) }).filter(([, v]) => !!v) as Array<[string, string]>);
    return apiRequest<{ logs: RuleLog[]; cursor: string | null }>('GET', `${base(orgId)}/logs/rules${q.size ? `?${q}` : ''}`);
  },
  pending: async (orgId: string, chatId: string) => (await apiRequest<{ pending: PendingItem[] }>('GET', `${base(orgId)}/chats/${enc(chatId)}/rule-pending`)).pending,
  cancelPending: (orgId: string, chatId: string, key: string) => apiRequest<{ cancelled: boolean }>('DELETE', `${base(orgId)}/chats/${enc(chatId)}/rule-pending/${enc(key)}`),
};

// --- issue 17 §6: SLA policies and the breach report ---
import type { SlaBreach, SlaPolicy, SlaPolicyInput, UpdateSlaPolicyInput } from '#shared/sla/sla.schemas.ts';
export type { SlaBreach, SlaPolicy, SlaPolicyInput };

export const slaKeys = {
  policies: (orgId: string) => ['orgs', orgId, 'rules', 'sla', 'policies'] as const,
  breaches: (orgId: string, target: string) => ['orgs', orgId, 'rules', 'sla', 'breaches', target] as const,
};

export const slaApi = {
  list: async (orgId: string) => (await apiRequest<{ policies: SlaPolicy[] }>('GET', `${base(orgId)}/sla-policies`)).policies,
  create: async (orgId: string, input: SlaPolicyInput) => (await apiRequest<{ policy: SlaPolicy }>('POST', `${base(orgId)}/sla-policies`, input)).policy,
  update: async (orgId: string, id: string, input: UpdateSlaPolicyInput) => (await apiRequest<{ policy: SlaPolicy }>('PUT', `${base(orgId)}/sla-policies/${enc(id)}`, input)).policy,
  remove: (orgId: string, id: string) => apiRequest<{ deleted: boolean }>('DELETE', `${base(orgId)}/sla-policies/${enc(id)}`),
  breaches: (orgId: string, target: string, cursor?: string | null) => {
    const q = new URLSearchParams(Object.entries({ target, ...(cursor ? { cursor } : {}) }).filter(([, v]) => !!v) as Array<[string, string]>);
    return apiRequest<{ breaches: SlaBreach[]; cursor: string | null }>('GET', `${base(orgId)}/logs/sla${q.size ? `?${q}` : ''}`);
  },
};
