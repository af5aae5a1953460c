import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A small test video made by ffmpeg itself (lavfi testsrc, 320x240, 10 fps), as MP4 bytes (MP4 needs a seekable output: a temp file). */
export function testVideo(seconds: number): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'chorus-testsrc-'));
  try {
    const file = join(dir, 'clip.mp4');
    execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', `testsrc=duration=${seconds}:size=320x240:rate=10`, '-pix_fmt', 'yuv420p', file]);
    return readFileSync(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
