/** Naming helpers for construct ids derived from catalogue and route data. */

/** `realtime-fanout` -> `RealtimeFanout`, `GET /api/orgs/{org_id}` -> `GetApiOrgsOrgId`. */
export function pascalCase(text: string): string {
  return text
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('');
}
