/**
 * The help menu's and blocking screens' links (spec §2 help menu; issue 22: 'links come from
 * configuration'): `/config.json` `links` overrides any of these defaults.
 */
import { getConfig } from '../../lib/config.ts';

export const DEFAULT_LINKS = {
  status: 'https://status.chorus.example.com',
  support: 'mailto:support@chorus.example.com',
  documentation: 'https://docs.chorus.example.com',
  tutorial: 'https://docs.chorus.example.com/tutorial',
  contact: 'mailto:support@chorus.example.com',
  feature_request: 'https://feedback.chorus.example.com',
  best_practices: 'https://docs.chorus.example.com/best-practices',
  book_demo: 'https://chorus.example.com/demo',
  chats_not_loading: 'https://docs.chorus.example.com/troubleshooting/chats-not-loading',
  app_slow: 'https://docs.chorus.example.com/troubleshooting/app-slow',
  sales: 'mailto:sales@chorus.example.com',
} as const;
export type LinkKey = keyof typeof DEFAULT_LINKS;

export function link(key: LinkKey): string {
  try {
    const c = getConfig() as unknown as { links?: Partial<Record<LinkKey, string>> };
    return c.links?.[key] || DEFAULT_LINKS[key];
  } catch {
    return DEFAULT_LINKS[key];
  }
}
