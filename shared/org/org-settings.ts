import { db } from '../db/service.ts';
import { AppError, notFound } from '../errors.ts';
import type { Actor } from '../auth/actor.ts';
import type { ChatPreferences } from '../chat/chat-access.rules.ts';
import { forgetOrgPreferences, getOrgPreferences } from './preferences.ts';
import { MEMBER_PERMISSION_KEYS, permissionGranted } from './permissions.rules.ts';
import type { PermissionSettings, UpdatePermissionSettingsInput } from './org.schemas.ts';

/** Resolve stored preferences into the settings shape: every key present, unset = allowed (spec §6). */
export function toPermissionSettings(prefs: ChatPreferences | null | undefined): PermissionSettings {
  const perms = prefs?.member_permissions;
  return {
    mask_phone_numbers: prefs?.mask_phone_numbers === true,
    member_permissions: Object.fromEntries(MEMBER_PERMISSION_KEYS.map((k) => [k, permissionGranted(perms, k)])) as PermissionSettings['member_permissions'],
  };
}

/**
 * GET /settings/permissions (spec §6): mask_phone_numbers and member_permissions of the actor's
 * org. Any member may read them (the web app needs them to hide what the API refuses).
 * Read through the 5 s preferences cache.
 */
export async function getPermissionSettings(actor: Pick<Actor, 'org_id'>): Promise<PermissionSettings> {
  return toPermissionSettings(await getOrgPreferences(actor.org_id));
}

/**
 * PUT /settings/permissions (admins only, spec §6). Merges the given keys into
 * `organization.org_metadata.preferences`; other keys of org_metadata and of preferences are kept.
 * Clears this process's preferences cache; other processes see the change within 5 s.
 * @throws AppError 403 permissions.forbidden for members; 404 organization.not_found
 */
export async function updatePermissionSettings(actor: Actor, input: UpdatePermissionSettingsInput): Promise<PermissionSettings> {
  if (actor.role !== 'admin') throw new AppError('permissions.forbidden', 'Only admins can change permissions.', { status: 403 });
  const org = (await db().entities.organization.get({ org_id: actor.org_id }).go()).data;
  if (!org) throw notFound('organization');
  const meta = (org.org_metadata ?? {}) as { preferences?: ChatPreferences } & Record<string, unknown>;
  const prefs = meta.preferences ?? {};
  const next: ChatPreferences = {
    ...prefs,
    ...(input.mask_phone_numbers !== undefined ? { mask_phone_numbers: input.mask_phone_numbers } : {}),
    member_permissions: { ...(prefs.member_permissions ?? {}), ...(input.member_permissions ?? {}) },
  };
  await db().entities.organization.patch({ org_id: actor.org_id }).set({ org_metadata: { ...meta, preferences: next } }).go();
  forgetOrgPreferences(actor.org_id);
  return toPermissionSettings(next);
}
