import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { DESKTOP, PHONE, SHOTS, signIn, startE2E, stopE2E } from '../factories/browser.ts';
import type { TestRuntime } from '../factories/runtime.ts';
import { startReceiver, type Receiver } from '../factories/webhook-receiver.ts';
import { eventually } from '../factories/wait.ts';

/**
 * Outbound webhooks in Debian's Chromium (issue 20): an admin adds an endpoint on
 * /settings/integrations/webhooks (a local receiver: CHORUS_WEBHOOKS_ALLOW_LOOPBACK=1), sends a
 * test event, the receiver verifies it with the official Standard Webhooks library, and the
 * delivery shows in the endpoint's log (succeeded, 200). A private address is refused on the form.
 * Screenshots of the webhooks, Zapier and Slack pages at 1440×900 and 390×844.
 */
let rt: TestRuntime;
let browser: Browser;
let rx: Receiver;

beforeAll(async () => {
  process.env.CHORUS_WEBHOOKS_ALLOW_LOOPBACK = '1';
  ({ rt, browser } = await startE2E());
  rx = await startReceiver();
}, 120_000);
afterAll(async () => {
  await rx?.close();
  await stopE2E({ browser, rt });
  delete process.env.CHORUS_WEBHOOKS_ALLOW_LOOPBACK;
});

describe('webhooks settings in the browser', () => {
  it('adds an endpoint, sends a test event and sees the delivery in the log', async () => {
    const page = await signIn(browser, rt, rt.adminEmail);
    await page.goto(`${rt.url.replace('localhost', '127.0.0.1')}/settings/integrations/webhooks`);
    await page.getByTestId('webhooks-page').waitFor();

    // the SSRF guard answers on the form
    await page.getByTestId('wh-url').fill('https://10.0.0.8/hook');
    await page.getByTestId('wh-add').click();
    await page.locator('.wh-error', { hasText: 'private' }).waitFor();

    await page.getByTestId('wh-url').fill(`${rx.url}/e2e`);
    await page.getByTestId('wh-description').fill('CRM sync');
    await page.getByTestId('event-ticket.created').check();
    await page.getByTestId('wh-add').click();
    const card = page.getByTestId('wh-endpoint').filter({ hasText: `${rx.url}/e2e` });
    await card.waitFor();
    await card.getByRole('button', { name: 'Reveal' }).click();
    const secret = (await card.getByTestId('wh-secret').textContent())!;
    expect(secret).toMatch(/^whsec_/);

    await card.getByTestId('wh-test').click();
    const got = await eventually(async () => rx.received.find((r) => r.path === '/e2e'), 15_000, 'the test event at the receiver');
    expect(new Webhook(secret).verify(got.body, got.headers)).toMatchObject({ type: 'webhook.test' });

    await card.getByTestId('wh-log-toggle').click();
    const row = card.locator('[data-testid="delivery-row"][data-event="webhook.test"]');
    await row.waitFor();
    await expect.poll(async () => row.getAttribute('data-status'), { timeout: 15_000 }).toBe('succeeded');
    expect(await row.getByTestId('delivery-code').textContent()).toBe('200');
    await page.locator('.toast').first().waitFor({ state: 'detached', timeout: 15_000 }).catch(() => undefined);
    await row.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SHOTS, 'webhooks-desktop.png') });

    const phone = await signIn(browser, rt, rt.adminEmail, PHONE);
    await phone.goto(`${rt.url.replace('localhost', '127.0.0.1')}/settings/integrations/webhooks`);
    await phone.getByTestId('wh-endpoint').first().waitFor();
    await phone.getByTestId('wh-endpoint').first().scrollIntoViewIfNeeded();
    await phone.screenshot({ path: join(SHOTS, 'webhooks-phone.png') });
    for (const [path, id] of [['zapier', 'zapier-page'], ['slack', 'slack-page']] as const) {
      await page.goto(`${rt.url.replace('localhost', '127.0.0.1')}/settings/integrations/${path}`);
      await page.getByTestId(id).waitFor();
      if (path === 'zapier') await page.getByTestId('rh-sample').waitFor();
      await page.setViewportSize(DESKTOP);
      await page.screenshot({ path: join(SHOTS, `${path}-desktop.png`) });
      await phone.goto(`${rt.url.replace('localhost', '127.0.0.1')}/settings/integrations/${path}`);
      await phone.getByTestId(id).waitFor();
      await phone.screenshot({ path: join(SHOTS, `${path}-phone.png`) });
    }
  }, 180_000);
});
