import { ECOSYSTEMS, MAX_REGISTRY_DESCRIPTION_LENGTH, MAX_REGISTRY_NAME_LENGTH } from '@ci/domain';
import { z } from 'zod';

/**
 * The wire shape of a package registry, keys in the order of the public API's examples
 * (registries-get.json). `emoji`, `color` and `oidc_policy` are null in every shape the spec shows.
 */
export const RegistryWire = z
  .strictObject({
    id: z.uuid(),
    graphql_id: z.string().meta({ description: 'base64 of `Registry---<id>`' }),
    slug: z.string().meta({ description: 'derived from the name; used in paths' }),
    url: z.string(),
    web_url: z.string(),
    name: z.string(),
    ecosystem: z.enum(ECOSYSTEMS).meta({ description: 'fixed at creation' }),
    description: z.string().nullable(),
    emoji: z.string().nullable(),
    color: z.string().nullable(),
    public: z.boolean(),
    oidc_policy: z.string().nullable(),
    team_ids: z.array(z.uuid()).meta({ description: 'teams with access to the registry; always empty here' }),
  })
  .meta({ id: 'Registry' });
export type RegistryWire = z.infer<typeof RegistryWire>;

const name = z.string().max(MAX_REGISTRY_NAME_LENGTH).meta({
  description: 'needs a letter or digit; the slug is derived from it (`my registry` → `my-registry`)',
});
const description = z.string().max(MAX_REGISTRY_DESCRIPTION_LENGTH).nullable().optional();

/** Documented as inputs: the domain validates the bodies (422), keys it does not know are ignored. */
export const CreateRegistryRequest = z
  .object({ name, ecosystem: z.enum(ECOSYSTEMS), description: description.meta({ default: null }) })
  .meta({ id: 'CreateRegistryRequest', unusedIO: 'input' });
export type CreateRegistryRequest = z.input<typeof CreateRegistryRequest>;

export const UpdateRegistryRequest = z
  .object({
    name: name.optional(),
    description,
    ecosystem: z.string().optional().meta({ description: 'ignored: the ecosystem is fixed at creation' }),
  })
  .meta({ id: 'UpdateRegistryRequest', unusedIO: 'input' });
export type UpdateRegistryRequest = z.input<typeof UpdateRegistryRequest>;
