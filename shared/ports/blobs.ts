import { config } from '../config.ts';
import { AppError } from '../errors.ts';

/**
 * Blob port (architecture §3 'blobs (media)'): Amazon S3 with presigned GET URLs in AWS
 * (shared/blobs/s3.ts, bucket MEDIA_BUCKET), files under `<dataDir>/blobs/` served by the local
 * gateway at signed `/media/...` paths in the local runtime (scripts/local/blobs.ts), chosen at
 * start like the other ports. Keys are built by the domain (shared/media/media.rules.ts) and always
 * start with the org id's prefix, so one org's key never names another org's file.
 */
export interface Blob {
  bytes: Uint8Array;
  contentType: string;
}

export interface BlobUrlOptions {
  /** lifetime of the URL, seconds (S3 presigned URLs: 1 s .. 7 days) */
  expiresInS: number;
  /**
   * the name the browser saves the file under. Every URL is served with `Content-Disposition:
   * attachment` (issue 42 §4: a customer's file is never shown as a page), named when this is set
   */
  downloadAs?: string;
}

export interface BlobPort {
  /** Store (or replace) the object at `key`. */
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  /** @returns the object, or undefined when there is none */
  get(key: string): Promise<Blob | undefined>;
  /** A URL the browser can GET for a while without other credentials (presigned in S3, signed locally). */
  url(key: string, opts: BlobUrlOptions): Promise<string>;
  /** Size and content type of the object, without reading it; undefined when there is none. */
  head(key: string): Promise<{ size: number; contentType: string } | undefined>;
  /**
   * A URL the browser can PUT one file to for a while without other credentials, with the
   * `content-type` header `contentType` (the signature covers it). At most `maxBytes` are accepted:
   * S3 signs `content-length`, so the PUT must be exactly `maxBytes` long (callers pass the
   * declared size); the local store refuses a body past it with 413.
   */
  uploadUrl(key: string, contentType: string, maxBytes: number, expiresInS: number): Promise<string>;
  /** Remove the object; an unknown key is not an error. */
  delete(key: string): Promise<void>;
}

let port: BlobPort | undefined;

/** Install the adapter (the local runtime: its file store; undefined: back to the default). */
export function setBlobPort(p: BlobPort | undefined): void {
  port = p;
}

/**
 * The installed adapter, else S3 bucket MEDIA_BUCKET.
 * @throws AppError 503 media.unavailable when neither is configured
 */
export async function blobPort(): Promise<BlobPort> {
  if (port) return port;
  const bucket = config().MEDIA_BUCKET;
  if (!bucket) throw new AppError('media.unavailable', 'Media files are not available right now. Please try again later.', { status: 503 });
  const { s3BlobPort } = await import('../blobs/s3.ts');
  port = s3BlobPort(bucket);
  return port;
}

/** `Content-Disposition` value that makes a browser save the file as `filename` (RFC 6266 / 5987). */
export function attachmentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}
