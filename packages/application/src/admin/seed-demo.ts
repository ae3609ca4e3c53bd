import { authenticate } from '../auth/authenticate';
import { cancelBuild } from '../builds/cancel-build';
import { createBuild } from '../builds/create-build';
import { createClusterQueue } from '../clusters/cluster-queues';
import { createCluster } from '../clusters/clusters';
import type { Deps } from '../ports';
import { createAccessToken } from './access-tokens';
import { addMember, createOrganization, createUser } from './organizations';
import { addTeamPipeline, createPipeline } from './pipelines';
import { createTeam } from './teams';

const STEPS = `steps:
  - label: ":hammer: Build"
    key: build
    command: "echo building"
  - wait
  - label: ":test_tube: Test"
    key: test
    command: "echo testing"
`;

/**
 * A demo organization to explore: `acme` with an admin, a member, two teams, three pipelines and a
 * cluster with its default queue. The pipelines stay unclustered, so `--with-agent`'s agent runs them.
 */
export const seedDemo = (deps: Deps) => async () => {
  const organization = await createOrganization(deps)({ name: 'Acme', slug: 'acme' });
  const admin = await createUser(deps)({ name: 'Ada Admin', email: 'admin@acme.test' });
  const member = await createUser(deps)({ name: 'Max Member', email: 'member@acme.test' });
  await addMember(deps)({ organization: 'acme', email: admin.email, role: 'admin' });
  await addMember(deps)({ organization: 'acme', email: member.email, role: 'member' });
  const platform = await createTeam(deps)({
    organization: 'acme',
    name: 'Platform',
    members: [member.email],
  });
  const mobile = await createTeam(deps)({ organization: 'acme', name: 'Mobile' });
  const pipelines = [];
  for (const [name, repository] of [
    ['Website', 'git@github.com:acme/website.git'],
    ['API', 'git@github.com:acme/api.git'],
    ['Mobile App', 'git@github.com:acme/mobile-app.git'],
  ] as const) {
    pipelines.push(await createPipeline(deps)({ organization: 'acme', name, repository, steps: STEPS }));
  }
  const [website, api, app] = pipelines as [
    (typeof pipelines)[0],
    (typeof pipelines)[0],
    (typeof pipelines)[0],
  ];
  await addTeamPipeline(deps)({
    organization: 'acme',
    team: platform.slug,
    pipeline: website.slug,
    accessLevel: 'manage_build_and_read',
  });
  await addTeamPipeline(deps)({
    organization: 'acme',
    team: platform.slug,
    pipeline: api.slug,
    accessLevel: 'read_only',
  });
  await addTeamPipeline(deps)({
    organization: 'acme',
    team: mobile.slug,
    pipeline: app.slug,
    accessLevel: 'build_and_read',
  });
  const { token, secret } = await createAccessToken(deps)({
    email: admin.email,
    scopes: 'all',
    description: 'Demo token for Ada Admin',
  });
  const actor = await authenticate(deps)(`Bearer ${secret}`);
  const builds = [];
  for (const pipeline of pipelines) {
    for (const [branch, message] of [
      ['main', 'Initial commit'],
      ['feature/login', 'Add a login form'],
    ] as const) {
      const { view } = await createBuild(deps)(
        actor,
        { organization: 'acme', pipeline: pipeline.slug },
        { commit: 'a'.repeat(40), branch, message },
      );
      builds.push(view.build);
    }
  }
  await cancelBuild(deps)(actor, { organization: 'acme', pipeline: website.slug, number: 2 });
  const { cluster } = await createCluster(deps)(actor, 'acme', {
    name: 'Default cluster',
    description: 'Agents registered with its tokens run the jobs of its pipelines',
  });
  // The cluster's first queue becomes its default.
  await createClusterQueue(deps)(
    actor,
    { organization: 'acme', cluster: cluster.id },
    { key: 'default', description: 'Jobs whose steps name no queue' },
  );
  return {
    organization,
    admin,
    member,
    teams: [platform, mobile],
    pipelines,
    builds,
    cluster,
    token,
    secret,
  };
};
