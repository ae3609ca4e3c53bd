import { parseArgs } from 'node:util';

export interface ParsedCommand {
  words: string[];
  options: Record<string, string | boolean | undefined>;
}

const OPTIONS = {
  json: { type: 'boolean' },
  help: { type: 'boolean' },
  name: { type: 'string' },
  slug: { type: 'string' },
  email: { type: 'string' },
  org: { type: 'string' },
  role: { type: 'string' },
  members: { type: 'string' },
  repository: { type: 'string' },
  steps: { type: 'string' },
  'branch-filter': { type: 'string' },
  'default-branch': { type: 'string' },
  team: { type: 'string' },
  pipeline: { type: 'string' },
  'access-level': { type: 'string' },
  scopes: { type: 'string' },
  orgs: { type: 'string' },
  'expires-in': { type: 'string' },
  description: { type: 'string' },
  id: { type: 'string' },
  remote: { type: 'string' },
  token: { type: 'string' },
  user: { type: 'string' },
  teams: { type: 'string' },
  privacy: { type: 'string' },
  number: { type: 'string' },
  commit: { type: 'string' },
  branch: { type: 'string' },
  message: { type: 'string' },
  state: { type: 'string' },
  page: { type: 'string' },
  'per-page': { type: 'string' },
  url: { type: 'string' },
  events: { type: 'string' },
  service: { type: 'string' },
  'token-mode': { type: 'string' },
  disabled: { type: 'boolean' },
} as const;

export function parseCommand(argv: string[]): ParsedCommand {
  const { values, positionals } = parseArgs({
    args: argv,
    options: OPTIONS,
    allowPositionals: true,
    strict: true,
  });
  return { words: positionals, options: values };
}

/** `30d`, `12h`, `45m` → milliseconds. */
export function parseDuration(text: string): number | null {
  const match = /^(\d+)([dhm])$/.exec(text.trim());
  if (!match) return null;
  const unit = { d: 86_400_000, h: 3_600_000, m: 60_000 }[match[2] as 'd' | 'h' | 'm'];
  return Number(match[1]) * unit;
}

export function list(text: string | undefined): string[] | undefined {
  return text
    ?.split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}
