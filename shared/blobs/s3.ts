import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { config } from '../config.ts';
import { attachmentDisposition, type BlobPort } from '../ports/blobs.ts';
import { traced } from '../tracing.ts';

/**
 * The S3 adapter of the blob port: one private bucket (block public access, SSE-S3; infra data
 * stack), read by browsers through presigned GET URLs only. `AWS_ENDPOINT_URL` (LocalStack, MinIO)
 * switches to path-style addressing, which such endpoints need.
 */
export function s3BlobPort(bucket: string): BlobPort {
  const { AWS_REGION, AWS_ENDPOINT_URL } = config();
  const s3 = traced(new S3Client({ region: AWS_REGION, endpoint: AWS_ENDPOINT_URL, forcePathStyle: Boolean(AWS_ENDPOINT_URL) }));
  return {
    async put(key, bytes, contentType) {
      await s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: bytes, ContentType: contentType }));
    },
    async get(key) {
      try {
        const res = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
        if (!res.Body) return undefined;
        return { bytes: await res.Body.transformToByteArray(), contentType: res.ContentType ?? 'application/octet-stream' };
      } catch (e) {
        if (e instanceof S3ServiceException && (e.name === 'NoSuchKey' || e.$metadata.httpStatusCode === 404)) return undefined;
        throw e;
      }
    },
    async url(key, opts) {
      const cmd = new GetObjectCommand({
        Bucket: bucket,
        Key: key,
        // issue 42 §4: a file is always a download (S3 sends what the signed URL asks for)
        ResponseContentDisposition: opts.downloadAs ? attachmentDisposition(opts.downloadAs) : 'attachment',
      });
      return getSignedUrl(s3, cmd, { expiresIn: opts.expiresInS });
    },
    async head(key) {
      try {
        const res = await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
        return { size: res.ContentLength ?? 0, contentType: res.ContentType ?? 'application/octet-stream' };
      } catch (e) {
        if (e instanceof S3ServiceException && (e.name === 'NotFound' || e.name === 'NoSuchKey' || e.$metadata.httpStatusCode === 404)) return undefined;
        throw e;
      }
    },
    async uploadUrl(key, contentType, maxBytes, expiresInS) {
      // a presigned PUT cannot say "at most": signing content-length makes S3 refuse any other size
      const cmd = new PutObjectCommand({ Bucket: bucket, Key: key, ContentType: contentType, ContentLength: maxBytes });
      return getSignedUrl(s3, cmd, { expiresIn: expiresInS, signableHeaders: new Set(['content-type', 'content-length']) });
    },
    async delete(key) {
      await s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
    },
  };
}
