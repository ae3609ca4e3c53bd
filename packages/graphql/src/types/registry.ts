import type { RegistryView } from '@ci/application';
import { webAddresses } from '@ci/domain';
import { builder } from '../builder';
import { OrganizationRef, organizationOf } from './organization';
import { ConnectionInterface } from './scalars';

export const RegistryRef = builder.objectRef<RegistryView>('Registry');

builder.node(RegistryRef, {
  description: 'A registry',
  id: { resolve: ({ registry }) => registry.id },
  fields: (t) => ({
    uuid: t.string({ nullable: false, resolve: ({ registry }) => registry.id }),
    name: t.string({ nullable: false, resolve: ({ registry }) => registry.name }),
    slug: t.string({ nullable: false, resolve: ({ registry }) => registry.slug }),
    description: t.string({ nullable: true, resolve: ({ registry }) => registry.description }),
    emoji: t.string({ nullable: true, resolve: ({ registry }) => registry.emoji }),
    color: t.string({ nullable: true, resolve: ({ registry }) => registry.color }),
    ecosystem: t.string({
      nullable: false,
      description: 'The package ecosystem, fixed at creation (an extension: REST `ecosystem`)',
      resolve: ({ registry }) => registry.ecosystem,
    }),
    public: t.boolean({
      nullable: false,
      description: 'Whether the registry is public (an extension: REST `public`)',
      resolve: ({ registry }) => registry.public,
    }),
    createdAt: t.field({ type: 'DateTime', nullable: true, resolve: ({ registry }) => registry.createdAt }),
    url: t.string({
      nullable: false,
      description: 'The URL for the registry (REST `web_url`)',
      resolve: ({ registry, organizationSlug }, _args, ctx) =>
        webAddresses.registry(ctx.urls.web, organizationSlug, registry.slug),
    }),
    organization: t.field({
      type: OrganizationRef,
      nullable: false,
      resolve: ({ registry }, _args, ctx) => organizationOf(registry.organizationId, ctx),
    }),
  }),
});

export const RegistryConnection = builder.connectionObject(
  { type: RegistryRef, name: 'RegistryConnection', interfaces: [ConnectionInterface] },
  { name: 'RegistryEdge' },
);

builder.objectField(OrganizationRef, 'registries', (t) =>
  t.connection(
    {
      type: RegistryRef,
      description: 'The registries of this organization, oldest first (as the REST list)',
      resolve: (organization, args, ctx) =>
        ctx.loaders.list({
          field: 'Organization.registries',
          parentId: organization.id,
          args,
          read: (window) => ctx.useCases.listRegistries(ctx.actor, organization.slug, window),
        }),
    },
    RegistryConnection,
  ),
);
