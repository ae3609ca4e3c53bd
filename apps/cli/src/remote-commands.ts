import { readFileSync } from 'node:fs';
import { isAccessLevel, isUuid } from '@ci/domain';
import { list, type ParsedCommand } from './arguments';
import { optional, required, UsageError } from './options';
import type { RemoteClient } from './remote';

type Options = ParsedCommand['options'];

/** A command that goes through a running server's API (typed tRPC) with an access token. */
interface RemoteCommand {
  usage: string;
  run: (client: RemoteClient, options: Options) => Promise<Record<string, unknown>>;
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

export const REMOTE_COMMANDS: Record<string, RemoteCommand> = {
  whoami: {
    usage: 'whoami',
    run: async (client) => client.accessToken.get.query(),
  },
  'token revoke': {
    usage: 'token revoke   (revokes the --token itself, at once)',
    run: async (client) => {
      await client.accessToken.delete.mutate();
      return { revoked: true };
    },
  },
  'org list': {
    usage: 'org list [--page N] [--per-page N]',
    run: async (client, options) => ({
      organizations: await client.organizations.list.query(pageOf(options)),
    }),
  },
  'member list': {
    usage: 'member list --org S [--page N] [--per-page N]',
    run: async (client, options) => ({
      members: await client.organizations.listMembers.query(organizationPage(options)),
    }),
  },
  'pipeline list': {
    usage: 'pipeline list --org S [--page N] [--per-page N]',
    run: async (client, options) => ({
      pipelines: await client.pipelines.list.query(organizationPage(options)),
    }),
  },
  'pipeline create': {
    usage:
      'pipeline create --org S --name N --repository URL [--steps FILE] [--branch-filter F] [--default-branch B] [--teams UUID[:level],…]',
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
    usage: 'pipeline archive --org S --pipeline SLUG',
    run: async (client, options) => client.pipelines.archive.mutate(pipelineKey(options)),
  },
  'pipeline unarchive': {
    usage: 'pipeline unarchive --org S --pipeline SLUG',
    run: async (client, options) => client.pipelines.unarchive.mutate(pipelineKey(options)),
  },
  'pipeline delete': {
    usage: 'pipeline delete --org S --pipeline SLUG',
    run: async (client, options) => {
      const key = pipelineKey(options);
      await client.pipelines.delete.mutate(key);
      return { ...key, deleted: true };
    },
  },
  'service list': {
    usage: 'service list --org S [--page N] [--per-page N]   (notification webhooks; admins)',
    run: async (client, options) => ({
      services: await client.notificationServices.list.query(organizationPage(options)),
    }),
  },
  'service create': {
    usage:
      'service create --org S --url URL [--events e1,e2] [--description D] [--pipeline SLUG] [--branch-filter F] [--token-mode token|signature] [--disabled]   (prints the token once)',
    run: async (client, options) =>
      client.notificationServices.create.mutate({
        organization: required(options, 'org'),
        ...serviceFields(options),
      } as Parameters<RemoteClient['notificationServices']['create']['mutate']>[0]),
  },
  'service update': {
    usage:
      'service update --org S --service UUID [--url URL] [--events e1,e2] [--description D] [--pipeline SLUG] [--branch-filter F] [--token-mode M] [--disabled]',
    run: async (client, options) =>
      client.notificationServices.update.mutate({ ...serviceKey(options), ...serviceFields(options) }),
  },
  'service delete': {
    usage: 'service delete --org S --service UUID',
    run: async (client, options) => {
      const key = serviceKey(options);
      await client.notificationServices.delete.mutate(key);
      return { ...key, deleted: true };
    },
  },
  'service ping': {
    usage: 'service ping --org S --service UUID   (queues a ping event)',
    run: async (client, options) => client.notificationServices.ping.mutate(serviceKey(options)),
  },
  'service deliveries': {
    usage: 'service deliveries --org S --service UUID   (the last 20, newest first)',
    run: async (client, options) => ({
      deliveries: await client.notificationServices.deliveries.query(serviceKey(options)),
    }),
  },
  'team list': {
    usage: 'team list --org S [--page N] [--per-page N]',
    run: async (client, options) => ({
      teams: await client.teams.list.query(organizationPage(options)),
    }),
  },
  'team create': {
    usage: 'team create --org S --name N [--description D] [--privacy visible|secret]',
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
    usage: 'team-member add --org S --team SLUG|UUID --user UUID [--role member|maintainer]',
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
    usage: 'team-pipeline add --org S --team SLUG|UUID --pipeline SLUG --access-level L',
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
    usage: 'build list [--org S [--pipeline SLUG]] [--branch B] [--state S] [--page N] [--per-page N]',
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
    usage: 'build create --org S --pipeline SLUG --commit SHA --branch B [--message M]',
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
    usage: 'build cancel --org S --pipeline SLUG --number N',
    run: async (client, options) => client.builds.cancel.mutate(buildKey(options)),
  },
  'build rebuild': {
    usage: 'build rebuild --org S --pipeline SLUG --number N',
    run: async (client, options) => client.builds.rebuild.mutate(buildKey(options)),
  },
};
