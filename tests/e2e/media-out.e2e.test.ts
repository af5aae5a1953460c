import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import sharp from 'sharp';
import { type Browser, type Page } from 'playwright-core';
import { DESKTOP, SHOTS, signIn as signInAs, startE2E, stopE2E } from '../factories/browser.ts';
import type { TestRuntime } from '../factories/runtime.ts';
import { inboundText } from '../../shared/whatsapp/cloud/payloads.ts';
import { eventually } from '../factories/wait.ts';
import type { Message } from '../../shared/message/message.schemas.ts';

/**
 * Media out (issue 5) in Debian's Chromium: a member attaches a PNG from the composer, sees the
 * preview and the upload progress (the PUT is held back so the bar can be seen), cancels once,
 * sends it with a caption, and the image shows in the thread; WhatsApp (the Graph stand-in)
 * received the upload and an image message with its id. A type WhatsApp cannot send is refused
 * before any upload. Screenshots go to test-results/screenshots.
 */
let rt: TestRuntime;
let browser: Browser;
let adminToken: string;

/** Sign in through the login page (tests/factories/browser.ts). */
const signIn = (email: string, viewport = DESKTOP): Promise<Page> => signInAs(browser, rt, email, viewport);

beforeAll(async () => ({ rt, browser, adminToken } = await startE2E()));
afterAll(() => stopE2E({ browser, rt }));

describe('media out in the browser', () => {
  it('attaches a PNG, shows preview and progress, cancels, sends with a caption and shows the image', async () => {
    const wa = '15550601001';
    const chatId = `${wa}@c.us`;
    expect((await rt.postWebhook(inboundText(rt.phone, wa, 'Can you send me a photo of it?'))).status).toBe(200);
    await rt.idle();
    const png = await sharp({ create: { width: 320, height: 200, channels: 3, background: { r: 30, g: 160, b: 90 } } }).png().toBuffer();

    const page = await signIn(rt.adminEmail);
    const row = page.locator(`[data-testid="chat-row"][data-chat-id="${chatId}"]`);
    await row.waitFor({ timeout: 15_000 });
    await row.click();
    const thread = page.getByTestId('thread');
    await thread.getByTestId('message').first().waitFor({ timeout: 15_000 });

    // a type WhatsApp cannot send is refused before anything is uploaded
    await page.getByTestId('composer-file').setInputFiles({ name: 'notes.zip', mimeType: 'application/zip', buffer: Buffer.from('PK\u0003\u0004zip') });
    await expect.poll(() => page.getByTestId('composer-error').textContent()).toContain('is not a file type WhatsApp can send');
    expect(await page.getByTestId('attachment-preview').count()).toBe(0);

    await page.getByTestId('composer-file').setInputFiles({ name: 'plant.png', mimeType: 'image/png', buffer: png });
    const preview = page.getByTestId('attachment-preview');
    await preview.waitFor();
    expect(await preview.textContent()).toContain('plant.png');
    await preview.getByTestId('attachment-image').waitFor();
    await page.getByTestId('composer-input').fill('Here it is');

    // hold the PUT back so the progress bar (and Cancel) can be seen
    let release: () => void = () => undefined;
    let held = 0;
    await page.route('**/media-upload/**', async (route) => {
      held++;
      await new Promise<void>((r) => (release = r));
      await route.continue().catch(() => undefined);
    });
    await page.getByTestId('composer-send').click();
    await preview.getByTestId('attachment-progress').waitFor({ timeout: 10_000 });
    await eventually(async () => (held > 0 ? true : undefined), 10_000, 'the PUT started');
    await page.screenshot({ path: join(SHOTS, 'media-out-uploading.png') });
    await preview.getByTestId('attachment-cancel').click();
    release();
    await preview.getByTestId('attachment-remove').waitFor({ timeout: 10_000 }); // back to the preview, nothing sent
    expect(await page.getByTestId('composer-error').count()).toBe(0);
    expect(rt.graph.uploads.length).toBe(0);

    await page.unroute('**/media-upload/**');
    await page.getByTestId('composer-send').click();
    await preview.waitFor({ state: 'detached', timeout: 15_000 });

    // the bubble shows the image (thumbnail from GET …/media) with its caption
    const mine = thread.locator('[data-testid="message"][data-from-me="true"]').last();
    await mine.getByTestId('media-thumb').waitFor({ timeout: 15_000 });
    expect(await mine.textContent()).toContain('Here it is');
    await page.screenshot({ path: join(SHOTS, 'media-out-sent.png') });

    await rt.idle();
    const up = rt.graph.uploads.at(-1)!;
    expect(up).toMatchObject({ type: 'image/png', filename: 'plant.png' });
    expect(up.bytes.equals(png)).toBe(true);
    expect(rt.graph.sent.at(-1)!.body).toMatchObject({ type: 'image', image: { id: up.id, caption: 'Here it is' } });
    const r = await rt.api(adminToken, `/api/orgs/${rt.orgId}/chats/${encodeURIComponent(chatId)}/messages`);
    const stored = ((await r.json()) as { messages: Message[] }).messages.find((m) => m.from_me && m.message_type === 'image');
    expect(stored?.media).toMatchObject({ status: 'stored', filename: 'plant.png', mimetype: 'image/png', size: png.length });
    await page.context().close();
  });
});
