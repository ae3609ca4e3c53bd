import { existsSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { z } from 'zod';

/**
 * The repository root: the default home of the embedded database, whichever app starts it. Found by
 * its pnpm-workspace.yaml, since this module runs from its source folder or from a bundle elsewhere.
 */
const ROOT = findRepositoryRoot(import.meta.dirname);

function findRepositoryRoot(from: string): string {
  for (let dir = from; dirname(dir) !== dir; dir = dirname(dir)) {
    if (existsSync(join(dir, 'pnpm-workspace.yaml'))) return dir;
  }
  throw new Error(`no pnpm-workspace.yaml above ${from}: the repository root is unknown`);
}

const DatabaseEnv = z.object({
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
  DATA_DIR: z.string().min(1).default('.data'),
  EMBEDDED_PG_PORT: z.coerce.number().int().min(1).max(65535).default(54320),
});

export interface DatabaseConfig {
  url: string | undefined;
  dataDir: string;
  embeddedPort: number;
}

/** Database settings shared by the server and the CLI, so both reach the same database. */
export function readDatabaseConfig(env: NodeJS.ProcessEnv): DatabaseConfig {
  const parsed = DatabaseEnv.parse(env);
  // A relative DATA_DIR is taken from where the command was typed (pnpm runs scripts in the package folder).
  const base = env.INIT_CWD ?? process.cwd();
  const dataDir = env.DATA_DIR
    ? isAbsolute(parsed.DATA_DIR)
      ? parsed.DATA_DIR
      : resolve(base, parsed.DATA_DIR)
    : resolve(ROOT, '.data');
  return { url: parsed.DATABASE_URL, dataDir, embeddedPort: parsed.EMBEDDED_PG_PORT };
}

export { DatabaseEnv };
