import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { encodeGraphqlId } from '@ci/domain';
import {
  buildSchema,
  type GraphQLField,
  type GraphQLInputField,
  type GraphQLNamedType,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isObjectType,
  isSpecifiedScalarType,
  isUnionType,
} from 'graphql';
import { describe, expect, it } from 'vitest';
import { decodeGlobalId, encodeGlobalId } from './builder';
import { schema } from './schema';

const reference = (file: string) =>
  buildSchema(readFileSync(resolve(import.meta.dirname, '../../../test/fixtures/reference', file), 'utf8'));
// Copies of ../shared/reference/buildkite-graphql-subset.graphql and buildkite-schema.graphql, kept in the
// repository so the test is hermetic: the subset's types and fields first, the whole public schema's for the
// types the subset leaves out (agent tokens, rules, …).
const SUBSET = reference('buildkite-graphql-subset.graphql');
const WHOLE = reference('buildkite-schema.graphql');
const REFERENCE = {
  getType: (name: string) => SUBSET.getType(name) ?? WHOLE.getType(name),
  getQueryType: () => WHOLE.getQueryType(),
  getMutationType: () => SUBSET.getMutationType(),
};

/** What we add to the public schema, on purpose (docs/compatibility.md). */
const EXTENSIONS = [
  'Build.artifacts',
  'ClusterQueue.agents',
  'Build.blocked',
  'Registry.ecosystem',
  'Registry.public',
  'Mutation.registryCreate',
  'Mutation.registryUpdate',
  'Mutation.registryDelete',
  'RegistryCreateInput',
  'RegistryCreatePayload',
  'RegistryUpdateInput',
  'RegistryUpdatePayload',
  'RegistryDeleteInput',
  'RegistryDeletePayload',
  // A webhook's settings and last deliveries (issue 30): the public type shows only its name.
  'NotificationDelivery',
  'NotificationServiceWebhook.uuid',
  'NotificationServiceWebhook.url',
  'NotificationServiceWebhook.events',
  'NotificationServiceWebhook.enabled',
  'NotificationServiceWebhook.branchFilter',
  'NotificationServiceWebhook.pipelineSlug',
  'NotificationServiceWebhook.tokenMode',
  'NotificationServiceWebhook.organization',
  'NotificationServiceWebhook.deliveries',
  // The group step a job came from (issue 29; REST `group_key`): the public schema has no group.
  'JobTypeBlock.groupKey',
  'JobTypeCommand.groupKey',
  'JobTypeTrigger.groupKey',
  'JobTypeWait.groupKey',
].sort();

const ours = Object.values(schema.getTypeMap()).filter(
  (type) => !type.name.startsWith('__') && !isSpecifiedScalarType(type),
);

function fieldsOf(
  type: GraphQLNamedType,
): Record<string, GraphQLField<unknown, unknown> | GraphQLInputField> {
  if (isObjectType(type) || isInterfaceType(type) || isInputObjectType(type)) return type.getFields();
  return {};
}

describe('the schema against the public API reference', () => {
  it('adds only the documented extensions', () => {
    const added: string[] = [];
    for (const type of ours) {
      const theirs = REFERENCE.getType(type.name);
      if (!theirs) {
        added.push(type.name);
        continue;
      }
      const theirFields = { ...fieldsOf(WHOLE.getType(type.name) ?? theirs), ...fieldsOf(theirs) };
      for (const name of Object.keys(fieldsOf(type)))
        if (!(name in theirFields)) added.push(`${type.name}.${name}`);
    }
    expect(added.sort()).toEqual(EXTENSIONS);
  });

  it('gives every shared type, field and argument the reference kind and type', () => {
    const differences: string[] = [];
    for (const type of ours) {
      const theirs = REFERENCE.getType(type.name);
      if (!theirs) continue;
      if (theirs.constructor !== type.constructor) differences.push(`${type.name} is another kind of type`);
      const theirFields = { ...fieldsOf(WHOLE.getType(type.name) ?? theirs), ...fieldsOf(theirs) };
      for (const [name, field] of Object.entries(fieldsOf(type))) {
        const their = theirFields[name];
        if (!their) continue;
        if (String(field.type) !== String(their.type)) {
          differences.push(`${type.name}.${name}: ${field.type} where the reference has ${their.type}`);
        }
        if ('args' in field && 'args' in their) {
          for (const arg of field.args) {
            const theirArg = their.args.find((candidate) => candidate.name === arg.name);
            if (!theirArg) differences.push(`${type.name}.${name}(${arg.name}) is not in the reference`);
            else if (String(arg.type) !== String(theirArg.type)) {
              differences.push(
                `${type.name}.${name}(${arg.name}): ${arg.type} where the reference has ${theirArg.type}`,
              );
            }
          }
        }
      }
      if (
        (isObjectType(type) || isInterfaceType(type)) &&
        (isObjectType(theirs) || isInterfaceType(theirs))
      ) {
        const theirInterfaces = theirs.getInterfaces().map((i) => i.name);
        for (const iface of type.getInterfaces()) {
          if (!theirInterfaces.includes(iface.name))
            differences.push(`${type.name} implements ${iface.name}`);
        }
      }
      if (isEnumType(type) && isEnumType(theirs)) {
        const theirValues = theirs.getValues().map((value) => value.name);
        for (const value of type.getValues()) {
          if (!theirValues.includes(value.name))
            differences.push(`${type.name}.${value.name} is not in the reference`);
        }
      }
      if (isUnionType(type) && isUnionType(theirs)) {
        expect(
          type.getTypes().map((member) => member.name),
          type.name,
        ).toEqual(theirs.getTypes().map((member) => member.name));
      }
    }
    expect(differences).toEqual([]);
  });

  it('keeps the reference default of teamPipelineCreate access level and its required inputs', () => {
    const input = schema.getType('TeamPipelineCreateInput');
    if (!isInputObjectType(input)) throw new Error('TeamPipelineCreateInput is missing');
    expect(input.getFields().accessLevel?.defaultValue).toBe('read_only');
    expect(String(input.getFields().teamID?.type)).toBe('ID!');
  });

  it('has only root fields the reference has, and no `nodes`', () => {
    const queryFields = Object.keys(schema.getQueryType()?.getFields() ?? {});
    expect(queryFields).not.toContain('nodes');
    const referenceFields = Object.keys(REFERENCE.getQueryType()?.getFields() ?? {});
    expect(queryFields.filter((name) => !referenceFields.includes(name))).toEqual([]);
  });

  it('has every root field of the reference subset', () => {
    const queryFields = Object.keys(schema.getQueryType()?.getFields() ?? {});
    const referenceFields = Object.keys(SUBSET.getQueryType()?.getFields() ?? {});
    expect(referenceFields.filter((name) => !queryFields.includes(name))).toEqual([]);
  });

  it('has every mutation of the reference on jobs', () => {
    const ours = Object.keys(schema.getMutationType()?.getFields() ?? {});
    const theirs = Object.keys(SUBSET.getMutationType()?.getFields() ?? {}).filter((name) =>
      name.startsWith('job'),
    );
    expect(theirs).toContain('jobTypeCommandCancel');
    expect(theirs.filter((name) => !ours.includes(name))).toEqual([]);
  });

  it('gives every Node type an id that the graphql_id codec reads back', () => {
    const uuid = '01a1fc8c-c414-7d01-8af8-f73b0a0ec8ee';
    const nodes = ours.filter(
      (type) => isObjectType(type) && type.getInterfaces().some((iface) => iface.name === 'Node'),
    );
    expect(nodes.length).toBeGreaterThan(10);
    for (const type of nodes)
      expect(decodeGlobalId(encodeGlobalId(type.name, uuid)).id, type.name).toBe(uuid);
  });
});

describe('global ids', () => {
  it.each([
    ['Build', 'Build'],
    ['JobTypeCommand', 'Job'],
    ['JobTypeWait', 'Job'],
    ['JobTypeBlock', 'Job'],
    ['JobTypeTrigger', 'Job'],
    ['TeamPipeline', 'TeamPipeline'],
    ['Registry', 'Registry'],
    ['Pipeline', 'Pipeline'],
    ['Organization', 'Organization'],
    ['Team', 'Team'],
    ['User', 'User'],
    ['OrganizationMember', 'OrganizationMember'],
    ['TeamMember', 'TeamMember'],
    ['Viewer', 'Viewer'],
    ['Agent', 'Agent'],
  ] as const)('are the REST graphql_id for %s', (typename, restType) => {
    const uuid = '01a1fc8c-c414-7d01-8af8-f73b0a0ec8ee';
    expect(encodeGlobalId(typename, uuid)).toBe(encodeGraphqlId(restType, uuid));
    expect(decodeGlobalId(encodeGlobalId(typename, uuid))).toEqual({ typename: restType, id: uuid });
  });

  it('decode anything else to an id that names nothing', () => {
    for (const id of ['', 'nope', btoa('Build---x'), btoa('Widget---01a1fc8c-c414-7d01-8af8-f73b0a0ec8ee')]) {
      expect(decodeGlobalId(id)).toEqual({ typename: '', id: '' });
    }
  });
});
