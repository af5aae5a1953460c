/** Quick replies (issue 15 item 5): API calls and query keys (under the org's root). */
import type { QuickReply, QuickReplyInput } from '#shared/reply/reply.schemas.ts';
import { apiRequest } from '../../../lib/api.ts';

export const replyKeys = {
  all: (orgId: string) => ['orgs', orgId, 'replies'] as const,
};

const base = (orgId: string) => `/api/orgs/${encodeURIComponent(orgId)}/replies`;
/** What the forms send (the shortcut before normalising, scope and attachment optional). */
export type ReplyDraft = Omit<QuickReplyInput, 'scope'> & { scope?: QuickReplyInput['scope'] };

export const repliesApi = {
  list: (orgId: string) => apiRequest<{ replies: QuickReply[] }>('GET', base(orgId)).then((r) => r.replies),
  create: (orgId: string, input: ReplyDraft) => apiRequest<{ reply: QuickReply }>('POST', base(orgId), input).then((r) => r.reply),
  update: (orgId: string, id: string, input: ReplyDraft) => apiRequest<{ reply: QuickReply }>('PATCH', `${base(orgId)}/${encodeURIComponent(id)}`, input).then((r) => r.reply),
  remove: (orgId: string, id: string) => apiRequest<{ deleted: true }>('DELETE', `${base(orgId)}/${encodeURIComponent(id)}`),
};
