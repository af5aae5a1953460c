import type { EntityItem } from 'electrodb';
import type { OrganizationEntity } from './organization.entity.ts';
import { db } from '../db/service.ts';
import { AppError, notFound } from '../errors.ts';
import type { Actor } from '../auth/actor.ts';
import type { ChatPreferences } from '../chat/chat-access.rules.ts';
import { forgetOrgPreferences, getOrgPreferences } from './preferences.ts';
import { MEMBER_PERMISSION_KEYS, permissionGranted } from './permissions.rules.ts';
import type { PermissionSettings, UpdatePermissionSettingsInput } from './org.schemas.ts';
import { orgClockOf } from './business-hours.rules.ts';
import { forgetOrgClock } from './org-clock.ts';
import { orgCache } from './org-cache.ts';
import { forgetOrgPlanState } from '../plan/gate.ts';
import {
  ADMIN_FEATURE_FLAG_KEYS,
  DEFAULT_DISPLAY_LANGUAGE,
  DISPLAY_LANGUAGES,
  resolveFeatureFlags,
  resolveLibrarySettings,
  type ConfigSettings,
  type GeneralSettings,
  type LibrarySettings,
  type UpdateConfigSettingsInput,
  type UpdateGeneralSettingsInput,
  type UpdateLibrarySettingsInput,
} from './org-settings.schemas.ts';

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

// --- issue 22: settings/general, settings/config, settings/library -----------------------------

type OrgRow = EntityItem<typeof OrganizationEntity> | null;

async function orgRowOf(orgId: string): Promise<NonNullable<OrgRow>> {
  const org = (await db().entities.organization.get({ org_id: orgId }).go()).data;
  if (!org) throw notFound('organization');
  return org;
}

function assertSettingsAdmin(actor: Actor): void {
  if (actor.role !== 'admin') throw new AppError('settings.forbidden', 'Only admins can change the organization settings.', { status: 403 });
}

/** The general settings of a stored org row (defaults: 'en', UTC, Mon–Fri 09:00–17:00). */
export function toGeneralSettings(org: Pick<NonNullable<OrgRow>, 'org_name' | 'org_image' | 'display_language' | 'time_zone' | 'business_hours'>): GeneralSettings {
  const clock = orgClockOf(org);
  const lang = DISPLAY_LANGUAGES.find((l) => l.code === org.display_language)?.code ?? DEFAULT_DISPLAY_LANGUAGE;
  return { org_name: org.org_name, org_image: org.org_image || null, display_language: lang, time_zone: clock.time_zone, business_hours: clock.business_hours };
}

/**
 * GET /settings/general (any member): name, image, display language (spec §3), time zone and
 * business hours (shared/org/business-hours.rules.ts). @throws AppError 404 organization.not_found
 */
export async function getGeneralSettings(actor: Pick<Actor, 'org_id'>): Promise<GeneralSettings> {
  return toGeneralSettings(await orgRowOf(actor.org_id));
}

/**
 * PUT /settings/general (admins): sets the given keys on the Organization row; `org_image: null`
 * removes the image. Clears this process's org clock (shared/org/org-clock.ts; other processes
 * within its 5 s cache).
 * @throws AppError 403 settings.forbidden for members; 404 organization.not_found
 */
export async function updateGeneralSettings(actor: Actor, input: UpdateGeneralSettingsInput): Promise<GeneralSettings> {
  return (await changeGeneralSettings(actor, input)).settings;
}

/**
 * {@link updateGeneralSettings}, also answering the workspace name before the change (read anyway,
 * so the audit row can say "renamed from … to …" without another read; issue 49).
 */
export async function changeGeneralSettings(actor: Actor, input: UpdateGeneralSettingsInput): Promise<{ settings: GeneralSettings; before_org_name: string | undefined }> {
  assertSettingsAdmin(actor);
  const org = await orgRowOf(actor.org_id);
  const set: Record<string, unknown> = {};
  if (input.org_name !== undefined) set.org_name = input.org_name;
  if (input.org_image) set.org_image = input.org_image;
  if (input.display_language !== undefined) set.display_language = input.display_language;
  if (input.time_zone !== undefined) set.time_zone = input.time_zone;
  if (input.business_hours !== undefined) set.business_hours = input.business_hours;
  let op = db().entities.organization.patch({ org_id: actor.org_id }).set(set);
  if (input.org_image === null) op = op.remove(['org_image']);
  if (Object.keys(set).length > 0 || input.org_image === null) await op.go();
  forgetOrgClock(actor.org_id);
  forgetOrgPlanState(actor.org_id);
  const settings = toGeneralSettings({ ...org, ...set, ...(input.org_image === null ? { org_image: undefined } : {}) });
  return { settings, before_org_name: (org as { org_name?: string }).org_name };
}

/** The flags of a stored `access_scopes` (unset = on). */
const storedFlags = (accessScopes: unknown): Record<string, unknown> => ((accessScopes as { feature_flags?: Record<string, unknown> } | null | undefined)?.feature_flags ?? {}) as Record<string, unknown>;

/** GET /settings/config (any member): the admin-settable feature flags, resolved (spec §3 access_scopes.feature_flags). */
export async function getConfigSettings(actor: Pick<Actor, 'org_id'>): Promise<ConfigSettings> {
  const org = await orgRowOf(actor.org_id);
  return { feature_flags: resolveFeatureFlags(storedFlags(org.access_scopes)) };
}

/**
 * PUT /settings/config (admins): merges the given admin flags into `access_scopes.feature_flags`;
 * the platform's `maintenance` flag and other keys of access_scopes are kept as they are (the
 * schema refuses `maintenance` with 400, spec §4). Clears the plan-state cache (shared/plan/gate.ts).
 * @throws AppError 403 settings.forbidden for members; 404 organization.not_found
 */
export async function updateConfigSettings(actor: Actor, input: UpdateConfigSettingsInput): Promise<ConfigSettings> {
  assertSettingsAdmin(actor);
  const org = await orgRowOf(actor.org_id);
  const scopes = ((org.access_scopes ?? {}) as Record<string, unknown>) ?? {};
  const current = storedFlags(scopes);
  const changes = Object.fromEntries(ADMIN_FEATURE_FLAG_KEYS.filter((k) => input.feature_flags[k] !== undefined).map((k) => [k, input.feature_flags[k]]));
  const next = { ...current, ...changes };
  await db().entities.organization.patch({ org_id: actor.org_id }).set({ access_scopes: { ...scopes, feature_flags: next } }).go();
  forgetOrgPlanState(actor.org_id);
  return { feature_flags: resolveFeatureFlags(next) };
}

const libraries = orgCache(async (orgId) => resolveLibrarySettings((await db().entities.organization.get({ org_id: orgId }).go({ attributes: ['org_id', 'library_settings'] })).data?.library_settings));
/** The org's library settings for the media code (recordMediaItem, listMedia), cached 5 s (org-cache.ts); defaults when unset. */
export const orgLibrarySettings = (orgId: string): Promise<LibrarySettings> => libraries.get(orgId);

/** GET /settings/library (any member): the media library's settings, defaults filled in. */
export async function getLibrarySettings(actor: Pick<Actor, 'org_id'>): Promise<LibrarySettings> {
  return resolveLibrarySettings((await orgRowOf(actor.org_id)).library_settings);
}

/**
 * PUT /settings/library (admins): merges the given keys into `organization.library_settings`.
 * @throws AppError 403 settings.forbidden for members; 404 organization.not_found
 */
export async function updateLibrarySettings(actor: Actor, input: UpdateLibrarySettingsInput): Promise<LibrarySettings> {
  assertSettingsAdmin(actor);
  const org = await orgRowOf(actor.org_id);
  const next: LibrarySettings = { ...resolveLibrarySettings(org.library_settings), ...(Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) as Partial<LibrarySettings>) };
  await db().entities.organization.patch({ org_id: actor.org_id }).set({ library_settings: next }).go();
  libraries.forget(actor.org_id);
  return next;
}
