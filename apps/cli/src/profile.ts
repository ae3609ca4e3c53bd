import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { UsageError } from './options';

/** A server to talk to and the token to talk with. */
export interface Profile {
  url?: string;
  token?: string;
}

/** `CI_CONFIG`, else `$XDG_CONFIG_HOME/ci/config.json`, else `~/.config/ci/config.json`. */
export function configPath(env: NodeJS.ProcessEnv): string {
  if (env.CI_CONFIG) return env.CI_CONFIG;
  return join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'ci', 'config.json');
}

/** The named profile of the config file; none when there is no file. */
function profileFromFile(path: string, name: string, named: boolean): Profile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' && !named) return {};
    throw new UsageError(`cannot read ${path}: ${(error as Error).message}`);
  }
  let config: { profiles?: Record<string, Profile> };
  try {
    config = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${path} is not JSON: ${(error as Error).message}`);
  }
  const profile = config.profiles?.[name];
  if (!profile && named) throw new UsageError(`${path} has no profile "${name}"`);
  return profile ?? {};
}

/**
 * Where a remote command goes, first found wins for each of URL and token: `--remote` and `--token`,
 * then `CI_API_URL` and `CI_API_TOKEN`, then the profile (`--profile`, `CI_PROFILE`, else `default`)
 * of the config file.
 */
export function resolveProfile(
  flags: { remote?: string | undefined; token?: string | undefined; profile?: string | undefined },
  env: NodeJS.ProcessEnv,
): Profile {
  const name = flags.profile ?? env.CI_PROFILE;
  const file = profileFromFile(configPath(env), name ?? 'default', name !== undefined);
  const url = flags.remote ?? env.CI_API_URL ?? file.url;
  const token = flags.token ?? env.CI_API_TOKEN ?? file.token;
  return { ...(url ? { url } : {}), ...(token ? { token } : {}) };
}
