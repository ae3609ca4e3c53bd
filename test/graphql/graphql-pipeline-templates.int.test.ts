import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorsOf, type GraphqlWorld, startGraphqlWorld } from '../support/graphql-world';

/**
 * Pipeline templates through GraphQL, with the operations an infrastructure client sends: create, read
 * by `pipelineTemplate(uuid:)` and `node`, list, update, delete. Admins change them and see all; other
 * members see the available ones.
 */

let world: GraphqlWorld;
let acmeId: string;

const CONFIGURATION =
  'steps:\n  - label: ":pipeline: Upload"\n    command: "buildkite-agent pipeline upload"\n';
const FIELDS =
  'id uuid name description configuration available createdAt updatedAt createdBy { name } updatedBy { name }';

const CREATE = `mutation createPipelineTemplate($organizationId: ID!, $name: String!, $configuration: String!,
    $description: String, $available: Boolean) {
  pipelineTemplateCreate(input: { organizationId: $organizationId, name: $name, configuration: $configuration,
      description: $description, available: $available }) {
    pipelineTemplate { ${FIELDS} }
  }
}`;
const UPDATE = `mutation updatePipelineTemplate($organizationId: ID!, $id: ID!, $name: String, $configuration: String,
    $description: String, $available: Boolean) {
  pipelineTemplateUpdate(input: { organizationId: $organizationId, id: $id, name: $name,
      configuration: $configuration, description: $description, available: $available }) {
    pipelineTemplate { ${FIELDS} }
  }
}`;
const DELETE = `mutation deletePipelineTemplate($organizationId: ID!, $id: ID!) {
  pipelineTemplateDelete(input: { organizationId: $organizationId, id: $id }) { deletedPipelineTemplateId }
}`;
const GET = `query getPipelineTemplate($uuid: ID!) { pipelineTemplate(uuid: $uuid) { ${FIELDS} } }`;
const NODE = `query getPipelineTemplateNode($id: ID!) { node(id: $id) { ... on PipelineTemplate { ${FIELDS} } } }`;
const LIST = `query listPipelineTemplates($order: PipelineTemplateOrder) {
  organization(slug: "acme") { pipelineTemplates(first: 50, order: $order) { count edges { node { name available } } } }
}`;

const data = (response: Awaited<ReturnType<GraphqlWorld['gql']>>) => {
  expect(response.status, response.text).toBe(200);
  expect(response.body.errors, response.text).toBeUndefined();
  return response.body.data;
};
async function create(name: string, available: boolean, token?: string) {
  return world.gql(
    CREATE,
    {
      organizationId: acmeId,
      name,
      configuration: CONFIGURATION,
      description: `${name} template`,
      available,
    },
    token ? { token } : {},
  );
}

beforeAll(async () => {
  world = await startGraphqlWorld();
  acmeId = data(await world.gql('{ organization(slug: "acme") { id } }')).organization.id;
});
afterAll(async () => world?.close());

describe('pipelineTemplateCreate', () => {
  it('stores a template and shows it by uuid and node', async () => {
    const { pipelineTemplate } = data(await create('Upload', true)).pipelineTemplateCreate;
    expect(pipelineTemplate).toMatchObject({
      name: 'Upload',
      description: 'Upload template',
      configuration: CONFIGURATION,
      available: true,
      createdBy: { name: 'Ada Admin' },
      updatedBy: { name: 'Ada Admin' },
    });
    expect(data(await world.gql(GET, { uuid: pipelineTemplate.uuid })).pipelineTemplate).toEqual(
      pipelineTemplate,
    );
    expect(data(await world.gql(NODE, { id: pipelineTemplate.id })).node).toEqual(pipelineTemplate);
  });

  it('refuses a configuration that is no pipeline, a blank name, members and missing scopes', async () => {
    const bad = await world.gql(CREATE, { organizationId: acmeId, name: 'Bad', configuration: 'steps: [' });
    expect(errorsOf(bad)).toEqual(['Validation Failed']);
    expect(errorsOf(await create(' ', false))).toEqual(["Name can't be blank"]);
    expect(errorsOf(await create('Mine', false, world.tokens.member))).toEqual(['Forbidden']);
    const token = await world.token('admin', { scopes: ['graphql', 'read_pipeline_templates'] });
    expect(errorsOf(await create('Mine', false, token))).toEqual([
      "Your access token doesn't have the write_pipeline_templates scope",
    ]);
  });
});

describe('pipelineTemplateUpdate and pipelineTemplateDelete', () => {
  it('changes what is given, then deletes', async () => {
    const { pipelineTemplate } = data(await create('Deploy', false)).pipelineTemplateCreate;
    const configuration = 'steps:\n  - command: "make deploy"\n';
    const updated = data(
      await world.gql(UPDATE, {
        organizationId: acmeId,
        id: pipelineTemplate.id,
        configuration,
        available: true,
      }),
    ).pipelineTemplateUpdate.pipelineTemplate;
    expect(updated).toMatchObject({
      name: 'Deploy',
      description: 'Deploy template',
      configuration,
      available: true,
    });
    const member = await world.gql(
      UPDATE,
      { organizationId: acmeId, id: pipelineTemplate.id, name: 'Mine' },
      { token: world.tokens.member },
    );
    expect(errorsOf(member)).toEqual(['Forbidden']);

    const deleted = data(
      await world.gql(DELETE, { organizationId: acmeId, id: pipelineTemplate.id }),
    ).pipelineTemplateDelete;
    expect(deleted).toEqual({ deletedPipelineTemplateId: pipelineTemplate.id });
    expect(errorsOf(await world.gql(GET, { uuid: pipelineTemplate.uuid }))).toEqual([
      'No pipeline template found',
    ]);
    expect(errorsOf(await world.gql(DELETE, { organizationId: acmeId, id: pipelineTemplate.id }))).toEqual([
      'No pipeline template found',
    ]);
  });
});

describe('reading pipeline templates', () => {
  it('shows admins every template and members the available ones, by name or newest first', async () => {
    const { pipelineTemplate } = data(await create('Hidden draft', false)).pipelineTemplateCreate;
    const admin = data(await world.gql(LIST, {})).organization.pipelineTemplates;
    const names = admin.edges.map((edge: { node: { name: string } }) => edge.node.name);
    expect(names).toEqual([...names].sort());
    expect(names).toContain('Hidden draft');
    const newest = data(await world.gql(LIST, { order: 'RECENTLY_CREATED' })).organization.pipelineTemplates;
    expect(newest.edges[0].node.name).toBe('Hidden draft');
    const member = data(await world.gql(LIST, {}, { token: world.tokens.member })).organization
      .pipelineTemplates;
    expect(member.edges.every((edge: { node: { available: boolean } }) => edge.node.available)).toBe(true);
    expect(member.count).toBe(admin.count - 1);
    expect(
      errorsOf(await world.gql(GET, { uuid: pipelineTemplate.uuid }, { token: world.tokens.member })),
    ).toEqual(['No pipeline template found']);
    expect(
      data(await world.gql(NODE, { id: pipelineTemplate.id }, { token: world.tokens.outsider })).node,
    ).toBeNull();
  });
});
