import { encodeGraphqlId, type Scope } from '@ci/domain';
import type { PipelineWire } from '@ci/trpc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GraphqlWorld, startGraphqlWorld } from '../support/graphql-world';
import { teamIds } from '../support/world';

/**
 * One use case, two doors: the same action through REST and through GraphQL gives the same result, and
 * the same refusal with the same message (scope, organization, pipeline visibility, team access level).
 */

let world: GraphqlWorld;
let teams: Record<string, string>;
/** A secret team that `member` is not in, made over REST, with `web`. */
let covert: string;
// biome-ignore lint/suspicious/noExplicitAny: REST bodies as the untyped JSON a client reads
const builds: Record<string, any> = {};

beforeAll(async () => {
  world = await startGraphqlWorld();
  teams = await teamIds(world);
  for (const pipeline of ['web', 'docs', 'secret']) builds[pipeline] = await world.createBuild(pipeline);
  covert = (
    await world.call('POST', '/v2/organizations/acme/teams', { body: { name: 'Covert', privacy: 'secret' } })
  ).body.id;
  await world.call('POST', `/v2/organizations/acme/teams/${covert}/pipelines`, {
    body: { pipeline_id: world.pipelines.web?.id, access_level: 'read_only' },
  });
});
afterAll(async () => world?.close());

const pipelineId = (name: string) => encodeGraphqlId('Pipeline', world.pipelines[name]?.id as string);

describe('the same result', () => {
  it('shows a member the pipelines GET /v2/organizations/acme/pipelines shows them, as REST shows them', async () => {
    const member = { token: world.tokens.member };
    const rest = (await world.call('GET', '/v2/organizations/acme/pipelines?per_page=100', member)).body;
    const { pipelines } = (
      await world.gql(
        `{ organization(slug: "acme") { pipelines(first: 100) { count edges { node {
          id uuid slug name url repository { url } defaultBranch webhookURL badgeURL createdAt archivedAt } } } } }`,
        {},
        member,
      )
    ).body.data.organization;
    expect(pipelines.count).toBe(rest.length);
    expect(pipelines.edges.map((edge: { node: unknown }) => edge.node)).toEqual(
      rest.map((pipeline: PipelineWire) => ({
        id: pipeline.graphql_id,
        uuid: pipeline.id,
        slug: pipeline.slug,
        name: pipeline.name,
        url: pipeline.web_url,
        repository: { url: pipeline.repository },
        defaultBranch: pipeline.default_branch,
        // Rule B2 in each door's form: REST shows '' where GraphQL shows null.
        webhookURL: pipeline.provider.webhook_url === '' ? null : pipeline.provider.webhook_url,
        badgeURL: pipeline.badge_url,
        createdAt: pipeline.created_at,
        archivedAt: pipeline.archived_at,
      })),
    );
    expect(rest.map((pipeline: { slug: string }) => pipeline.slug)).not.toContain('secret');
    // Each one is also the pipeline REST shows by slug, and node shows by id.
    for (const pipeline of rest) {
      const byId = await world.gql(
        'query($id: ID!) { node(id: $id) { ... on Pipeline { slug } } }',
        { id: pipeline.graphql_id },
        member,
      );
      expect(byId.body).toEqual({ data: { node: { slug: pipeline.slug } } });
    }
    const secret = await world.gql(
      'query($id: ID!) { node(id: $id) { id } }',
      { id: pipelineId('secret') },
      member,
    );
    expect(secret.body).toEqual({ data: { node: null } });
  });

  it('shows a member the teams GET /v2/organizations/acme/teams shows them, the secret one left out', async () => {
    for (const token of [world.tokens.member, world.tokens.admin]) {
      const rest = (await world.call('GET', '/v2/organizations/acme/teams', { token })).body;
      const graphql = (
        await world.gql(
          '{ organization(slug: "acme") { teams { edges { node { id uuid slug name privacy } } } } }',
          {},
          { token },
        )
      ).body.data.organization.teams;
      expect(graphql.edges.map((edge: { node: unknown }) => edge.node)).toEqual(
        rest.map((team: Record<string, string>) => ({
          id: team.graphql_id,
          uuid: team.id,
          slug: team.slug,
          name: team.name,
          privacy: team.privacy?.toUpperCase(),
        })),
      );
    }
    const memberTeams = (
      await world.call('GET', '/v2/organizations/acme/teams', { token: world.tokens.member })
    ).body;
    expect(memberTeams.map((team: { id: string }) => team.id)).not.toContain(covert);
    const webTeams = (
      await world.gql(
        '{ pipeline(slug: "acme/web") { teams { edges { node { team { uuid } } } } } }',
        {},
        { token: world.tokens.member },
      )
    ).body.data.pipeline.teams;
    expect(webTeams.edges.map((edge: { node: { team: { uuid: string } } }) => edge.node.team.uuid)).toEqual([
      teams.platform,
    ]);
  });

  it('refuses a list the token may not read with the REST message, for the scope and for another organization', async () => {
    const cases: Array<{
      token: () => Promise<string> | string;
      path: string;
      field: string;
      message: string;
    }> = [
      {
        token: token('member', ['graphql', 'read_organizations']),
        path: '/v2/organizations/acme/pipelines',
        field: 'pipelines',
        message: "Your access token doesn't have the read_pipelines scope",
      },
      {
        token: token('member', ['graphql', 'read_organizations']),
        path: '/v2/organizations/acme/teams',
        field: 'teams',
        message: "Your access token doesn't have the view_teams scope",
      },
    ];
    for (const row of cases) {
      const secret = await row.token();
      const rest = await world.call('GET', row.path, { token: secret });
      expect(rest.status).toBe(403);
      expect(rest.body).toEqual({ message: row.message });
      const graphql = await world.gql(
        `{ organization(slug: "acme") { slug ${row.field} { count } } }`,
        {},
        { token: secret },
      );
      expect(graphql.body.data).toEqual({ organization: { slug: 'acme', [row.field]: null } });
      expect(graphql.body.errors.map((error: { message: string }) => error.message)).toEqual([row.message]);
    }
    const outsider = { token: world.tokens.outsider };
    const rest = await world.call('GET', '/v2/organizations/acme/pipelines', outsider);
    expect(rest.body).toEqual({ message: 'No organization found' });
    const graphql = await world.gql('{ organization(slug: "acme") { pipelines { count } } }', {}, outsider);
    expect(graphql.body.data).toEqual({ organization: null });
    expect(graphql.body.errors[0].message).toBe('No organization found');
  });

  it('shows a build as REST does', async () => {
    const rest = (await world.call('GET', '/v2/organizations/acme/pipelines/web/builds/1')).body;
    const graphql = (
      await world.gql(`{ build(slug: "acme/web/1") { id uuid number state blocked message commit branch url
        createdAt scheduledAt startedAt finishedAt cancelReason
        createdBy { ... on User { id uuid name email avatar { url } } }
        pipeline { id uuid name slug webhookURL badgeURL repository { url } }
        jobs { edges { node { ... on JobTypeCommand { id uuid label command url agentQueryRules softFailed }
                              ... on JobTypeWait { id uuid } } } } } }`)
    ).body.data.build;
    expect(graphql).toEqual({
      id: rest.graphql_id,
      uuid: rest.id,
      number: rest.number,
      state: rest.state.toUpperCase(),
      blocked: rest.blocked,
      message: rest.message,
      commit: rest.commit,
      branch: rest.branch,
      url: rest.web_url,
      createdAt: rest.created_at,
      scheduledAt: rest.scheduled_at,
      startedAt: rest.started_at,
      finishedAt: rest.finished_at,
      cancelReason: rest.cancel_reason,
      createdBy: {
        id: rest.creator.graphql_id,
        uuid: rest.creator.id,
        name: rest.creator.name,
        email: rest.creator.email,
        avatar: { url: rest.creator.avatar_url },
      },
      pipeline: {
        id: rest.pipeline.graphql_id,
        uuid: rest.pipeline.id,
        name: rest.pipeline.name,
        slug: rest.pipeline.slug,
        webhookURL: rest.pipeline.provider.webhook_url,
        badgeURL: rest.pipeline.badge_url,
        repository: { url: rest.pipeline.repository },
      },
      jobs: {
        edges: rest.jobs.map((job: Record<string, unknown>) => ({
          node:
            job.type === 'script'
              ? {
                  id: job.graphql_id,
                  uuid: job.id,
                  label: job.name,
                  command: job.command,
                  url: job.web_url,
                  agentQueryRules: job.agent_query_rules,
                  softFailed: job.soft_failed,
                }
              : { id: job.graphql_id, uuid: job.id },
        })),
      },
    });
  });

  it('hides the webhook URL from those who may not edit the pipeline, as REST does (rule B2)', async () => {
    for (const [pipeline, shown] of [
      ['web', true],
      ['api', false],
    ] as const) {
      await world.createBuild(pipeline);
      const rest = (
        await world.call('GET', `/v2/organizations/acme/pipelines/${pipeline}/builds/1`, {
          token: world.tokens.member,
        })
      ).body;
      const graphql = await world.gql(
        `{ build(slug: "acme/${pipeline}/1") { pipeline { webhookURL } jobs(first: 1) { edges { node { ... on JobTypeCommand { pipeline { webhookURL } } } } } } }`,
        {},
        { token: world.tokens.member },
      );
      const build = graphql.body.data.build;
      expect(rest.pipeline.provider.webhook_url !== '').toBe(shown);
      expect(build.pipeline.webhookURL).toBe(shown ? rest.pipeline.provider.webhook_url : null);
      expect(build.jobs.edges[0].node.pipeline.webhookURL).toBe(build.pipeline.webhookURL);
    }
  });

  it('creates the same build from the same request', async () => {
    const body = {
      commit: 'd'.repeat(40),
      branch: 'main',
      message: 'twin',
      env: { X: '1' },
      meta_data: { k: 'v' },
    };
    const rest = await world.call('POST', '/v2/organizations/acme/pipelines/public/builds', { body });
    const graphql = await world.gql(
      `mutation($input: BuildCreateInput!) { buildCreate(input: $input) { build { number } } }`,
      {
        input: {
          pipelineID: pipelineId('public'),
          commit: body.commit,
          branch: body.branch,
          message: body.message,
          env: ['X=1'],
          metaData: [{ key: 'k', value: 'v' }],
        },
      },
    );
    const number = graphql.body.data.buildCreate.build.number;
    expect(number).toBe(rest.body.number + 1);
    const twin = (await world.call('GET', `/v2/organizations/acme/pipelines/public/builds/${number}`)).body;
    const strip = ({
      id,
      graphql_id,
      number,
      url,
      web_url,
      created_at,
      scheduled_at,
      jobs,
      ...rest
    }: Record<string, unknown>) => ({
      ...rest,
      jobs: (jobs as Array<Record<string, unknown>>).map(({ name, state, step_key, command }) => ({
        name,
        state,
        step_key,
        command,
      })),
    });
    const original = (
      await world.call('GET', `/v2/organizations/acme/pipelines/public/builds/${rest.body.number}`)
    ).body;
    expect(strip(twin)).toEqual(strip(original));
  });
});

/** One action through both doors: the REST request and the GraphQL operation, with the field it answers. */
interface Action {
  rest: { method: string; path: () => string; body?: () => Record<string, unknown> };
  graphql: { query: string; variables?: () => Record<string, unknown>; field: string };
}

interface Case {
  name: string;
  token: () => Promise<string> | string;
  action: Action;
  status: number;
  message: string;
  /**
   * Where GraphQL names the object by id, an object of an organization the token may not use is one that
   * does not exist: REST's `No organization found` for the organization of its path becomes this.
   */
  byIdMessage?: string;
}

const token = (user: 'admin' | 'member' | 'outsider', scopes?: Scope[]) => () =>
  scopes ? world.token(user, { scopes }) : world.tokens[user];
const limitedToOther = () => world.token('admin', { organizations: ['other'] });

const BUILD_CREATE = `mutation($id: ID!) { buildCreate(input: { pipelineID: $id, commit: "HEAD", branch: "main" }) { build { number } } }`;
const BUILD_CANCEL = `mutation($id: ID!) { buildCancel(input: { id: $id }) { build { number } } }`;
const BUILD_REBUILD = `mutation($id: ID!) { buildRebuild(input: { id: $id }) { rebuild { number } } }`;
const TEAM_PIPELINE_CREATE = `mutation($team: ID!, $pipeline: ID!) { teamPipelineCreate(input: { teamID: $team, pipelineID: $pipeline, accessLevel: BUILD_AND_READ }) { teamPipeline { id } } }`;
const TEAM_GET = `query($slug: ID!) { team(slug: $slug) { id } }`;

const buildsPath = (pipeline: string, rest = '') =>
  `/v2/organizations/acme/pipelines/${pipeline}/builds${rest}`;
const READ_BUILD: Action = {
  rest: { method: 'GET', path: () => buildsPath('web', '/1') },
  graphql: { query: '{ build(slug: "acme/web/1") { number } }', field: 'build' },
};
const createBuild = (pipeline: string): Action => ({
  rest: {
    method: 'POST',
    path: () => buildsPath(pipeline),
    body: () => ({ commit: 'HEAD', branch: 'main' }),
  },
  graphql: { query: BUILD_CREATE, variables: () => ({ id: pipelineId(pipeline) }), field: 'buildCreate' },
});
/** `cancel` or `rebuild` build 1 of the pipeline. */
const changeBuild = (pipeline: string, change: 'cancel' | 'rebuild'): Action => ({
  rest: { method: 'PUT', path: () => buildsPath(pipeline, `/1/${change}`) },
  graphql: {
    query: change === 'cancel' ? BUILD_CANCEL : BUILD_REBUILD,
    variables: () => ({ id: builds[pipeline].graphql_id }),
    field: change === 'cancel' ? 'buildCancel' : 'buildRebuild',
  },
});
const ADD_PUBLIC_TO_PLATFORM: Action = {
  rest: {
    method: 'POST',
    path: () => `/v2/organizations/acme/teams/${teams.platform}/pipelines`,
    body: () => ({ pipeline_id: world.pipelines.public?.id, access_level: 'build_and_read' }),
  },
  graphql: {
    query: TEAM_PIPELINE_CREATE,
    variables: () => ({
      team: encodeGraphqlId('Team', teams.platform as string),
      pipeline: pipelineId('public'),
    }),
    field: 'teamPipelineCreate',
  },
};
const readPipeline = (slug: string): Action => ({
  rest: { method: 'GET', path: () => `/v2/organizations/acme/pipelines/${slug}` },
  graphql: { query: `{ pipeline(slug: "acme/${slug}") { id } }`, field: 'pipeline' },
});
const READ_ORGANIZATION: Action = {
  rest: { method: 'GET', path: () => '/v2/organizations/acme' },
  graphql: { query: '{ organization(slug: "acme") { id } }', field: 'organization' },
};
const readTeam = (team: 'platform' | 'covert'): Action => ({
  rest: {
    method: 'GET',
    path: () => `/v2/organizations/acme/teams/${team === 'covert' ? covert : teams.platform}`,
  },
  graphql: { query: TEAM_GET, variables: () => ({ slug: `acme/${team}` }), field: 'team' },
});
const READ_REGISTRY: Action = {
  rest: { method: 'GET', path: () => '/v2/packages/organizations/acme/registries/gems' },
  graphql: { query: '{ registry(slug: "acme/gems") { id } }', field: 'registry' },
};

const withoutScope = (scope: Scope) => ({
  status: 403,
  message: `Your access token doesn't have the ${scope} scope`,
});
const FORBIDDEN = { status: 403, message: 'Forbidden' };
const notFound = (what: 'organization' | 'pipeline' | 'team') => ({
  status: 404,
  message: `No ${what} found`,
});

const CASES: Case[] = [
  {
    name: 'reading a build without read_builds',
    token: token('admin', ['graphql', 'write_builds']),
    action: READ_BUILD,
    ...withoutScope('read_builds'),
  },
  {
    name: 'creating a build without write_builds',
    token: token('admin', ['graphql', 'read_builds']),
    action: createBuild('web'),
    ...withoutScope('write_builds'),
  },
  {
    name: 'canceling a build without write_builds',
    token: token('admin', ['graphql', 'read_builds']),
    action: changeBuild('web', 'cancel'),
    ...withoutScope('write_builds'),
  },
  {
    name: 'reading a build of another organization',
    token: token('outsider'),
    action: READ_BUILD,
    ...notFound('organization'),
  },
  {
    name: 'creating a build in an organization the token is not allowed',
    token: limitedToOther,
    action: createBuild('web'),
    ...notFound('organization'),
    byIdMessage: 'No pipeline found',
  },
  {
    name: 'canceling a build of another organization',
    token: token('outsider'),
    action: changeBuild('web', 'cancel'),
    ...notFound('organization'),
    byIdMessage: 'No build found',
  },
  {
    name: 'creating a build on a pipeline the member cannot see',
    token: token('member'),
    action: createBuild('secret'),
    ...notFound('pipeline'),
  },
  {
    name: 'canceling a build of a pipeline the member cannot see',
    token: token('member'),
    action: changeBuild('secret', 'cancel'),
    ...notFound('pipeline'),
  },
  {
    name: 'creating a build as a read_only team member',
    token: token('member'),
    action: createBuild('docs'),
    ...FORBIDDEN,
  },
  {
    name: 'canceling a build as a read_only team member',
    token: token('member'),
    action: changeBuild('docs', 'cancel'),
    ...FORBIDDEN,
  },
  {
    name: 'rebuilding a build as a read_only team member',
    token: token('member'),
    action: changeBuild('docs', 'rebuild'),
    ...FORBIDDEN,
  },
  {
    name: 'adding a pipeline to a team as a member',
    token: token('member'),
    action: ADD_PUBLIC_TO_PLATFORM,
    ...FORBIDDEN,
  },
  {
    name: 'adding a pipeline to a team without write_teams',
    token: token('admin', ['graphql', 'view_teams']),
    action: ADD_PUBLIC_TO_PLATFORM,
    ...withoutScope('write_teams'),
  },
  {
    name: 'reading a pipeline without read_pipelines',
    token: token('member', ['graphql', 'read_builds']),
    action: readPipeline('web'),
    ...withoutScope('read_pipelines'),
  },
  {
    name: 'reading a pipeline of another organization',
    token: token('outsider'),
    action: readPipeline('web'),
    ...notFound('organization'),
  },
  {
    name: 'reading a pipeline the member cannot see',
    token: token('member'),
    action: readPipeline('secret'),
    ...notFound('pipeline'),
  },
  {
    name: 'reading an organization without read_organizations',
    token: token('member', ['graphql', 'read_pipelines']),
    action: READ_ORGANIZATION,
    ...withoutScope('read_organizations'),
  },
  {
    name: 'reading another organization',
    token: token('outsider'),
    action: READ_ORGANIZATION,
    ...notFound('organization'),
  },
  {
    name: 'reading an organization the token is not allowed',
    token: limitedToOther,
    action: READ_ORGANIZATION,
    ...notFound('organization'),
  },
  {
    name: 'reading a secret team the member is not in',
    token: token('member'),
    action: readTeam('covert'),
    ...notFound('team'),
  },
  {
    name: 'reading a team without view_teams',
    token: token('member', ['graphql', 'read_organizations']),
    action: readTeam('platform'),
    ...withoutScope('view_teams'),
  },
  {
    name: 'reading a team of another organization',
    token: token('outsider'),
    action: readTeam('platform'),
    ...notFound('organization'),
  },
  {
    name: 'reading a registry without read_registries',
    token: token('admin', ['graphql']),
    action: READ_REGISTRY,
    ...withoutScope('read_registries'),
  },
];

describe('the same refusal', () => {
  it.each(CASES)('$name: REST $status and GraphQL say "$message"', async (row) => {
    const secret = await row.token();
    const { rest: request, graphql: operation } = row.action;
    const rest = await world.call(request.method, request.path(), {
      token: secret,
      ...(request.body ? { body: request.body() } : {}),
    });
    expect(rest.status, rest.text).toBe(row.status);
    expect(rest.body).toEqual({ message: row.message });
    const graphql = await world.gql(operation.query, operation.variables?.() ?? {}, { token: secret });
    expect(graphql.status, graphql.text).toBe(200);
    expect(graphql.body.data, graphql.text).toEqual({ [operation.field]: null });
    expect(graphql.body.errors.map((error: { message: string }) => error.message)).toEqual([
      row.byIdMessage ?? row.message,
    ]);
  });

  it('changes nothing when refusing', async () => {
    const before = await world.server.database.sql.query('select count(*)::int as n from builds');
    const member = world.tokens.member;
    await world.gql(BUILD_CREATE, { id: pipelineId('docs') }, { token: member });
    await world.gql(BUILD_CANCEL, { id: builds.docs.graphql_id }, { token: member });
    const after = await world.server.database.sql.query('select count(*)::int as n from builds');
    expect(after).toEqual(before);
    const docs = await world.call('GET', '/v2/organizations/acme/pipelines/docs/builds/1');
    expect(docs.body.state).toBe('scheduled');
  });
});
