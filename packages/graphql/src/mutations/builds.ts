import { validationFailed } from '@ci/domain';
import { builder } from '../builder';
import { uuidOf } from '../global-id';
import { parseKeyValues } from '../key-values';
import { BuildNode } from '../types/build-node';
import { BuildRef } from '../types/refs';
import { publicMutation } from './client-mutation-id';

const BuildAuthorInput = builder.inputType('BuildAuthorInput', {
  description: 'Author for a build',
  fields: (t) => ({
    email: t.string({ required: true, description: 'The email for the build author' }),
    name: t.string({ required: true, description: 'The name for the build author' }),
  }),
});

const BuildMetaDataInput = builder.inputType('BuildMetaDataInput', {
  description: 'Meta-data key/value pairs for a build',
  fields: (t) => ({
    key: t.string({ required: true, description: 'The key for this meta-data item' }),
    value: t.string({ required: true, description: 'The value for this meta-data item' }),
  }),
});

/** GraphQL's `["KEY=value"]` environment as the REST body's `env` object. */
const envObject = (entries: readonly string[]) =>
  parseKeyValues(entries, (entry) =>
    validationFailed([
      { field: 'env', code: 'invalid', message: `env entries are "KEY=value" strings, got "${entry}"` },
    ]),
  );

builder.mutationType({ description: 'The root for mutations in this schema' });

publicMutation('buildCreate', {
  description: 'Create a build.',
  inputFields: (t) => ({
    pipelineID: t.id({ required: true, description: 'The GraphQL ID of the pipeline to build' }),
    commit: t.string({ description: 'The commit for the build' }),
    branch: t.string({ description: 'The branch for the build' }),
    message: t.string({ description: 'The message that is displayed on the build' }),
    author: t.field({ type: BuildAuthorInput }),
    env: t.stringList({ description: 'Environment variables used for the build, as KEY=value' }),
    metaData: t.field({ type: [BuildMetaDataInput] }),
  }),
  resolve: async (input, ctx) => {
    // The REST create body, so the same rules (validation, branch filters, access) judge it.
    const body: Record<string, unknown> = {};
    if (input.commit !== undefined) body.commit = input.commit;
    if (input.branch !== undefined) body.branch = input.branch;
    if (input.message !== undefined) body.message = input.message;
    if (input.author) body.author = { name: input.author.name, email: input.author.email };
    if (input.env) body.env = envObject(input.env);
    if (input.metaData) body.meta_data = Object.fromEntries(input.metaData.map((m) => [m.key, m.value]));
    return {
      build: await ctx.useCases.byId.createBuild(ctx.actor, uuidOf(input.pipelineID, 'Pipeline'), body),
    };
  },
  payloadFields: (t) => ({
    build: t.field({ type: BuildRef, nullable: true, resolve: (payload) => BuildNode.of(payload.build) }),
  }),
});

publicMutation('buildCancel', {
  description: 'Cancel a build.',
  inputFields: (t) => ({ id: t.id({ required: true }) }),
  resolve: async (input, ctx) => ({
    build: await ctx.useCases.byId.cancelBuild(ctx.actor, uuidOf(input.id, 'Build')),
  }),
  payloadFields: (t) => ({
    build: t.field({ type: BuildRef, nullable: false, resolve: (payload) => BuildNode.of(payload.build) }),
  }),
});

publicMutation('buildRebuild', {
  description: 'Rebuild a build.',
  inputFields: (t) => ({ id: t.id({ required: true }) }),
  resolve: (input, ctx) => ctx.useCases.byId.rebuildBuild(ctx.actor, uuidOf(input.id, 'Build')),
  payloadFields: (t) => ({
    build: t.field({
      type: BuildRef,
      nullable: false,
      description: 'The build that was rebuilt',
      resolve: (payload) => BuildNode.of(payload.build),
    }),
    rebuild: t.field({
      type: BuildRef,
      nullable: false,
      description: 'The new build',
      resolve: (payload) => BuildNode.of(payload.rebuild),
    }),
  }),
});
