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
  const token = (user: Cast, options?: Parameters<typeof world.token>[1]) =>
    world.token(user === 'outsider' ? 'otherAdmin' : user, options);

  /** The organizations as the database has them, by slug. */
  const organizationRows = async () => {
    const rows = await server.database.sql.query<{
      id: string;
      slug: string;
      name: string;
      created_at: Date;
    }>('select id, slug, name, created_at from organizations');
    return Object.fromEntries(rows.map((row) => [row.slug, row]));
  };

  return {
    server,
    users: { ...users, outsider: users.otherAdmin },
    memberAvatar,
    tokens: {
      admin: world.tokens.admin,
      member: world.tokens.member,
      bystander: world.tokens.bystander,
      outsider: world.tokens.otherAdmin,
    },
    token,
    call: world.call,
    organizationRows,
    close: () => server.close(),
  };
}

export type IdentityWorld = Awaited<ReturnType<typeof startIdentityWorld>>;
