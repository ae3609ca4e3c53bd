import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgentsWorld } from '../support/agents-world';
import { startS3Server } from '../support/s3-server';

/**
 * The server process configured for an S3-compatible bucket (a local s3rver) as production is, by
 * `ARTIFACTS_S3_*` and the AWS SDK's credential variables: a real agent's upload lands in the bucket,
 * a download is a 302 to the bucket's presigned address, and a delete removes the object.
 */

let s3: Awaited<ReturnType<typeof startS3Server>>;
let world: Awaited<ReturnType<typeof startAgentsWorld>>;

beforeAll(async () => {
  s3 = await startS3Server();
  world = await startAgentsWorld({
    env: {
      ARTIFACTS_S3_BUCKET: s3.bucket,
      ARTIFACTS_S3_ENDPOINT: s3.endpoint,
      ARTIFACTS_S3_PREFIX: 'ci/',
      AWS_ACCESS_KEY_ID: s3.credentials.accessKeyId,
      AWS_SECRET_ACCESS_KEY: s3.credentials.secretAccessKey,
    },
  });
  world.startAgent({ name: 's3-artifacts' });
});
afterAll(async () => {
  await world?.close();
  await s3?.close();
});

describe('artifacts in an S3-compatible bucket', () => {
  it("keeps a job's upload in the bucket, redirects downloads to it, and deletes it from there", async () => {
    const pipeline = await world.createPipeline(`steps:
  - command: mkdir -p out && echo "kept in a bucket" > out/s3.txt && buildkite-agent artifact upload out/s3.txt
`);
    const { number } = await world.createBuild(pipeline);
    const build = await world.waitForBuild(pipeline, number, 'passed');
    const jobId = build.jobs[0].id;
    const listed = await world.call(
      'GET',
      `/v2/organizations/acme/pipelines/${pipeline}/builds/${number}/jobs/${jobId}/artifacts`,
    );
    const bytes = Buffer.from('kept in a bucket\n');
    expect(listed.body).toEqual([
      expect.objectContaining({
        path: 'out/s3.txt',
        state: 'finished',
        file_size: bytes.length,
        sha1sum: createHash('sha1').update(bytes).digest('hex'),
      }),
    ]);
    const path = new URL(listed.body[0].url).pathname;
    const download = await fetch(`${world.server.baseUrl}${path}/download`, {
      headers: { Authorization: `Bearer ${world.token}` },
      redirect: 'manual',
    });
    expect(download.status).toBe(302);
    const location = download.headers.get('location') as string;
    expect(location).toContain(`${s3.endpoint}/${s3.bucket}/ci/`);
    const served = await fetch(location);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer())).toEqual(bytes);

    expect((await world.call('DELETE', path)).status).toBe(204);
    expect((await fetch(location)).status).toBe(404);
  });
});
