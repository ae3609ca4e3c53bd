import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GraphqlWorld, startGraphqlWorld } from '../support/graphql-world';
import { teamIds } from '../support/world';

/**
 * Pipelines created from a pipeline template (issue 27): the template's configuration becomes the
 * pipeline's steps, REST shows `pipeline_template_uuid` and GraphQL `Pipeline.pipelineTemplate`. A
 * template must be one the caller sees: admins every one of the organization, members the available ones.
 */

let world: GraphqlWorld;
let acmeId: string;

const CONFIGURATION = `steps:
  - label: "Lint"
    command: "make lint"
  - wait
  - label: "Test"
    command: "make test"
`;
const TEMPLATE = `mutation createPipelineTemplate($organizationId: ID!, $name: String!, $configuration: String!,
    $available: Boolean) {
  pipelineTemplateCreate(input: { organizationId: $organizationId, name: $name, configuration: $configuration,
      available: $available }) {
    pipelineTemplate { id uuid name }
  }
}`;
const CREATE = `mutation createPipeline($input: PipelineCreateInput!) {
  pipelineCreate(input: $input) {
    pipelineTemplate { uuid }
    pipeline { slug steps { yaml } pipelineTemplate { uuid name } }
  }
}`;
const GET = `query getPipeline($slug: ID!) {
  pipeline(slug: $slug) { steps { yaml } pipelineTemplate { uuid name } }
}`;

const data = (response: Awaited<ReturnType<GraphqlWorld['gql']>>) => {
  expect(response.status, response.text).toBe(200);
  expect(response.body.errors, response.text).toBeUndefined();
  return response.body.data;
};

async function template(name: string, available: boolean) {
  return data(
    await world.gql(TEMPLATE, { organizationId: acmeId, name, configuration: CONFIGURATION, available }),
  ).pipelineTemplateCreate.pipelineTemplate as { id: string; uuid: string; name: string };
}

const refusal = {
  message: 'Validation Failed',
  errors: [
    {
      field: 'pipeline_template_uuid',
      code: 'invalid',
      message: 'pipeline_template_uuid names no pipeline template',
    },
  ],
};

beforeAll(async () => {
  world = await startGraphqlWorld();
  acmeId = data(await world.gql('{ organization(slug: "acme") { id } }')).organization.id;
});
afterAll(async () => world?.close());

describe('a pipeline from a template', () => {
  it('over REST: takes the template’s steps, builds its jobs and shows the template', async () => {
    const made = await template('Checks', false);
    const created = await world.call('POST', '/v2/organizations/acme/pipelines', {
      body: {
        name: 'From REST',
        repository: 'git@github.com:acme/app.git',
        pipeline_template_uuid: made.uuid,
      },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ pipeline_template_uuid: made.uuid, configuration: CONFIGURATION });

    const shown = await world.call('GET', '/v2/organizations/acme/pipelines/from-rest');
    expect(shown.body.pipeline_template_uuid).toBe(made.uuid);
    expect(data(await world.gql(GET, { slug: 'acme/from-rest' })).pipeline).toEqual({
      steps: { yaml: CONFIGURATION },
      pipelineTemplate: { uuid: made.uuid, name: 'Checks' },
    });

    const build = await world.createBuild('from-rest');
    const commands = build.jobs
      .filter((job: { type: string }) => job.type === 'script')
      .map((job: { command: string }) => job.command);
    expect(commands).toEqual(['make lint', 'make test']);
  });

  it('over GraphQL: takes the template’s steps and shows the template', async () => {
    const made = await template('Checks by GraphQL', true);
    const result = data(
      await world.gql(CREATE, {
        input: {
          organizationId: acmeId,
          name: 'From GraphQL',
          repository: { url: 'git@github.com:acme/app.git' },
          pipelineTemplateId: made.id,
        },
      }),
    ).pipelineCreate;
    expect(result).toEqual({
      pipelineTemplate: { uuid: made.uuid },
      pipeline: {
        slug: 'from-graphql',
        steps: { yaml: CONFIGURATION },
        pipelineTemplate: { uuid: made.uuid, name: 'Checks by GraphQL' },
      },
    });
    const shown = await world.call('GET', '/v2/organizations/acme/pipelines/from-graphql');
    expect(shown.body.pipeline_template_uuid).toBe(made.uuid);
  });

  it('refuses an unknown template, one beside configuration, and other organizations’ templates', async () => {
    const made = await template('Refused', true);
    const post = (body: Record<string, unknown>, token?: string) =>
      world.call('POST', '/v2/organizations/acme/pipelines', {
        body: { name: 'Refused', repository: 'git@github.com:acme/app.git', ...body },
        ...(token ? { token } : {}),
      });
    const unknown = await post({ pipeline_template_uuid: '018e5a22-d14c-7085-bb28-db0f83f43a1c' });
    expect(unknown.status).toBe(422);
    expect(unknown.body).toEqual(refusal);
    const both = await post({ pipeline_template_uuid: made.uuid, configuration: CONFIGURATION });
    expect(both.status).toBe(422);
    expect(both.body.errors).toEqual([expect.objectContaining({ field: 'pipeline_template_uuid' })]);
    const elsewhere = await world.call('POST', '/v2/organizations/other/pipelines', {
      token: world.tokens.outsider,
      body: { name: 'Refused', repository: 'git@github.com:acme/app.git', pipeline_template_uuid: made.uuid },
    });
    expect(elsewhere.status).toBe(422);
    expect(elsewhere.body).toEqual(refusal);
  });

  it('lets a member use an available template but not an unavailable one; null leaves the template', async () => {
    const hidden = await template('Admins only', false);
    const offered = await template('For everyone', true);
    const patch = (body: Record<string, unknown>) =>
      world.call('PATCH', '/v2/organizations/acme/pipelines/web', { token: world.tokens.member, body });
    const refused = await patch({ pipeline_template_uuid: hidden.uuid });
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual(refusal);
    const createdByMember = await world.call('POST', '/v2/organizations/acme/pipelines', {
      token: world.tokens.member,
      body: { name: 'Member', repository: 'r', pipeline_template_uuid: hidden.uuid },
    });
    expect(createdByMember.status).toBe(422);
    expect(createdByMember.body).toEqual(refusal);

    const used = await patch({ pipeline_template_uuid: offered.uuid });
    expect(used.status, used.text).toBe(200);
    expect(used.body).toMatchObject({ pipeline_template_uuid: offered.uuid, configuration: CONFIGURATION });
    expect(
      data(await world.gql(GET, { slug: 'acme/web' }, { token: world.tokens.member })).pipeline
        .pipelineTemplate,
    ).toEqual({ uuid: offered.uuid, name: 'For everyone' });

    const left = await patch({ pipeline_template_uuid: null });
    expect(left.status, left.text).toBe(200);
    expect(left.body).toMatchObject({ pipeline_template_uuid: null, configuration: CONFIGURATION });
  });

  it('shows no template to a member who may not see it, and none once it is deleted', async () => {
    const hidden = await template('Hidden later', true);
    const created = await world.call('POST', '/v2/organizations/acme/pipelines', {
      body: {
        name: 'Hidden Later',
        repository: 'r',
        pipeline_template_uuid: hidden.uuid,
        teams: { [(await teamIds(world)).platform!]: 'read_only' },
      },
    });
    expect(created.status, created.text).toBe(201);
    await world.gql(
      `mutation { pipelineTemplateUpdate(input: { organizationId: "${acmeId}", id: "${hidden.id}", available: false }) { pipelineTemplate { id } } }`,
    );
    expect(
      data(await world.gql(GET, { slug: 'acme/hidden-later' }, { token: world.tokens.member })).pipeline
        .pipelineTemplate,
    ).toBeNull();
    const unscoped = await world.token('admin', { scopes: ['graphql', 'read_pipelines'] });
    expect(
      data(await world.gql(GET, { slug: 'acme/hidden-later' }, { token: unscoped })).pipeline
        .pipelineTemplate,
    ).toBeNull();
    data(
      await world.gql(
        `mutation { pipelineTemplateDelete(input: { organizationId: "${acmeId}", id: "${hidden.id}" }) { deletedPipelineTemplateId } }`,
      ),
    );
    const after = await world.call('GET', '/v2/organizations/acme/pipelines/hidden-later');
    expect(after.body).toMatchObject({ pipeline_template_uuid: null, configuration: CONFIGURATION });
  });

  it('answers a template deleted between the look-up and the write as unknown (the repository)', async () => {
    const { pipelines } = world.server.database.repos;
    const found = await pipelines.findById(world.pipelines.web!.organizationId, world.pipelines.web!.id);
    const gone = '018e5a22-d14c-7085-bb28-db0f83f43a1d';
    expect(
      await pipelines.update({
        id: found!.id,
        change: (current) => ({ ...current, pipelineTemplateId: gone }),
      }),
    ).toBe('template_not_found');
    const copy = {
      ...found!,
      id: '018e5a22-d14c-7085-bb28-db0f83f43a1e',
      slug: 'copy',
      webhookToken: 'f'.repeat(64),
      pipelineTemplateId: gone,
    };
    expect(await pipelines.create({ pipeline: copy, teams: [] })).toBe('template_not_found');
    expect(await pipelines.findById(copy.organizationId, copy.id)).toBeNull();
  });
});
