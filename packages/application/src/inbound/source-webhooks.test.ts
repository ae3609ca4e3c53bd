import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Deps } from '../ports';
import { ACME } from '../use-case.fixture';
import { deliverWebhook } from './source-webhooks';

const TOKEN = 'a'.repeat(50);
const PUSH = JSON.stringify({ ref: 'refs/heads/main', after: 'b'.repeat(40) });

/** A pipeline found by its webhook token, whose builds are never created: these are the refusals. */
function depsWith(secret: string | null) {
  const lookups: string[] = [];
  const deps = {
    repos: {
      sourceWebhooks: {
        findByToken: async (token: string) => {
          lookups.push(token);
          return token === TOKEN
            ? {
                organization: ACME,
                pipeline: {
                  id: 'p',
                  repository: 'git@github.com:acme/app.git',
                  provider: { id: 'github', settings: { trigger_mode: 'none' } },
                },
                pipelineCreator: null,
                secret,
              }
            : null;
        },
      },
      pipelineTriggers: {
        findByTokenHash: async () => {
          lookups.push('trigger');
          return null;
        },
      },
    },
  } as unknown as Deps;
  return { deliver: deliverWebhook(deps), lookups };
}

const sign = (secret: string, body: string) =>
  `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

describe('deliverWebhook', () => {
  it('refuses a token of no pipeline (404), looking up only well-formed ones', async () => {
    const { deliver, lookups } = depsWith(null);
    await expect(deliver({ token: 'f'.repeat(50), headers: {}, body: '{}' })).rejects.toMatchObject({
      kind: 'not_found',
    });
    await expect(deliver({ token: 'short', headers: {}, body: '{}' })).rejects.toMatchObject({
      kind: 'not_found',
    });
    expect(lookups).toEqual(['f'.repeat(50)]);
  });

  it('sends bktr_ tokens to the triggers: 400 for a malformed one, without a look-up', async () => {
    const { deliver, lookups } = depsWith(null);
    await expect(deliver({ token: 'bktr_x', headers: {}, body: '{}' })).rejects.toMatchObject({
      kind: 'bad_request',
      message: 'Invalid pipeline trigger token',
    });
    await expect(deliver({ token: `bktr_${'A'.repeat(40)}`, headers: {}, body: '{}' })).rejects.toMatchObject(
      {
        message: 'Pipeline trigger not found',
      },
    );
    expect(lookups).toEqual(['trigger']);
  });

  it.each([
    ['no signature', {}],
    ['another secret’s signature', { 'x-hub-signature-256': sign('other', PUSH) }],
    ['a signature of other bytes', { 'x-hub-signature-256': sign('s3cret', `${PUSH} `) }],
    ['a malformed signature', { 'x-hub-signature-256': 'sha256=zz' }],
  ])('answers 401 to a GitHub delivery with %s once a secret is set', async (_case, headers) => {
    const { deliver } = depsWith('s3cret');
    await expect(
      deliver({ token: TOKEN, headers: { 'x-github-event': 'push', ...headers }, body: PUSH }),
    ).rejects.toMatchObject({ kind: 'unauthenticated', message: 'Webhook signature does not match' });
  });

  it('checks GitLab’s X-Gitlab-Token and Bitbucket’s X-Hub-Signature against the secret', async () => {
    const { deliver } = depsWith('s3cret');
    const gitlab = { 'x-gitlab-event': 'Push Hook' };
    await expect(
      deliver({ token: TOKEN, headers: { ...gitlab, 'x-gitlab-token': 's3cre' }, body: PUSH }),
    ).rejects.toMatchObject({ kind: 'unauthenticated' });
    // A right token passes the check; trigger_mode none then builds nothing.
    await expect(
      deliver({ token: TOKEN, headers: { ...gitlab, 'x-gitlab-token': 's3cret' }, body: PUSH }),
    ).resolves.toEqual({ kind: 'ignored', reason: 'trigger_mode is none' });
    await expect(
      deliver({
        token: TOKEN,
        headers: { 'x-event-key': 'repo:push', 'x-hub-signature': sign('s3cret', '{}') },
        body: '{}',
      }),
    ).rejects.toMatchObject({ kind: 'bad_request' });
  });

  it('accepts an unsigned delivery while no secret is set, and refuses malformed JSON (400)', async () => {
    const { deliver } = depsWith(null);
    await expect(
      deliver({ token: TOKEN, headers: { 'x-github-event': 'push' }, body: PUSH }),
    ).resolves.toEqual({
      kind: 'ignored',
      reason: 'trigger_mode is none',
    });
    await expect(
      deliver({ token: TOKEN, headers: { 'x-github-event': 'push' }, body: '{"ref":' }),
    ).rejects.toMatchObject({ kind: 'bad_request', message: 'Problems parsing JSON' });
  });
});
