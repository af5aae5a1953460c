/**
 * Calls and query keys of the integrations pages (issue 20): API keys and their request log.
 * Server state through TanStack Query under ['orgs', orgId, 'api-keys', …].
 */
import { apiRequest } from '../../lib/api.ts';
import type { ApiKey, ApiRequestLog, CreateApiKeyInput } from '#shared/apikey/api-key.schemas.ts';

const enc = encodeURIComponent;

export const integrationKeys = {
  apiKeys: (orgId: string) => ['orgs', orgId, 'api-keys'] as const,
  apiLogs: (orgId: string) => ['orgs', orgId, 'api-keys', 'logs'] as const,
};

export const integrationsApi = {
  listKeys: async (orgId: string) => (await apiRequest<{ api_keys: ApiKey[] }>('GET', `/api/orgs/${enc(orgId)}/api-keys`)).api_keys,
  createKey: (orgId: string, input: CreateApiKeyInput) => apiRequest<{ api_key: ApiKey; token: string }>('POST', `/api/orgs/${enc(orgId)}/api-keys`, input),
  revokeKey: async (orgId: string, keyId: string) => (await apiRequest<{ api_key: ApiKey }>('DELETE', `/api/orgs/${enc(orgId)}/api-keys/${enc(keyId)}`)).api_key,
  listLogs: async (orgId: string) => (await apiRequest<{ logs: ApiRequestLog[] }>('GET', `/api/orgs/${enc(orgId)}/api-keys/logs`)).logs,
};
