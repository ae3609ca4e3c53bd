import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { JobApiError, UsageError } from '../job-api';
import type { JobCommand } from './index';
import { readStdin, stdinHasInput } from './job-input';

/** Where `pipeline upload` looks without a file: ours first, then the public agent's other names. */
export const DEFAULT_PIPELINE_FILES = [
  '.buildkite/pipeline.yml',
  '.buildkite/pipeline.yaml',
  '.buildkite/pipeline.json',
  'buildkite.yml',
  'buildkite.yaml',
  'buildkite.json',
  'buildkite/pipeline.yml',
  'buildkite/pipeline.yaml',
  'buildkite/pipeline.json',
];

/**
 * The server's bound on an upload (the domain's MAX_PIPELINE_UPLOAD_BYTES, also its default body limit):
 * a larger file is refused here, before its bytes are sent to be cut off.
 */
const MAX_UPLOAD_BYTES = 1024 * 1024;

const tooLarge = (source: string, bytes: number) =>
  new UsageError(
    `the pipeline from ${source} is too large to upload (${bytes} bytes; at most ${MAX_UPLOAD_BYTES})`,
  );

function pipelineText(file: string | undefined): { text: string; source: string } {
  if (file === '-' || (file === undefined && stdinHasInput())) return { text: readStdin(), source: 'stdin' };
  const path = file ?? DEFAULT_PIPELINE_FILES.find((candidate) => existsSync(candidate));
  if (!path) {
    throw new UsageError(
      `no pipeline file given and none found (looked for ${DEFAULT_PIPELINE_FILES.join(', ')})`,
    );
  }
  try {
    if (!statSync(path).isFile()) throw new UsageError(`${path} is not a file`);
    return { text: readFileSync(path, 'utf8'), source: path };
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`cannot read ${path}: ${(error as Error).message}`);
  }
}

/**
 * `pipeline upload [file]`: sends a pipeline (YAML or JSON; a file, stdin, or the first default file
 * found) to be added to the build after this job. The server interpolates it with the job's environment
 * and checks it whole: a bad one changes nothing and this command fails with the server's message.
 */
export const pipelineUpload: JobCommand = (program, api) => {
  const pipeline =
    program.commands.find((command) => command.name() === 'pipeline') ??
    program.command('pipeline').description("change the build's pipeline");
  pipeline
    .command('upload')
    .description('upload a pipeline (YAML or JSON) and add its steps to the build after this job')
    .argument('[file]', 'the pipeline file; - or a pipe reads stdin')
    .option('--replace', 'replace the rest of the pipeline: steps after this job that have not started go')
    .option('--dry-run', 'print the pipeline as it would be added (JSON), add nothing')
    .option('--no-interpolation', 'do not replace $VARIABLES with the job environment')
    .option('--job <id>', 'the job that adds the steps (default: $BUILDKITE_JOB_ID)')
    .action(
      async (
        file: string | undefined,
        options: { replace?: boolean; dryRun?: boolean; interpolation: boolean; job?: string },
      ) => {
        const { text, source } = pipelineText(file);
        if (text.trim() === '') throw new UsageError(`the pipeline from ${source} is empty`);
        if (Buffer.byteLength(text) > MAX_UPLOAD_BYTES) throw tooLarge(source, Buffer.byteLength(text));
        const client = api();
        let answer: { jobs: string[]; pipeline: unknown };
        try {
          answer = await client.call('POST', `/jobs/${options.job ?? client.jobId}/pipelines`, {
            uuid: randomUUID(),
            pipeline: text,
            replace: options.replace === true,
            dry_run: options.dryRun === true,
            no_interpolation: !options.interpolation,
          });
        } catch (error) {
          if (error instanceof JobApiError && error.status === 413) {
            throw tooLarge(source, Buffer.byteLength(text));
          }
          throw error;
        }
        if (options.dryRun) {
          process.stdout.write(`${JSON.stringify(answer.pipeline, null, 2)}\n`);
        } else {
          process.stderr.write(`Uploaded the pipeline from ${source}: ${answer.jobs.length} jobs added\n`);
        }
      },
    );
};
