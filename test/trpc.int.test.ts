import { BuildWire } from '@ci/trpc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trpcFailure } from './support/trpc';
import { startWorld, type World } from './support/world';

const SHA = (c: string) => c.repeat(40);
const PIPELINE = { organization: 'acme', pipeline: 'web' } as const;
const restPath = (rest = '') => `/v2/organizations/acme/pipelines/web/builds${rest}`;

let world: World;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(() => world?.close());

const admin = () => world.trpc(world.tokens.admin);

/** Where each value sits and of what kind: two bodies with the same shape differ only in their values. */
function shapeOf(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(shapeOf);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, shapeOf(entry)]));
  }
  return value === null ? 'null' : typeof value;
}

describe('builds over tRPC', () => {
  it('creates a build with the same body as REST: the next number, scheduled, with the pipeline jobs', async () => {
    const body = { commit: SHA('a'), branch: 'main', message: 'over both transports' };
    const rest = await world.createBuild('web', body);
    const build = await admin().builds.create.mutate({ ...PIPELINE, ...body });

    expect(build).toMatchObject({ number: rest.number + 1, state: 'scheduled', blocked: false, ...body });
    expect(build.jobs?.map((job) => [job.type, job.step_key, job.state])).toEqual(
      rest.jobs.map((job: { type: string; step_key: string; state: string }) => [
        job.type,
        job.step_key,
        job.state,
      ]),
    );
    expect(build.jobs?.length).toBeGreaterThan(0);
    for (const job of build.jobs ?? []) {
      expect(Buffer.from(job.graphql_id, 'base64').toString()).toBe(`Job---${job.id}`);
    }
    expect(shapeOf(build)).toEqual(shapeOf(rest));
    expect(BuildWire.safeParse(build).error).toBeUndefined();
  });

  it('gets a build exactly as REST shows it', async () => {
    const created = await admin().builds.create.mutate({ ...PIPELINE, commit: SHA('b'), branch: 'main' });
    const number = String(created.number);
    const rest = await world.call('GET', restPath(`/${number}`));
    const build = await admin().builds.get.query({ ...PIPELINE, number });

    expect(rest.status).toBe(200);
    expect(build).toEqual(rest.body);
    expect(build).toMatchObject({ id: created.id, number: created.number, state: 'scheduled' });
  });

  it('lists a pipeline builds with the filters given as input: branch, state and page size', async () => {
    const client = admin();
    const create = (branch: string) =>
      client.builds.create.mutate({ ...PIPELINE, commit: SHA('c'), branch, message: 'for the list' });
    const wanted = [await create('list/wanted'), await create('list/wanted'), await create('list/wanted')];
    await create('list/other');
    const canceled = await create('list/wanted');
    await client.builds.cancel.mutate({ ...PIPELINE, number: String(canceled.number) });

    const input = { ...PIPELINE, branch: 'list/wanted', state: ['scheduled'] };
    const page1 = await client.builds.listForPipeline.query({ ...input, per_page: 2 });
    const page2 = await client.builds.listForPipeline.query({ ...input, per_page: 2, page: 2 });
    const all = await client.builds.listForPipeline.query(input);

    const newestFirst = wanted.map((build) => build.number).reverse();
    expect(page1.map((build) => build.number)).toEqual(newestFirst.slice(0, 2));
    expect(page2.map((build) => build.number)).toEqual(newestFirst.slice(2));
    expect(all.map((build) => build.number)).toEqual(newestFirst);
    expect(all.every((build) => build.branch === 'list/wanted' && build.state === 'scheduled')).toBe(true);

    const rest = await world.call('GET', restPath('?branch=list/wanted&state[]=scheduled&per_page=2'));
    expect(rest.body).toEqual(page1);
  });

  it('cancels a scheduled build, and refuses a second cancel with 422 and the same message as REST', async () => {
    const client = admin();
    const created = await client.builds.create.mutate({ ...PIPELINE, commit: SHA('d'), branch: 'main' });
    const key = { ...PIPELINE, number: String(created.number) };

    const canceled = await client.builds.cancel.mutate(key);
    expect(canceled).toMatchObject({ id: created.id, state: 'canceled' });
    expect(canceled.finished_at).not.toBeNull();
    expect(canceled.jobs?.map((job) => job.state)).toEqual(created.jobs?.map(() => 'canceled'));

    const again = await trpcFailure(client.builds.cancel.mutate(key));
    expect(again.data?.httpStatus).toBe(422);
    expect(again.data?.code).toBe('UNPROCESSABLE_CONTENT');
    expect(again.message).toMatch(/already/);
    const rest = await world.call('PUT', restPath(`/${key.number}/cancel`));
    expect(rest.status).toBe(422);
    expect(again.message).toBe(rest.body.message);
  });

  it('rebuilds a build as a new scheduled build that points back to the original', async () => {
    const client = admin();
    const original = await client.builds.create.mutate({
      ...PIPELINE,
      commit: SHA('e'),
      branch: 'feature/rebuild',
      message: 'again',
      env: { FOO: 'bar' },
      meta_data: { release: 'yes' },
    });
    await client.builds.cancel.mutate({ ...PIPELINE, number: String(original.number) });

    const rebuilt = await client.builds.rebuild.mutate({ ...PIPELINE, number: String(original.number) });
    expect(rebuilt.number).toBeGreaterThan(original.number);
    expect(rebuilt).toMatchObject({
      state: 'scheduled',
      commit: SHA('e'),
      branch: 'feature/rebuild',
      message: 'again',
      env: { FOO: 'bar' },
      meta_data: { release: 'yes' },
      rebuilt_from: { id: original.id, number: original.number, url: original.url },
    });
    const fetched = await client.builds.get.query({ ...PIPELINE, number: String(rebuilt.number) });
    expect(fetched.rebuilt_from?.id).toBe(original.id);
  });
});

describe('tRPC errors', () => {
  it('answers the latest build of each pipeline it may see in one call, as the pipeline list shows it', async () => {
    const latest = await admin().builds.create.mutate({ ...PIPELINE, commit: SHA('c'), branch: 'main' });
    const ids = ['web', 'public', 'secret'].map((name) => world.pipelines[name]!.id);
    const [listed] = await admin().builds.listForPipeline.query({ ...PIPELINE, per_page: '1' });
    const asMember = await world
      .trpc(world.tokens.member)
      .builds.latestOfPipelines.query({ pipeline_ids: ids });
    // `public` has no build; `secret` is not the member's to see, so it is left out.
    expect(asMember.map((entry) => [entry.pipeline_id, entry.build?.number ?? null])).toEqual([
      [ids[0], latest.number],
      [ids[1], null],
    ]);
    const { jobs: _jobs, ...withoutJobs } = listed!;
    expect(asMember[0]!.build).toEqual(withoutJobs);
    const asAdmin = await admin().builds.latestOfPipelines.query({ pipeline_ids: ids });
    expect(asAdmin.map((entry) => entry.pipeline_id)).toEqual(ids);
  });

  it('answers a call without a token with 401 and the message REST answers', async () => {
    const rest = await world.call('GET', restPath(), { token: null });
    expect(rest.status).toBe(401);

    const error = await trpcFailure(world.trpc(null).builds.listForPipeline.query(PIPELINE));
    expect(error.data?.httpStatus).toBe(401);
    expect(error.data?.code).toBe('UNAUTHORIZED');
    expect(error.message).toBe(rest.body.message);
  });

  it('answers an unknown build with 404 No build found', async () => {
    const error = await trpcFailure(admin().builds.get.query({ ...PIPELINE, number: '999999' }));
    expect(error.data?.httpStatus).toBe(404);
    expect(error.message).toBe('No build found');
  });

  it('refuses an invalid create body with 422 Validation Failed, as REST does', async () => {
    const error = await trpcFailure(
      admin().builds.create.mutate({ ...PIPELINE, commit: '', branch: 'main' }),
    );
    expect(error.data?.httpStatus).toBe(422);
    expect(error.message).toBe('Validation Failed');
    const rest = await world.call('POST', restPath(), { body: { commit: '', branch: 'main' } });
    expect(rest.status).toBe(422);
    expect(rest.body.message).toBe(error.message);
    expect((error.data as { errors?: unknown } | undefined)?.errors).toEqual(rest.body.errors);
  });

  it('refuses a malformed page size with 400 and the message REST answers', async () => {
    const error = await trpcFailure(admin().builds.listForPipeline.query({ ...PIPELINE, per_page: 'many' }));
    expect(error.data?.httpStatus).toBe(400);
    const rest = await world.call('GET', restPath('?per_page=many'));
    expect(rest.status).toBe(400);
    expect(error.message).toBe(rest.body.message);
    expect(error.message).toBe('per_page must be a positive integer');
  });

  it('answers input of the wrong type with 400 naming the field, without a stack', async () => {
    const error = await trpcFailure(
      admin().builds.listForPipeline.query({ ...PIPELINE, per_page: true as unknown as number }),
    );
    expect(error.data?.httpStatus).toBe(400);
    expect(error.message).toMatch(/^Invalid per_page: /);
  });
});
