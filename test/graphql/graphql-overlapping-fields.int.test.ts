import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GraphqlWorld, startGraphqlWorld } from '../support/graphql-world';

/**
 * Fields of one name whose types differ only in nullability across the members of a union (`User.name`
 * is `String!`, `UnregisteredUser.name` is `String`), as a build list of bktide's selects them: the public
 * service answers such operations, graphql-js's OverlappingFieldsCanBeMerged alone would refuse them.
 */
describe('GraphQL validation of fields that differ only in nullability', () => {
  let world: GraphqlWorld;

  beforeAll(async () => {
    world = await startGraphqlWorld();
    await world.createBuild('web');
    const guest = await world.createBuild('web', {
      author: { name: 'Guest Author', email: 'guest@example.test' },
    });
    // A build nobody registered created (a webhook's): its creator is the author, an UnregisteredUser.
    await world.server.database.sql.query('update builds set creator_id = null where id = $1', [guest.id]);
  });
  afterAll(() => world.close());

  const BUILDS_WITH_CREATORS = `query BuildsWithCreators($slug: ID!, $first: Int) {
    pipeline(slug: $slug) {
      builds(first: $first) {
        edges {
          node {
            number
            createdBy {
              __typename
              ... on User { name email avatar { url } }
              ... on UnregisteredUser { name email avatar { url } }
            }
          }
        }
      }
    }
  }`;

  it('validates and answers a union selection whose only conflict is nullability', async () => {
    const response = await world.gql(BUILDS_WITH_CREATORS, { slug: 'acme/web', first: 10 });
    expect(response.status, response.text).toBe(200);
    expect(response.body.errors, response.text).toBeUndefined();
    const creators = response.body.data.pipeline.builds.edges.map(
      (edge: { node: { createdBy: Record<string, unknown> } }) => edge.node.createdBy,
    );
    expect(creators).toEqual([
      expect.objectContaining({
        __typename: 'UnregisteredUser',
        name: 'Guest Author',
        email: 'guest@example.test',
      }),
      expect.objectContaining({ __typename: 'User', name: 'Ada Admin', email: 'admin@acme.test' }),
    ]);
  });

  it('still refuses fields of different types under one name', async () => {
    const response = await world.gql(`{
      pipeline(slug: "acme/web") { builds(first: 1) { edges { node { createdBy {
        ... on User { name: uuid }
        ... on UnregisteredUser { name: avatar { url } }
      } } } } }
    }`);
    expect(response.body.data).toBeUndefined();
    expect(response.body.errors).toEqual([
      expect.objectContaining({
        message: expect.stringContaining('Fields "name" conflict because'),
      }),
    ]);
  });

  it('still refuses one field with different arguments', async () => {
    const response = await world.gql(`{
      pipeline(slug: "acme/web") { builds(first: 1) { count } builds(first: 2) { count } }
    }`);
    expect(response.body.data).toBeUndefined();
    expect(response.body.errors).toEqual([
      expect.objectContaining({
        message:
          'Fields "builds" conflict because they have differing arguments. Use different aliases on the fields to fetch both if this was intentional.',
      }),
    ]);
  });
});
