import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorsOf, type GraphqlWorld, startGraphqlWorld } from '../support/graphql-world';

/**
 * Organization rules through GraphQL, with the operations an infrastructure client sends: create with a
 * JSON value (as a JSON text, as providers send it), read by `rule(uuid:)` and `node`, list, update and
 * delete. Admins only (`read_rules` / `write_rules`). What they allow is tested where it is enforced
 * (trigger-steps.int.test.ts, artifact reads).
 */

let world: GraphqlWorld;
let acmeId: string;

const FIELDS = `id uuid type action effect description document sourceType targetType
  source { __typename ... on Pipeline { uuid slug } }
  target { __typename ... on Pipeline { uuid slug } }
  createdBy { name }
  organization { slug }`;

const CREATE = `mutation createRule($organizationId: ID!, $type: String!, $value: JSON!, $description: String) {
  ruleCreate(input: { organizationId: $organizationId, type: $type, value: $value, description: $description }) {
    clientMutationId
    rule { ${FIELDS} }
  }
}`;

const UPDATE = `mutation updateRule($organizationId: ID!, $id: ID!, $value: JSON!, $description: String) {
  ruleUpdate(input: { organizationId: $organizationId, id: $id, value: $value, description: $description }) {
    rule { ${FIELDS} }
  }
}`;

const DELETE = `mutation deleteRule($organizationId: ID!, $id: ID!) {
  ruleDelete(input: { organizationId: $organizationId, id: $id }) { deletedRuleId }
}`;

const GET = `query getRule($uuid: ID!) { rule(uuid: $uuid) { ${FIELDS} } }`;
const NODE = `query getRuleNode($id: ID!) { node(id: $id) { ... on Rule { ${FIELDS} } } }`;
const LIST = `query listRules($slug: ID!, $action: [RuleAction!], $sourceId: ID, $targetId: ID) {
  organization(slug: $slug) {
    rules(first: 50, action: $action, sourceId: $sourceId, targetId: $targetId) {
      count
      edges { node { uuid type } }
    }
  }
}`;

const data = (response: Awaited<ReturnType<GraphqlWorld['gql']>>) => {
  expect(response.status, response.text).toBe(200);
  expect(response.body.errors, response.text).toBeUndefined();
  return response.body.data;
};

const uuidOf = (name: string) => (world.pipelines[name] as { id: string }).id;

async function create(type: string, source: string, target: string, token?: string) {
  return world.gql(
    CREATE,
    {
      organizationId: acmeId,
      type,
      value: JSON.stringify({ source_pipeline: source, target_pipeline: target }),
      description: `${source} → ${target}`,
    },
    token ? { token } : {},
  );
}

beforeAll(async () => {
  world = await startGraphqlWorld();
  acmeId = data(await world.gql('{ organization(slug: "acme") { id } }')).organization.id;
});
afterAll(async () => world?.close());

describe('ruleCreate', () => {
  it('stores a trigger rule between pipelines named by slug or UUID, and shows it', async () => {
    const { rule } = data(await create('pipeline.trigger_build.pipeline', 'web', uuidOf('api'))).ruleCreate;
    expect(rule).toMatchObject({
      type: 'pipeline.trigger_build.pipeline',
      action: 'TRIGGER_BUILD',
      effect: 'ALLOW',
      description: `web → ${uuidOf('api')}`,
      sourceType: 'PIPELINE',
      targetType: 'PIPELINE',
      source: { __typename: 'Pipeline', uuid: uuidOf('web'), slug: 'web' },
      target: { __typename: 'Pipeline', uuid: uuidOf('api'), slug: 'api' },
      createdBy: { name: 'Ada Admin' },
      organization: { slug: 'acme' },
    });
    expect(JSON.parse(rule.document)).toEqual({
      rule: 'pipeline.trigger_build.pipeline',
      value: { source_pipeline: uuidOf('web'), target_pipeline: uuidOf('api') },
    });
    expect(data(await world.gql(GET, { uuid: rule.uuid })).rule).toEqual(rule);
    expect(data(await world.gql(NODE, { id: rule.id })).node).toEqual(rule);
  });

  it('takes the value as a JSON object too, with conditions', async () => {
    const response = await world.gql(CREATE, {
      organizationId: acmeId,
      type: 'pipeline.artifacts_read.pipeline',
      value: { source_pipeline: 'acme/docs', target_pipeline: 'web', conditions: ['build.branch == "main"'] },
    });
    const { rule } = data(response).ruleCreate;
    expect(rule).toMatchObject({ action: 'ARTIFACTS_READ', description: null });
    expect(JSON.parse(rule.document).value.conditions).toEqual(['build.branch == "main"']);
  });

  it('refuses unknown types, bad values and pipelines of other organizations', async () => {
    expect(errorsOf(await create('pipeline.deploy.pipeline', 'web', 'api'))).toEqual([
      'Type must be one of pipeline.trigger_build.pipeline, pipeline.artifacts_read.pipeline',
    ]);
    expect(errorsOf(await create('pipeline.trigger_build.pipeline', 'web', 'elsewhere'))).toEqual([
      'Value target_pipeline names no pipeline of this organization: elsewhere',
    ]);
    expect(errorsOf(await create('pipeline.trigger_build.pipeline', 'nope', 'api'))).toEqual([
      'Value source_pipeline names no pipeline of this organization: nope',
    ]);
    const notJson = await world.gql(CREATE, {
      organizationId: acmeId,
      type: 'pipeline.trigger_build.pipeline',
      value: '[1]',
    });
    expect(errorsOf(notJson)).toEqual(['Value must be a JSON object']);
  });

  it('refuses members who are not admins and tokens without write_rules', async () => {
    expect(
      errorsOf(await create('pipeline.trigger_build.pipeline', 'web', 'api', world.tokens.member)),
    ).toEqual(['Forbidden']);
    const token = await world.token('admin', { scopes: ['graphql', 'read_rules'] });
    expect(errorsOf(await create('pipeline.trigger_build.pipeline', 'web', 'api', token))).toEqual([
      "Your access token doesn't have the write_rules scope",
    ]);
    expect(
      errorsOf(await create('pipeline.trigger_build.pipeline', 'web', 'api', world.tokens.outsider)),
    ).toEqual(['No organization found']);
  });
});

describe('ruleUpdate and ruleDelete', () => {
  it('changes the value and description, then deletes the rule', async () => {
    const { rule } = data(await create('pipeline.trigger_build.pipeline', 'web', 'docs')).ruleCreate;
    const value = JSON.stringify({ source_pipeline: 'web', target_pipeline: 'public' });
    const updated = data(
      await world.gql(UPDATE, { organizationId: acmeId, id: rule.id, value, description: 'to public' }),
    ).ruleUpdate.rule;
    expect(updated).toMatchObject({
      id: rule.id,
      type: 'pipeline.trigger_build.pipeline',
      description: 'to public',
      target: { slug: 'public' },
    });
    expect(data(await world.gql(GET, { uuid: rule.uuid })).rule.target.slug).toBe('public');

    const member = await world.gql(
      DELETE,
      { organizationId: acmeId, id: rule.id },
      { token: world.tokens.member },
    );
    expect(errorsOf(member)).toEqual(['Forbidden']);
    const deleted = data(await world.gql(DELETE, { organizationId: acmeId, id: rule.id })).ruleDelete;
    expect(deleted).toEqual({ deletedRuleId: rule.id });
    expect(errorsOf(await world.gql(GET, { uuid: rule.uuid }))).toEqual(['No rule found']);
    expect(data(await world.gql(NODE, { id: rule.id })).node).toBeNull();
    expect(errorsOf(await world.gql(DELETE, { organizationId: acmeId, id: rule.id }))).toEqual([
      'No rule found',
    ]);
  });

  it('refuses a member’s update and an update with a bad value', async () => {
    const { rule } = data(await create('pipeline.trigger_build.pipeline', 'web', 'docs')).ruleCreate;
    const value = { source_pipeline: 'web', target_pipeline: 'api' };
    const member = await world.gql(
      UPDATE,
      { organizationId: acmeId, id: rule.id, value },
      { token: world.tokens.member },
    );
    expect(errorsOf(member)).toEqual(['Forbidden']);
    const bad = await world.gql(UPDATE, {
      organizationId: acmeId,
      id: rule.id,
      value: { source_pipeline: 'web' },
    });
    expect(errorsOf(bad)).toEqual(['Value target_pipeline must name a pipeline (its UUID or slug)']);
    expect(data(await world.gql(GET, { uuid: rule.uuid })).rule.target.slug).toBe('docs');
  });
});

describe('reading rules', () => {
  it('lists the organization’s rules newest first, by action and pipelines', async () => {
    const all = data(await world.gql(LIST, { slug: 'acme' })).organization.rules;
    expect(all.count).toBe(all.edges.length);
    expect(all.count).toBeGreaterThanOrEqual(3);
    const reads = data(await world.gql(LIST, { slug: 'acme', action: ['ARTIFACTS_READ'] })).organization
      .rules;
    expect(reads.edges.map((edge: { node: { type: string } }) => edge.node.type)).toEqual([
      'pipeline.artifacts_read.pipeline',
    ]);
    const pipelineId = data(await world.gql('{ pipeline(slug: "acme/api") { id } }')).pipeline.id;
    const toApi = data(await world.gql(LIST, { slug: 'acme', targetId: pipelineId })).organization.rules;
    expect(toApi.count).toBe(1);
    const fromDocs = data(await world.gql(LIST, { slug: 'acme', sourceId: uuidOf('docs') })).organization
      .rules;
    expect(fromDocs.count).toBe(1);
  });

  it('refuses members who are not admins and tokens without read_rules', async () => {
    expect(errorsOf(await world.gql(LIST, { slug: 'acme' }, { token: world.tokens.member }))).toEqual([
      'Forbidden',
    ]);
    const { rule } = data(await create('pipeline.trigger_build.pipeline', 'web', 'api')).ruleCreate;
    expect(errorsOf(await world.gql(GET, { uuid: rule.uuid }, { token: world.tokens.member }))).toEqual([
      'Forbidden',
    ]);
    expect(data(await world.gql(NODE, { id: rule.id }, { token: world.tokens.member })).node).toBeNull();
    const token = await world.token('admin', { scopes: ['graphql'] });
    expect(errorsOf(await world.gql(GET, { uuid: rule.uuid }, { token }))).toEqual([
      "Your access token doesn't have the read_rules scope",
    ]);
  });

  it('goes with its pipelines', async () => {
    const pipeline = await world.server.useCases.admin.createPipeline({
      organization: 'acme',
      name: 'short-lived',
      repository: 'git@example.com:acme/short-lived.git',
      steps: 'steps:\n  - command: "true"\n',
    });
    const { rule } = data(await create('pipeline.trigger_build.pipeline', 'short-lived', 'web')).ruleCreate;
    await world.server.database.sql.query('delete from pipelines where id = $1', [pipeline.id]);
    expect(errorsOf(await world.gql(GET, { uuid: rule.uuid }))).toEqual(['No rule found']);
  });
});
