/**
 * The org's chat labels for /contacts, in the same query cache entry as the chat list's
 * (`['orgs', orgId, 'labels']`, features/chats/api/keys.ts) without importing the chats feature
 * (which would split a shared chunk off the /chats first screen and cost its bundle budget).
 */
import { useQuery } from '@tanstack/react-query';
import type { ChatLabel } from '#shared/chat/chat.schemas.ts';
import { api } from '../../../lib/api.ts';

const NONE: ChatLabel[] = [];

export function useLabels(orgId: string): ChatLabel[] {
  const { data } = useQuery({ queryKey: ['orgs', orgId, 'labels'] as const, queryFn: () => api.chatLabels(orgId) });
  return data ?? NONE;
}
