import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { log } from '../log.ts';

/**
 * One still frame of a video, for its 120x80 thumbnail (issue 5 'image/video thumbnails'): spawns
 * `ffmpeg` (Debian package `ffmpeg`; in Lambda a layer that puts it on PATH, or FFMPEG_PATH) to
 * grab the frame at ~1 s, or the first frame of a clip shorter than that, as PNG on stdout; sharp
 * then resizes it like an image (media.ts makeThumbnail). The video is written to a temporary file
 * first: MP4's index (moov) is often at the end, which a pipe cannot seek to.
 * Never throws: without ffmpeg (logged once) or for bytes it cannot decode, the answer is
 * undefined and the media is stored without a thumbnail.
 */

/** Seconds into the video of the frame we take (past a black first frame, like WhatsApp's previews). */
export const FRAME_AT_S = 1;
/** ffmpeg gets this long per attempt, ms. */
const TIMEOUT_MS = 20_000;
/** Largest PNG frame we accept from ffmpeg, bytes (a 4K frame is ~25 MB as PNG; we only need 120x80). */
const MAX_FRAME_BYTES = 64 * 1024 * 1024;

let missing = false;

const ffmpegPath = () => process.env.FFMPEG_PATH || 'ffmpeg';

/** Run ffmpeg; resolves with stdout (empty when it wrote no frame), or undefined when it failed. */
function run(args: string[]): Promise<Buffer | undefined> {
  return new Promise((resolve) => {
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(ffmpegPath(), args, { stdio: ['ignore', 'pipe', 'pipe'] });
    } catch (e) {
      missingOnce(e);
      resolve(undefined);
      return;
    }
    const out: Buffer[] = [];
    let size = 0;
    let err = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), TIMEOUT_MS);
    child.stdout!.on('data', (b: Buffer) => {
      size += b.length;
      if (size > MAX_FRAME_BYTES) child.kill('SIGKILL');
      else out.push(b);
    });
    child.stderr!.on('data', (b: Buffer) => {
      if (err.length < 2000) err += b.toString();
    });
    child.on('error', (e: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      if (e.code === 'ENOENT') missingOnce(e);
      else log('warn', 'media.video_frame_failed', { error: e.message });
      resolve(undefined);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0 && size <= MAX_FRAME_BYTES) resolve(Buffer.concat(out));
      else {
        if (!missing) log('warn', 'media.video_frame_failed', { code, error: err.trim().split('\n').slice(-2).join(' ') });
        resolve(undefined);
      }
    });
  });
}

function missingOnce(e: unknown): void {
  if (missing) return;
  missing = true;
  log('warn', 'media.video_thumbnails_unavailable', { reason: 'ffmpeg was not found; videos are stored without thumbnails', error: String((e as Error)?.message ?? e) });
}

/**
 * A PNG of the video's frame at FRAME_AT_S (the first frame when the clip is shorter).
 * @returns the PNG bytes, or undefined (no ffmpeg, not a decodable video)
 */
export async function videoFrame(bytes: Uint8Array): Promise<Buffer | undefined> {
  if (missing) return undefined;
  const dir = await mkdtemp(join(tmpdir(), 'chorus-frame-'));
  const file = join(dir, 'video');
  try {
    await writeFile(file, bytes);
    const grab = (seek: boolean) => run(['-hide_banner', '-loglevel', 'error', ...(seek ? ['-ss', String(FRAME_AT_S)] : []), '-i', file, '-frames:v', '1', '-an', '-f', 'image2pipe', '-vcodec', 'png', 'pipe:1']);
    const at = await grab(true);
    if (at?.length) return at;
    if (missing) return undefined;
    // shorter than FRAME_AT_S: ffmpeg seeks past the end and writes nothing; take the first frame
    const first = await grab(false);
    return first?.length ? first : undefined;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Is ffmpeg usable here? (tests skip what needs it, with a message) */
export async function hasFfmpeg(): Promise<boolean> {
  const out = await new Promise<boolean>((resolve) => {
    try {
      const c = spawn(ffmpegPath(), ['-version'], { stdio: 'ignore' });
      c.on('error', () => resolve(false));
      c.on('close', (code) => resolve(code === 0));
    } catch {
      resolve(false);
    }
  });
  return out;
}
