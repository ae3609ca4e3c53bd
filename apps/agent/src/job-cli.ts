/**
 * `ci-agent` (also on a job's PATH as `buildkite-agent`): the public agent's job subcommands, run from
 * inside a job against the agent API with the job's own token ({@link jobApiFromEnv}).
 */
import { pathToFileURL } from 'node:url';
import { Command, CommanderError } from 'commander';
import { AGENT_VERSION } from './agent';
import { type JobApi, JobApiError, jobApiFromEnv, UsageError } from './job-api';
import { JOB_COMMANDS } from './job-commands';

export function jobProgram(api: () => JobApi = () => jobApiFromEnv()): Command {
  const program = new Command('ci-agent')
    .description("a job's commands: they talk to the agent API with the job's own token")
    .version(AGENT_VERSION)
    .showHelpAfterError()
    .exitOverride();
  for (const add of JOB_COMMANDS) add(program, api);
  return program;
}

/** Runs argv (without node and script): answers the exit status; messages go to stderr. */
export async function runJobCommand(argv: string[]): Promise<number> {
  try {
    await jobProgram().parseAsync(argv, { from: 'user' });
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode;
    if (error instanceof JobApiError || error instanceof UsageError) {
      process.stderr.write(`ci-agent: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await runJobCommand(process.argv.slice(2));
}
