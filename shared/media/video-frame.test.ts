import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { hasFfmpeg, videoFrame } from './video-frame.ts';
import { thumbnailOf } from './media.ts';
import { testVideo } from '../../tests/factories/video.ts';

const ffmpeg = await hasFfmpeg();
if (!ffmpeg) console.warn('video-frame.test.ts: ffmpeg is not installed (apt-get install ffmpeg); the frame tests are skipped');

describe.skipIf(!ffmpeg)('video frames (ffmpeg)', () => {
  it('takes the frame at ~1 s of a video, and thumbnailOf makes it 120x80', async () => {
    const frame = await videoFrame(testVideo(2));
    expect(frame?.subarray(1, 4).toString()).toBe('PNG');
    expect(await sharp(frame!).metadata()).toMatchObject({ width: 320, height: 240 });
    const thumb = await thumbnailOf('video', testVideo(2));
    expect(await sharp(thumb!).metadata()).toMatchObject({ format: 'jpeg', width: 120, height: 80 });
  });

  it('takes the first frame of a clip shorter than 1 s', async () => {
    const frame = await videoFrame(testVideo(0.3));
    expect(await sharp(frame!).metadata()).toMatchObject({ width: 320, height: 240 });
  });

  it('answers undefined for bytes that are not a video', async () => {
    expect(await videoFrame(Buffer.from('not a video at all'))).toBeUndefined();
  });
});

describe('without ffmpeg', () => {
  it('answers undefined, never throws (the media is stored without a thumbnail)', async () => {
    const before = process.env.FFMPEG_PATH;
    process.env.FFMPEG_PATH = '/nonexistent/ffmpeg';
    try {
      expect(await videoFrame(Buffer.from('whatever'))).toBeUndefined();
      expect(await thumbnailOf('video', Buffer.from('whatever'))).toBeUndefined();
    } finally {
      if (before === undefined) delete process.env.FFMPEG_PATH;
      else process.env.FFMPEG_PATH = before;
    }
  });
});
