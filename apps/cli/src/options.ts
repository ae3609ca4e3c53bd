/** Option values by long name (`per-page`), as the commands read them. */
export type CommandOptions = Record<string, string | boolean | string[] | undefined>;

/** A mistake in the command line: exit status 2. */
export class UsageError extends Error {}

export function required(options: CommandOptions, name: string): string {
  const value = options[name];
  if (typeof value !== 'string' || !value.trim()) throw new UsageError(`--${name} is required`);
  return value;
}

export function optional(options: CommandOptions, name: string): string | undefined {
  const value = options[name];
  return typeof value === 'string' ? value : undefined;
}

/**
 * Every option a command may take, by long name: its flags and help text. Commands list the names they
 * take; a trailing `!` marks one they require.
 */
export const OPTIONS: Record<string, [flags: string, description: string]> = {
  name: ['--name <name>', 'name'],
  slug: ['--slug <slug>', 'slug (made from the name when left out)'],
  email: ['--email <email>', "the user's email"],
  org: ['--org <slug>', 'organization slug'],
  role: ['--role <role>', 'role'],
  members: ['--members <emails>', 'member emails, comma-separated'],
  repository: ['--repository <url>', 'repository URL'],
  steps: ['--steps <file>', 'pipeline YAML file with the steps'],
  'branch-filter': ['--branch-filter <filter>', 'branch filter'],
  'default-branch': ['--default-branch <branch>', 'default branch (main)'],
  team: ['--team <team>', 'team slug or UUID'],
  pipeline: ['--pipeline <slug>', 'pipeline slug'],
  'access-level': ['--access-level <level>', 'read_only, build_and_read or manage_build_and_read'],
  scopes: ['--scopes <scopes>', 'scopes, comma-separated, or all'],
  orgs: ['--orgs <slugs>', 'organizations the token may use, comma-separated (all when left out)'],
  'expires-in': ['--expires-in <duration>', 'lifetime such as 30d, 12h or 45m'],
  description: ['--description <text>', 'description'],
  id: ['--id <uuid>', 'UUID'],
  user: ['--user <uuid>', "the user's UUID"],
  teams: ['--teams <items>', 'UUID[:access_level] items, comma-separated'],
  privacy: ['--privacy <privacy>', 'visible or secret'],
  number: ['--number <n>', 'build number'],
  job: ['--job <uuid>', 'job UUID'],
  commit: ['--commit <sha>', 'commit SHA or ref'],
  branch: ['--branch <branch>', 'branch'],
  message: ['--message <text>', 'message'],
  state: ['--state <state>', 'build state'],
  field: ['--field <key=value...>', 'a block step field (repeatable)'],
  hostname: ['--hostname <host>', 'only agents on this host'],
  interval: ['--interval <seconds>', 'seconds between polls (2)'],
  page: ['--page <n>', 'page number'],
  'per-page': ['--per-page <n>', 'items per page'],
  url: ['--url <url>', "the notification webhook's URL"],
  events: ['--events <events>', 'events, comma-separated (build.finished, job.started, …)'],
  service: ['--service <uuid>', "the notification service's UUID"],
  'token-mode': ['--token-mode <mode>', 'token (X-Buildkite-Token) or signature (X-Buildkite-Signature)'],
  disabled: ['--disabled', 'disabled: no deliveries (a service), no builds (a trigger, a schedule)'],
  enabled: ['--enabled', 'enabled again'],
  trigger: ['--trigger <uuid>', "the pipeline trigger's UUID"],
  label: ['--label <text>', "the trigger's or schedule's label"],
  schedule: ['--schedule <uuid>', "the pipeline schedule's UUID"],
  cronline: ['--cronline <cron>', 'five cron fields or a nickname (@daily), then an optional time zone'],
  env: ['--env <KEY=value...>', "an environment variable of the schedule's builds (repeatable)"],
  secret: ['--secret <secret>', "the webhook's secret: GitHub's signing secret, GitLab's X-Gitlab-Token"],
  'clear-secret': ['--clear-secret', 'clear the secret: deliveries are taken unsigned'],
};
