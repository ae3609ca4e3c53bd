import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import pino from 'pino';
import { runAgent } from './agent';

/** The server's own default: `PORT` (3000) on loopback. */
const defaultEndpoint = `http://127.0.0.1:${process.env.PORT || 3000}/v3`;

const whole = (text: string) => {
  if (!/^\d+$/.test(text)) throw new InvalidArgumentError('a whole number');
  return Number(text);
};

const program = new Command('pnpm agent')
  .description('Runs the jobs of a CI server: registers, connects, and runs each job it is offered')
  .addOption(
    new Option('--token <token>', "the organization's or a cluster's agent registration token")
      .env('CI_AGENT_TOKEN')
      .makeOptionMandatory(),
  )
  .option('--tags <tags...>', 'key=value tags, comma-separated or repeated (queue=default when none)')
  .addOption(
    new Option('--endpoint <url>', "the server's agent API")
      .env('CI_AGENT_ENDPOINT')
      .default(defaultEndpoint, `http://127.0.0.1:$PORT/v3, PORT as the server reads it (3000)`),
  )
  .option('--name <name>', "the agent's name (hostname-pid)")
  .option('--build-path <dir>', 'where checkouts go (a temporary folder)')
  .option('--skip-checkout', 'run jobs in an empty folder (also BUILDKITE_SKIP_CHECKOUT=true)')
  .option('--checkout-remote', 'also check out repositories that are not on this machine')
  .addOption(
    new Option('--retries <n>', 'tries again to register and connect while the server is away')
      .argParser(whole)
      .default(10),
  )
  .addHelpText(
    'after',
    '\nThe token is better given in CI_AGENT_TOKEN: a command line is visible to every user in `ps`.\n' +
      'Logs are JSON lines on stdout (pino); LOG_LEVEL sets the level (info).',
  )
  .exitOverride();

let values: ReturnType<typeof program.opts>;
try {
  values = program.parse(process.argv.slice(2), { from: 'user' }).opts();
} catch (error) {
  // --help exits 0; a mistake in the command line (already printed by commander), 2.
  process.exit(error instanceof CommanderError && error.exitCode === 0 ? 0 : 2);
}

const logger = pino({ name: 'agent', level: process.env.LOG_LEVEL || 'info' });
const tags = ((values.tags as string[] | undefined) ?? [])
  .flatMap((value) => value.split(','))
  .map((tag) => tag.trim())
  .filter(Boolean);
const endpoint = values.endpoint as string;

const stop = new AbortController();
process.on('SIGTERM', () => stop.abort());
process.on('SIGINT', () => stop.abort());

try {
  await runAgent(
    {
      token: values.token as string,
      endpoint,
      tags,
      ...(values.name ? { name: values.name as string } : {}),
      retries: values.retries as number,
      checkout: {
        ...(values.buildPath ? { buildPath: values.buildPath as string } : {}),
        skipCheckout: values.skipCheckout === true || process.env.BUILDKITE_SKIP_CHECKOUT === 'true',
        checkoutRemote: values.checkoutRemote === true,
      },
      log: (message) => logger.info(message),
    },
    stop.signal,
  );
  process.exit(0);
} catch (error) {
  logger.error(`agent stopped: ${(error as Error).message}`);
  // pino writes stdout synchronously, but the message matters most for a person at a terminal.
  process.stderr.write(`agent stopped: ${(error as Error).message}\n`);
  process.exit(1);
}
