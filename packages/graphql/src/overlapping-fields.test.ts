import { buildSchema, OverlappingFieldsCanBeMergedRule, parse, specifiedRules, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { validationRules } from './overlapping-fields';

const schema = buildSchema(`
  type Query { build: Build, node: Node }
  interface Node { id: ID!, label: String }
  type Build implements Node { id: ID!, label: String!, createdBy: Creator, number: Int! }
  union Creator = User | UnregisteredUser
  type Avatar { url: String!, size: Int }
  type User { name: String!, email: String!, avatar: Avatar!, count(of: String): Int, tags: [String!]! }
  type UnregisteredUser { name: String, email: String, avatar: Avatar, count(of: String): Int, tags: [String] }
`);

const messagesOf = (query: string) =>
  validate(schema, parse(query), validationRules).map((error) => error.message);

describe('overlapping fields up to nullability', () => {
  it('accepts one field whose type differs only in nullability across the members of a union', () => {
    expect(
      messagesOf(`{ build { createdBy {
        ... on User { name email tags avatar { url } }
        ... on UnregisteredUser { name email tags avatar { url } }
      } } }`),
    ).toEqual([]);
  });

  it('accepts it between an interface and a type that implements it', () => {
    expect(messagesOf('{ node { label ... on Build { label } } }')).toEqual([]);
  });

  it('refuses fields of different types under one name', () => {
    expect(
      messagesOf(`{ build { createdBy {
        ... on User { name: email }
        ... on UnregisteredUser { name: count }
      } } }`),
    ).toEqual([
      'Fields "name" conflict because they return conflicting types "String!" and "Int". Use different aliases on the fields to fetch both if this was intentional.',
    ]);
  });

  it('refuses different arguments on one field of one type', () => {
    expect(messagesOf('{ build { createdBy { ... on User { count(of: "a") count(of: "b") } } } }')).toEqual([
      'Fields "count" conflict because they have differing arguments. Use different aliases on the fields to fetch both if this was intentional.',
    ]);
  });

  it('refuses a conflict inside the subfields of fields that differ only in nullability', () => {
    expect(
      messagesOf(`{ build { createdBy {
        ... on User { avatar { url } }
        ... on UnregisteredUser { avatar { url: size } }
      } } }`),
    ).toEqual([
      'Fields "avatar" conflict because subfields "url" conflict because they return conflicting types "String" and "Int". Use different aliases on the fields to fetch both if this was intentional.',
    ]);
  });

  it('refuses a list where the other member has a single value', () => {
    expect(
      messagesOf(`{ build { createdBy {
        ... on User { name: tags }
        ... on UnregisteredUser { name }
      } } }`),
    ).toHaveLength(1);
  });

  it('keeps every other rule of graphql-js', () => {
    expect(messagesOf('{ build { nope } }')).toEqual(['Cannot query field "nope" on type "Build".']);
    expect(validationRules).toHaveLength(specifiedRules.length);
    expect(validationRules).not.toContain(OverlappingFieldsCanBeMergedRule);
  });
});
