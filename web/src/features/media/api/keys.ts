/**
 * Query keys of the media feature (TanStack Query), under the org's `['orgs', orgId, …]` root so a
 * reconnect's org-wide invalidation (app/realtime-bridge.ts) refetches them too.
 */
export const mediaKeys = {
  all: (orgId: string) => ['orgs', orgId, 'media'] as const,
  /** GET /media pages for one filter set (type, chat, from/to epoch ms) */
  library: (orgId: string, params: MediaLibraryParams) => [...mediaKeys.all(orgId), 'library', params] as const,
};

/** The /media filters as the API takes them (`from`/`to` inclusive epoch ms). */
export interface MediaLibraryParams {
  type?: string;
  chat_id?: string;
  from?: number;
  to?: number;
}
