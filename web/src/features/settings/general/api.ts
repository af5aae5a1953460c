/**
 * Organization settings API of the web app (issue 22): settings/general, settings/config and
 * settings/library. TanStack Query keys under ['orgs', orgId, 'settings', <page>]; a save writes the
 * answer into the cache and refreshes the plan view (it carries the config flags).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ConfigSettings, GeneralSettings, LibrarySettings, UpdateConfigSettingsInput, UpdateGeneralSettingsInput, UpdateLibrarySettingsInput } from '#shared/org/org-settings.schemas.ts';
import { apiRequest } from '../../../lib/api.ts';

type Page = 'general' | 'config' | 'library';
interface Shapes {
  general: { view: GeneralSettings; input: UpdateGeneralSettingsInput };
  config: { view: ConfigSettings; input: UpdateConfigSettingsInput };
  library: { view: LibrarySettings; input: UpdateLibrarySettingsInput };
}

export const orgSettingsKeys = { page: (orgId: string, page: Page) => ['orgs', orgId, 'settings', page] as const };
const path = (orgId: string, page: Page) => `/api/orgs/${encodeURIComponent(orgId)}/settings/${page}`;

/** GET …/settings/{page} through the query cache. */
export function useOrgSettings<P extends Page>(orgId: string, page: P) {
  return useQuery({ queryKey: orgSettingsKeys.page(orgId, page), queryFn: () => apiRequest<Shapes[P]['view']>('GET', path(orgId, page)) });
}

/** PUT …/settings/{page}; on success the cache holds the saved settings and the plan view is refetched. */
export function useSaveOrgSettings<P extends Page>(orgId: string, page: P) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: Shapes[P]['input']) => apiRequest<Shapes[P]['view']>('PUT', path(orgId, page), input),
    onSuccess: (view) => {
      qc.setQueryData(orgSettingsKeys.page(orgId, page), view);
      void qc.invalidateQueries({ queryKey: ['orgs', orgId, 'plan'] });
    },
  });
}
