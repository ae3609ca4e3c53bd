import type { Scope } from '@ci/domain';
import { jsonCaller } from './http';
import { startTestServer } from './server';
import { trpcClient } from './trpc';

/** The public URLs the world's server builds its `url` and `web_url` fields on. */
export const API_URL = 'https://api.ci.test';
export const WEB_URL = 'https://ci.test';

const STEPS = `steps:
  - label: ":hammer: Build"
    key: build
    command: "make build"
  - wait
  - label: ":test_tube: Test"
    key: test
    command: "make test"
    parallelism: 2
`;

/**
 * A server on a fresh database with a known cast, made through the application's admin use cases:
 *
 * - organization `acme`: `admin` (admin), `member` (member of team `platform`), `bystander` (member, no team)
 * - team `platform` has `web` (manage_build_and_read), `api` (build_and_read), `docs` (read_only)
 * - team `hidden` has `secret`, which `member` cannot see; `public` belongs to no team (members may build)
 * - `releases` only builds branches `main release/*`; `archived` is archived
 * - organization `other` with its own admin and pipeline `elsewhere`; `outsider` is another name for
 *   that admin (who is not in `acme`), in `users`, `tokens` and `token`
 *
 * `countStatements` counts the statements (each a round trip) the repositories send to PostgreSQL.
 */
export async function startWorld(
  env: Record<string, string> = {},
  options: Omit<Parameters<typeof startTestServer>[1], 'onQuery'> = {},
) {
  let statements = 0;
  /** The statements sent, while `countStatements` keeps them. */
  let kept: string[] | null = null;
  const server = await startTestServer(
    {
      PUBLIC_API_URL: API_URL,
      PUBLIC_WEB_URL: WEB_URL,
      ...env,
    },
    {
      ...options,
      onQuery: (sql) => {
        statements += 1;
        kept?.push(sql);
      },
    },
  );
  const admin = server.useCases.admin;
  await admin.createOrganization({ name: 'Acme', slug: 'acme' });
  await admin.createOrganization({ name: 'Other', slug: 'other' });
  const users = {
    admin: await admin.createUser({ name: 'Ada Admin', email: 'admin@acme.test' }),
    member: await admin.createUser({ name: 'Max Member', email: 'member@acme.test' }),
    bystander: await admin.createUser({ name: 'Bea Bystander', email: 'bystander@acme.test' }),
    otherAdmin: await admin.createUser({ name: 'Oscar Other', email: 'admin@other.test' }),
  };
  await admin.addMember({ organization: 'acme', email: users.admin.email, role: 'admin' });
  await admin.addMember({ organization: 'acme', email: users.member.email, role: 'member' });
  await admin.addMember({ organization: 'acme', email: users.bystander.email, role: 'member' });
  await admin.addMember({ organization: 'other', email: users.otherAdmin.email, role: 'admin' });
  await admin.createTeam({ organization: 'acme', name: 'Platform', members: [users.member.email] });
  await admin.createTeam({ organization: 'acme', name: 'Hidden' });

  const pipelines: Record<string, Awaited<ReturnType<typeof admin.createPipeline>>> = {};
  for (const name of ['web', 'api', 'docs', 'secret', 'public', 'releases', 'archived']) {
    pipelines[name] = await admin.createPipeline({
      organization: 'acme',
      name,
      repository: `git@example.com:acme/${name}.git`,
      steps: STEPS,
      ...(name === 'releases' ? { branchConfiguration: 'main release/*' } : {}),
    });
  }
  pipelines.elsewhere = await admin.createPipeline({
    organization: 'other',
    name: 'elsewhere',
    repository: 'git@example.com:other/elsewhere.git',
    steps: STEPS,
  });
  const associate = (
    team: string,
    pipeline: string,
    accessLevel: Parameters<typeof admin.addTeamPipeline>[0]['accessLevel'],
  ) => admin.addTeamPipeline({ organization: 'acme', team, pipeline, accessLevel });
  await associate('platform', 'web', 'manage_build_and_read');
  await associate('platform', 'api', 'build_and_read');
  await associate('platform', 'docs', 'read_only');
  await associate('hidden', 'secret', 'build_and_read');
  await associate('platform', 'releases', 'build_and_read');
  await associate('platform', 'archived', 'build_and_read');
  await server.database.sql.query(`update pipelines set archived_at = now() where slug = 'archived'`);

  const token = async (
    user: keyof typeof users | 'outsider',
    options: { scopes?: Scope[] | 'all'; organizations?: string[]; expiresAt?: Date } = {},
  ) =>
    (
      await admin.createAccessToken({
        email: users[user === 'outsider' ? 'otherAdmin' : user].email,
        scopes: options.scopes ?? 'all',
        ...(options.organizations ? { organizations: options.organizations } : {}),
        ...(options.expiresAt ? { expiresAt: options.expiresAt } : {}),
      })
    ).secret;

  const tokens = {
    admin: await token('admin'),
    member: await token('member'),
    bystander: await token('bystander'),
    otherAdmin: await token('otherAdmin'),
  };

  const call = jsonCaller(server, () => tokens.admin);

  /** Creates a build through the API as `admin` and returns its body. */
  const createBuild = async (
    pipeline: string,
    body: Record<string, unknown> = {},
    options: { token?: string; organization?: string } = {},
  ) => {
    const response = await call(
      'POST',
      `/v2/organizations/${options.organization ?? 'acme'}/pipelines/${pipeline}/builds`,
      {
        token: options.token ?? tokens.admin,
        body: { commit: 'a'.repeat(40), branch: 'main', message: 'a build', ...body },
      },
    );
    if (response.status !== 201) throw new Error(`create failed: ${response.status} ${response.text}`);
    return response.body;
  };

  /** How many round trips to PostgreSQL `work` made the server take, and their texts (`sql`). */
  const countStatements = async <T>(
    work: () => Promise<T>,
  ): Promise<{ result: T; statements: number; sql: string[] }> => {
    const before = statements;
    const sql: string[] = [];
    kept = sql;
    try {
      const result = await work();
      return { result, statements: statements - before, sql };
    } finally {
      kept = null;
    }
  };

  /** A typed client of `/trpc` with this bearer token (none when null). */
  const trpc = (secret: string | null) => trpcClient(server, secret);

  return {
    server,
    users: { ...users, outsider: users.otherAdmin },
    pipelines,
    tokens: { ...tokens, outsider: tokens.otherAdmin },
    token,
    call,
    trpc,
    createBuild,
    countStatements,
    close: () => server.close(),
  };
}

export type World = Awaited<ReturnType<typeof startWorld>>;

/** The UUIDs of the world's teams by organization slug and team slug: team pipelines are addressed by team UUID. */
export async function teamIds(world: World): Promise<Record<string, string>> {
  const rows = await world.server.database.sql.query<{ organization: string; slug: string; id: string }>(
    'select o.slug as organization, t.slug, t.id from teams t join organizations o on o.id = t.organization_id',
  );
  return Object.fromEntries(
    rows.map((row) => [row.organization === 'acme' ? row.slug : `${row.organization}/${row.slug}`, row.id]),
  );
}

/** Whether a statement decides a user's access to a pipeline (the access statement, with the content revision). */
export const decidesAccess = (sql: string) => sql.includes('p_content_revision');

/**
 * Whether a statement decides the access from the narrow facts alone (`pipeline_revision`: no column of
 * the pipeline but its id), as an answer its revision may give reads it (ADR 0016).
 */
export const decidesAccessAlone = (sql: string) => decidesAccess(sql) && !sql.includes('p_steps');

/**
 * Whether a statement reads pipelines. The one exception, `pipelines tp`, is the trigger steps' lookup of
 * another build's pipeline slug (`triggered_from`, `triggered_build`), run only for builds and jobs a
 * trigger step made or ran.
 */
export const readsPipelines = (sql: string) => /(from|join) pipelines (?!tp )/.test(sql);

/** Whether a statement reads a token. */
export const readsToken = (sql: string) => sql.includes('access_tokens');
