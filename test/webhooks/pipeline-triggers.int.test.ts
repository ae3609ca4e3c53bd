import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { example, ISO_MS_Z, JSON_TYPE } from '../support/answers';
import { API_URL, type PipelinesWorld, startPipelinesWorld } from '../support/pipelines-world';

/**
 * Pipeline triggers through the real HTTP server and PostgreSQL: made, read, changed and deleted over
 * REST; their `bktr_` URLs create builds from any JSON POST, answering as the public service's examples
 * (pipeline-trigger-response.json, error-pipeline-trigger-400.json).
 */

type Json = Record<string, unknown>;

let world: PipelinesWorld;
beforeAll(async () => {
  world = await startPipelinesWorld();
});
afterAll(() => world?.close());

const triggersPath = (pipeline: string) => `${world.pipelinePath(pipeline)}/triggers`;

async function makeTrigger(pipeline: string, body: Json = {}) {
  const response = await world.call('POST', triggersPath(pipeline), { body });
  expect(response.status, response.text).toBe(201);
  return response.body as Json & { id: string; webhook_url: string };
}

function post(webhookUrl: string, body: string) {
  return world.call('POST', webhookUrl.slice(API_URL.length), {
    token: null,
    rawBody: body,
    headers: { 'Content-Type': 'application/json' },
  });
}

describe('POST /v2/organizations/{org}/pipelines/{pipeline}/triggers', () => {
  it('makes a trigger whose webhook_url (shown once) ends in a bktr_ token', async () => {
    const trigger = await makeTrigger('web', {
      label: 'Alerts',
      build: { branch: 'main', message: 'Alert!' },
    });
    expect(trigger).toEqual({
      id: expect.any(String),
      url: `${API_URL}/v2/organizations/acme/pipelines/web/triggers/${trigger.id}`,
      type: 'webhook',
      label: 'Alerts',
      enabled: true,
      build: { message: 'Alert!', commit: null, branch: 'main', environment_variables: [] },
      filter: null,
      verification: null,
      webhook_url: expect.stringMatching(new RegExp(`^${API_URL}/webhooks/deliver/bktr_[A-Za-z0-9]{40}$`)),
      created_at: expect.stringMatching(ISO_MS_Z),
    });
    const got = await world.call('GET', `${triggersPath('web')}/${trigger.id}`);
    expect(got.status).toBe(200);
    const { webhook_url: _shownOnce, ...rest } = trigger;
    expect(got.body).toEqual(rest);
    const list = await world.call('GET', triggersPath('web'));
    expect(list.body).toContainEqual(rest);
    // Stored as its hash only.
    const [row] = await world.server.database.sql.query<{ token_hash: string }>(
      'select token_hash from pipeline_triggers where id = $1',
      [trigger.id],
    );
    expect(row?.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(trigger.webhook_url).not.toContain(row?.token_hash);
  });

  it('answers 422 for an invalid body and 403/404 to who may not manage the pipeline', async () => {
    const invalid = await world.call('POST', triggersPath('web'), {
      body: { type: 'linear', enabled: 'yes' },
    });
    expect(invalid.status).toBe(422);
    expect(invalid.body.errors.map((error: Json) => error.field)).toEqual(['type', 'enabled']);
    expect((await world.call('POST', triggersPath('api'), { token: world.tokens.member })).status).toBe(403);
    expect((await world.call('GET', triggersPath('secret'), { token: world.tokens.member })).status).toBe(
      404,
    );
    const unknown = await world.call('GET', `${triggersPath('web')}/0190a0a0-0000-7000-8000-000000000000`);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: 'Pipeline trigger not found' });
  });
});

describe('a trigger URL', () => {
  it('creates a build from a JSON POST: 201 {id}, the payload kept as meta-data buildkite:webhook', async () => {
    const trigger = await makeTrigger('docs', {
      label: 'Deploys',
      build: { branch: 'release', commit: 'abc123' },
    });
    const payload = { alert: { name: 'disk full', level: 3 } };
    const response = await post(trigger.webhook_url, JSON.stringify(payload));
    expect(response.status, response.text).toBe(201);
    expect(response.headers.get('content-type')).toBe(JSON_TYPE);
    expect(Object.keys(response.body)).toEqual(Object.keys(example('pipeline-trigger-response.json')));
    const build = await world.call('GET', `${world.pipelinePath('docs')}/builds`);
    const made = (build.body as Json[]).find((item) => item.id === response.body.id);
    expect(made).toMatchObject({
      source: 'webhook',
      creator: null,
      branch: 'release',
      commit: 'abc123',
      message: 'Triggered by Deploys',
      meta_data: { 'buildkite:webhook': JSON.stringify(payload) },
    });
  });

  it('answers 400, 404 and 403 as the public errors, building nothing', async () => {
    const before = (await world.call('GET', `${world.pipelinePath('api')}/builds`)).body.length;
    const malformed = await post(`${API_URL}/webhooks/deliver/bktr_short`, '{}');
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual(example('error-pipeline-trigger-400.json'));
    const unknown = await post(`${API_URL}/webhooks/deliver/bktr_${'a'.repeat(40)}`, '{}');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: 'Pipeline trigger not found' });

    const trigger = await makeTrigger('api');
    const disabled = await world.call('PATCH', `${triggersPath('api')}/${trigger.id}`, {
      body: { enabled: false },
    });
    expect(disabled.status).toBe(200);
    expect(disabled.body.enabled).toBe(false);
    const refused = await post(trigger.webhook_url, '{}');
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ message: 'Pipeline trigger is disabled' });
    const badJson = await post(trigger.webhook_url, '{"a":');
    expect(badJson.status).toBe(403);

    await world.call('PATCH', `${triggersPath('api')}/${trigger.id}`, { body: { enabled: true } });
    expect((await post(trigger.webhook_url, '{"a":')).status).toBe(400);
    expect((await world.call('DELETE', `${triggersPath('api')}/${trigger.id}`)).status).toBe(204);
    expect((await post(trigger.webhook_url, '{}')).status).toBe(404);
    expect((await world.call('GET', `${world.pipelinePath('api')}/builds`)).body.length).toBe(before);
  });
});
