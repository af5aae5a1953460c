/**
 * Plans feature API (issue 22): the org's plan (TanStack Query key ['orgs', orgId, 'plan']), the
 * incident (spec §7 GET /incident: 5000 ms timeout, 1 retry), checkout and the trial extension.
 */
import { useQuery } from '@tanstack/react-query';
import type { PlanView, CheckoutInput } from '#shared/plan/plan.schemas.ts';
import type { IncidentInfo } from '#shared/plan/entitlements.rules.ts';
import { apiRequest } from '../../lib/api.ts';
import { getIdToken } from '../../lib/auth.ts';

/**
 * Background reads (the plan, the incident) are skipped without a token: the layer mounts lazily and
 * may poll while the person signs out, which must not read as an expired session.
 */
async function signedIn<T>(fn: () => Promise<T>): Promise<T> {
  if (!(await getIdToken())) throw new Error('signed out');
  return fn();
}

const enc = encodeURIComponent;
export const planKeys = { plan: (orgId: string) => ['orgs', orgId, 'plan'] as const, incident: ['incident'] as const };

export const planApi = {
  get: (orgId: string) => signedIn(() => apiRequest<PlanView>('GET', `/api/orgs/${enc(orgId)}/plan`)),
  checkout: (orgId: string, input: CheckoutInput) => apiRequest<{ url: string }>('POST', `/api/orgs/${enc(orgId)}/plan/checkout`, input),
  requestTrialExtension: (orgId: string, shared_post_link: string) => apiRequest<{ trial_extension_requested_at: number }>('POST', `/api/orgs/${enc(orgId)}/plan/trial-extension`, { shared_post_link }),
};

/** spec §7 / §9: the incident request times out after 5 s and is retried once. */
export const INCIDENT_TIMEOUT_MS = 5000;
export async function fetchIncident(): Promise<IncidentInfo> {
  const once = () => Promise.race([signedIn(() => apiRequest<IncidentInfo>('GET', '/api/incident')), new Promise<never>((_, reject) => setTimeout(() => reject(new Error('incident request timed out')), INCIDENT_TIMEOUT_MS))]);
  try {
    return await once();
  } catch {
    return await once();
  }
}

/** The org's plan view, refreshed every minute (status changes arrive through billing webhooks). */
export function usePlan(orgId: string) {
  return useQuery({ queryKey: planKeys.plan(orgId), queryFn: () => planApi.get(orgId), refetchInterval: 60_000, staleTime: 30_000 });
}

/** The platform incident, checked on load and every 5 minutes; failures read as no incident. */
export function useIncident() {
  return useQuery({ queryKey: planKeys.incident, queryFn: () => fetchIncident().catch((): IncidentInfo => ({ betterstack: null, featurebase: null })), refetchInterval: 300_000, retry: false });
}
