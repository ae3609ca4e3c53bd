import { type Command, Option } from 'commander';
import { UsageError } from '../job-api';
import type { JobCommand } from './index';

/** As the public agent: a body larger than this is refused before it is sent. */
const MAX_BODY_BYTES = 1024 * 1024;

async function readStdin(): Promise<string> {
  // A terminal is not a body: as the public agent, only piped input is read.
  if (process.stdin.isTTY) return '';
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const contextOption = () =>
  new Option(
    '--context <context>',
    'the annotation to write: the same context replaces it (default "default")',
  ).env('BUILDKITE_ANNOTATION_CONTEXT');

/** `annotate [body]` and `annotation remove`: the public agent's commands on the job's build. */
export const annotationCommands: JobCommand = (program: Command, api) => {
  program
    .command('annotate')
    .description("annotate the job's build with Markdown: the body, or stdin when none is given")
    .argument('[body]', 'the Markdown body')
    .addOption(
      new Option('--style <style>', 'success, info, warning or error').env('BUILDKITE_ANNOTATION_STYLE'),
    )
    .addOption(contextOption())
    .addOption(
      new Option('--append', "add the body to the context's annotation").env('BUILDKITE_ANNOTATION_APPEND'),
    )
    .addOption(
      new Option('--priority <priority>', 'from 1 to 10 (default 3)').env('BUILDKITE_ANNOTATION_PRIORITY'),
    )
    .action(
      async (
        body: string | undefined,
        options: { style?: string; context?: string; append?: boolean | string; priority?: string },
      ) => {
        const text = body ?? (await readStdin());
        const size = Buffer.byteLength(text);
        if (size > MAX_BODY_BYTES) {
          throw new UsageError(`annotation body size (${size}B) exceeds maximum (${MAX_BODY_BYTES}B)`);
        }
        let priority: number | undefined;
        if (options.priority !== undefined) {
          priority = Number(options.priority);
          if (!Number.isInteger(priority))
            throw new UsageError('--priority must be a whole number from 1 to 10');
        }
        const job = api();
        await job.call('POST', `/jobs/${encodeURIComponent(job.jobId)}/annotations`, {
          body: text,
          ...(options.style ? { style: options.style } : {}),
          ...(options.context ? { context: options.context } : {}),
          append: options.append === true || options.append === 'true',
          ...(priority !== undefined ? { priority } : {}),
        });
      },
    );

  program
    .command('annotation')
    .description("change the job's build's annotations")
    .command('remove')
    .description('remove an annotation of the build')
    .addOption(contextOption().default('default'))
    .action(async (options: { context: string }) => {
      const job = api();
      await job.call(
        'DELETE',
        `/jobs/${encodeURIComponent(job.jobId)}/annotations/${encodeURIComponent(options.context)}`,
      );
    });
};
