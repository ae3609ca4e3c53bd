import { CommanderError } from 'commander';
import { JobApiError, UsageError } from '../job-api';
import type { JobCommand } from './index';
import { readStdin, stdinHasInput } from './job-input';

/** What `meta-data exists` exits with when the key is not set (the public agent's status). */
const NOT_SET_STATUS = 100;

/**
 * `meta-data set|get|exists|keys`: the build's meta-data, which every job of the build shares (and REST
 * shows as the build's `meta_data`). `set` reads the value from stdin when it is not given.
 */
export const metaData: JobCommand = (program, api) => {
  const group = program.command('meta-data').description("the build's meta-data, shared by its jobs");
  const jobOption = [
    '--job <id>',
    "the job whose build's meta-data is meant (default: $BUILDKITE_JOB_ID)",
  ] as const;
  const jobOf = (options: { job?: string }) => {
    const client = api();
    return { client, job: options.job ?? client.jobId };
  };

  group
    .command('set')
    .description('set a key to a value (from stdin when no value is given)')
    .argument('<key>')
    .argument('[value]')
    .option(...jobOption)
    .action(async (key: string, value: string | undefined, options: { job?: string }) => {
      let text = value;
      if (text === undefined) {
        if (!stdinHasInput()) throw new UsageError('no value given, and nothing on stdin');
        text = readStdin();
      }
      const { client, job } = jobOf(options);
      await client.call('POST', `/jobs/${job}/data/set`, { key, value: text });
    });

  group
    .command('get')
    .description("print a key's value")
    .argument('<key>')
    .option('--default <value>', 'print this when the key is not set')
    .option(...jobOption)
    .action(async (key: string, options: { job?: string; default?: string }) => {
      const { client, job } = jobOf(options);
      try {
        const answer = await client.call<{ value: string }>('POST', `/jobs/${job}/data/get`, { key });
        process.stdout.write(answer.value);
      } catch (error) {
        if (!(error instanceof JobApiError && error.status === 404 && options.default !== undefined))
          throw error;
        process.stdout.write(options.default);
      }
    });

  group
    .command('exists')
    .description(`exit 0 when the key is set, ${NOT_SET_STATUS} when it is not`)
    .argument('<key>')
    .option(...jobOption)
    .action(async (key: string, options: { job?: string }) => {
      const { client, job } = jobOf(options);
      const answer = await client.call<{ exists: boolean }>('POST', `/jobs/${job}/data/exists`, { key });
      if (!answer.exists) throw new CommanderError(NOT_SET_STATUS, 'ci-agent.metaDataNotSet', '');
    });

  group
    .command('keys')
    .description('print every key, one a line')
    .option(...jobOption)
    .action(async (options: { job?: string }) => {
      const { client, job } = jobOf(options);
      const keys = await client.call<string[]>('POST', `/jobs/${job}/data/keys`);
      for (const key of keys) process.stdout.write(`${key}\n`);
    });
};
