import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { lstat, mkdir, readdir, realpath, rename, rm } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { artifactGlob, artifactPath, globBase } from '@ci/domain';
import type { Command } from 'commander';
import { type JobApi, UsageError } from '../job-api';
import type { JobCommand } from '.';

/** How many files one declaration batch holds, and how many uploads run at once. */
const BATCH = 100;
const CONCURRENCY = 4;

interface FoundFile {
  /** relative to the working directory, `/`-separated: the artifact's path */
  path: string;
  file: string;
  glob: string;
}

const inside = (root: string, target: string) => target === root || target.startsWith(`${root}${sep}`);

/**
 * The files the globs (`;`-separated, as the public agent takes them) match under `cwd`. A glob that
 * reaches outside `cwd` (`..`, an absolute path elsewhere) is refused, and so is a match whose real path
 * (through symbolic links) lies outside it.
 */
export async function findArtifactFiles(cwd: string, globs: readonly string[]): Promise<FoundFile[]> {
  const root = await realpath(cwd);
  const found = new Map<string, FoundFile>();
  for (const raw of globs
    .flatMap((glob) => glob.split(';'))
    .map((glob) => glob.trim())
    .filter(Boolean)) {
    const absolute = resolve(root, raw);
    if (!inside(root, absolute)) {
      throw new UsageError(
        `"${raw}" is outside the job's working directory (${root}): artifacts must be inside it`,
      );
    }
    const glob = relative(root, absolute).split(sep).join('/');
    const pattern = artifactGlob(glob);
    const walk = async (folder: string): Promise<void> => {
      const entries = await readdir(join(root, folder), { withFileTypes: true }).catch(() => []);
      for (const entry of entries) {
        const path = folder ? `${folder}/${entry.name}` : entry.name;
        if (entry.isDirectory()) await walk(path);
        else if ((entry.isFile() || entry.isSymbolicLink()) && pattern.test(path)) {
          const file = join(root, path);
          const real = await realpath(file).catch(() => null);
          if (!real || !inside(root, real)) {
            throw new UsageError(`"${path}" leads outside the job's working directory: not uploaded`);
          }
          if ((await lstat(real)).isFile()) found.set(path, { path, file: real, glob: raw });
        }
      }
    };
    await walk(globBase(glob));
  }
  return [...found.values()].sort((a, b) => a.path.localeCompare(b.path));
}

async function digests(file: string) {
  const sha1 = createHash('sha1');
  const sha256 = createHash('sha256');
  let size = 0;
  for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) {
    size += chunk.length;
    sha1.update(chunk);
    sha256.update(chunk);
  }
  return { size, sha1: sha1.digest('hex'), sha256: sha256.digest('hex') };
}

async function inParallel<T>(items: readonly T[], work: (item: T) => Promise<void>) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++] as T);
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, items.length) }, worker));
}

/**
 * Uploads the files the globs match: declares them in batches (sizes and checksums), then sends each
 * one's bytes; the server keeps only bytes that match. Answers the uploaded paths.
 */
export async function uploadArtifacts(
  api: JobApi,
  input: { cwd: string; globs: readonly string[]; log: (line: string) => void },
): Promise<string[]> {
  const files = await findArtifactFiles(input.cwd, input.globs);
  if (files.length === 0) {
    input.log(`no files match ${input.globs.join(';')}`);
    return [];
  }
  for (let start = 0; start < files.length; start += BATCH) {
    const batch = files.slice(start, start + BATCH);
    const declared = await Promise.all(
      batch.map(async (found) => {
        const { size, sha1, sha256 } = await digests(found.file);
        return {
          found,
          body: {
            path: found.path,
            glob_path: found.glob,
            file_size: size,
            sha1sum: sha1,
            sha256sum: sha256,
          },
        };
      }),
    );
    const created = await api.call<{ artifact_ids: string[] }>('POST', `/jobs/${api.jobId}/artifacts`, {
      artifacts: declared.map((item) => item.body),
    });
    await inParallel(
      declared.map((item, index) => ({ ...item, id: created.artifact_ids[index] as string })),
      async ({ found, id }) => {
        try {
          await api.transfer(
            'PUT',
            `/jobs/${api.jobId}/artifacts/${id}/data`,
            Readable.toWeb(createReadStream(found.file)) as ReadableStream,
          );
        } catch (error) {
          await api
            .call('PUT', `/jobs/${api.jobId}/artifacts`, { artifacts: [{ id, state: 'error' }] })
            .catch(() => {});
          throw error;
        }
        input.log(`uploaded ${found.path}`);
      },
    );
  }
  return files.map((found) => found.path);
}

interface SearchedArtifact {
  id: string;
  job_id: string;
  path: string;
  file_size: number;
  sha1sum: string;
  created_at: string;
  url: string;
}

interface SearchOptions {
  step?: string;
  build?: string;
}

async function search(api: JobApi, query: string, options: SearchOptions): Promise<SearchedArtifact[]> {
  const build = options.build ?? process.env.BUILDKITE_BUILD_ID;
  if (!build) throw new UsageError('no build: give --build or run inside a job (BUILDKITE_BUILD_ID)');
  const params = new URLSearchParams({ query, ...(options.step ? { step: options.step } : {}) });
  return api.call<SearchedArtifact[]>(
    'GET',
    `/builds/${encodeURIComponent(build)}/artifacts/search?${params}`,
  );
}

/**
 * Downloads each artifact the query finds into `destination`, at its path: written aside, checked against
 * its sha1sum, then renamed into place, so a failed download leaves no partial file.
 */
export async function downloadArtifacts(
  api: JobApi,
  input: { query: string; destination: string; options: SearchOptions; log: (line: string) => void },
): Promise<string[]> {
  const found = await search(api, input.query, input.options);
  if (found.length === 0) throw new UsageError(`no artifacts found for "${input.query}"`);
  const root = resolve(input.destination);
  await inParallel(found, async (artifact) => {
    const target = resolve(root, artifactPath(artifact.path));
    if (!inside(root, target)) throw new UsageError(`"${artifact.path}" would be written outside ${root}`);
    await mkdir(dirname(target), { recursive: true });
    const part = `${target}.${artifact.id}.part`;
    const response = await api.transfer('GET', artifact.url);
    const sha1 = createHash('sha1');
    try {
      await pipeline(
        Readable.fromWeb(response.body as import('node:stream/web').ReadableStream),
        async function* (source: AsyncIterable<Buffer>) {
          for await (const chunk of source) {
            sha1.update(chunk);
            yield chunk;
          }
        },
        createWriteStream(part),
      );
      if (sha1.digest('hex') !== artifact.sha1sum)
        throw new UsageError(`"${artifact.path}": the sha1sum differs`);
      await rename(part, target);
    } finally {
      await rm(part, { force: true });
    }
    input.log(`downloaded ${artifact.path}`);
  });
  return found.map((artifact) => artifact.path);
}

/** The public agent's `--format` placeholders. */
function formatted(format: string, artifact: SearchedArtifact): string {
  const values: Record<string, string> = {
    i: artifact.id,
    p: artifact.path,
    c: artifact.created_at,
    j: artifact.job_id,
    s: String(artifact.file_size),
    S: artifact.sha1sum,
    u: artifact.url,
  };
  return format.replace(/%([ipcjsSu])/g, (_match, key: string) => values[key] ?? '').replaceAll('\\n', '\n');
}

const withScope = (command: Command) =>
  command
    .option('--step <step>', "only this step's artifacts (its key, label or job id)")
    .option('--build <build>', "the build to search (default: this job's build, BUILDKITE_BUILD_ID)");

const stderr = (line: string) => process.stderr.write(`${line}\n`);

/** `artifact upload|download|search`, with the public agent's names and main flags. */
export const artifactCommands: JobCommand = (program, api) => {
  const artifact = program
    .command('artifact')
    .description("upload, download and search the build's artifacts");
  artifact
    .command('upload')
    .description(
      'upload the files the globs match (separate several with ;), relative to the working directory',
    )
    .argument('<paths...>', 'globs: *, **, ?, {a,b}')
    .action(async (paths: string[]) => {
      await uploadArtifacts(api(), { cwd: process.cwd(), globs: paths, log: stderr });
    });
  withScope(
    artifact
      .command('download')
      .description('download the artifacts the query finds into destination, at their paths')
      .argument('<query>', 'a glob over artifact paths')
      .argument('<destination>', 'a folder'),
  ).action(async (query: string, destination: string, options: SearchOptions) => {
    await downloadArtifacts(api(), { query, destination, options, log: stderr });
  });
  withScope(
    artifact
      .command('search')
      .description('print the artifacts the query finds')
      .argument('<query>', 'a glob over artifact paths')
      .option(
        '--format <format>',
        'per artifact: %i id, %p path, %c created, %j job, %s size, %S sha1, %u url',
        '%j %p %c\\n',
      ),
  ).action(async (query: string, options: SearchOptions & { format: string }) => {
    const found = await search(api(), query, options);
    if (found.length === 0) throw new UsageError(`no artifacts found for "${query}"`);
    for (const item of found) process.stdout.write(formatted(options.format, item));
  });
};
