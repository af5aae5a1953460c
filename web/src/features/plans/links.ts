/**
 * The help menu's and blocking screens' links (spec §2 help menu; issue 22: 'links come from
 * configuration'; issue 49 item 10: no placeholder domains). Each comes from `/config.json`
 * `links` (shared/me.schemas.ts HelpLinksConfig: the local runtime serves its documentation at
 * `/docs`, a deployment configures the rest); a link with no target is not shown at all.
 */
import { isHelpLinkTarget, type HelpLinkKey } from '#shared/me.schemas.ts';
import { getConfig } from '../../lib/config.ts';

export type LinkKey = HelpLinkKey;

/** The configured target of `key`, or null when this deployment has none (then hide the link). */
export function link(key: LinkKey): string | null {
  let url: string | undefined;
  try {
    url = getConfig().links?.[key]?.trim();
  } catch {
    return null;
  }
  return url && isHelpLinkTarget(url) ? url : null;
}
