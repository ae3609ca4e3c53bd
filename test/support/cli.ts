import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { ROOT } from './child-process';

/**
 * The CLI as a person runs it, from the bundle the tests' global setup builds (`tsdown.config.ts`): the
 * same sources as `pnpm cli`, without compiling them again for every command (a second each).
 */
export const CLI = [process.execPath, resolve(ROOT, 'apps/cli/dist/main.mjs')] as const;

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the CLI with `args` and the environment `env` (nothing else), to its end. */
export function runCli(args: readonly string[], env: NodeJS.ProcessEnv): Promise<CliRun> {
  const [node, main] = CLI;
  return new Promise((done) => {
    execFile(node, [main, ...args], { cwd: ROOT, env }, (error, stdout, stderr) =>
      done({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}
