import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { StoredContent } from '@ci/application';
import { DomainError } from '@ci/domain';

export interface Spooled extends StoredContent {
  /** the temporary file holding the bytes; the caller moves or removes it */
  file: string;
}

function tooLarge(maxBytes: number): DomainError {
  return new DomainError({
    kind: 'payload_too_large',
    code: 'artifact_too_large',
    message: `The upload is larger than its declared size or the limit of ${maxBytes} bytes`,
  });
}

/**
 * Writes `body` to a fresh file in `dir` while counting and hashing it, and stops (removing the file) as
 * soon as it passes `maxBytes`: an upload is checked whole before it becomes anyone's content.
 */
export async function spool(
  body: AsyncIterable<Uint8Array>,
  input: { dir: string; maxBytes: number },
): Promise<Spooled> {
  await mkdir(input.dir, { recursive: true });
  const file = join(input.dir, `${randomUUID()}.part`);
  const out = createWriteStream(file, { flags: 'wx', mode: 0o600 });
  const sha1 = createHash('sha1');
  const sha256 = createHash('sha256');
  let size = 0;
  const closed = new Promise<void>((resolve, reject) => {
    out.once('close', resolve);
    out.once('error', reject);
  });
  try {
    for await (const chunk of body) {
      size += chunk.byteLength;
      if (size > input.maxBytes) throw tooLarge(input.maxBytes);
      sha1.update(chunk);
      sha256.update(chunk);
      if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
    }
    out.end();
    await closed;
  } catch (error) {
    out.destroy();
    await closed.catch(() => {});
    await rm(file, { force: true });
    throw error;
  }
  return { file, size, sha1: sha1.digest('hex'), sha256: sha256.digest('hex') };
}
