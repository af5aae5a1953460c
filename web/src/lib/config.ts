/**
 * Runtime configuration of the web app. The same bundle runs locally and on AWS: the URLs and
 * Cognito ids come from `/config.json` (shape `WebConfig`), fetched once at boot.
 */
import { WebConfig } from '#shared/me.schemas.ts';

let current: WebConfig | null = null;

/** Fetch and validate `/config.json`. Throws an Error with a readable message when it is missing or incomplete. */
export async function loadConfig(): Promise<WebConfig> {
  let res: Response;
  try {
    res = await fetch('/config.json', { cache: 'no-store', headers: { accept: 'application/json' } });
  } catch {
    throw new Error('Could not reach the Chorus server to load its configuration.');
  }
  if (!res.ok) throw new Error(`The Chorus server did not return its configuration (/config.json answered HTTP ${res.status}).`);
  let json: unknown;
  try {
    json = await res.json();
  } catch {
    throw new Error('The configuration file /config.json is not valid JSON.');
  }
  const parsed = WebConfig.safeParse(json);
  if (!parsed.success) {
    const fields = parsed.error.issues.map((i) => i.path.join('.') || '(root)').join(', ');
    throw new Error(`The configuration file /config.json is incomplete (${fields}).`);
  }
  current = { ...parsed.data, apiUrl: parsed.data.apiUrl.replace(/\/+$/, '') };
  return current;
}

/** The loaded configuration (boot guarantees it is loaded before the app renders). */
export function getConfig(): WebConfig {
  if (!current) throw new Error('Configuration is not loaded yet');
  return current;
}
