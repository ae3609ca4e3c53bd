import type { Scope } from '@ci/domain';
import { jsonCaller } from './http';
import { startTestServer } from './server';

export const API_URL = 'https://api.ci.test';
export const WEB_URL = 'https://ci.test';

/**
 * A server on a fresh database with the cast the registries tests need, made through the application's
 * admin use cases:
 *
 * - organization `acme`: `admin` (admin) and `member` (member, in no team)
 * - organization `other`: `outsider` (admin), who is not a member of `acme`
 */
export async function startRegistriesWorld() {
  const server = await startTestServer({ PUBLIC_API_URL: API_URL, PUBLIC_WEB_URL: WEB_URL });
  const admin = server.useCases.admin;
  await admin.createOrganization({ name: 'Acme', slug: 'acme' });
  await admin.createOrganization({ name: 'Other', slug: 'other' });
  const users = {
    admin: await admin.createUser({ name: 'Ada Admin', email: 'admin@acme.test' }),
    member: await admin.createUser({ name: 'Max Member', email: 'member@acme.test' }),
    outsider: await admin.createUser({ name: 'Oscar Outsider', email: 'admin@other.test' }),
  };
  await admin.addMember({ organization: 'acme', email: users.admin.email, role: 'admin' });
  await admin.addMember({ organization: 'acme', email: users.member.email, role: 'member' });
  await admin.addMember({ organization: 'other', email: users.outsider.email, role: 'admin' });

  const token = async (
    user: keyof typeof users,
    options: { scopes?: Scope[] | 'all'; organizations?: string[] } = {},
  ) =>
    (
      await admin.createAccessToken({
        email: users[user].email,
        scopes: options.scopes ?? 'all',
        ...(options.organizations ? { organizations: options.organizations } : {}),
      })
    ).secret;

  const tokens = {
    admin: await token('admin'),
    member: await token('member'),
    outsider: await token('outsider'),
  };

  const call = jsonCaller(server, () => tokens.admin);

  const registriesPath = (organization = 'acme') => `/v2/packages/organizations/${organization}/registries`;

  /** Creates a registry through the API and returns its body; fails the test on anything but 200. */
  const createRegistry = async (
    body: Record<string, unknown>,
    options: { token?: string; organization?: string } = {},
  ) => {
    const response = await call('POST', registriesPath(options.organization), {
      token: options.token ?? tokens.admin,
      body: { ecosystem: 'ruby', ...body },
    });
    if (response.status !== 200) throw new Error(`create failed: ${response.status} ${response.text}`);
    return response.body;
  };

  /** Every registry row, oldest first: what refused requests must leave as it was. */
  const registryRows = () =>
    server.database.sql.query(
      `select r.id, o.slug as organization, r.slug, r.name, r.ecosystem, r.description
       from registries r join organizations o on o.id = r.organization_id order by r.created_at, r.id`,
    );

  return {
    server,
    users,
    tokens,
    token,
    call,
    registriesPath,
    createRegistry,
    registryRows,
    close: () => server.close(),
  };
}

export type RegistriesWorld = Awaited<ReturnType<typeof startRegistriesWorld>>;
