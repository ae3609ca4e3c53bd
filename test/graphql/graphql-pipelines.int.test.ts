import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { encodeGraphqlId } from '@ci/domain';
import { schema } from '@ci/graphql';
import { buildSchema, parse, validate } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNKNOWN_UUID } from '../support/answers';
import { type GraphqlWorld, startGraphqlWorld, WEB_URL } from '../support/graphql-world';
import { teamIds } from '../support/world';

/**
 * Pipelines over GraphQL as infrastructure tools drive them: reads of every field a pipeline resource
 * keeps, and the create / update / archive / unarchive / delete mutations with the inputs such tools
 * send. Each operation validates against the public schema's shape too; each change shows through
 * REST's GET and GraphQL's reads alike; REST's roles and scopes refuse the same callers.
 */

const REFERENCE = buildSchema(
  readFileSync(resolve(import.meta.dirname, '../fixtures/reference/buildkite-schema.graphql'), 'utf8'),
);

const PIPELINE_FIELDS = `fragment PipelineFields on Pipeline {
  id
  uuid
  name
  slug
  url
  description
  defaultBranch
  branchConfiguration
  allowRebuilds
  archived
  badgeURL
  webhookURL
  cancelIntermediateBuilds
  cancelIntermediateBuildsBranchFilter
  skipIntermediateBuilds
  skipIntermediateBuildsBranchFilter
  defaultTimeoutInMinutes
  maximumTimeoutInMinutes
  color
  emoji
  visibility
  tags { label }
  steps { yaml }
  pipelineTemplate { id uuid name }
  repository {
    url
    provider {
      __typename
      name
      url
      webhookUrl
      ... on RepositoryProviderGithub {
        settings {
          triggerMode buildPullRequests buildBranches buildTags publishCommitStatus
          pullRequestBranchFilterEnabled pullRequestBranchFilterConfiguration filterEnabled filterCondition
        }
      }
      ... on RepositoryProviderGitlab { settings { filterEnabled filterCondition } }
      ... on RepositoryProviderBitbucket { settings { buildPullRequests buildTags publishCommitStatus } }
      ... on RepositoryProviderUnknown { settings { filterEnabled } }
    }
  }
  teams(first: 50, order: RECENTLY_CREATED) {
    count
    edges { node { id accessLevel team { id slug } } }
  }
}`;

const OPERATIONS = {
  createPipeline: `mutation createPipeline($input: PipelineCreateInput!) {
    pipelineCreate(input: $input) {
      clientMutationId
      organization { slug }
      pipelineTemplate { id }
      pipelineEdge { cursor node { id } }
      pipeline { ...PipelineFields }
    }
  }
  ${PIPELINE_FIELDS}`,
  getPipeline: `query getPipeline($slug: ID!) {
    pipeline(slug: $slug) { ...PipelineFields }
  }
  ${PIPELINE_FIELDS}`,
  getNode: `query getNode($id: ID!) {
    node(id: $id) { ... on Pipeline { ...PipelineFields } }
  }
  ${PIPELINE_FIELDS}`,
  updatePipeline: `mutation updatePipeline($input: PipelineUpdateInput!) {
    pipelineUpdate(input: $input) {
      clientMutationId
      pipeline { ...PipelineFields }
    }
  }
  ${PIPELINE_FIELDS}`,
  archivePipeline: `mutation archivePipeline($id: ID!) {
    pipelineArchive(input: { id: $id }) { clientMutationId pipeline { id archived } }
  }`,
  unarchivePipeline: `mutation unarchivePipeline($id: ID!) {
    pipelineUnarchive(input: { id: $id }) { clientMutationId pipeline { id archived } }
  }`,
  deletePipeline: `mutation deletePipeline($id: ID!) {
    pipelineDelete(input: { id: $id }) { clientMutationId deletedPipelineID organization { slug } }
  }`,
  listPipelines: `query listPipelines($org: ID!, $first: Int, $search: String) {
    organization(slug: $org) {
      pipelines(first: $first, search: $search) {
        count
        edges { cursor node { id name slug description url repository { url } tags { label } visibility } }
        pageInfo { hasNextPage endCursor }
      }
    }
  }`,
  viewPipeline: `query viewPipeline($slug: ID!) {
    pipeline(slug: $slug) {
      name slug description url defaultBranch emoji color archived
      repository { url provider { name url } }
      steps { yaml }
      tags { label }
      builds(first: 3) { edges { node { number state branch message } } }
    }
  }`,
} as const;

let world: GraphqlWorld;
let teams: Record<string, string>;
let organizationId: string;
const teamId = (slug: string) => encodeGraphqlId('Team', teams[slug] as string);

type Reply = Awaited<ReturnType<GraphqlWorld['gql']>>;

function data(response: Reply, field: string) {
  expect(response.status, response.text).toBe(200);
  expect(response.body.errors, response.text).toBeUndefined();
  return response.body.data[field];
}

function refused(response: Reply, field: string, message: string) {
  expect(response.status, response.text).toBe(200);
  expect(response.body.data, response.text).toEqual({ [field]: null });
  expect(response.body.errors.map((error: { message: string }) => error.message)).toEqual([message]);
  return response.body.errors[0];
}

const YAML = 'steps:\n  - label: ":pipeline: upload"\n    command: buildkite-agent pipeline upload\n';

const createInput = (overrides: Record<string, unknown> = {}) => ({
  clientMutationId: 'tf-1',
  organizationId,
  name: 'Infra Deploy',
  description: 'Deploys the infrastructure',
  repository: { url: 'git@github.com:acme/infra.git' },
  steps: { yaml: YAML },
  defaultBranch: 'trunk',
  branchConfiguration: 'trunk release/*',
  allowRebuilds: false,
  cancelIntermediateBuilds: true,
  cancelIntermediateBuildsBranchFilter: '!trunk',
  skipIntermediateBuilds: true,
  skipIntermediateBuildsBranchFilter: 'feature/*',
  defaultTimeoutInMinutes: 30,
  maximumTimeoutInMinutes: 120,
  color: '#00FF00',
  emoji: ':terraform:',
  tags: [{ label: 'infra' }, { label: 'prod' }],
  teams: [{ id: teamId('platform'), accessLevel: 'MANAGE_BUILD_AND_READ' }],
  visibility: 'PRIVATE',
  clusterId: null,
  pipelineTemplateId: null,
  cloneMirrorUrl: null,
  ...overrides,
});

beforeAll(async () => {
  world = await startGraphqlWorld();
  teams = await teamIds(world);
  const organization = await world.gql('{ organization(slug: "acme") { id } }');
  organizationId = organization.body.data.organization.id;
});
afterAll(async () => world?.close());

describe('pipeline operations of infrastructure tools', () => {
  it.each(Object.entries(OPERATIONS))(
    '%s validates against our schema and the public one',
    (_name, query) => {
      const document = parse(query);
      expect(validate(REFERENCE, document).map((error) => error.message)).toEqual([]);
      expect(validate(schema, document).map((error) => error.message)).toEqual([]);
    },
  );
});

describe('pipelineCreate', () => {
  it('creates the pipeline the input describes, as REST and GraphQL then show it', async () => {
    const created = data(
      await world.gql(OPERATIONS.createPipeline, { input: createInput() }),
      'pipelineCreate',
    );
    expect(created.clientMutationId).toBe('tf-1');
    expect(created.organization).toEqual({ slug: 'acme' });
    expect(created.pipelineTemplate).toBeNull();
    expect(created.pipelineEdge.node.id).toBe(created.pipeline.id);
    const pipeline = created.pipeline;
    expect(pipeline).toMatchObject({
      name: 'Infra Deploy',
      slug: 'infra-deploy',
      url: `${WEB_URL}/acme/infra-deploy`,
      description: 'Deploys the infrastructure',
      defaultBranch: 'trunk',
      branchConfiguration: 'trunk release/*',
      allowRebuilds: false,
      archived: false,
      cancelIntermediateBuilds: true,
      cancelIntermediateBuildsBranchFilter: '!trunk',
      skipIntermediateBuilds: true,
      skipIntermediateBuildsBranchFilter: 'feature/*',
      defaultTimeoutInMinutes: 30,
      maximumTimeoutInMinutes: 120,
      color: '#00FF00',
      emoji: ':terraform:',
      visibility: 'PRIVATE',
      tags: [{ label: 'infra' }, { label: 'prod' }],
      steps: { yaml: YAML },
      pipelineTemplate: null,
      repository: {
        url: 'git@github.com:acme/infra.git',
        provider: {
          __typename: 'RepositoryProviderGithub',
          name: 'GitHub',
          url: 'https://github.com/acme/infra',
          webhookUrl: pipeline.webhookURL,
          settings: {
            triggerMode: 'code',
            buildPullRequests: true,
            buildBranches: true,
            buildTags: false,
            publishCommitStatus: true,
            pullRequestBranchFilterEnabled: false,
            pullRequestBranchFilterConfiguration: null,
            filterEnabled: false,
            filterCondition: null,
          },
        },
      },
      teams: {
        count: 1,
        edges: [
          {
            node: {
              accessLevel: 'MANAGE_BUILD_AND_READ',
              team: { id: teamId('platform'), slug: 'platform' },
            },
          },
        ],
      },
    });
    expect(pipeline.webhookURL).toMatch(/\/webhooks\/deliver\//);

    const rest = await world.call('GET', '/v2/organizations/acme/pipelines/infra-deploy');
    expect(rest.status, rest.text).toBe(200);
    expect(rest.body).toMatchObject({
      graphql_id: pipeline.id,
      id: pipeline.uuid,
      name: 'Infra Deploy',
      description: 'Deploys the infrastructure',
      default_branch: 'trunk',
      branch_configuration: 'trunk release/*',
      allow_rebuilds: false,
      skip_queued_branch_builds: true,
      skip_queued_branch_builds_filter: 'feature/*',
      cancel_running_branch_builds: true,
      cancel_running_branch_builds_filter: '!trunk',
      emoji: ':terraform:',
      color: '#00FF00',
      visibility: 'private',
      tags: ['infra', 'prod'],
      configuration: YAML,
      badge_url: pipeline.badgeURL,
      provider: { id: 'github', webhook_url: pipeline.webhookURL },
    });
    expect(data(await world.gql(OPERATIONS.getPipeline, { slug: 'acme/infra-deploy' }), 'pipeline')).toEqual(
      pipeline,
    );
    expect(data(await world.gql(OPERATIONS.getNode, { id: pipeline.id }), 'node')).toEqual(pipeline);
  });

  it("gives the new pipeline's edge the cursor of its place in the organization's list", async () => {
    const created = data(
      await world.gql(OPERATIONS.createPipeline, {
        input: createInput({
          name: 'Edge Case',
          teams: null,
          repository: { url: 'https://gitlab.com/acme/edge.git' },
        }),
      }),
      'pipelineCreate',
    );
    const list = data(await world.gql(OPERATIONS.listPipelines, { org: 'acme', first: 100 }), 'organization');
    const last = list.pipelines.edges.at(-1);
    expect(last.node.id).toBe(created.pipeline.id);
    expect(created.pipelineEdge.cursor).toBe(last.cursor);
    expect(created.pipeline.repository.provider).toMatchObject({
      __typename: 'RepositoryProviderGitlab',
      name: 'GitLab',
      url: 'https://gitlab.com/acme/edge',
      settings: { filterEnabled: false, filterCondition: null },
    });
  });

  it('refuses what REST refuses, with its messages', async () => {
    const invalid = refused(
      await world.gql(OPERATIONS.createPipeline, {
        input: createInput({ name: '!!!', defaultTimeoutInMinutes: 200, maximumTimeoutInMinutes: 100 }),
      }),
      'pipelineCreate',
      'Validation Failed',
    );
    expect(invalid.extensions.errors.map((error: { field: string }) => error.field)).toEqual([
      'name',
      'default_timeout_in_minutes',
    ]);
    const taken = refused(
      await world.gql(OPERATIONS.createPipeline, { input: createInput({ name: 'web' }) }),
      'pipelineCreate',
      'Validation Failed',
    );
    expect(taken.extensions.errors).toEqual([
      { field: 'name', code: 'taken', message: 'name has already been taken' },
    ]);
    const template = refused(
      await world.gql(OPERATIONS.createPipeline, {
        input: createInput({ name: 'Templated', pipelineTemplateId: 'UGlwZWxpbmVUZW1wbGF0ZS0tLXg=' }),
      }),
      'pipelineCreate',
      'Validation Failed',
    );
    expect(template.extensions.errors[0].field).toBe('pipeline_template_uuid');
    refused(
      await world.gql(OPERATIONS.createPipeline, {
        input: createInput({
          name: 'Elsewhere',
          organizationId: encodeGraphqlId('Organization', UNKNOWN_UUID),
        }),
      }),
      'pipelineCreate',
      'No organization found',
    );
  });

  it('lets a member create pipelines only for teams they may create them for', async () => {
    refused(
      await world.gql(
        OPERATIONS.createPipeline,
        { input: createInput({ name: 'Teamless', teams: null }) },
        {
          token: world.tokens.member,
        },
      ),
      'pipelineCreate',
      'Forbidden',
    );
    refused(
      await world.gql(
        OPERATIONS.createPipeline,
        { input: createInput({ name: 'Hidden Team', teams: [{ id: teamId('hidden') }] }) },
        { token: world.tokens.member },
      ),
      'pipelineCreate',
      'Forbidden',
    );
    const created = data(
      await world.gql(
        OPERATIONS.createPipeline,
        {
          input: createInput({
            name: 'Member Made',
            teams: [{ id: teamId('platform'), accessLevel: 'READ_ONLY' }],
          }),
        },
        { token: world.tokens.member },
      ),
      'pipelineCreate',
    );
    // Read-only through the team: rule B2 hides the webhook URL from the member who made it.
    expect(created.pipeline.webhookURL).toBeNull();
    expect(created.pipeline.repository.provider.webhookUrl).toBeNull();
  });

  it('needs write_pipelines', async () => {
    const token = await world.token('admin', { scopes: ['graphql', 'read_pipelines'] });
    refused(
      await world.gql(OPERATIONS.createPipeline, { input: createInput({ name: 'No Scope' }) }, { token }),
      'pipelineCreate',
      "Your access token doesn't have the write_pipelines scope",
    );
  });
});

describe('pipelineUpdate', () => {
  it('changes what the input names, as REST and GraphQL then show it', async () => {
    const { id } = data(
      await world.gql(OPERATIONS.createPipeline, { input: createInput({ name: 'To Change' }) }),
      'pipelineCreate',
    ).pipeline;
    const updated = data(
      await world.gql(OPERATIONS.updatePipeline, {
        input: {
          clientMutationId: 'tf-2',
          id,
          name: 'Changed',
          description: null,
          repository: { url: 'git@example.com:acme/changed.git' },
          steps: { yaml: 'steps:\n  - command: make\n' },
          cancelIntermediateBuilds: false,
          skipIntermediateBuilds: false,
          skipIntermediateBuildsBranchFilter: null,
          defaultTimeoutInMinutes: null,
          maximumTimeoutInMinutes: 10,
          color: '#123456',
          emoji: null,
          tags: [{ label: 'staging' }],
          visibility: 'PUBLIC',
          allowRebuilds: true,
        },
      }),
      'pipelineUpdate',
    );
    expect(updated.clientMutationId).toBe('tf-2');
    expect(updated.pipeline).toMatchObject({
      id,
      name: 'Changed',
      slug: 'changed',
      description: null,
      defaultBranch: 'trunk',
      cancelIntermediateBuilds: false,
      cancelIntermediateBuildsBranchFilter: '!trunk',
      skipIntermediateBuilds: false,
      skipIntermediateBuildsBranchFilter: null,
      defaultTimeoutInMinutes: null,
      maximumTimeoutInMinutes: 10,
      color: '#123456',
      emoji: null,
      tags: [{ label: 'staging' }],
      visibility: 'PUBLIC',
      allowRebuilds: true,
      steps: { yaml: 'steps:\n  - command: make\n' },
      repository: {
        url: 'git@example.com:acme/changed.git',
        provider: {
          __typename: 'RepositoryProviderUnknown',
          name: 'Other',
          url: null,
          settings: { filterEnabled: false },
        },
      },
    });
    const rest = await world.call('GET', '/v2/organizations/acme/pipelines/changed');
    expect(rest.body).toMatchObject({
      name: 'Changed',
      // REST shows no description as "" (the examples' form).
      description: '',
      repository: 'git@example.com:acme/changed.git',
      cancel_running_branch_builds: false,
      skip_queued_branch_builds: false,
      skip_queued_branch_builds_filter: null,
      color: '#123456',
      emoji: null,
      tags: ['staging'],
      visibility: 'public',
      allow_rebuilds: true,
      configuration: 'steps:\n  - command: make\n',
      provider: { id: 'git' },
    });
    expect((await world.call('GET', '/v2/organizations/acme/pipelines/to-change')).status).toBe(404);
    expect(data(await world.gql(OPERATIONS.getNode, { id }), 'node')).toEqual(updated.pipeline);
  });

  it('shows a change made over REST at once (one stored value)', async () => {
    const changed = await world.call('PATCH', '/v2/organizations/acme/pipelines/releases', {
      body: { skip_queued_branch_builds: true, cancel_running_branch_builds: true, emoji: ':ship:' },
    });
    expect(changed.status, changed.text).toBe(200);
    expect(
      data(await world.gql(OPERATIONS.viewPipeline, { slug: 'acme/releases' }), 'pipeline'),
    ).toMatchObject({ emoji: ':ship:' });
    const read = data(await world.gql(OPERATIONS.getPipeline, { slug: 'acme/releases' }), 'pipeline');
    expect(read).toMatchObject({
      skipIntermediateBuilds: true,
      cancelIntermediateBuilds: true,
      emoji: ':ship:',
    });
  });

  it('archives and unarchives with `archived`', async () => {
    const { id } = data(
      await world.gql(OPERATIONS.createPipeline, { input: createInput({ name: 'Archival' }) }),
      'pipelineCreate',
    ).pipeline;
    const archived = data(
      await world.gql(OPERATIONS.updatePipeline, {
        input: { id, archived: true, description: 'last words' },
      }),
      'pipelineUpdate',
    );
    expect(archived.pipeline).toMatchObject({ archived: true, description: 'last words' });
    expect(
      (await world.call('GET', '/v2/organizations/acme/pipelines/archival')).body.archived_at,
    ).not.toBeNull();
    refused(
      await world.gql(OPERATIONS.updatePipeline, { input: { id, description: 'more' } }),
      'pipelineUpdate',
      'Archived pipelines cannot be changed: unarchive the pipeline first',
    );
    const back = data(
      await world.gql(OPERATIONS.updatePipeline, { input: { id, archived: false, description: 'back' } }),
      'pipelineUpdate',
    );
    expect(back.pipeline).toMatchObject({ archived: false, description: 'back' });
  });

  it('needs edit permission: manage_build_and_read or admin', async () => {
    const id = encodeGraphqlId('Pipeline', world.pipelines.api?.id as string);
    refused(
      await world.gql(
        OPERATIONS.updatePipeline,
        { input: { id, description: 'x' } },
        { token: world.tokens.member },
      ),
      'pipelineUpdate',
      'Forbidden',
    );
    refused(
      await world.gql(
        OPERATIONS.updatePipeline,
        {
          input: { id: encodeGraphqlId('Pipeline', world.pipelines.secret?.id as string), description: 'x' },
        },
        { token: world.tokens.member },
      ),
      'pipelineUpdate',
      'No pipeline found',
    );
    refused(
      await world.gql(OPERATIONS.updatePipeline, {
        input: { id: encodeGraphqlId('Pipeline', world.pipelines.elsewhere?.id as string), description: 'x' },
      }),
      'pipelineUpdate',
      'No pipeline found',
    );
    const web = encodeGraphqlId('Pipeline', world.pipelines.web?.id as string);
    const done = data(
      await world.gql(
        OPERATIONS.updatePipeline,
        { input: { id: web, description: 'by a maintainer' } },
        {
          token: world.tokens.member,
        },
      ),
      'pipelineUpdate',
    );
    expect(done.pipeline.description).toBe('by a maintainer');
    const readOnly = await world.token('admin', { scopes: ['graphql', 'read_pipelines'] });
    refused(
      await world.gql(
        OPERATIONS.updatePipeline,
        { input: { id: web, description: 'x' } },
        { token: readOnly },
      ),
      'pipelineUpdate',
      "Your access token doesn't have the write_pipelines scope",
    );
  });
});

describe('pipelineArchive, pipelineUnarchive', () => {
  it('archive and unarchive, as REST then shows, with the public refusals', async () => {
    const { id } = data(
      await world.gql(OPERATIONS.createPipeline, { input: createInput({ name: 'Shelved' }) }),
      'pipelineCreate',
    ).pipeline;
    expect(data(await world.gql(OPERATIONS.archivePipeline, { id }), 'pipelineArchive').pipeline).toEqual({
      id,
      archived: true,
    });
    expect(
      (await world.call('GET', '/v2/organizations/acme/pipelines/shelved')).body.archived_at,
    ).not.toBeNull();
    refused(
      await world.gql(OPERATIONS.archivePipeline, { id }),
      'pipelineArchive',
      'Pipeline could not be archived.',
    );
    expect(data(await world.gql(OPERATIONS.unarchivePipeline, { id }), 'pipelineUnarchive').pipeline).toEqual(
      {
        id,
        archived: false,
      },
    );
    expect((await world.call('GET', '/v2/organizations/acme/pipelines/shelved')).body.archived_at).toBeNull();
    refused(
      await world.gql(OPERATIONS.unarchivePipeline, { id }),
      'pipelineUnarchive',
      'Pipeline could not be unarchived.',
    );
  });

  it('are refused to members without edit permission and to tokens without write_pipelines', async () => {
    const api = encodeGraphqlId('Pipeline', world.pipelines.api?.id as string);
    refused(
      await world.gql(OPERATIONS.archivePipeline, { id: api }, { token: world.tokens.member }),
      'pipelineArchive',
      'Forbidden',
    );
    refused(
      await world.gql(
        OPERATIONS.unarchivePipeline,
        { id: encodeGraphqlId('Pipeline', world.pipelines.archived?.id as string) },
        { token: world.tokens.member },
      ),
      'pipelineUnarchive',
      'Forbidden',
    );
    const token = await world.token('admin', { scopes: ['graphql', 'read_pipelines'] });
    refused(
      await world.gql(OPERATIONS.archivePipeline, { id: api }, { token }),
      'pipelineArchive',
      "Your access token doesn't have the write_pipelines scope",
    );
  });
});

describe('pipelineDelete', () => {
  it('deletes the pipeline: REST and GraphQL then find none', async () => {
    const { id } = data(
      await world.gql(OPERATIONS.createPipeline, { input: createInput({ name: 'Doomed' }) }),
      'pipelineCreate',
    ).pipeline;
    const deleted = data(await world.gql(OPERATIONS.deletePipeline, { id }), 'pipelineDelete');
    expect(deleted).toEqual({
      clientMutationId: null,
      deletedPipelineID: id,
      organization: { slug: 'acme' },
    });
    expect((await world.call('GET', '/v2/organizations/acme/pipelines/doomed')).status).toBe(404);
    refused(
      await world.gql(OPERATIONS.getPipeline, { slug: 'acme/doomed' }),
      'pipeline',
      'No pipeline found',
    );
    refused(await world.gql(OPERATIONS.deletePipeline, { id }), 'pipelineDelete', 'No pipeline found');
  });

  it('is refused as REST refuses it', async () => {
    const docs = encodeGraphqlId('Pipeline', world.pipelines.docs?.id as string);
    refused(
      await world.gql(OPERATIONS.deletePipeline, { id: docs }, { token: world.tokens.member }),
      'pipelineDelete',
      'Forbidden',
    );
    refused(
      await world.gql(OPERATIONS.deletePipeline, { id: docs }, { token: world.tokens.bystander }),
      'pipelineDelete',
      'No pipeline found',
    );
    const token = await world.token('admin', { scopes: ['graphql', 'read_pipelines'] });
    refused(
      await world.gql(OPERATIONS.deletePipeline, { id: docs }, { token }),
      'pipelineDelete',
      "Your access token doesn't have the write_pipelines scope",
    );
    expect((await world.call('GET', '/v2/organizations/acme/pipelines/docs')).status).toBe(200);
  });
});

describe('pipeline reads', () => {
  it('answer a list and a view with the fields tools show', async () => {
    const list = data(
      await world.gql(OPERATIONS.listPipelines, { org: 'acme', first: 2, search: 'infra' }),
      'organization',
    );
    expect(list.pipelines.edges.map((edge: { node: { slug: string } }) => edge.node.slug)).toEqual([
      'infra-deploy',
    ]);
    expect(list.pipelines.edges[0].node).toMatchObject({
      tags: [{ label: 'infra' }, { label: 'prod' }],
      visibility: 'PRIVATE',
    });
    await world.createBuild('web');
    const view = data(await world.gql(OPERATIONS.viewPipeline, { slug: 'acme/web' }), 'pipeline');
    expect(view).toMatchObject({
      slug: 'web',
      tags: [],
      emoji: null,
      color: null,
      archived: false,
      repository: { url: 'git@example.com:acme/web.git', provider: { name: 'Other', url: null } },
      steps: { yaml: expect.stringContaining('make build') },
    });
    expect(view.builds.edges.length).toBeGreaterThan(0);
  });

  it("list a pipeline's teams newest association first, or by the team's name", async () => {
    const { id } = data(
      await world.gql(OPERATIONS.createPipeline, {
        input: createInput({ name: 'Two Teams', teams: [{ id: teamId('platform') }] }),
      }),
      'pipelineCreate',
    ).pipeline;
    const added = await world.gql(
      'mutation($teamID: ID!, $pipelineID: ID!) { teamPipelineCreate(input: { teamID: $teamID, pipelineID: $pipelineID }) { clientMutationId } }',
      { teamID: teamId('hidden'), pipelineID: id },
    );
    expect(added.body.errors, added.text).toBeUndefined();
    const slugs = async (order: string | null) => {
      const argument = order ? `, order: ${order}` : '';
      const read = data(
        await world.gql(
          `query($id: ID!) { node(id: $id) { ... on Pipeline {
          teams(first: 10${argument}) { edges { node { team { slug } } } } } } }`,
          { id },
        ),
        'node',
      );
      return read.teams.edges.map((edge: { node: { team: { slug: string } } }) => edge.node.team.slug);
    };
    expect(await slugs(null)).toEqual(['hidden', 'platform']);
    expect(await slugs('RECENTLY_CREATED')).toEqual(['hidden', 'platform']);
    expect(await slugs('RELEVANCE')).toEqual(['hidden', 'platform']);
    // Names: "Hidden" < "Platform"; make the later team sort last by name to tell the orders apart.
    await world.server.database.sql.query(`update teams set name = 'Zulu Hidden' where slug = 'hidden'`);
    expect(await slugs('NAME')).toEqual(['platform', 'hidden']);
    expect(await slugs(null)).toEqual(['hidden', 'platform']);
    await world.server.database.sql.query(`update teams set name = 'Hidden' where slug = 'hidden'`);
  });

  it("search a pipeline's teams by name, the count only those found", async () => {
    const TEAMS = `query getPipelineTeams($slug: ID!, $search: String) { pipeline(slug: $slug) {
      teams(first: 10, order: NAME, search: $search) { count edges { node { team { slug } } } } } }`;
    await world.gql(
      'mutation($teamID: ID!, $pipelineID: ID!) { teamPipelineCreate(input: { teamID: $teamID, pipelineID: $pipelineID }) { clientMutationId } }',
      {
        teamID: teamId('hidden'),
        pipelineID: encodeGraphqlId('Pipeline', world.pipelines.docs?.id as string),
      },
    );
    const found = async (search: string | null) => {
      const { teams: list } = data(await world.gql(TEAMS, { slug: 'acme/docs', search }), 'pipeline');
      return {
        count: list.count,
        slugs: list.edges.map((edge: { node: { team: { slug: string } } }) => edge.node.team.slug),
      };
    };
    expect(await found(null)).toEqual({ count: 2, slugs: ['hidden', 'platform'] });
    expect(await found('PLAT')).toEqual({ count: 1, slugs: ['platform'] });
    expect(await found('%')).toEqual({ count: 0, slugs: [] });
    const asMember = await world.gql(
      TEAMS,
      { slug: 'acme/docs', search: 'FORM' },
      { token: world.tokens.member },
    );
    expect(asMember.body.data.pipeline.teams).toEqual({
      count: 1,
      edges: [{ node: { team: { slug: 'platform' } } }],
    });
  });

  it("show every provider setting the public schema names, the pipeline's cluster and no clone mirror", async () => {
    const SETTINGS = `query getPipelineProviderSettings($id: ID!) { node(id: $id) { ... on Pipeline {
      cloneMirrorUrl cluster { id name }
      repository { provider { __typename
        ... on RepositoryProviderGithub { settings { triggerMode buildPullRequestReadyForReview
          buildPullRequestReviewSubmitted buildReleasePublished issueCommentCommandWord issueCommentMatchMode
          ignoreDefaultBranchPullRequests githubWebhooksDisabled } }
        ... on RepositoryProviderGithubEnterprise { settings { buildBranches reviewCommentMatchMode } }
        ... on RepositoryProviderBitbucket { settings { ignoreDefaultBranchPullRequests } }
        ... on RepositoryProviderBitbucketServer { settings { buildBranches filterEnabled } }
        ... on RepositoryProviderGitlabCommunity { settings { filterCondition } }
        ... on RepositoryProviderGitlabEnterprise { settings { filterCondition } }
        ... on RepositoryProviderBeanstalk { settings { filterEnabled } }
        ... on RepositoryProviderCodebase { settings { filterEnabled } }
        ... on RepositoryProviderCursorOrigin { settings { publishCommitStatus } }
      } } } } }`;
    expect(validate(REFERENCE, parse(SETTINGS)).map((error) => error.message)).toEqual([]);
    const cluster = await world.call('POST', '/v2/organizations/acme/clusters', {
      body: { name: 'Builders' },
    });
    expect(cluster.status, cluster.text).toBe(201);
    const created = await world.call('POST', '/v2/organizations/acme/pipelines', {
      body: {
        name: 'Settings',
        repository: 'git@github.com:acme/settings.git',
        configuration: 'steps:\n  - command: make\n',
        cluster_id: cluster.body.id,
        provider_settings: {
          trigger_mode: 'deployment',
          build_pull_request_ready_for_review: true,
          build_release_published: true,
          issue_comment_command_word: '/build',
          issue_comment_match_mode: 'exact',
        },
      },
    });
    expect(created.status, created.text).toBe(201);
    const read = data(await world.gql(SETTINGS, { id: created.body.graphql_id }), 'node');
    expect(read).toEqual({
      cloneMirrorUrl: null,
      cluster: { id: cluster.body.graphql_id, name: 'Builders' },
      repository: {
        provider: {
          __typename: 'RepositoryProviderGithub',
          settings: {
            triggerMode: 'deployment',
            buildPullRequestReadyForReview: true,
            buildPullRequestReviewSubmitted: false,
            buildReleasePublished: true,
            issueCommentCommandWord: '/build',
            issueCommentMatchMode: 'EXACT',
            ignoreDefaultBranchPullRequests: false,
            githubWebhooksDisabled: false,
          },
        },
      },
    });
    const withoutClusters = await world.token('admin', { scopes: ['graphql', 'read_pipelines'] });
    const limited = await world.gql(SETTINGS, { id: created.body.graphql_id }, { token: withoutClusters });
    expect(data(limited, 'node').cluster).toBeNull();
  });

  it('hide the webhook URL from members who may not edit the pipeline (rule B2)', async () => {
    const read = data(
      await world.gql(OPERATIONS.getPipeline, { slug: 'acme/api' }, { token: world.tokens.member }),
      'pipeline',
    );
    expect(read.webhookURL).toBeNull();
    expect(read.repository.provider.webhookUrl).toBeNull();
    const admin = data(await world.gql(OPERATIONS.getPipeline, { slug: 'acme/api' }), 'pipeline');
    expect(admin.webhookURL).toMatch(/\/webhooks\/deliver\//);
    expect(admin.repository.provider.webhookUrl).toBe(admin.webhookURL);
  });
});
