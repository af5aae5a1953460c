/**
 * The org's library settings as the media page needs them (settings/library, issue 22): the type
 * the library opens on. Same query key as the settings page (['orgs', orgId, 'settings', 'library']),
 * so a save there is what the library shows next.
 */
import { useQuery } from '@tanstack/react-query';
import type { LibrarySettings } from '#shared/org/org-settings.schemas.ts';
import { apiRequest } from '../../../lib/api.ts';

export function useLibrarySettings(orgId: string) {
  return useQuery({
    queryKey: ['orgs', orgId, 'settings', 'library'] as const,
    queryFn: () => apiRequest<LibrarySettings>('GET', `/api/orgs/${encodeURIComponent(orgId)}/settings/library`),
    staleTime: 60_000,
  });
}
