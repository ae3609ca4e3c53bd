import type { RegistryRef } from '@ci/application';
import { z } from 'zod';
import { documented, documentedList } from '../documented';
import { listPage } from '../pagination';
import { organizationSlug, pageParameters } from '../parameters';
import { authed, type Meta, router } from '../trpc';
import { presentRegistries, presentRegistry } from './registry.presenter';
import { type CreateRegistryRequest, RegistryWire, type UpdateRegistryRequest } from './registry.wire';

const REGISTRIES = '/packages/organizations/{organization}/registries';
const REGISTRY = `${REGISTRIES}/{registry}`;
const TAGS = ['Registries'];

const organization = organizationSlug;
const registry = z.string().meta({ description: 'registry slug' });

const ListRegistriesInput = z.object({
  organization,
  ...pageParameters,
});
const RegistryKey = z.object({ organization, registry });

/**
 * The create and update bodies are validated by the domain (422 `Validation failed: …`), so the
 * run-time inputs pass them through untouched; their types and OpenAPI components are the requests'.
 */
const CreateRegistryInput = z.looseObject({ organization }) as unknown as z.ZodType<
  { organization: string } & CreateRegistryRequest
>;
const UpdateRegistryInput = z.looseObject({ organization, registry }) as unknown as z.ZodType<
  RegistryRef & UpdateRegistryRequest
>;

/** Update answers POST (the spec), PATCH and PUT: one implementation behind three routes. */
const update = (method: 'POST' | 'PATCH' | 'PUT') =>
  authed
    .meta({
      openapi: {
        method,
        path: REGISTRY,
        tags: TAGS,
        summary: 'Update a registry',
        ...(method === 'POST' ? {} : { description: `The same as \`POST ${REGISTRY}\`.` }),
      },
      operation: 'updateRegistry',
      requestBody: 'UpdateRegistryRequest',
    } satisfies Meta)
    .input(UpdateRegistryInput)
    .output(documented(RegistryWire))
    .mutation(async ({ ctx, input }) => {
      const { organization, registry, ...body } = input;
      const view = await ctx.useCases.updateRegistry(ctx.actor, { organization, registry }, body);
      return presentRegistry(view, ctx.urls);
    });

export const registriesRouter = router({
  list: authed
    .meta({
      openapi: { method: 'GET', path: REGISTRIES, tags: TAGS, summary: 'List all registries' },
      operation: 'listRegistries',
    })
    .input(ListRegistriesInput)
    .output(documentedList(RegistryWire))
    .query(async ({ ctx, input }) => {
      const { items } = await listPage(ctx, input, (page) =>
        ctx.useCases.listRegistries(ctx.actor, input.organization, page),
      );
      return presentRegistries(items, ctx.urls);
    }),

  create: authed
    .meta({
      openapi: { method: 'POST', path: REGISTRIES, tags: TAGS, summary: 'Create a registry' },
      operation: 'createRegistry',
      requestBody: 'CreateRegistryRequest',
    })
    .input(CreateRegistryInput)
    .output(documented(RegistryWire))
    .mutation(async ({ ctx, input }) => {
      const { organization, ...body } = input;
      return presentRegistry(await ctx.useCases.createRegistry(ctx.actor, organization, body), ctx.urls);
    }),

  get: authed
    .meta({
      openapi: { method: 'GET', path: REGISTRY, tags: TAGS, summary: 'Get a registry' },
      operation: 'getRegistry',
    })
    .input(RegistryKey)
    .output(documented(RegistryWire))
    .query(async ({ ctx, input }) =>
      presentRegistry(await ctx.useCases.getRegistry(ctx.actor, input), ctx.urls),
    ),

  update: update('POST'),
  updateWithPatch: update('PATCH'),
  updateWithPut: update('PUT'),

  delete: authed
    .meta({
      openapi: { method: 'DELETE', path: REGISTRY, tags: TAGS, summary: 'Delete a registry' },
      operation: 'deleteRegistry',
      emptyBody: true,
    })
    .input(RegistryKey)
    .output(z.void())
    .mutation(async ({ ctx, input }) => {
      await ctx.useCases.deleteRegistry(ctx.actor, input);
    }),
});
