import { parseArgs } from 'node:util';
import { runAgent } from './agent';

const { values } = parseArgs({
  options: {
    token: { type: 'string' },
    tags: { type: 'string', multiple: true },
    endpoint: { type: 'string' },
    name: { type: 'string' },
    'build-path': { type: 'string' },
    'skip-checkout': { type: 'boolean' },
    'checkout-remote': { type: 'boolean' },
  },
});

const token = values.token ?? process.env.CI_AGENT_TOKEN;
if (!token) {
  process.stderr.write(
    'usage: pnpm agent --token <registration token> [--tags queue=default[,key=value]] [--endpoint URL] [--name NAME]\n' +
      '       [--build-path DIR] [--skip-checkout] [--checkout-remote]\n',
  );
  process.exit(2);
}
const tags = (values.tags ?? [])
  .flatMap((value) => value.split(','))
  .map((tag) => tag.trim())
  .filter(Boolean);
const endpoint = values.endpoint ?? process.env.CI_AGENT_ENDPOINT ?? 'http://127.0.0.1:3000/v3';

const stop = new AbortController();
process.on('SIGTERM', () => stop.abort());
process.on('SIGINT', () => stop.abort());

try {
  await runAgent(
    {
      token,
      endpoint,
      tags,
      ...(values.name ? { name: values.name } : {}),
      checkout: {
        ...(values['build-path'] ? { buildPath: values['build-path'] } : {}),
        skipCheckout: values['skip-checkout'] ?? process.env.BUILDKITE_SKIP_CHECKOUT === 'true',
        checkoutRemote: values['checkout-remote'] ?? false,
      },
      log: (message) => process.stdout.write(`${new Date().toISOString()} ${message}\n`),
    },
    stop.signal,
  );
  process.exit(0);
} catch (error) {
  process.stderr.write(`agent stopped: ${(error as Error).message}\n`);
  process.exit(1);
}
