import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ArtifactStore } from '@ci/application';
import { DomainError } from '@ci/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3Server } from '../../../test/support/s3-server';
import { fileArtifactStore } from './file-store';
import { s3ArtifactStore } from './s3-store';

/** Both stores against the same behaviour: the files one here, the S3 one against a local s3rver. */

let s3: Awaited<ReturnType<typeof startS3Server>>;
const spoolDir = mkdtempSync(join(tmpdir(), 'ci-spool-'));
beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(async () => {
  await s3?.close();
});

const key = () => `${randomUUID()}/${randomUUID()}/${randomUUID()}`;
const sha1 = (bytes: Buffer) => createHash('sha1').update(bytes).digest('hex');
const body = (bytes: Buffer) =>
  (async function* () {
    yield bytes.subarray(0, 2);
    yield bytes.subarray(2);
  })();

const stores: Array<[string, () => ArtifactStore]> = [
  [
    'files',
    () =>
      fileArtifactStore({
        root: mkdtempSync(join(tmpdir(), 'ci-files-')),
        baseUrl: () => 'http://unused.invalid/v3/artifacts',
        secret: 'a secret of the test',
        urlTtlSeconds: 60,
      }),
  ],
  [
    's3',
    () =>
      s3ArtifactStore({
        bucket: s3.bucket,
        endpoint: s3.endpoint,
        region: 'us-east-1',
        forcePathStyle: true,
        credentials: s3.credentials,
        spoolDir,
        urlTtlSeconds: 60,
        prefix: 'ci/',
      }),
  ],
];

/** The bytes under `key`: through the store's own serving (files) or its presigned address (S3). */
async function read(store: ArtifactStore, name: string, target: string): Promise<Buffer | null> {
  const { url } = await store.downloadUrl({ key: target, filename: 'a.txt', mimeType: 'text/plain' });
  if (name === 'files') {
    const opened = await store.openSigned({
      key: target,
      query: Object.fromEntries(new URL(url).searchParams),
    });
    if (!opened) return null;
    const chunks: Buffer[] = [];
    for await (const chunk of opened.body) chunks.push(Buffer.from(chunk));
    return Buffer.concat(chunks);
  }
  const response = await fetch(url);
  if (response.status === 404) return null;
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('text/plain');
  return Buffer.from(await response.arrayBuffer());
}

describe.each(stores)('the %s store', (name, make) => {
  const bytes = Buffer.from('hello, artifacts');

  it('stores checked bytes under the key and serves them at a signed address', async () => {
    const store = make();
    const target = key();
    const stored = await store.put({
      key: target,
      body: body(bytes),
      maxBytes: 100,
      mimeType: 'text/plain',
      check: () => null,
    });
    expect(stored).toEqual({
      size: bytes.length,
      sha1: sha1(bytes),
      sha256: createHash('sha256').update(bytes).digest('hex'),
    });
    expect(await read(store, name, target)).toEqual(bytes);
  });

  it('keeps nothing when the check refuses, and throws its refusal', async () => {
    const store = make();
    const target = key();
    const refusal = new DomainError({ kind: 'unprocessable', code: 'artifact_mismatch', message: 'differs' });
    await expect(
      store.put({
        key: target,
        body: body(bytes),
        maxBytes: 100,
        mimeType: 'text/plain',
        check: () => refusal,
      }),
    ).rejects.toBe(refusal);
    expect(await read(store, name, target)).toBeNull();
  });

  it('stops reading past the limit with a payload_too_large refusal, keeping nothing', async () => {
    const store = make();
    const target = key();
    await expect(
      store.put({ key: target, body: body(bytes), maxBytes: 4, mimeType: 'text/plain', check: () => null }),
    ).rejects.toMatchObject({ kind: 'payload_too_large' });
    expect(await read(store, name, target)).toBeNull();
  });

  it('removes a key, and removing it again is no error', async () => {
    const store = make();
    const target = key();
    await store.put({
      key: target,
      body: body(bytes),
      maxBytes: 100,
      mimeType: 'text/plain',
      check: () => null,
    });
    await store.remove(target);
    await store.remove(target);
    expect(await read(store, name, target)).toBeNull();
  });
});

describe('the spool', () => {
  it('leaves no temporary file behind, whatever happened', () => {
    expect(readdirSync(spoolDir)).toEqual([]);
  });
});
