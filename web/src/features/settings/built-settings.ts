/**
 * Settings sections with a page of their own (the part after /settings/); the others show the
 * not-built page. Kept in step with the routes of app/App.tsx by built-settings.test.ts (the hub
 * said four working pages were "not built yet", issue 49 §4).
 */
export const BUILT_SETTINGS: ReadonlySet<string> = new Set([
  'preferences',
  'phones',
  'scheduled',
  'team',
  'permissions',
  'tickets',
  'labels',
  'notifications',
  // issue 20
  'integrations/all',
  'integrations/browse',
  'integrations/api',
  'integrations/mcp',
  'integrations/webhooks',
  'integrations/zapier',
  'integrations/pabbly',
  'integrations/slack',
  // issue 15
  'properties',
  'replies',
  'group-templates',
  // issue 16
  'templates',
  // issue 22: plans and usage; organization general, config and media library
  'plans',
  'general',
  'config',
  'library',
]);
