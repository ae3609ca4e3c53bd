import type { OrganizationRole } from '@ci/domain';
import { describe, expect, it } from 'vitest';
import { requireOrganization } from '../auth/authorize';
import { usableMemberships } from '../auth/usable-memberships';
import type { Deps, OrganizationAccess, OrganizationSettingsRepository } from '../ports';
import { ACME, actorWith, uuid } from '../use-case.fixture';
import {
  createInvitations,
  deleteBanner,
  updateApiIpAllowlist,
  updateTwoFactorRequirement,
  upsertBanner,
} from './organization-settings';

const NOW = new Date('2026-11-27T03:20:00.000Z');

function world(options: { role?: OrganizationRole; allowlist?: string } = {}) {
  const organization = { ...ACME, allowedApiIpAddresses: options.allowlist ?? '' };
  const membership: OrganizationAccess = { organization, role: options.role ?? 'admin' };
  const changes: unknown[] = [];
  const settings: Partial<OrganizationSettingsRepository> = {
    update: async ({ changes: change }) => {
      changes.push(change);
      return { ...organization, ...change };
    },
    putBanner: async (banner) => banner,
    deleteBanner: async () => null,
    teamsIn: async ({ teamIds }) => teamIds.filter((id) => id === uuid(1)),
    insertInvitations: async (invitations) => {
      changes.push(...invitations);
    },
  };
  const deps = {
    repos: {
      access: {
        memberships: async () => [membership],
        organization: async () => membership,
      },
      organizationSettings: settings,
    },
    clock: { now: () => NOW },
    newId: () => uuid(9),
  } as unknown as Deps;
  return { deps, changes };
}

const admin = (address: string | null = null) => ({
  ...actorWith(['graphql', 'read_organizations']),
  clientAddress: address,
});

describe('the API IP allowlist', () => {
  it('is stored as the domain reads it, by an admin', async () => {
    const { deps, changes } = world();
    const organization = await updateApiIpAllowlist(deps)(admin(), ACME.id, ' 127.0.0.0/8   ::1 ');
    expect(organization.allowedApiIpAddresses).toBe('127.0.0.0/8 ::1');
    expect(changes).toEqual([{ allowedApiIpAddresses: '127.0.0.0/8 ::1' }]);
  });

  it('refuses a member with 403 and a wrong entry with 422, changing nothing', async () => {
    const member = world({ role: 'member' });
    await expect(updateApiIpAllowlist(member.deps)(admin(), ACME.id, '')).rejects.toMatchObject({
      kind: 'forbidden',
      message: 'Forbidden',
    });
    const wrong = world();
    await expect(updateApiIpAllowlist(wrong.deps)(admin(), ACME.id, '10.0.0.0/99')).rejects.toMatchObject({
      kind: 'unprocessable',
    });
    expect([...member.changes, ...wrong.changes]).toEqual([]);
  });

  it('refuses a request from outside it with 403 where the organization is named, and hides it by id', async () => {
    const { deps } = world({ allowlist: '10.0.0.0/8' });
    await expect(
      requireOrganization(deps)(admin('127.0.0.1'), 'getOrganization', 'acme'),
    ).rejects.toMatchObject({
      kind: 'forbidden',
      code: 'ip_address_not_allowed',
    });
    expect((await usableMemberships(deps, admin('127.0.0.1'))).size).toBe(0);
    expect((await usableMemberships(deps, admin('10.1.2.3'))).size).toBe(1);
    await expect(
      requireOrganization(deps)(admin('10.1.2.3'), 'getOrganization', 'acme'),
    ).resolves.toMatchObject({
      role: 'admin',
    });
    // No address: the CLI on the database.
    expect((await usableMemberships(deps, admin(null))).size).toBe(1);
  });
});

describe('the other settings', () => {
  it('need the graphql scope and an organization the actor may use', async () => {
    const { deps } = world();
    await expect(
      updateTwoFactorRequirement(deps)(actorWith(['read_organizations']), ACME.id, true),
    ).rejects.toMatchObject({ code: 'missing_scope' });
    await expect(updateTwoFactorRequirement(deps)(admin(), uuid(5), true)).rejects.toMatchObject({
      message: 'No organization found',
    });
    await expect(updateTwoFactorRequirement(deps)(admin(), null, true)).rejects.toMatchObject({
      message: 'No organization found',
    });
  });

  it('keeps a banner message, refusing a blank one, and answers No banner found when there is none', async () => {
    const { deps } = world();
    expect(await upsertBanner(deps)(admin(), ACME.id, 'Hello')).toEqual({
      id: uuid(9),
      organizationId: ACME.id,
      message: 'Hello',
      createdAt: NOW,
    });
    await expect(upsertBanner(deps)(admin(), ACME.id, ' ')).rejects.toMatchObject({ kind: 'unprocessable' });
    await expect(deleteBanner(deps)(admin(), ACME.id)).rejects.toMatchObject({ message: 'No banner found' });
  });

  it('invites each email once, lowercased, as members by default, into teams of the organization only', async () => {
    const { deps, changes } = world();
    const { invitations } = await createInvitations(deps)(admin(), ACME.id, {
      emails: ['A@x.test', 'a@x.test', 'b@x.test'],
      role: null,
      teams: [{ teamId: uuid(1).toUpperCase(), role: 'maintainer' }],
    });
    expect(invitations.map(({ email, role, teams }) => ({ email, role, teams }))).toEqual([
      { email: 'a@x.test', role: 'member', teams: [{ teamId: uuid(1), role: 'maintainer' }] },
      { email: 'b@x.test', role: 'member', teams: [{ teamId: uuid(1), role: 'maintainer' }] },
    ]);
    expect(changes).toHaveLength(2);
    await expect(
      createInvitations(deps)(admin(), ACME.id, {
        emails: ['c@x.test'],
        role: null,
        teams: [{ teamId: uuid(2), role: 'member' }],
      }),
    ).rejects.toMatchObject({ message: 'Validation failed: Teams must be teams of the organization' });
    await expect(
      createInvitations(deps)(admin(), ACME.id, { emails: ['not an email'], role: null, teams: [] }),
    ).rejects.toMatchObject({ kind: 'unprocessable' });
  });
});
