import { createReadStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { ArtifactStore } from '@ci/application';
import pMemoize from 'p-memoize';
import { spool } from './spool';

export interface S3StoreOptions {
  bucket: string;
  /** an S3-compatible store's URL; absent: AWS itself */
  endpoint?: string;
  region: string;
  /** `bucket` in the path rather than the host name, as most S3-compatible stores want */
  forcePathStyle: boolean;
  /** absent: the SDK's own chain (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, profiles, roles) */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** where uploads are checked before they are sent */
  spoolDir: string;
  urlTtlSeconds: number;
  /** prepended to every key (`artifacts/`) */
  prefix: string;
  now?: () => Date;
}

/**
 * Artifacts in an S3-compatible bucket. An upload is spooled and checked first, then sent with one
 * PutObject (an object is whole or absent); downloads are presigned GET addresses of the store itself.
 */
export function s3ArtifactStore(options: S3StoreOptions): ArtifactStore {
  // The AWS SDK (~30 MB resident) is loaded on the first artifact call, not by every server that starts;
  // a failed load is tried again by the next call.
  const client = pMemoize(() => loadSdk(options));
  const now = options.now ?? (() => new Date());
  const objectKey = (key: string) => `${options.prefix}${key}`;
  return {
    async put(input) {
      const spooled = await spool(input.body, { dir: options.spoolDir, maxBytes: input.maxBytes });
      try {
        const problem = input.check(spooled);
        if (problem) throw problem;
        const { s3, PutObjectCommand } = await client();
        await s3.send(
          new PutObjectCommand({
            Bucket: options.bucket,
            Key: objectKey(input.key),
            Body: createReadStream(spooled.file),
            ContentLength: spooled.size,
            ContentType: input.mimeType,
          }),
        );
      } finally {
        await rm(spooled.file, { force: true });
      }
      const { file: _file, ...stored } = spooled;
      return stored;
    },

    async remove(key) {
      const { s3, DeleteObjectCommand } = await client();
      await s3.send(new DeleteObjectCommand({ Bucket: options.bucket, Key: objectKey(key) }));
    },

    async downloadUrl(input) {
      const expiresAt = new Date(now().getTime() + options.urlTtlSeconds * 1000);
      const { s3, GetObjectCommand, getSignedUrl } = await client();
      const url = await getSignedUrl(
        s3,
        new GetObjectCommand({
          Bucket: options.bucket,
          Key: objectKey(input.key),
          ResponseContentType: input.mimeType,
          ResponseContentDisposition: `attachment; filename="${input.filename.replace(/["\\\r\n]/g, '_')}"`,
        }),
        { expiresIn: options.urlTtlSeconds },
      );
      return { url, expiresAt };
    },

    // The store serves its own presigned addresses: nothing is served here.
    openSigned: async () => null,
  };
}

async function loadSdk(options: S3StoreOptions) {
  const [{ DeleteObjectCommand, GetObjectCommand, PutObjectCommand, S3Client }, { getSignedUrl }] =
    await Promise.all([import('@aws-sdk/client-s3'), import('@aws-sdk/s3-request-presigner')]);
  const s3 = new S3Client({
    region: options.region,
    forcePathStyle: options.forcePathStyle,
    ...(options.endpoint ? { endpoint: options.endpoint } : {}),
    ...(options.credentials ? { credentials: options.credentials } : {}),
    // Plain signed bodies: checksum trailers (aws-chunked) are not understood by every S3-compatible store.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  return { s3, DeleteObjectCommand, GetObjectCommand, PutObjectCommand, getSignedUrl };
}
