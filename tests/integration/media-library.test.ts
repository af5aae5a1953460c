import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { startTestRuntime, type TestRuntime } from '../factories/runtime.ts';
import { inboundImage, inboundMedia, newWamid } from '../../shared/whatsapp/cloud/payloads.ts';
import type { ListMediaResponse, MediaItem } from '../../shared/media/media.schemas.ts';

/**
 * The media library (issue 5 "Media viewer") against the real local runtime: inbound files are
 * stored by the media-download consumer, which writes a MediaItem row; GET /media lists them
 * newest first with filters (type, chat, date) and a cursor.
 */
let rt: TestRuntime;
let token: string;

const HOUR_S = 3600;
const now = Math.floor(Date.now() / 1000);
/** message times, epoch seconds: image1 (chat A), document (A), image2 (B), voice note (B) */
const T = { image1: now - 5 * HOUR_S, doc: now - 4 * HOUR_S, image2: now - 3 * HOUR_S, voice: now - 2 * HOUR_S };
const A = '15550410001';
const B = '15550410002';
const chatA = `${A}@c.us`;
const chatB = `${B}@c.us`;

const jpeg = (r: number) =>
  sharp({ create: { width: 320, height: 240, channels: 3, background: { r, g: 40, b: 90 } } })
    .jpeg()
    .toBuffer();

async function list(query: string, orgId = rt.orgId): Promise<{ status: number; body: ListMediaResponse & { error?: { code: string; details?: Array<{ field: string; reason: string }> } } }> {
  const r = await rt.api(token, `/api/orgs/${orgId}/media${query ? `?${query}` : ''}`);
  return { status: r.status, body: (await r.json()) as ListMediaResponse };
}
const names = (items: MediaItem[]) => items.map((i) => i.filename ?? i.message_type);

beforeAll(async () => {
  rt = await startTestRuntime();
  token = await rt.signIn(rt.adminEmail);
  rt.graph.addMedia('lib-img-1', await jpeg(200), 'image/jpeg');
  rt.graph.addMedia('lib-img-2', await jpeg(40), 'image/jpeg');
  rt.graph.addMedia('lib-doc', Buffer.from('quarterly numbers\n'), 'text/plain');
  rt.graph.addMedia('lib-voice', Buffer.from('not really opus, but undetectable bytes are accepted'), 'audio/ogg');
  const posts = [
    inboundImage(rt.phone, A, { id: 'lib-img-1', caption: 'first' }, { id: newWamid(), timestampS: T.image1, name: 'Asha' }),
    inboundMedia(rt.phone, A, 'document', { id: 'lib-doc', mime_type: 'text/plain', filename: 'report.txt' }, { id: newWamid(), timestampS: T.doc, name: 'Asha' }),
    inboundImage(rt.phone, B, { id: 'lib-img-2' }, { id: newWamid(), timestampS: T.image2, name: 'Bala' }),
    inboundMedia(rt.phone, B, 'audio', { id: 'lib-voice', mime_type: 'audio/ogg; codecs=opus', voice: true }, { id: newWamid(), timestampS: T.voice, name: 'Bala' }),
  ];
  for (const body of posts) expect((await rt.postWebhook(body)).status).toBe(200);
  await rt.idle();
});
afterAll(async () => rt?.cleanup());

describe('GET /api/orgs/{org_id}/media', () => {
  it('lists every stored file of the org newest first, with working short-lived URLs', async () => {
    const { status, body } = await list('');
    expect(status).toBe(200);
    expect(body.items.map((i) => i.message_type)).toEqual(['ptt', 'image', 'document', 'image']);
    expect(body.items.map((i) => i.timestamp)).toEqual([T.voice, T.image2, T.doc, T.image1].map((s) => s * 1000));
    expect(body.cursor).toBeNull();

    const [voice, image2, doc, image1] = body.items;
    expect(voice).toMatchObject({ chat_id: chatB, chat_name: 'Bala', from_me: false, thumbnail_url: null });
    expect(doc).toMatchObject({ chat_id: chatA, filename: 'report.txt', mimetype: 'text/plain', size: 18, thumbnail_url: null });
    expect(image1).toMatchObject({ chat_id: chatA, caption: 'first', mimetype: 'image/jpeg' });
    expect(image2.thumbnail).toMatch(/thumbnail\/120x80\.jpg$/);

    const file = await fetch(`${rt.url}${doc.url}`);
    expect(file.status).toBe(200);
    expect(await file.text()).toBe('quarterly numbers\n');
    expect((await fetch(`${rt.url}${image1.thumbnail_url}`)).status).toBe(200);
  });

  it('filters by type, by chat, by both, and by date range', async () => {
    expect((await list('type=image')).body.items.map((i) => i.timestamp)).toEqual([T.image2 * 1000, T.image1 * 1000]);
    expect(names((await list('type=document')).body.items)).toEqual(['report.txt']);
    expect(names((await list('type=ptt')).body.items)).toEqual(['ptt']);
    expect((await list('type=video')).body).toEqual({ items: [], cursor: null });

    const a = (await list(`chat_id=${encodeURIComponent(chatA)}`)).body.items;
    expect(a.map((i) => [i.chat_id, i.message_type])).toEqual([[chatA, 'document'], [chatA, 'image']]);
    const aImages = (await list(`chat_id=${encodeURIComponent(chatA)}&type=image`)).body.items;
    expect(aImages.map((i) => i.caption)).toEqual(['first']);

    // inclusive on both ends, to the millisecond
    const range = (await list(`from=${T.doc * 1000}&to=${T.image2 * 1000}`)).body.items;
    expect(range.map((i) => i.message_type)).toEqual(['image', 'document']);
    const ranged = (await list(`type=image&from=${(T.image1 - 60) * 1000}&to=${(T.doc) * 1000}`)).body.items;
    expect(ranged.map((i) => i.caption)).toEqual(['first']);
    expect((await list(`chat_id=${encodeURIComponent(chatB)}&from=${T.voice * 1000 + 1}`)).body.items).toEqual([]);
  });

  it('pages with a cursor, unfiltered and filtered, without repeats or gaps', async () => {
    const all = (await list('')).body.items.map((i) => i.unique_id);
    for (const filter of ['', 'type=image&', `chat_id=${encodeURIComponent(chatB)}&`]) {
      const expected = (await list(filter.replace(/&$/, ''))).body.items.map((i) => i.unique_id);
      const seen: string[] = [];
      let cursor: string | null = null;
      for (let n = 0; n < 10; n++) {
        const { status, body } = await list(`${filter}limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
        expect(status).toBe(200);
        expect(body.items.length).toBeLessThanOrEqual(1);
        seen.push(...body.items.map((i) => i.unique_id));
        cursor = body.cursor;
        if (!cursor) break;
      }
      expect(cursor).toBeNull();
      expect(seen).toEqual(expected);
    }
    expect(all).toHaveLength(4);
  });

  it('answers 404 for another org and 400 with field reasons for bad input', async () => {
    expect((await list('', 'org_someone_else')).status).toBe(404);
    for (const [query, field] of [
      ['limit=0', 'limit'],
      ['limit=201', 'limit'],
      ['limit=ten', 'limit'],
      ['type=sticker', 'type'],
      ['from=yesterday', 'from'],
      [`from=${T.voice * 1000}&to=${T.image1 * 1000}`, 'from'],
      ['cursor=not-a-cursor', 'cursor'],
    ] as const) {
      const { status, body } = await list(query);
      expect(status, query).toBe(400);
      // query fields are named `query.<field>` by the handler; the cursor check is the domain's
      expect(body.error?.details?.map((d) => d.field.replace(/^query\./, '')), query).toContain(field);
    }
    expect((await list('limit=200')).status).toBe(200);
  });

  it('lists a member\'s sent file too, once the message is stored', async () => {
    const enc = encodeURIComponent;
    const bytes = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
    const up = await rt.api(token, `/api/orgs/${rt.orgId}/chats/${enc(chatA)}/uploads`, { method: 'POST', json: { filename: 'quote.pdf', mimetype: 'application/pdf', size: bytes.length } });
    expect(up.status).toBe(201);
    const u = (await up.json()) as { upload_url: string; key: string; headers: Record<string, string> };
    expect((await fetch(`${rt.url}${u.upload_url}`, { method: 'PUT', headers: u.headers, body: new Uint8Array(bytes) })).status).toBe(200);
    const sent = await rt.api(token, `/api/orgs/${rt.orgId}/chats/${enc(chatA)}/messages`, { method: 'POST', json: { media: { key: u.key, filename: 'quote.pdf', mimetype: 'application/pdf' }, caption: 'Your quote' } });
    expect(sent.status).toBe(201);
    const { message } = (await sent.json()) as { message: { unique_id: string } };
    await rt.idle();

    const docs = (await list('type=document')).body.items;
    expect(docs.map((d) => d.filename)).toEqual(['quote.pdf', 'report.txt']);
    expect(docs[0]).toMatchObject({ unique_id: message.unique_id, chat_id: chatA, chat_name: 'Asha', from_me: true, author: rt.adminEmail, caption: 'Your quote', size: bytes.length });
    expect((await list(`chat_id=${enc(chatA)}`)).body.items.map((i) => i.message_type)).toEqual(['document', 'document', 'image']);
  });
});
