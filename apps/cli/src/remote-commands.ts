import { readFileSync } from 'node:fs';
import { isAccessLevel, isUuid } from '@ci/domain';
import { list } from './arguments';
import { type CommandOptions, optional, required, UsageError } from './options';
import type { View } from './output';
import type { RemoteClient } from './remote';
import { watchBuild } from './watch';

type Options = CommandOptions;

/** A command that goes through a running server's API (typed tRPC) with an access token. */
export interface RemoteCommand {
  description: string;
  /** names from OPTIONS; `!`: required */
  options: string[];
  /** how the result reads to a person; without it, its fields one a line */
  show?: View;
  run: (
    client: RemoteClient,
    options: Options,
    context: { json: boolean },
  ) => Promise<Record<string, unknown>>;
  /** the exit status the result calls for (0 when left out) */
  status?: (result: Record<string, unknown>) => number;
}

const PAGE_SIZE = 100;

/** `--page` and `--per-page`, when given, as the list procedures take them. */
function pageOf(options: Options) {
  const page = count(options, 'page');
  const perPage = count(options, 'per-page');
  return { ...(page ? { page } : {}), ...(perPage ? { per_page: perPage } : {}) };
}

function count(options: Options, name: string): number | undefined {
  const text = optional(options, name);
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text)) throw new UsageError(`--${name} takes a whole number`);
  return Number(text);
}

/** Every item of a paginated list, page by page, until `found` says stop or a short page ends it. */
async function findInPages<T>(
  fetchPage: (page: number) => Promise<T[]>,
  found: (item: T) => boolean,
): Promise<T | undefined> {
  for (let page = 1; ; page += 1) {
    const items = await fetchPage(page);
    const match = items.find(found);
    if (match || items.length < PAGE_SIZE) return match;
  }
}

/** A team given by UUID is used as it is; a slug is looked up among the teams the token sees. */
async function teamUuid(client: RemoteClient, organization: string, team: string): Promise<string> {
  if (isUuid(team)) return team;
  const match = await findInPages(
    (page) => client.teams.list.query({ organization, page, per_page: PAGE_SIZE }),
    (candidate) => candidate.slug === team,
  );
  if (!match) throw new UsageError(`No team found with the slug ${team}`);
  return match.id;
}

/** `--org` with `--page` and `--per-page`: a page of a list within an organization. */
function organizationPage(options: Options) {
  return { organization: required(options, 'org'), ...pageOf(options) };
}

function pipelineKey(options: Options) {
  return { organization: required(options, 'org'), pipeline: required(options, 'pipeline') };
}

function buildKey(options: Options) {
  return { ...pipelineKey(options), number: required(options, 'number') };
}

function jobKey(options: Options) {
  return { ...buildKey(options), job: required(options, 'job') };
}

/** `--<name> key=value`, repeated → an object (the unblock body's `fields`, a schedule's `env`). */
function keyValues(options: Options, name: string): Record<string, string> | undefined {
  const given = options[name];
  if (!Array.isArray(given)) return undefined;
  return Object.fromEntries(
    given.map((item) => {
      const at = item.indexOf('=');
      if (at < 1) throw new UsageError(`--${name} takes key=value`);
      return [item.slice(0, at), item.slice(at + 1)];
    }),
  );
}

/** The build's state as an exit status: 0 when it passed, 1 otherwise. */
const passed = (build: Record<string, unknown>) => (build.state === 'passed' && !build.blocked ? 0 : 1);

/** `uuid:level,uuid2:level2` → the create-pipeline body's `teams`. */
function teamAccessLevels(text: string | undefined): Record<string, string> | undefined {
  const entries = list(text);
  if (!entries) return undefined;
  return Object.fromEntries(
    entries.map((entry) => {
      const [uuid, level = 'manage_build_and_read'] = entry.split(':');
      if (!uuid || !isAccessLevel(level)) {
        throw new UsageError('--teams takes UUID[:access_level] items, comma-separated');
      }
      return [uuid, level];
    }),
  );
}

function serviceKey(options: Options) {
  return { organization: required(options, 'org'), service: required(options, 'service') };
}

/** The notification service fields the options give, as the REST body names them. */
function serviceFields(options: Options) {
  const events = list(optional(options, 'events'));
  const fields = {
    url: optional(options, 'url'),
    description: optional(options, 'description'),
    events,
    pipeline: optional(options, 'pipeline'),
    branch_filter: optional(options, 'branch-filter'),
    token_mode: optional(options, 'token-mode'),
    ...(options.disabled ? { enabled: false } : {}),
  };
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}

function triggerKey(options: Options) {
  return { ...pipelineKey(options), trigger: required(options, 'trigger') };
}

/** A pipeline trigger's fields the options give, as the REST body names them. */
function triggerFields(options: Options) {
  const build = Object.fromEntries(
    (['branch', 'commit', 'message'] as const)
      .map((name) => [name, optional(options, name)])
      .filter(([, value]) => value !== undefined),
  );
  const label = optional(options, 'label');
  return {
    ...(label !== undefined ? { label } : {}),
    ...(Object.keys(build).length > 0 ? { build } : {}),
    ...enabledFlag(options),
  };
}

/** `--enabled` or `--disabled`, when one is given. */
function enabledFlag(options: Options): { enabled?: boolean } {
  if (options.enabled && options.disabled)
    throw new UsageError('--enabled and --disabled exclude each other');
  return options.disabled ? { enabled: false } : options.enabled ? { enabled: true } : {};
}

function scheduleKey(options: Options) {
  return { ...pipelineKey(options), schedule: required(options, 'schedule') };
}

/** A pipeline schedule's fields the options give, as the REST body names them. */
function scheduleFields(options: Options) {
  const fields = Object.fromEntries(
    (['label', 'cronline', 'branch', 'commit', 'message'] as const)
      .map((name) => [name, optional(options, name)])
      .filter(([, value]) => value !== undefined),
  );
  const env = keyValues(options, 'env');
  return { ...fields, ...(env ? { env } : {}), ...enabledFlag(options) };
}

/** The pipeline's inbound webhook as people need it: where the source host sends its events. */
function pipelineWebhook(pipeline: { slug: string; provider: { id: string; webhook_url: string } }) {
  return {
    pipeline: pipeline.slug,
    provider: pipeline.provider.id,
    webhook_url: pipeline.provider.webhook_url,
  };
}

export const REMOTE_COMMANDS: Record<string, RemoteCommand> = {
  whoami: {
    description: 'the token and its user',
    options: [],
    run: async (client) => client.accessToken.get.query(),
  },
  'token revoke': {
    description: 'revoke the token itself, at once',
    options: [],
    run: async (client) => {
      await client.accessToken.delete.mutate();
      return { revoked: true };
    },
  },
  'org list': {
    description: 'organizations the token sees',
    options: ['page', 'per-page'],
    show: 'organizations',
    run: async (client, options) => ({
      organizations: await client.organizations.list.query(pageOf(options)),
    }),
  },
  'member list': {
    description: "an organization's members",
    options: ['org!', 'page', 'per-page'],
    show: 'members',
    run: async (client, options) => ({
      members: await client.organizations.listMembers.query(organizationPage(options)),
    }),
  },
  'pipeline list': {
    description: "an organization's pipelines",
    options: ['org!', 'page', 'per-page'],
    show: 'pipelines',
    run: async (client, options) => ({
      pipelines: await client.pipelines.list.query(organizationPage(options)),
    }),
  },
  'pipeline create': {
    description: 'a pipeline; steps from a pipeline YAML file',
    options: ['org!', 'name!', 'repository!', 'steps', 'branch-filter', 'default-branch', 'teams'],
    show: 'pipeline',
    run: async (client, options) => {
      const stepsFile = optional(options, 'steps');
      const branchFilter = optional(options, 'branch-filter');
      const teams = teamAccessLevels(optional(options, 'teams'));
      return client.pipelines.create.mutate({
        organization: required(options, 'org'),
        name: required(options, 'name'),
        repository: required(options, 'repository'),
        ...(stepsFile ? { configuration: readFileSync(stepsFile, 'utf8') } : {}),
        ...(branchFilter ? { branch_configuration: branchFilter } : {}),
        default_branch: optional(options, 'default-branch') ?? 'main',
        ...(teams ? { teams } : {}),
      });
    },
  },
  'pipeline archive': {
    description: 'archive a pipeline',
    options: ['org!', 'pipeline!'],
    show: 'pipeline',
    run: async (client, options) => client.pipelines.archive.mutate(pipelineKey(options)),
  },
  'pipeline unarchive': {
    description: 'unarchive a pipeline',
    options: ['org!', 'pipeline!'],
    show: 'pipeline',
    run: async (client, options) => client.pipelines.unarchive.mutate(pipelineKey(options)),
  },
  'pipeline delete': {
    description: 'delete a pipeline',
    options: ['org!', 'pipeline!'],
    run: async (client, options) => {
      const key = pipelineKey(options);
      await client.pipelines.delete.mutate(key);
      return { ...key, deleted: true };
    },
  },
  'service list': {
    description: "an organization's notification webhooks (admins)",
    options: ['org!', 'page', 'per-page'],
    run: async (client, options) => ({
      services: await client.notificationServices.list.query(organizationPage(options)),
    }),
  },
  'service create': {
    description: 'a notification webhook (prints its token once)',
    options: ['org!', 'url!', 'events', 'description', 'pipeline', 'branch-filter', 'token-mode', 'disabled'],
    run: async (client, options) =>
      client.notificationServices.create.mutate({
        organization: required(options, 'org'),
        ...serviceFields(options),
      } as Parameters<RemoteClient['notificationServices']['create']['mutate']>[0]),
  },
  'service update': {
    description: 'change a notification webhook',
    options: [
      'org!',
      'service!',
      'url',
      'events',
      'description',
      'pipeline',
      'branch-filter',
      'token-mode',
      'disabled',
    ],
    run: async (client, options) =>
      client.notificationServices.update.mutate({ ...serviceKey(options), ...serviceFields(options) }),
  },
  'service delete': {
    description: 'delete a notification webhook',
    options: ['org!', 'service!'],
    run: async (client, options) => {
      const key = serviceKey(options);
      await client.notificationServices.delete.mutate(key);
      return { ...key, deleted: true };
    },
  },
  'service ping': {
    description: "queue a notification webhook's ping event",
    options: ['org!', 'service!'],
    run: async (client, options) => client.notificationServices.ping.mutate(serviceKey(options)),
  },
  'service deliveries': {
    description: "a notification webhook's last 20 deliveries, newest first",
    options: ['org!', 'service!'],
    run: async (client, options) => ({
      deliveries: await client.notificationServices.deliveries.query(serviceKey(options)),
    }),
  },
  'trigger list': {
    description: "a pipeline's triggers (bktr_ URLs that start a build from a JSON POST)",
    options: ['org!', 'pipeline!'],
    run: async (client, options) => ({
      triggers: await client.pipelineTriggers.list.query(pipelineKey(options)),
    }),
  },
  'trigger create': {
    description: 'a pipeline trigger (prints its webhook_url once)',
    options: ['org!', 'pipeline!', 'label', 'branch', 'commit', 'message', 'disabled'],
    run: async (client, options) =>
      client.pipelineTriggers.create.mutate({ ...pipelineKey(options), ...triggerFields(options) }),
  },
  'trigger update': {
    description: "change a pipeline trigger's label, build or whether it is enabled",
    options: ['org!', 'pipeline!', 'trigger!', 'label', 'branch', 'commit', 'message', 'enabled', 'disabled'],
    run: async (client, options) =>
      client.pipelineTriggers.update.mutate({ ...triggerKey(options), ...triggerFields(options) }),
  },
  'trigger delete': {
    description: 'delete a pipeline trigger: its URL answers 404 from then on',
    options: ['org!', 'pipeline!', 'trigger!'],
    run: async (client, options) => {
      const key = triggerKey(options);
      await client.pipelineTriggers.delete.mutate(key);
      return { ...key, deleted: true };
    },
  },
  'schedule list': {
    description: "a pipeline's schedules, each with the time its next build is due",
    options: ['org!', 'pipeline!'],
    run: async (client, options) => ({
      schedules: await client.pipelineSchedules.list.query(pipelineKey(options)),
    }),
  },
  'schedule create': {
    description: 'a pipeline schedule: a build at each tick of its cronline',
    options: ['org!', 'pipeline!', 'label!', 'cronline!', 'branch', 'commit', 'message', 'env', 'disabled'],
    run: async (client, options) =>
      client.pipelineSchedules.create.mutate({
        ...pipelineKey(options),
        ...scheduleFields(options),
        label: required(options, 'label'),
        cronline: required(options, 'cronline'),
      }),
  },
  'schedule update': {
    description: "change a pipeline schedule's cronline, build or whether it is enabled",
    options: [
      'org!',
      'pipeline!',
      'schedule!',
      'label',
      'cronline',
      'branch',
      'commit',
      'message',
      'env',
      'enabled',
      'disabled',
    ],
    run: async (client, options) =>
      client.pipelineSchedules.update.mutate({ ...scheduleKey(options), ...scheduleFields(options) }),
  },
  'schedule delete': {
    description: 'delete a pipeline schedule: no more builds from it',
    options: ['org!', 'pipeline!', 'schedule!'],
    run: async (client, options) => {
      const key = scheduleKey(options);
      await client.pipelineSchedules.delete.mutate(key);
      return { ...key, deleted: true };
    },
  },
  'pipeline-webhook show': {
    description: "the URL the pipeline's source host (GitHub, GitLab, Bitbucket) sends its events to",
    options: ['org!', 'pipeline!'],
    run: async (client, options) => pipelineWebhook(await client.pipelines.get.query(pipelineKey(options))),
  },
  'pipeline-webhook create': {
    description:
      "make the pipeline's inbound webhook (keeps the URL it has) and set its secret (GitHub's, GitLab's token)",
    options: ['org!', 'pipeline!', 'secret', 'clear-secret'],
    run: async (client, options) => {
      const secret = optional(options, 'secret');
      if (secret !== undefined && options['clear-secret']) {
        throw new UsageError('--secret and --clear-secret exclude each other');
      }
      const body = options['clear-secret'] ? { secret: null } : secret !== undefined ? { secret } : {};
      return pipelineWebhook(
        await client.pipelines.createWebhook.mutate({ ...pipelineKey(options), ...body }),
      );
    },
  },
  'pipeline-webhook delete': {
    description: "drop the pipeline's inbound webhook: its URL answers 404 from then on",
    options: ['org!', 'pipeline!'],
    run: async (client, options) => {
      const key = pipelineKey(options);
      await client.pipelines.deleteWebhook.mutate(key);
      return { ...key, deleted: true };
    },
  },
  'team list': {
    description: "an organization's teams",
    options: ['org!', 'page', 'per-page'],
    show: 'teams',
    run: async (client, options) => ({
      teams: await client.teams.list.query(organizationPage(options)),
    }),
  },
  'team create': {
    description: 'a team',
    options: ['org!', 'name!', 'description', 'privacy'],
    run: async (client, options) => {
      const description = optional(options, 'description');
      const privacy = optional(options, 'privacy');
      return client.teams.create.mutate({
        organization: required(options, 'org'),
        name: required(options, 'name'),
        ...(description !== undefined ? { description } : {}),
        ...(privacy !== undefined ? { privacy } : {}),
      } as Parameters<RemoteClient['teams']['create']['mutate']>[0]);
    },
  },
  'team-member add': {
    description: 'add a user to a team (--role member or maintainer)',
    options: ['org!', 'team!', 'user!', 'role'],
    run: async (client, options) => {
      const organization = required(options, 'org');
      return client.teamMembers.create.mutate({
        organization,
        team: await teamUuid(client, organization, required(options, 'team')),
        user_id: required(options, 'user'),
        role: optional(options, 'role') ?? 'member',
      } as Parameters<RemoteClient['teamMembers']['create']['mutate']>[0]);
    },
  },
  'team-pipeline add': {
    description: 'give a team access to a pipeline',
    options: ['org!', 'team!', 'pipeline!', 'access-level!'],
    run: async (client, options) => {
      const organization = required(options, 'org');
      const team = await teamUuid(client, organization, required(options, 'team'));
      const pipeline = await client.pipelines.get.query({
        organization,
        pipeline: required(options, 'pipeline'),
      });
      return client.teamPipelines.create.mutate({
        organization,
        team,
        pipeline_id: pipeline.id,
        access_level: required(options, 'access-level'),
      } as Parameters<RemoteClient['teamPipelines']['create']['mutate']>[0]);
    },
  },
  'build list': {
    description: "builds: all the token sees, an organization's, or a pipeline's",
    options: ['org', 'pipeline', 'branch', 'state', 'page', 'per-page'],
    show: 'builds',
    run: async (client, options) => {
      const organization = optional(options, 'org');
      const pipeline = optional(options, 'pipeline');
      const branch = optional(options, 'branch');
      const state = optional(options, 'state');
      const filter = { ...(branch ? { branch } : {}), ...(state ? { state } : {}), ...pageOf(options) };
      if (pipeline && !organization) throw new UsageError('--pipeline needs --org');
      const builds =
        organization && pipeline
          ? await client.builds.listForPipeline.query({ organization, pipeline, ...filter })
          : organization
            ? await client.builds.listForOrganization.query({ organization, ...filter })
            : await client.builds.list.query(filter);
      return { builds };
    },
  },
  'build create': {
    description: 'start a build',
    options: ['org!', 'pipeline!', 'commit!', 'branch!', 'message'],
    show: 'build',
    run: async (client, options) => {
      const message = optional(options, 'message');
      return client.builds.create.mutate({
        ...pipelineKey(options),
        commit: required(options, 'commit'),
        branch: required(options, 'branch'),
        ...(message ? { message } : {}),
      });
    },
  },
  'build cancel': {
    description: 'cancel a build',
    options: ['org!', 'pipeline!', 'number!'],
    show: 'build',
    run: async (client, options) => client.builds.cancel.mutate(buildKey(options)),
  },
  'build rebuild': {
    description: 'run a build again as a new build',
    options: ['org!', 'pipeline!', 'number!'],
    show: 'build',
    run: async (client, options) => client.builds.rebuild.mutate(buildKey(options)),
  },
  'build view': {
    description: 'a build and its jobs',
    options: ['org!', 'pipeline!', 'number!'],
    show: 'build',
    run: async (client, options) => client.builds.get.query(buildKey(options)),
  },
  'build watch': {
    description:
      "follow a build until it finishes: its state, a progress line and its jobs' logs; exits 0 if it passed",
    options: ['org!', 'pipeline!', 'number!', 'interval'],
    show: 'build',
    run: async (client, options, context) => {
      const interval = Number(optional(options, 'interval') ?? '2');
      if (!(interval > 0)) throw new UsageError('--interval takes a number of seconds');
      return watchBuild(client, buildKey(options), { intervalMs: interval * 1000, quiet: context.json });
    },
    status: passed,
  },
  'job log': {
    description: "a job's log output",
    options: ['org!', 'pipeline!', 'number!', 'job!'],
    show: 'log',
    run: async (client, options) => client.jobs.log.query(jobKey(options)),
  },
  'job retry': {
    description: 'run a finished job again',
    options: ['org!', 'pipeline!', 'number!', 'job!'],
    show: 'job',
    run: async (client, options) => client.jobs.retry.mutate(jobKey(options)),
  },
  'job unblock': {
    description: 'unblock a block step, with its fields',
    options: ['org!', 'pipeline!', 'number!', 'job!', 'field'],
    show: 'job',
    run: async (client, options) => {
      const fields = keyValues(options, 'field');
      return client.jobs.unblock.mutate({ ...jobKey(options), ...(fields ? { fields } : {}) });
    },
  },
  'agent list': {
    description: "an organization's connected agents",
    options: ['org!', 'name', 'hostname', 'page', 'per-page'],
    show: 'agents',
    run: async (client, options) => {
      const name = optional(options, 'name');
      const hostname = optional(options, 'hostname');
      return {
        agents: await client.agents.list.query({
          ...organizationPage(options),
          ...(name ? { name } : {}),
          ...(hostname ? { hostname } : {}),
        }),
      };
    },
  },
};
