import { chatSegment } from '../../shared/media/media.rules.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { startTestRuntime, type TestRuntime } from '../factories/runtime.ts';
import { testVideo } from '../factories/video.ts';
import { inboundMedia, inboundText } from '../../shared/whatsapp/cloud/payloads.ts';
import { hasFfmpeg } from '../../shared/media/video-frame.ts';
import type { Message } from '../../shared/message/message.schemas.ts';
import type { CreateUploadResponse, MediaUrlResponse } from '../../shared/media/media.schemas.ts';

/**
 * Video thumbnails (issue 5): an inbound video (Graph stand-in) and a member's uploaded video both
 * get a 120x80 JPEG thumbnail from a frame ffmpeg grabs; the videos are made by ffmpeg itself.
 */
const ffmpeg = await hasFfmpeg();
if (!ffmpeg) console.warn('video-thumbnails.test.ts: ffmpeg is not installed (apt-get install ffmpeg); skipped');

let rt: TestRuntime;
let token: string;
const enc = encodeURIComponent;

const api = async <T>(path: string, init?: { method?: string; json?: unknown }) => {
  const r = await rt.api(token, `/api/orgs/${rt.orgId}${path}`, init);
  return { status: r.status, body: (await r.json()) as T };
};
const messages = async (chat: string) => (await api<{ messages: Message[] }>(`/chats/${enc(chat)}/messages`)).body.messages;

async function thumbnailSize(chatId: string, uniqueId: string): Promise<[string | undefined, number | undefined, number | undefined]> {
  const { body } = await api<MediaUrlResponse>(`/chats/${enc(chatId)}/messages/${uniqueId}/media`);
  expect(body.thumbnail_url).toBeTruthy();
  const thumb = await fetch(`${rt.url}${body.thumbnail_url}`);
  const meta = await sharp(Buffer.from(await thumb.arrayBuffer())).metadata();
  return [meta.format, meta.width, meta.height];
}

describe.skipIf(!ffmpeg)('video thumbnails', () => {
  beforeAll(async () => {
    rt = await startTestRuntime();
    token = await rt.signIn(rt.adminEmail);
  });
  afterAll(async () => rt?.cleanup());

  it('an inbound video is stored with a 120x80 thumbnail', async () => {
    const video = testVideo(2);
    rt.graph.addMedia('vid-1', video, 'video/mp4');
    await rt.postWebhook(inboundMedia(rt.phone, '15556120001', 'video', { id: 'vid-1', mime_type: 'video/mp4', caption: 'unboxing' }));
    await rt.idle();
    const m = (await messages('15556120001@c.us')).find((x) => x.message_type === 'video')!;
    expect(m.media).toMatchObject({ status: 'stored', mimetype: 'video/mp4', size: video.length });
    expect(m.media?.thumbnail).toBe(`media/${rt.orgId}/${chatSegment('15556120001@c.us')}/${m.unique_id}/thumbnail/120x80.jpg`);
    expect(await thumbnailSize('15556120001@c.us', m.unique_id)).toEqual(['jpeg', 120, 80]);
    // the media library row carries it too
    const lib = await api<{ items: Array<{ unique_id: string; thumbnail_url: string | null }> }>(`/media?type=video`);
    expect(lib.body.items.find((i) => i.unique_id === m.unique_id)?.thumbnail_url).toBeTruthy();
  });

  it("a member's video (shorter than 1 s: the first frame) gets one too", async () => {
    await rt.postWebhook(inboundText(rt.phone, '15556120002', 'send the clip'));
    await rt.idle();
    const chat = '15556120002@c.us';
    const video = testVideo(0.4);
    const up = await api<CreateUploadResponse>(`/chats/${enc(chat)}/uploads`, { method: 'POST', json: { filename: 'clip.mp4', mimetype: 'video/mp4', size: video.length } });
    expect(up.status).toBe(201);
    expect((await fetch(`${rt.url}${up.body.upload_url}`, { method: 'PUT', headers: up.body.headers, body: new Uint8Array(video) })).status).toBe(200);
    const sent = await api<{ message: Message }>(`/chats/${enc(chat)}/messages`, { method: 'POST', json: { media: { key: up.body.key, filename: 'clip.mp4', mimetype: 'video/mp4' } } });
    expect(sent.status).toBe(201);
    expect(sent.body.message).toMatchObject({ message_type: 'video', media: { thumbnail: `media/${rt.orgId}/${chatSegment(chat)}/${sent.body.message.unique_id}/thumbnail/120x80.jpg` } });
    expect(await thumbnailSize(chat, sent.body.message.unique_id)).toEqual(['jpeg', 120, 80]);
  });
});
