import { startWorld, teamIds } from './world';

export { API_URL, WEB_URL } from './world';

/** A YAML pipeline file: a command step, a wait and a block, and a top-level env. */
export const YAML_CONFIGURATION = `env:
  FOO: bar
steps:
  - label: ":hammer: Build"
    key: build
    command: make build
    agents:
      queue: linux
  - wait
  - block: "Release?"
  - command:
      - make test
      - make lint
    parallelism: 2
    artifact_paths: "results/*"
    env:
      CI: "true"
`;

/**
 * The shared test world (test/support/world.ts) seen from the pipelines tests: `admin` (admin of `acme`),
 * `member` (member of `acme` in team `platform`), `bystander` (member of `acme`, no team), `outsider`
 * (admin of `other`, not in `acme`). `platform` has `web` (manage_build_and_read), `api`
 * (build_and_read), `docs` (read_only), `releases` and `archived`; `hidden` has `secret`; `public`
 * belongs to no team.
 */
export async function startPipelinesWorld() {
  const world = await startWorld();
  const { server, call, tokens } = world;
  const teams = await teamIds(world);

  const pipelinesPath = (organization = 'acme') => `/v2/organizations/${organization}/pipelines`;
  const pipelinePath = (slug: string, organization = 'acme') => `${pipelinesPath(organization)}/${slug}`;

  let n = 0;
  /** Creates a pipeline through the API and returns its body; fails the test on anything but 201. */
  const createPipeline = async (
    body: Record<string, unknown> = {},
    options: { token?: string; organization?: string } = {},
  ) => {
    const response = await call('POST', pipelinesPath(options.organization), {
      token: options.token ?? tokens.admin,
      body: {
        name: `made ${++n}`,
        repository: 'git@github.com:acme/made.git',
        configuration: 'steps:\n  - command: make\n',
        ...body,
      },
    });
    if (response.status !== 201) throw new Error(`create failed: ${response.status} ${response.text}`);
    return response.body;
  };

  /** Every pipeline with its teams and its builds' count: what refused requests must leave as it was. */
  const pipelineRows = () =>
    server.database.sql.query(
      `select p.id, o.slug as organization, p.slug, p.name, p.repository, p.description, p.env, p.steps,
         p.provider, p.configuration, p.archived_at, p.tags, p.visibility, p.allow_rebuilds,
         (select coalesce(array_agg(tp.team_id || ':' || tp.access_level order by tp.team_id), '{}')
          from team_pipelines tp where tp.pipeline_id = p.id) as teams,
         (select count(*)::int from builds b where b.pipeline_id = p.id) as builds
       from pipelines p join organizations o on o.id = p.organization_id order by p.created_at, p.id`,
    );

  return {
    ...world,
    teams,
    pipelinesPath,
    pipelinePath,
    createPipeline,
    pipelineRows,
  };
}

export type PipelinesWorld = Awaited<ReturnType<typeof startPipelinesWorld>>;
