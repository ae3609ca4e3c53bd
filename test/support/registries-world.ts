import { startWorld } from './world';

export { API_URL, WEB_URL } from './world';

/**
 * The shared test world (test/support/world.ts) seen from the registries tests: `admin` (admin of
 * `acme`), `member` (member of `acme`), and `outsider`, the admin of `other`, who is not in `acme`.
 */
export async function startRegistriesWorld() {
  const world = await startWorld();
  const { server, call, tokens } = world;

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

  return { ...world, registriesPath, createRegistry, registryRows };
}

export type RegistriesWorld = Awaited<ReturnType<typeof startRegistriesWorld>>;
