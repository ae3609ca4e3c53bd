import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ArtifactSettings } from '@ci/application';
import { fileArtifactStore, s3ArtifactStore } from '@ci/artifact-store';
import type { ServerConfig } from './config';

/**
 * The key that signs the download addresses this server serves: ARTIFACT_URL_SECRET, else one made once
 * and kept beside the artifacts, so every process sharing that folder signs alike.
 */
async function urlSecret(config: ServerConfig['artifacts']): Promise<string> {
  if (config.urlSecret) return config.urlSecret;
  const file = join(config.dir, '.url-secret');
  await mkdir(config.dir, { recursive: true });
  try {
    await writeFile(file, randomBytes(32).toString('base64url'), { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return (await readFile(file, 'utf8')).trim();
}

/**
 * The artifact store the configuration names: an S3-compatible bucket, or files under the data
 * directory served by this server at `<api>/v3/artifacts/…` (`apiUrl` is read when an address is made).
 */
export async function artifactSettings(
  config: ServerConfig['artifacts'],
  apiUrl: () => string,
): Promise<ArtifactSettings> {
  const spoolDir = join(config.dir, '.incoming');
  const store = config.s3
    ? s3ArtifactStore({
        bucket: config.s3.bucket,
        ...(config.s3.endpoint ? { endpoint: config.s3.endpoint } : {}),
        region: config.s3.region,
        forcePathStyle: config.s3.forcePathStyle,
        prefix: config.s3.prefix,
        spoolDir,
        urlTtlSeconds: config.urlTtlSeconds,
      })
    : fileArtifactStore({
        root: config.dir,
        baseUrl: () => `${apiUrl()}/v3/artifacts`,
        secret: await urlSecret(config),
        urlTtlSeconds: config.urlTtlSeconds,
      });
  return { store, maxBytes: config.maxBytes };
}
