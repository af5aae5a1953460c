import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { type Browser } from 'playwright-core';
import { PHONE, SHOTS, signIn, startE2E, stopE2E } from '../factories/browser.ts';
import type { TestRuntime } from '../factories/runtime.ts';

/**
 * API keys end to end in Debian's Chromium (issue 20): an admin creates a key on
 * /settings/integrations/api with a scope, copies the token shown once, the token works on /v1,
 * the admin revokes it on the page and the token is refused (401). Also draws the integrations
 * catalogue, the MCP page and the Redoc reference (served locally). Screenshots in
 * test-results/screenshots.
 */
let rt: TestRuntime;
let browser: Browser;
const base = () => rt.url.replace('localhost', '127.0.0.1');

beforeAll(async () => ({ rt, browser } = await startE2E()));
afterAll(() => stopE2E({ browser, rt }));

describe('API keys on the settings page', () => {
  it('creates a key (token shown once), the key works, revoking it stops it', async () => {
    const page = await signIn(browser, rt, rt.adminEmail);
    await page.goto(`${base()}/settings/integrations/api`);
    await page.getByTestId('api-keys-page').waitFor().catch(async (e: unknown) => {
      await page.screenshot({ path: join(SHOTS, 'api-keys-failure.png') });
      throw e;
    });
    await page.getByTestId('api-key-name').fill('E2E key');
    await page.getByTestId('scope-tickets:write').check();
    await page.getByTestId('api-key-create').click();
    const token = (await page.getByTestId('api-key-token-value').textContent())!.trim();
    expect(token).toMatch(/^chk_/);
    const row = page.locator('[data-testid^="api-key-row-"]', { hasText: 'E2E key' });
    await expect.poll(() => row.getByTestId('api-key-status').textContent()).toBe('Active');
    expect(await row.textContent()).toContain('tickets:write');
    await page.screenshot({ path: join(SHOTS, 'api-keys-desktop.png'), fullPage: true });

    const call = () => fetch(`${rt.url}/v1/orgs/${rt.orgId}/chats`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.status);
    expect(await call()).toBe(200);

    page.once('dialog', (d) => void d.accept());
    await row.getByTestId('api-key-revoke').click();
    await expect.poll(() => row.getByTestId('api-key-status').textContent()).toMatch(/^Revoked/);
    expect(await call()).toBe(401);
    // after a reload the token is not shown again, only its prefix
    await page.reload();
    await page.getByTestId('api-key-list').waitFor();
    expect(await page.getByTestId('api-key-token').count()).toBe(0);
    expect(await page.content()).not.toContain(token);
  });

  it('draws the catalogue, the MCP page and the API reference', async () => {
    // the first test's key is revoked: the catalogue says "Set up" until an active key exists
    const page = await signIn(browser, rt, rt.adminEmail);
    await page.goto(`${base()}/settings/integrations/all`);
    await page.getByTestId('integration-api').waitFor();
    await expect.poll(() => page.getByTestId('integration-api').textContent()).toContain('Set up');
    const r = await rt.orgCall(await rt.signIn(rt.adminEmail), 'POST', '/api-keys', { name: 'Catalogue', scopes: ['chats:read'] });
    expect(r.status).toBe(201);
    await page.reload();
    await page.getByTestId('integration-api').waitFor();
    await expect.poll(() => page.getByTestId('integration-api').textContent()).toContain('Connected · 1 active key');
    await page.screenshot({ path: join(SHOTS, 'integrations-desktop.png'), fullPage: true });
    await page.goto(`${base()}/settings/integrations/mcp`);
    expect(await page.getByTestId('mcp-http-snippet').textContent()).toContain('/mcp');
    await page.screenshot({ path: join(SHOTS, 'mcp-desktop.png'), fullPage: true });
    await page.goto(`${base()}/settings/integrations/api/reference`);
    await page.getByTestId('api-reference').getByText('Send a message').first().waitFor({ state: 'attached', timeout: 30_000 });
    await page.screenshot({ path: join(SHOTS, 'api-reference-desktop.png') });
    await page.setViewportSize(PHONE);
    await page.goto(`${base()}/settings/integrations/api`);
    await page.getByTestId('api-key-list').waitFor();
    await page.screenshot({ path: join(SHOTS, 'api-keys-phone.png'), fullPage: true });
  });
});
