/** Group templates (issue 15 item 6): API calls and query keys (under the org's root). */
import type { CreateGroupInput, GroupPictureUploadInput, GroupRequest, GroupTemplate, GroupTemplateInput } from '#shared/group-template/group-template.schemas.ts';
import { ApiError, apiRequest } from '../../../lib/api.ts';
import { getConfig } from '../../../lib/config.ts';

export const groupTemplateKeys = {
  all: (orgId: string) => ['orgs', orgId, 'group-templates'] as const,
  request: (orgId: string, requestId: string) => ['orgs', orgId, 'group-templates', 'request', requestId] as const,
};

const base = (orgId: string) => `/api/orgs/${encodeURIComponent(orgId)}/group-templates`;
/** What the forms send (defaults filled by the API). */
export type GroupTemplateDraft = Partial<GroupTemplateInput> & { name: string };
export type CreateGroupDraft = Partial<CreateGroupInput> & { phone_id: string };

/** A URL the API or blob store answered (relative locally) as one the browser can fetch. */
export const absoluteUrl = (u: string) => (/^https?:/i.test(u) ? u : `${getConfig().apiUrl || window.location.origin}${u}`);

export const groupTemplatesApi = {
  list: (orgId: string) => apiRequest<{ group_templates: GroupTemplate[] }>('GET', base(orgId)).then((r) => r.group_templates),
  create: (orgId: string, input: GroupTemplateDraft) => apiRequest<{ group_template: GroupTemplate }>('POST', base(orgId), input).then((r) => r.group_template),
  update: (orgId: string, id: string, input: GroupTemplateDraft) => apiRequest<{ group_template: GroupTemplate }>('PATCH', `${base(orgId)}/${encodeURIComponent(id)}`, input).then((r) => r.group_template),
  remove: (orgId: string, id: string) => apiRequest<{ deleted: true }>('DELETE', `${base(orgId)}/${encodeURIComponent(id)}`),
  createGroup: (orgId: string, id: string, input: CreateGroupDraft) => apiRequest<{ request: GroupRequest }>('POST', `${base(orgId)}/${encodeURIComponent(id)}/groups`, input).then((r) => r.request),
  request: (orgId: string, id: string, requestId: string) => apiRequest<{ request: GroupRequest }>('GET', `${base(orgId)}/${encodeURIComponent(id)}/groups/${encodeURIComponent(requestId)}`).then((r) => r.request),
  /**
   * Upload a picture: a presigned PUT from the API, then the file straight to the store.
   * @returns the `upload_key` to save the template with
   * @throws ApiError: the API's refusal (type, size) as it is; a failed PUT as 'Unable to upload file'
   */
  async uploadPicture(orgId: string, file: File): Promise<string> {
    const input: GroupPictureUploadInput = { filename: file.name, mimetype: file.type as GroupPictureUploadInput['mimetype'], size: file.size };
    const target = await apiRequest<{ upload_url: string; upload_key: string; headers: Record<string, string> }>('POST', `${base(orgId)}/uploads`, input);
    const ok = await fetch(absoluteUrl(target.upload_url), { method: 'PUT', headers: target.headers, body: file }).then((r) => r.ok, () => false);
    if (!ok) throw new ApiError(0, 'group_templates.upload_failed', 'Unable to upload file');
    return target.upload_key;
  },
};
