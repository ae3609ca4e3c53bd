import { ORGANIZATION_SETTINGS_DEFAULTS, type OrganizationRole, type Registry, type Scope } from '@ci/domain';
import { describe, expect, it } from 'vitest';
import type { Actor } from '../auth/actor';
import type { AccessRepository, Deps, RegistryRepository } from '../ports';
import { actorWith } from '../use-case.fixture';
import { createRegistry } from './create-registry';
import { deleteRegistry } from './delete-registry';
import { getRegistry } from './get-registry';
import { listRegistries } from './list-registries';
import { updateRegistry } from './update-registry';

const organization = {
  id: 'org-1',
  slug: 'acme',
  name: 'Acme',
  createdAt: new Date(0),
  ...ORGANIZATION_SETTINGS_DEFAULTS,
};
const NOW = new Date('2026-11-21T10:04:05.123Z');
const ALL: Scope[] = ['create_registries', 'read_registries', 'write_registries', 'delete_registries'];

function actor(scopes: Scope[] = ALL): Actor {
  return actorWith(scopes);
}

/** An in-memory repository that keeps slugs unique per organization, as the table's constraint does. */
function fakeRegistries(options: { vanishOnUpdate?: boolean } = {}) {
  const rows: Registry[] = [];
  const taken = (registry: Pick<Registry, 'id' | 'organizationId' | 'slug'>) =>
    rows.some(
      (row) =>
        row.organizationId === registry.organizationId &&
        row.slug === registry.slug &&
        row.id !== registry.id,
    );
  const repository: RegistryRepository = {
    findBySlug: async (organizationId, slug) =>
      rows.find((row) => row.organizationId === organizationId && row.slug === slug) ?? null,
    list: async ({ organizationId, offset, limit }) =>
      rows.filter((row) => row.organizationId === organizationId).slice(offset, offset + limit),
    count: async (organizationId) => rows.filter((row) => row.organizationId === organizationId).length,
    insert: async (registry) => {
      if (taken(registry)) return 'slug_taken';
      rows.push(registry);
      return 'inserted';
    },
    update: async ({ id, changes }) => {
      const index = rows.findIndex((row) => row.id === id);
      const row = rows[index];
      if (!row || options.vanishOnUpdate) return 'not_found';
      const next = { ...row, ...changes };
      if (taken(next)) return 'slug_taken';
      rows[index] = next;
      return next;
    },
    delete: async (organizationId, slug) => {
      const index = rows.findIndex((row) => row.organizationId === organizationId && row.slug === slug);
      if (index === -1) return false;
      rows.splice(index, 1);
      return true;
    },
  };
  return { rows, repository };
}

function deps(
  options: { role?: OrganizationRole | null; vanishOnUpdate?: boolean; updates?: string[] } = {},
) {
  const registries = fakeRegistries(options);
  const access: Pick<AccessRepository, 'organization'> = {
    organization: async ({ organizationSlug }) =>
      options.role !== null && organizationSlug === 'acme'
        ? { organization, role: options.role ?? 'member' }
        : null,
  };
  let n = 0;
  const repos = {
    access,
    registries: {
      ...registries.repository,
      update: async (input: Parameters<RegistryRepository['update']>[0]) => {
        options.updates?.push(input.id);
        return registries.repository.update(input);
      },
    },
  };
  const bound = {
    repos,
    clock: { now: () => NOW },
    newId: () => `00000000-0000-7000-8000-00000000000${++n}`,
  } as unknown as Deps;
  return { deps: bound, rows: registries.rows };
}

const ref = (registry: string) => ({ organization: 'acme', registry });

describe('createRegistry', () => {
  it('makes a registry with the defaults of the public API and the organization slug for its URLs', async () => {
    const { deps: d, rows } = deps();
    const view = await createRegistry(d)(actor(), 'acme', { name: 'my registry', ecosystem: 'ruby' });
    expect(view).toEqual({
      organizationSlug: 'acme',
      registry: {
        id: '00000000-0000-7000-8000-000000000001',
        organizationId: 'org-1',
        name: 'my registry',
        slug: 'my-registry',
        ecosystem: 'ruby',
        description: null,
        emoji: null,
        color: null,
        public: false,
        oidcPolicy: null,
        createdAt: NOW,
      },
    });
    expect(rows).toHaveLength(1);
  });

  it('lets a member (not only an admin) create one', async () => {
    const { deps: d } = deps({ role: 'member' });
    await expect(
      createRegistry(d)(actor(), 'acme', { name: 'gems', ecosystem: 'ruby' }),
    ).resolves.toBeTruthy();
  });

  it('answers 422 "Name has already been taken" when the slug is taken, by another spelling too', async () => {
    const { deps: d, rows } = deps();
    await createRegistry(d)(actor(), 'acme', { name: 'My Registry', ecosystem: 'ruby' });
    await expect(
      createRegistry(d)(actor(), 'acme', { name: 'my  registry!', ecosystem: 'java' }),
    ).rejects.toMatchObject({
      kind: 'unprocessable',
      message: 'Validation failed: Name has already been taken',
    });
    expect(rows).toHaveLength(1);
  });

  it('checks the scope before the organization and the organization before the body', async () => {
    const { deps: d } = deps({ role: null });
    await expect(createRegistry(d)(actor(['read_registries']), 'nope', {})).rejects.toMatchObject({
      kind: 'forbidden',
      message: "Your access token doesn't have the create_registries scope",
    });
    await expect(createRegistry(d)(actor(), 'acme', {})).rejects.toMatchObject({
      kind: 'not_found',
      message: 'No organization found',
    });
  });

  it.each([null, 'text', 42, ['name']])('treats a body of %j as one without fields', async (body) => {
    const { deps: d } = deps();
    await expect(createRegistry(d)(actor(), 'acme', body)).rejects.toMatchObject({
      message: "Validation failed: Name can't be blank, Ecosystem can't be blank",
    });
  });
});

describe('getRegistry and listRegistries', () => {
  it('finds a registry by slug and answers 404 "No registry found" for another', async () => {
    const { deps: d } = deps();
    await createRegistry(d)(actor(), 'acme', { name: 'Gems', ecosystem: 'ruby' });
    await expect(getRegistry(d)(actor(), ref('gems'))).resolves.toMatchObject({ registry: { name: 'Gems' } });
    await expect(getRegistry(d)(actor(), ref('Gems'))).rejects.toMatchObject({
      kind: 'not_found',
      message: 'No registry found',
    });
  });

  it('reads one page and the total count', async () => {
    const { deps: d } = deps();
    for (const name of ['a', 'b', 'c'])
      await createRegistry(d)(actor(), 'acme', { name, ecosystem: 'files' });
    const page = await listRegistries(d)(actor(), 'acme', { page: 2, perPage: 2 });
    expect(page.totalCount).toBe(3);
    expect(page.items.map((item) => item.registry.slug)).toEqual(['c']);
  });
});

describe('updateRegistry', () => {
  it('renames (and re-slugs) and changes the description, leaving the ecosystem as it was', async () => {
    const { deps: d } = deps();
    await createRegistry(d)(actor(), 'acme', { name: 'Gems', ecosystem: 'ruby' });
    const view = await updateRegistry(d)(actor(), ref('gems'), {
      name: 'Shiny Gems',
      description: 'about',
      ecosystem: 'python',
    });
    expect(view.registry).toMatchObject({
      name: 'Shiny Gems',
      slug: 'shiny-gems',
      description: 'about',
      ecosystem: 'ruby',
    });
    await expect(getRegistry(d)(actor(), ref('gems'))).rejects.toMatchObject({
      message: 'No registry found',
    });
  });

  it('writes nothing for a body without changes', async () => {
    const updates: string[] = [];
    const { deps: d } = deps({ updates });
    await createRegistry(d)(actor(), 'acme', { name: 'Gems', ecosystem: 'ruby' });
    await expect(updateRegistry(d)(actor(), ref('gems'), { ecosystem: 'java' })).resolves.toMatchObject({
      registry: { name: 'Gems', ecosystem: 'ruby' },
    });
    expect(updates).toEqual([]);
  });

  it('keeps a registry renamed to another spelling of its own slug', async () => {
    const { deps: d } = deps();
    await createRegistry(d)(actor(), 'acme', { name: 'my registry', ecosystem: 'ruby' });
    await expect(
      updateRegistry(d)(actor(), ref('my-registry'), { name: 'My Registry' }),
    ).resolves.toMatchObject({
      registry: { name: 'My Registry', slug: 'my-registry' },
    });
  });

  it('refuses a name whose slug another registry has, and a missing registry before a bad body', async () => {
    const { deps: d } = deps();
    await createRegistry(d)(actor(), 'acme', { name: 'one', ecosystem: 'ruby' });
    await createRegistry(d)(actor(), 'acme', { name: 'two', ecosystem: 'ruby' });
    await expect(updateRegistry(d)(actor(), ref('two'), { name: 'ONE' })).rejects.toMatchObject({
      message: 'Validation failed: Name has already been taken',
    });
    await expect(updateRegistry(d)(actor(), ref('three'), { name: '' })).rejects.toMatchObject({
      message: 'No registry found',
    });
  });

  it('answers 404 when the registry is deleted between the read and the write', async () => {
    const { deps: d } = deps({ vanishOnUpdate: true });
    await createRegistry(d)(actor(), 'acme', { name: 'Gems', ecosystem: 'ruby' });
    await expect(updateRegistry(d)(actor(), ref('gems'), { name: 'Other' })).rejects.toMatchObject({
      kind: 'not_found',
      message: 'No registry found',
    });
  });

  it('needs write_registries', async () => {
    const { deps: d } = deps();
    await expect(
      updateRegistry(d)(actor(['read_registries', 'create_registries']), ref('gems'), {}),
    ).rejects.toMatchObject({ message: "Your access token doesn't have the write_registries scope" });
  });
});

describe('deleteRegistry', () => {
  it('deletes once; the second time there is no registry', async () => {
    const { deps: d, rows } = deps();
    await createRegistry(d)(actor(), 'acme', { name: 'Gems', ecosystem: 'ruby' });
    await expect(deleteRegistry(d)(actor(), ref('gems'))).resolves.toBeUndefined();
    expect(rows).toHaveLength(0);
    await expect(deleteRegistry(d)(actor(), ref('gems'))).rejects.toMatchObject({
      message: 'No registry found',
    });
  });

  it('needs delete_registries', async () => {
    const { deps: d } = deps();
    await expect(deleteRegistry(d)(actor(['write_registries']), ref('gems'))).rejects.toMatchObject({
      message: "Your access token doesn't have the delete_registries scope",
    });
  });
});
