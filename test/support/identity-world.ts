import { startWorld } from './world';

export { API_URL, WEB_URL } from './world';

/**
 * The shared test world (test/support/world.ts) seen from the identity tests, with one organization
 * more so that the organization list has pages:
 *
 * - `admin` is an admin of `acme` and `beta`, and a member of `other`: three organizations
 * - `member` and `bystander` are members of `acme` only; `outsider` (the admin of `other`) is not in `acme`
 * - `member` has a picture of their own (`avatar_url`); everyone else falls back to Gravatar
 *
 * Members of `acme`, longest-standing first: admin, member, bystander.
 */
export async function startIdentityWorld() {
  const world = await startWorld();
  const { server, users } = world;
  const admin = server.useCases.admin;
  await admin.createOrganization({ name: 'Beta Corp', slug: 'beta' });
  await admin.addMember({ organization: 'beta', email: users.admin.email, role: 'admin' });
  await admin.addMember({ organization: 'other', email: users.admin.email, role: 'member' });
  const memberAvatar = 'https://avatars.example.test/max.png';
  await server.database.sql.query('update users set avatar_url = $1 where id = $2', [
    memberAvatar,
    users.member.id,
  ]);

  type Cast = 'admin' | 'member' | 'bystander' | 'outsider';
  /** A new token with everything the admin use case can set, returned with its stored form. */
  const issueToken = (
    user: Cast,
    options: Omit<Parameters<typeof admin.createAccessToken>[0], 'email' | 'scopes'> & {
      scopes?: Parameters<typeof admin.createAccessToken>[0]['scopes'];
    } = {},
  ) => admin.createAccessToken({ email: users[user].email, scopes: 'all', ...options });

  /** When the token was revoked, as the database has it (null: never; undefined: no such token). */
  const revokedAt = async (tokenId: string) => {
    const [row] = await server.database.sql.query<{ ms: number | null }>(
      'select extract(epoch from revoked_at)::float8 * 1000 as ms from access_tokens where id = $1',
      [tokenId],
    );
    if (!row) return undefined;
    return row.ms === null ? null : new Date(row.ms);
  };

  /** The organizations as the database has them, by slug, `created_at` formatted by PostgreSQL. */
  const organizationRows = async () => {
    const rows = await server.database.sql.query<{
      id: string;
      slug: string;
      name: string;
      created_at: string;
    }>(
      `select id, slug, name,
              to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as created_at
       from organizations`,
    );
    return Object.fromEntries(rows.map((row) => [row.slug, row]));
  };

  return { ...world, memberAvatar, issueToken, revokedAt, organizationRows };
}

export type IdentityWorld = Awaited<ReturnType<typeof startIdentityWorld>>;
