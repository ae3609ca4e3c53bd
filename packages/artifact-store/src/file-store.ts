import { createReadStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { ArtifactStore } from '@ci/application';
import { signDownload, verifyDownload } from './signed-url';
import { spool } from './spool';

const KEY = /^[0-9a-f-]{36}\/[0-9a-f-]{36}\/[0-9a-f-]{36}$/;

/**
 * Artifacts as files under `root` (by default `DATA_DIR/artifacts`), each at its key. An upload is spooled
 * to `root/.incoming` and renamed into place once checked (a rename within one file system is atomic),
 * and this server serves downloads itself at `baseUrl/<key>` with a signed query string.
 */
export function fileArtifactStore(options: {
  root: string;
  /** where the served downloads are: `<api>/v3/artifacts` (read each time: a test server learns its port late) */
  baseUrl: () => string;
  secret: string;
  urlTtlSeconds: number;
  now?: () => Date;
}): ArtifactStore {
  const now = options.now ?? (() => new Date());
  const pathOf = (key: string) => {
    // Keys are ids only (artifactKey); anything else is refused before it reaches the file system.
    if (!KEY.test(key)) throw new Error(`Not an artifact key: ${key}`);
    return join(options.root, key);
  };
  return {
    async put(input) {
      const target = pathOf(input.key);
      const spooled = await spool(input.body, {
        dir: join(options.root, '.incoming'),
        maxBytes: input.maxBytes,
      });
      try {
        const problem = input.check(spooled);
        if (problem) throw problem;
        await mkdir(dirname(target), { recursive: true });
        await rename(spooled.file, target);
      } finally {
        await rm(spooled.file, { force: true });
      }
      const { file: _file, ...stored } = spooled;
      return stored;
    },

    async remove(key) {
      await rm(pathOf(key), { force: true });
    },

    async downloadUrl(input) {
      const expiresAt = new Date(now().getTime() + options.urlTtlSeconds * 1000);
      const query = signDownload(options.secret, input.key, { expiresAt, ...input });
      return { url: `${options.baseUrl()}/${input.key}?${query}`, expiresAt };
    },

    async openSigned(input) {
      if (!KEY.test(input.key)) return null;
      const fields = verifyDownload(options.secret, input.key, input.query, now());
      if (!fields) return null;
      const file = pathOf(input.key);
      const size = await stat(file).then(
        (stats) => stats.size,
        () => null,
      );
      if (size === null) return null;
      return { body: createReadStream(file), size, mimeType: fields.type, filename: fields.filename };
    },
  };
}
