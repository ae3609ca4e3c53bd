import { styleText } from 'node:util';

type Item = Record<string, unknown>;
type Colour = Parameters<typeof styleText>[0];

/**
 * Colour on stdout only where it reads as colour: `styleText` checks that the stream is a terminal and
 * honours NO_COLOR and FORCE_COLOR.
 */
export function paint(format: Colour, text: string, stream: NodeJS.WriteStream = process.stdout): string {
  return styleText(format, text, { stream });
}

const STATE_COLOURS: Record<string, Colour> = {
  passed: 'green',
  failed: 'red',
  failing: 'red',
  broken: 'red',
  timed_out: 'red',
  lost: 'red',
  expired: 'red',
  running: 'yellow',
  canceling: 'yellow',
  assigned: 'yellow',
  accepted: 'yellow',
  blocked: 'magenta',
  canceled: 'gray',
  skipped: 'gray',
  not_run: 'gray',
  connected: 'green',
};

export function paintState(state: string): string {
  const colour = STATE_COLOURS[state];
  return colour ? paint(colour, state) : state;
}

/** Rows under a header, each column as wide as its widest cell; colour only after measuring. */
export function table(
  rows: Item[],
  columns: [header: string, cell: (row: Item) => string, colour?: (text: string) => string][],
): string {
  if (rows.length === 0) return paint('dim', '(none)');
  const cells = rows.map((row) => columns.map(([, cell]) => cell(row)));
  const widths = columns.map(([header], at) =>
    Math.max(header.length, ...cells.map((line) => line[at]?.length ?? 0)),
  );
  const line = (values: string[], colourOf: (at: number, text: string) => string) =>
    values
      .map((text, at) => colourOf(at, at === values.length - 1 ? text : text.padEnd(widths[at] ?? 0)))
      .join('  ')
      .trimEnd();
  return [
    line(
      columns.map(([header]) => header.toUpperCase()),
      (_, text) => paint('bold', text),
    ),
    ...cells.map((values) => line(values, (at, text) => columns[at]?.[2]?.(text) ?? text)),
  ].join('\n');
}

const text = (value: unknown): string =>
  value === null || value === undefined || value === '' ? '-' : String(value);
const firstLine = (value: unknown, max = 50): string => {
  const line = text(value).split('\n')[0] ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
};
const field = (row: Item, ...path: string[]): unknown =>
  path.reduce<unknown>((at, key) => (at as Item | null | undefined)?.[key], row);
const person = (value: unknown) => {
  const who = value as { name?: string; email?: string } | null | undefined;
  return who?.name ? `${who.name} <${who.email}>` : '-';
};

/** Scalars one a line (`key  value`); a person by name; lists of scalars joined; larger values left out. */
function fields(result: Item): string {
  const lines = Object.entries(result).flatMap(([key, value]): [string, string][] => {
    if (Array.isArray(value))
      return value.every((item) => typeof item !== 'object') ? [[key, value.join(', ') || '-']] : [];
    if (value !== null && typeof value === 'object') return 'email' in value ? [[key, person(value)]] : [];
    return [[key, text(value)]];
  });
  const width = Math.max(0, ...lines.map(([key]) => key.length));
  return lines.map(([key, value]) => `${paint('dim', key.padEnd(width))}  ${value}`).join('\n');
}

function buildHeader(build: Item): string {
  const pipeline = field(build, 'pipeline', 'slug');
  return [
    `${paint('bold', `${text(pipeline)} #${build.number}`)}  ${paintState(String(build.state))}${build.blocked ? ' (blocked)' : ''}`,
    firstLine(build.message, 100),
    `${paint('dim', 'branch')} ${text(build.branch)}  ${paint('dim', 'commit')} ${text(build.commit).slice(0, 12)}  ${paint('dim', 'by')} ${person(build.creator)}`,
    `${paint('dim', 'created')} ${text(build.created_at)}  ${paint('dim', 'finished')} ${text(build.finished_at)}`,
    `${paint('dim', 'url')} ${text(build.web_url)}`,
  ].join('\n');
}

export function jobsTable(jobs: Item[]): string {
  return table(jobs, [
    ['job', (job) => text(job.id)],
    ['type', (job) => text(job.type)],
    ['label', (job) => firstLine(job.name ?? job.label ?? job.command, 40)],
    ['state', (job) => text(job.state), paintState],
    ['exit', (job) => text(job.exit_status)],
    ['agent', (job) => text(field(job, 'agent', 'name'))],
  ]);
}

const VIEWS = {
  organizations: (result: Item) =>
    table(result.organizations as Item[], [
      ['slug', (org) => text(org.slug)],
      ['name', (org) => text(org.name)],
      ['created', (org) => text(org.created_at)],
    ]),
  members: (result: Item) =>
    table(result.members as Item[], [
      ['id', (member) => text(member.id)],
      ['name', (member) => text(member.name)],
      ['email', (member) => text(member.email)],
    ]),
  pipelines: (result: Item) =>
    table(result.pipelines as Item[], [
      ['slug', (pipeline) => text(pipeline.slug)],
      ['name', (pipeline) => text(pipeline.name)],
      ['repository', (pipeline) => text(pipeline.repository)],
      ['archived', (pipeline) => (pipeline.archived_at ? 'yes' : '')],
    ]),
  pipeline: (result: Item) =>
    fields({
      slug: result.slug,
      name: result.name,
      repository: result.repository,
      default_branch: result.default_branch,
      archived_at: result.archived_at,
      steps: Array.isArray(result.steps) ? result.steps.length : null,
      web_url: result.web_url,
    }),
  teams: (result: Item) =>
    table(result.teams as Item[], [
      ['slug', (team) => text(team.slug)],
      ['name', (team) => text(team.name)],
      ['privacy', (team) => text(team.privacy)],
      ['id', (team) => text(team.id)],
    ]),
  builds: (result: Item) =>
    table(result.builds as Item[], [
      ['pipeline', (build) => text(field(build, 'pipeline', 'slug'))],
      ['#', (build) => text(build.number)],
      ['state', (build) => text(build.state), paintState],
      ['branch', (build) => text(build.branch)],
      ['commit', (build) => text(build.commit).slice(0, 7)],
      ['created', (build) => text(build.created_at)],
      ['message', (build) => firstLine(build.message)],
    ]),
  build: (result: Item) => {
    const jobs = (result.jobs as Item[] | undefined) ?? [];
    return `${buildHeader(result)}\n\n${jobsTable(jobs)}`;
  },
  job: (result: Item) =>
    fields({
      id: result.id,
      type: result.type,
      label: result.name ?? result.label,
      state: result.state,
      retries_count: result.retries_count,
      unblocked_by: result.unblocked_by,
      web_url: result.web_url,
    }),
  log: (result: Item) => String(result.content ?? '').replace(/\n$/, ''),
  agents: (result: Item) =>
    table(result.agents as Item[], [
      ['name', (agent) => text(agent.name)],
      ['state', (agent) => text(agent.connection_state), paintState],
      ['hostname', (agent) => text(agent.hostname)],
      ['version', (agent) => text(agent.version)],
      ['tags', (agent) => text((agent.meta_data as string[]).join(','))],
      ['job', (agent) => text(field(agent, 'job', 'id'))],
      ['paused', (agent) => (agent.paused ? 'yes' : '')],
    ]),
} satisfies Record<string, (result: Item) => string>;

export type View = keyof typeof VIEWS;

/** What a command prints: one JSON line with `--json`, else its view for a person. */
export function printResult(result: Item, options: { json: boolean; view?: View | undefined }) {
  const shown = options.json
    ? JSON.stringify(result)
    : options.view
      ? VIEWS[options.view](result)
      : fields(result);
  process.stdout.write(`${shown}\n`);
}

/** A refusal the user can act on: one line (one JSON object with --json), no stack. */
export function printFailure(message: string, json: boolean) {
  if (json) process.stdout.write(`${JSON.stringify({ error: message })}\n`);
  else process.stderr.write(`${paint('red', 'error:', process.stderr)} ${message}\n`);
}
