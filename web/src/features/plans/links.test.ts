import { afterEach, describe, expect, it, vi } from 'vitest';
import { HELP_LINK_KEYS } from '#shared/me.schemas.ts';
import { loadConfig } from '../../lib/config.ts';
import { link } from './links.ts';

/**
 * Issue 49 item 10: the Help menu pointed at placeholder domains (status.chorus.example.com, …).
 * Links now come from `/config.json` only, and a link without a target is not shown.
 */
const BASE = { apiUrl: '', wsUrl: '/ws', region: 'us-east-1', userPoolId: 'p', userPoolClientId: 'c', stage: 'local' };

async function withConfig(extra: Record<string, unknown>): Promise<void> {
  vi.stubGlobal('fetch', async () => new Response(JSON.stringify({ ...BASE, ...extra }), { status: 200, headers: { 'content-type': 'application/json' } }));
  await loadConfig();
}

afterEach(() => vi.unstubAllGlobals());

describe('help links', () => {
  it('shows no link a deployment has not configured: no placeholder domain', async () => {
    await withConfig({});
    for (const key of HELP_LINK_KEYS) expect(link(key)).toBeNull();
  });

  it('takes the configured ones from /config.json, and only http(s), mailto or same-origin paths', async () => {
    await withConfig({ links: { status: 'https://status.acme.io', documentation: '/docs', contact: 'mailto:help@acme.io', support: 'javascript:alert(1)', tutorial: '//evil.example/x', sales: '' } });
    expect(link('status')).toBe('https://status.acme.io');
    expect(link('documentation')).toBe('/docs');
    expect(link('contact')).toBe('mailto:help@acme.io');
    expect(link('support')).toBeNull();
    expect(link('tutorial')).toBeNull();
    expect(link('sales')).toBeNull();
    expect(link('book_demo')).toBeNull();
  });
});
