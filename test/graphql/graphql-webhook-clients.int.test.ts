import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Reply } from '../support/answers';
import { API_URL, type GraphqlWorld, startGraphqlWorld } from '../support/graphql-world';

/**
 * A pipeline's inbound webhook over /graphql as real clients use it: operations with the selections of
 * the Terraform provider's `createPipelineWebhook`, `getPipelineWebhook` and `deletePipelineWebhook` and
 * the `bk` CLI's `PipelineCreateWebhook` (written here, not copied), and `Repository.provider`'s
 * settings and webhook URL.
 */

let world: GraphqlWorld;
beforeAll(async () => {
  world = await startGraphqlWorld();
});
afterAll(() => world?.close());

function data(response: Reply) {
  expect(response.status, response.text).toBe(200);
  expect(response.body.errors, response.text).toBeUndefined();
  return response.body.data;
}

const run = async (query: string, variables: Record<string, unknown> = {}, token?: string) =>
  data(await world.gql(query, variables, token ? { token } : {}));

const HOOK = 'fragment HookFields on RepositoryProviderWebhook { externalId url }';

const createPipelineWebhook = `mutation createPipelineWebhook($pipelineId: ID!) {
  pipelineCreateWebhook(input: { id: $pipelineId }) {
    pipeline { id repository { url } }
    webhook { ...HookFields }
  }
} ${HOOK}`;

const getPipelineWebhook = `query getPipelineWebhook($id: ID!) {
  node(id: $id) {
    ... on Pipeline {
      id
      repository {
        url
        provider {
          ... on RepositoryProviderGithub { webhook { ...HookFields } }
          ... on RepositoryProviderGithubEnterprise { webhook { ...HookFields } }
        }
      }
    }
  }
} ${HOOK}`;

const deletePipelineWebhook = `mutation deletePipelineWebhook($pipelineId: ID!, $repository: String) {
  pipelineDeleteWebhook(input: { id: $pipelineId, repository: $repository }) {
    pipeline { id }
    deletedWebhookExternalId
  }
}`;

async function githubPipelineId(name: string): Promise<string> {
  const response = await world.call('POST', '/v2/organizations/acme/pipelines', {
    body: {
      name,
      repository: 'git@github.com:acme/hooked.git',
      configuration: 'steps:\n  - command: make\n',
    },
  });
  expect(response.status, response.text).toBe(201);
  return response.body.graphql_id;
}

describe("the Terraform provider's pipeline webhook operations", () => {
  it('read, delete and create the webhook; the URL delivers only while it exists', async () => {
    const id = await githubPipelineId('terraform hooked');
    const read = await run(getPipelineWebhook, { id });
    const hook = read.node.repository.provider.webhook;
    expect(hook).toEqual({
      externalId: expect.stringMatching(/^[0-9a-f]{20}$/),
      url: expect.stringMatching(new RegExp(`^${API_URL}/webhooks/deliver/[0-9a-f]{50}$`)),
    });

    const deleted = await run(deletePipelineWebhook, { pipelineId: id, repository: null });
    expect(deleted.pipelineDeleteWebhook).toEqual({
      pipeline: { id },
      deletedWebhookExternalId: hook.externalId,
    });
    expect((await run(getPipelineWebhook, { id })).node.repository.provider.webhook).toBeNull();
    const gone = await world.call('POST', new URL(hook.url).pathname, {
      token: null,
      body: { branch: 'main' },
    });
    expect(gone.status).toBe(404);
    const again = await world.gql(deletePipelineWebhook, { pipelineId: id });
    expect(again.body.errors?.[0]?.message).toBe('The pipeline has no webhook');

    const created = (await run(createPipelineWebhook, { pipelineId: id })).pipelineCreateWebhook;
    expect(created.pipeline).toEqual({ id, repository: { url: 'git@github.com:acme/hooked.git' } });
    expect(created.webhook.url).not.toBe(hook.url);
    expect(created.webhook.externalId).not.toBe(hook.externalId);
    expect((await run(getPipelineWebhook, { id })).node.repository.provider.webhook).toEqual(created.webhook);
    const delivered = await world.call('POST', new URL(created.webhook.url).pathname, {
      token: null,
      body: { branch: 'main', message: 'over the new hook' },
    });
    expect(delivered.status, delivered.text).toBe(201);
  });
});

describe("the bk CLI's PipelineCreateWebhook", () => {
  it('answers clientMutationId and the deprecated pipelineID, keeping an existing webhook', async () => {
    const id = await githubPipelineId('cli hooked');
    const before = (await run(getPipelineWebhook, { id })).node.repository.provider.webhook;
    const answer = await run(
      `mutation PipelineCreateWebhook($id: ID!) {
        pipelineCreateWebhook(input: { id: $id, clientMutationId: "cli-1" }) { clientMutationId pipelineID }
      }`,
      { id },
    );
    expect(answer.pipelineCreateWebhook).toEqual({ clientMutationId: 'cli-1', pipelineID: id });
    expect((await run(getPipelineWebhook, { id })).node.repository.provider.webhook).toEqual(before);
  });

  it('refuses who may not edit the pipeline, and hides the webhook from them', async () => {
    const id = (await run('{ pipeline(slug: "acme/api") { id } }')).pipeline.id;
    const refused = await world.gql(
      createPipelineWebhook,
      { pipelineId: id },
      { token: world.tokens.member },
    );
    expect(refused.body.errors?.[0]?.message).toBe('Forbidden');
    const seen = await run(
      `query($id: ID!) { node(id: $id) { ... on Pipeline { webhookURL repository { provider { webhookUrl } } } } }`,
      { id },
      world.tokens.member,
    );
    expect(seen.node).toEqual({ webhookURL: null, repository: { provider: { webhookUrl: null } } });
  });
});

describe('Repository.provider', () => {
  it('shows the settings the webhook rules read and the webhook URL', async () => {
    const id = await githubPipelineId('provider settings');
    const answer = await run(
      `query($id: ID!) {
        node(id: $id) {
          ... on Pipeline {
            webhookURL
            repository {
              provider {
                name
                webhookUrl
                ... on RepositoryProviderGithub {
                  settings {
                    triggerMode buildPullRequests buildBranches buildTags buildPullRequestForks
                    prefixPullRequestForkBranchNames pullRequestBranchFilterEnabled pullRequestBranchFilterConfiguration
                  }
                }
              }
            }
          }
        }
      }`,
      { id },
    );
    const { webhookURL, repository } = answer.node;
    expect(repository.provider).toEqual({
      name: 'GitHub',
      webhookUrl: webhookURL,
      settings: {
        triggerMode: 'code',
        buildPullRequests: true,
        buildBranches: true,
        buildTags: false,
        buildPullRequestForks: false,
        prefixPullRequestForkBranchNames: true,
        pullRequestBranchFilterEnabled: false,
        pullRequestBranchFilterConfiguration: null,
      },
    });
    expect(webhookURL).toMatch(new RegExp(`^${API_URL}/webhooks/deliver/`));
  });
});
