import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ulid } from 'ulid';
import { attachmentDisposition, type BlobPort } from '../../shared/ports/blobs.ts';

/**
 * The local blob adapter (architecture §3 'blobs (media)'): each object is a file under
 * `<dataDir>/blobs/data/<key>` with its content type in `<dataDir>/blobs/meta/<key>.json`, both
 * written to a temp file and renamed (a crash never leaves half a file; the data file is renamed
 * first, so a meta file always has its data).
 * `url()` stands in for an S3 presigned URL: `/media/<key>?exp=<epoch s>&sig=<hmac>` (plus
 * `dl=<filename>` for downloads), an HMAC-SHA256 under a secret made at each start, served by the
 * local gateway (`serve`), which refuses a wrong or expired signature with 403 like S3 does.
 * A restart therefore invalidates earlier URLs; they are short-lived anyway.
 * `uploadUrl()` stands in for a presigned S3 PUT: `/media-upload/<key>?exp&ct&max&sig`, answered by
 * `receive` (PUT with the signed content type; the body is streamed to a temp file and refused with
 * 413 past `max` bytes).
 */
export interface LocalBlobs extends BlobPort {
  /** Answer a gateway request for `/media/<rest>` (GET/HEAD with a valid signature). */
  serve(req: IncomingMessage, res: ServerResponse, rest: string, query: URLSearchParams): Promise<void>;
  /** Answer a gateway request for `/media-upload/<rest>` (PUT with a valid signature). */
  receive(req: IncomingMessage, res: ServerResponse, rest: string, query: URLSearchParams): Promise<void>;
  stop(): Promise<void>;
}

/** Segments of a key; refuses anything that could leave the blob folder. */
function segmentsOf(key: string): string[] {
  const parts = key.split('/');
  if (!key || parts.some((p) => p === '' || p === '.' || p === '..' || p.includes('\\') || p.includes('\0'))) throw new Error(`invalid blob key: ${key}`);
  return parts;
}

export async function startLocalBlobs(dataDir: string): Promise<LocalBlobs> {
  const root = resolve(dataDir, 'blobs');
  const dataRoot = join(root, 'data');
  const metaRoot = join(root, 'meta');
  await mkdir(dataRoot, { recursive: true });
  await mkdir(metaRoot, { recursive: true });
  const secret = randomBytes(32);

  const pathsOf = (key: string) => {
    const parts = segmentsOf(key);
    const data = join(dataRoot, ...parts);
    if (!data.startsWith(dataRoot + sep)) throw new Error(`invalid blob key: ${key}`);
    return { data, meta: `${join(metaRoot, ...parts)}.json` };
  };
  const writeAtomic = async (file: string, bytes: Uint8Array | string) => {
    await mkdir(dirname(file), { recursive: true });
    const tmp = `${file}.${ulid()}.tmp`;
    await writeFile(tmp, bytes);
    await rename(tmp, file);
  };
  const sign = (key: string, exp: number, dl: string) => createHmac('sha256', secret).update(`${key}\n${exp}\n${dl}`).digest('base64url');
  const signPut = (key: string, exp: number, ct: string, max: number) => createHmac('sha256', secret).update(`PUT\n${key}\n${exp}\n${ct}\n${max}`).digest('base64url');
  const deny = (res: ServerResponse, status: number, message: string) => {
    res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
    res.end(message);
  };

  const blobs: LocalBlobs = {
    async put(key, bytes, contentType) {
      const p = pathsOf(key);
      await writeAtomic(p.data, bytes);
      await writeAtomic(p.meta, JSON.stringify({ contentType, size: bytes.byteLength }));
    },
    async get(key) {
      const p = pathsOf(key);
      try {
        const [bytes, meta] = await Promise.all([readFile(p.data), readFile(p.meta, 'utf8')]);
        return { bytes: new Uint8Array(bytes), contentType: (JSON.parse(meta) as { contentType: string }).contentType };
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw e;
      }
    },
    async url(key, opts) {
      segmentsOf(key);
      const exp = Math.floor(Date.now() / 1000) + opts.expiresInS;
      const dl = opts.downloadAs ?? '';
      const q = new URLSearchParams({ exp: String(exp), ...(dl ? { dl } : {}), sig: sign(key, exp, dl) });
      return `/media/${key.split('/').map(encodeURIComponent).join('/')}?${q}`;
    },
    async head(key) {
      const p = pathsOf(key);
      try {
        const meta = JSON.parse(await readFile(p.meta, 'utf8')) as { contentType: string; size: number };
        return { size: meta.size, contentType: meta.contentType };
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw e;
      }
    },
    async uploadUrl(key, contentType, maxBytes, expiresInS) {
      segmentsOf(key);
      const exp = Math.floor(Date.now() / 1000) + expiresInS;
      const q = new URLSearchParams({ exp: String(exp), ct: contentType, max: String(maxBytes), sig: signPut(key, exp, contentType, maxBytes) });
      return `/media-upload/${key.split('/').map(encodeURIComponent).join('/')}?${q}`;
    },
    async receive(req, res, rest, query) {
      if (req.method !== 'PUT') return deny(res, 405, 'Method Not Allowed');
      let key: string;
      try {
        key = rest.split('/').map(decodeURIComponent).join('/');
        segmentsOf(key);
      } catch {
        return deny(res, 400, 'Bad Request');
      }
      const exp = Number(query.get('exp'));
      const max = Number(query.get('max'));
      const ct = query.get('ct') ?? '';
      const given = Buffer.from(query.get('sig') ?? '');
      const want = Buffer.from(signPut(key, exp, ct, max));
      if (!Number.isInteger(exp) || !Number.isInteger(max) || given.length !== want.length || !timingSafeEqual(given, want)) return deny(res, 403, 'Request has invalid signature');
      if (exp < Math.floor(Date.now() / 1000)) return deny(res, 403, 'Request has expired');
      // like S3: the signed content type must be the one sent
      if ((req.headers['content-type'] ?? '') !== ct) return deny(res, 403, 'The content-type header does not match the signature');
      if (Number(req.headers['content-length'] ?? 0) > max) {
        req.resume();
        return deny(res, 413, 'Your proposed upload exceeds the maximum allowed size');
      }
      const p = pathsOf(key);
      await mkdir(dirname(p.data), { recursive: true });
      const tmp = `${p.data}.${ulid()}.tmp`;
      const out = createWriteStream(tmp);
      let size = 0;
      const ok = await new Promise<boolean>((done, fail) => {
        req.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > max) {
            req.unpipe(out);
            req.resume();
            out.destroy();
            done(false);
          }
        });
        req.on('error', fail);
        out.on('error', fail);
        out.on('finish', () => done(size <= max));
        req.pipe(out);
      });
      if (!ok) {
        await rm(tmp, { force: true });
        return deny(res, 413, 'Your proposed upload exceeds the maximum allowed size');
      }
      await rename(tmp, p.data);
      await writeAtomic(p.meta, JSON.stringify({ contentType: ct, size }));
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
      res.end();
    },
    async delete(key) {
      const p = pathsOf(key);
      await rm(p.meta, { force: true });
      await rm(p.data, { force: true });
    },
    async serve(req, res, rest, query) {
      if (req.method !== 'GET' && req.method !== 'HEAD') return deny(res, 405, 'Method Not Allowed');
      let key: string;
      try {
        key = rest.split('/').map(decodeURIComponent).join('/');
        segmentsOf(key);
      } catch {
        return deny(res, 400, 'Bad Request');
      }
      const exp = Number(query.get('exp'));
      const dl = query.get('dl') ?? '';
      const given = Buffer.from(query.get('sig') ?? '');
      const want = Buffer.from(sign(key, exp, dl));
      const now = Math.floor(Date.now() / 1000);
      if (!Number.isInteger(exp) || given.length !== want.length || !timingSafeEqual(given, want)) return deny(res, 403, 'Request has invalid signature');
      if (exp < now) return deny(res, 403, 'Request has expired');
      const blob = await blobs.get(key);
      if (!blob) return deny(res, 404, 'Not Found');
      res.writeHead(200, {
        'content-type': blob.contentType,
        'content-length': String(blob.bytes.byteLength),
        'cache-control': `private, max-age=${exp - now}`,
        // customer files are never run as a page of this origin
        'x-content-type-options': 'nosniff',
        'content-security-policy': "default-src 'none'; sandbox",
        // issue 42 §4: a file is always a download, named when the URL was signed with a name
        'content-disposition': dl ? attachmentDisposition(dl) : 'attachment',
      });
      res.end(req.method === 'HEAD' ? undefined : blob.bytes);
    },
    async stop() {
      // every write is complete when put() resolves: nothing to flush
    },
  };
  return blobs;
}
