import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GraphqlWorld, startGraphqlWorld } from '../support/graphql-world';

/** The build lists' filters refuse unstorable text on GraphQL as on REST: a clear error, never an internal one. */

let world: GraphqlWorld;
beforeAll(async () => {
  world = await startGraphqlWorld();
  await world.createBuild('web');
});
afterAll(async () => {
  await world?.close();
});

const messagesOf = (response: Awaited<ReturnType<GraphqlWorld['gql']>>) =>
  (response.body.errors as Array<{ message: string }>).map((error) => error.message);

describe('build list filters with text no build can hold', () => {
  const PIPELINE_BUILDS = `query($branch: [String!], $commit: [String!], $metaData: [String!]) {
    pipeline(slug: "acme/web") { builds(first: 5, branch: $branch, commit: $commit, metaData: $metaData) { count } }
  }`;

  it.each([
    [{ branch: ['main', 'a\u0000b'] }, 'branch'],
    [{ commit: ['\u0000'] }, 'commit'],
    [{ metaData: ['env=pr\u0000d'] }, 'meta_data'],
  ])("refuse %o on a pipeline's builds, naming the filter", async (variables, name) => {
    const response = await world.gql(PIPELINE_BUILDS, variables);
    expect(response.status).toBe(200);
    expect(response.body.data.pipeline.builds).toBeNull();
    expect(messagesOf(response)).toEqual([`${name} can't contain NUL characters or unpaired surrogates`]);
  });

  it("refuse them on the viewer's builds", async () => {
    const response = await world.gql('query { viewer { builds(first: 5, branch: "a\\u0000b") { count } } }');
    expect(response.status).toBe(200);
    expect(messagesOf(response)).toEqual(["branch can't contain NUL characters or unpaired surrogates"]);
  });

  it('still answer storable filters', async () => {
    const response = await world.gql(PIPELINE_BUILDS, { branch: ['main'] });
    expect(response.body.errors).toBeUndefined();
    expect(response.body.data.pipeline.builds.count).toBe(1);
  });
});
