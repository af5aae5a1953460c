import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { type Browser, type Page } from 'playwright-core';
import { DESKTOP, PHONE, SHOTS, launchChromium, signIn } from '../factories/browser.ts';
import { startTestRuntime, type TestRuntime } from '../factories/runtime.ts';
import { db } from '../../shared/db/service.ts';
import { commitTransaction } from '../../shared/db/transaction.ts';
import { chatWriteItems, counterItems, type ChatRow } from '../../shared/chat/chat-write.ts';
import { mergeDeltas, type FolderCounts, type InboxState } from '../../shared/chat/chat-state.rules.ts';
import type { ChatLabel } from '../../shared/chat/chat.schemas.ts';

/**
 * Bulk actions on /list end to end, in Debian's Chromium: filter by a label, tick the loaded rows,
 * 'Select all 60 matching this filter', Label -> Priority with the progress bar showing, the summary,
 * the rows showing the label, Undo, and the phone layout. Screenshots (desktop 1440x900, phone
 * 390x844) go to test-results/screenshots.
 */
let rt: TestRuntime;
let browser: Browser;
let admin: string;
let batch: ChatLabel;
let vip: ChatLabel;
const N = 60;
const chatOf = (n: number) => `1555888${String(n).padStart(4, '0')}@c.us`;
const NAMES = ['Asha Rao', 'Bilal Khan', 'Chen Wei', 'Dara Okafor', 'Elena Petrova', 'Farah Said'];

const labelCount = async (labelId: string) => {
  const r = await rt.api(admin, `/api/orgs/${rt.orgId}/chats/counts`);
  return ((await r.json()) as { counts: Record<InboxState, FolderCounts> }).counts.open.labels[labelId] ?? 0;
};

beforeAll(async () => {
  rt = await startTestRuntime();
  browser = await launchChromium();
  admin = await rt.signIn(rt.adminEmail);
  const label = async (name: string, color: string) => {
    const r = await rt.api(admin, `/api/orgs/${rt.orgId}/labels`, { method: 'POST', json: { name, color } });
    expect(r.status).toBe(201);
    return ((await r.json()) as { label: ChatLabel }).label;
  };
  batch = await label('Spring sale', '#1f7a8c');
  vip = await label('Priority', '#c2410c');
  // N chats through the write path (rows, label rows, counters), 20 to a transaction
  const phone = (await db().entities.phone.query.byOrg({ org_id: rt.orgId }).go()).data[0]!;
  const base = Date.now() - 2 * 3_600_000;
  for (let from = 0; from < N; from += 20) {
    const now = Date.now();
    await commitTransaction((e) => {
      const items = [];
      let deltas: Record<string, number> = {};
      for (let n = from; n < from + 20; n++) {
        const row = {
          org_id: rt.orgId,
          chat_id: chatOf(n),
          chat_name: `${NAMES[n % NAMES.length]} ${n}`,
          chat_type: 'user',
          org_phone: phone.org_phone,
          phone_id: phone.phone_id,
          chat_org_phones: [phone.org_phone],
          latest_message_timestamp: base + n * 60_000,
          message_unread_count: n % 4 === 0 ? 2 : 0,
          unread_count: n % 4 === 0 ? { [phone.org_phone]: 2 } : {},
          label_ids: [batch.label_id],
        } as unknown as ChatRow;
        const w = chatWriteItems(e, null, row, now);
        items.push(...w.items);
        deltas = mergeDeltas(deltas, w.deltas);
      }
      return [...items, ...counterItems(e, rt.orgId, deltas)];
    });
  }
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await rt?.cleanup();
});

const gotoList = async (page: Page) => {
  await page.getByRole('link', { name: 'List' }).first().click();
  await page.getByTestId('list-page').waitFor();
};

describe('/list bulk actions', () => {
  it('labels every chat of a filter with live progress, then undoes it', async () => {
    const page = await signIn(browser, rt, rt.adminEmail, DESKTOP);
    await gotoList(page);
    const rows = page.getByTestId('list-row');
    await rows.first().waitFor();

    // filter: the label, 60 matching (from the counters), 50 loaded
    await page.getByTestId('list-filter-label').selectOption({ label: 'Spring sale' });
    await expect.poll(() => page.getByTestId('list-count').textContent(), { timeout: 10_000 }).toBe('60 chats');
    await expect.poll(() => rows.first().getAttribute('data-chat-id')).toBe(chatOf(N - 1));

    // tick the loaded rows, then every chat matching the filter
    await page.getByTestId('list-check-all').check();
    await page.getByTestId('list-select-all').click();
    expect(await page.getByTestId('bulk-selected').textContent()).toBe('All 60 selected');
    await page.screenshot({ path: join(SHOTS, 'list-selected-desktop.png') });

    // Label -> Priority: the progress bar shows while it runs
    await page.getByTestId('bulk-label').click();
    await page.getByTestId('bulk-label-menu').getByRole('menuitem', { name: 'Priority' }).click();
    const panel = page.getByTestId('bulk-job');
    await page.getByTestId('bulk-progress').waitFor({ timeout: 5_000 });
    await page.screenshot({ path: join(SHOTS, 'list-progress-desktop.png') });

    // the summary, and the rows carry the label
    await expect.poll(() => page.getByTestId('bulk-job-summary').textContent(), { timeout: 30_000 }).toBe('Labelled 60 chats');
    expect(await panel.getAttribute('data-status')).toBe('done');
    await expect.poll(() => rows.first().getByTestId('list-row-labels').textContent(), { timeout: 10_000 }).toContain('Priority');
    expect(await labelCount(vip.label_id)).toBe(N);
    await page.screenshot({ path: join(SHOTS, 'list-summary-desktop.png') });

    // Undo puts the labels back as they were
    await page.getByTestId('bulk-undo').click();
    await expect.poll(() => page.getByTestId('bulk-job-summary').textContent(), { timeout: 30_000 }).toBe('Undid labelling of 60 chats');
    expect(await page.getByTestId('bulk-undo').count()).toBe(0);
    await expect.poll(() => rows.first().getByTestId('list-row-labels').textContent(), { timeout: 10_000 }).not.toContain('Priority');
    expect(await labelCount(vip.label_id)).toBe(0);
    await page.context().close();
  });

  it('fits a phone', async () => {
    const page = await signIn(browser, rt, rt.adminEmail, PHONE, { touch: true });
    await page.goto(`${new URL(page.url()).origin}/list`);
    await page.getByTestId('list-row').first().waitFor();
    await page.getByTestId('list-row-check').nth(1).check();
    await page.getByTestId('bulk-bar').waitFor();
    // nothing wider than the screen
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await page.screenshot({ path: join(SHOTS, 'list-phone.png') });
    await page.context().close();
  });
});
