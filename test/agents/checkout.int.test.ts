import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgentsWorld } from '../support/agents-world';
import { localGitRepository } from '../support/git-repository';

/** The agent checks out a local repository (`file://`) before a job's command. */

type World = Awaited<ReturnType<typeof startAgentsWorld>>;

let world: World;
let repository: ReturnType<typeof localGitRepository>;
const commits: Record<string, string> = {};
beforeAll(async () => {
  repository = localGitRepository();
  commits.first = repository.commit({ 'version.txt': 'v1\n' });
  commits.second = repository.commit({ 'version.txt': 'v2\n' });
  commits.feature = repository.commit({ 'feature.txt': 'on a branch\n' }, 'feature');
  world = await startAgentsWorld();
  world.startAgent({ name: 'checkout' });
});
afterAll(async () => {
  await world?.close();
  repository?.remove();
});

const SHOW = `steps:
  - command: |
      echo "version $(cat version.txt) feature $(cat feature.txt 2>/dev/null || echo none)"
      echo "commit $BUILDKITE_COMMIT branch $BUILDKITE_BRANCH"
      echo "path $BUILDKITE_BUILD_CHECKOUT_PATH pwd $(pwd)"
      test -f .git/reused && echo "folder reused" || echo "folder fresh"
      test -f untracked.txt && echo "left over" || echo "nothing left over"
      touch .git/reused untracked.txt
`;

/** Runs one build to `state` and answers its first job's log. */
async function run(pipeline: string, body: Record<string, unknown>, state = 'passed') {
  const { number } = await world.createBuild(pipeline, body);
  const build = await world.waitForBuild(pipeline, number, state);
  const log = await world.call(
    'GET',
    `/v2/organizations/acme/pipelines/${pipeline}/builds/${number}/jobs/${build.jobs[0].id}/log.txt`,
  );
  return { build, log: log.text };
}

describe('checkout', () => {
  it("checks out the build's commit into a folder the pipeline's next jobs reuse", async () => {
    const pipeline = await world.createPipeline(SHOW, { repository: repository.url });
    const first = await run(pipeline, { commit: commits.first, branch: 'main' });
    expect(first.log).toContain('~~~ Preparing working directory');
    expect(first.log).toContain(`$ git clone -- ${repository.url} .`);
    expect(first.log).toContain('version v1 feature none');
    expect(first.log).toContain(`commit ${commits.first} branch main`);
    expect(first.log).toContain('folder fresh');
    const path = /^path (\/\S+) pwd (\S+)$/m.exec(first.log);
    expect(path?.[1]).toBe(path?.[2]);
    expect(path?.[1]).toContain(world.buildPath);

    const second = await run(pipeline, { commit: commits.second, branch: 'main' });
    expect(second.log).toContain('$ git fetch --prune --tags origin');
    expect(second.log).toContain('version v2');
    expect(second.log).toContain('folder reused');
    // What a job left untracked is cleaned away before the next one.
    expect(second.log).toMatch(/^nothing left over$/m);
  });

  it("takes HEAD as the head of the build's branch", async () => {
    const pipeline = await world.createPipeline(SHOW, { repository: repository.url });
    const main = await run(pipeline, { commit: 'HEAD', branch: 'main' });
    expect(main.log).toContain(`commit ${commits.second} branch main`);
    const feature = await run(pipeline, { commit: 'HEAD', branch: 'feature' });
    expect(feature.log).toContain('feature on a branch');
    expect(feature.log).toContain(`commit ${commits.feature} branch feature`);
  });

  it('clones afresh with clean_checkout', async () => {
    const pipeline = await world.createPipeline(SHOW, { repository: repository.url });
    await run(pipeline, { commit: 'HEAD', branch: 'main' });
    const clean = await run(pipeline, { commit: 'HEAD', branch: 'main', clean_checkout: true });
    expect(clean.log).toContain('Cleaning the checkout folder (clean_checkout)');
    expect(clean.log).toContain('folder fresh');
  });

  it("fails the job with git's error when the repository cannot be cloned, without running the command", async () => {
    const pipeline = await world.createPipeline('steps:\n  - command: echo should-not-run\n', {
      repository: `${repository.url}-missing`,
    });
    const { build, log } = await run(pipeline, { commit: 'HEAD', branch: 'main' }, 'failed');
    expect(build.jobs[0].exit_status).toBe(128);
    expect(log).toMatch(/fatal: .*(does not appear to be a git repository|does not exist)/);
    expect(log).toContain('Checkout failed (git exited with status 128); the command did not run');
    expect(log).not.toContain('should-not-run\n');
  });

  it('fails the job when the commit is not in the repository', async () => {
    const pipeline = await world.createPipeline(SHOW, { repository: repository.url });
    const { log } = await run(pipeline, { commit: 'f'.repeat(40), branch: 'main' }, 'failed');
    expect(log).toContain(`$ git -c advice.detachedHead=false checkout --force ${'f'.repeat(40)}`);
    expect(log).toContain('Checkout failed');
  });

  it('skips the checkout of a step with BUILDKITE_SKIP_CHECKOUT, and of made-up repositories', async () => {
    const steps = `steps:
  - command: test -d .git && echo has-checkout || echo no-checkout
    env: { BUILDKITE_SKIP_CHECKOUT: "true" }
`;
    const skipped = await run(await world.createPipeline(steps, { repository: repository.url }), {});
    expect(skipped.log).toContain('no-checkout');
    expect(skipped.log).not.toContain('Preparing working directory');
    const madeUp = await run(await world.createPipeline(steps.replace(/\n {4}env.*\n/, '\n')), {});
    expect(madeUp.log).toContain('no-checkout');
  });
});
