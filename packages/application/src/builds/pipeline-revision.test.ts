import { type AccessLevel, ORGANIZATION_SETTINGS_DEFAULTS, type Pipeline, type Scope } from '@ci/domain';
import { describe, expect, it } from 'vitest';
import type { Deps, PipelineAccessFacts } from '../ports';
import { actorWith } from '../use-case.fixture';
import { pipelineRevision } from './pipeline-revision';

const organization = {
  id: 'org-1',
  slug: 'acme',
  name: 'Acme',
  createdAt: new Date(0),
  ...ORGANIZATION_SETTINGS_DEFAULTS,
};
const pipeline = { id: 'pipe-1', slug: 'web', organizationId: 'org-1' } as Pipeline;
const ref = { organization: 'acme', pipeline: 'web' };

const facts = (
  overrides: Partial<PipelineAccessFacts> & { levels?: AccessLevel[] } = {},
): PipelineAccessFacts => ({
  organization,
  role: 'member',
  pipeline,
  teamAccessLevels: overrides.levels ?? ['read_only'],
  pipelineHasTeams: true,
  pipelineCreator: null,
  contentRevision: '7.8.9',
  ...overrides,
});

/** One statement: the narrow access facts, with the content revision; never the whole pipeline. */
const reading = ({ pipelineCreator: _, ...read }: PipelineAccessFacts) =>
  ({
    repos: {
      access: {
        pipelineRevision: async () => read,
        pipeline: async () => {
          throw new Error('the whole pipeline is not read for a revision');
        },
      },
    },
  }) as unknown as Deps;

const actor = (scopes: Scope[] = ['read_builds'], tokenId = 'token-1') => ({
  ...actorWith(scopes),
  tokenId,
});

const revision = (read: PipelineAccessFacts, scopes?: Scope[], tokenId?: string) =>
  pipelineRevision(reading(read))(actor(scopes, tokenId), ref, 'listBuilds');

describe('pipelineRevision', () => {
  it('is the same for the same content, access and token', async () => {
    expect(await revision(facts())).toBe(await revision(facts()));
  });

  it('differs when the content revision, the access, the token or its scopes differ', async () => {
    const base = await revision(facts());
    expect(await revision(facts({ contentRevision: '7.8.10' }))).not.toBe(base);
    expect(await revision(facts({ levels: ['manage_build_and_read'] }))).not.toBe(base);
    expect(await revision(facts({ role: 'admin' }))).not.toBe(base);
    expect(await revision(facts(), ['read_builds'], 'token-2')).not.toBe(base);
    expect(await revision(facts(), ['read_builds', 'write_builds'])).not.toBe(base);
  });

  it('is none without a content revision: nothing may be cached then', async () => {
    expect(await revision(facts({ contentRevision: null }))).toBeNull();
  });

  it('refuses as the use cases do: no scope, no pipeline, no access', async () => {
    await expect(revision(facts(), ['read_pipelines'])).rejects.toMatchObject({ kind: 'forbidden' });
    await expect(revision(facts({ pipeline: null, contentRevision: null }))).rejects.toMatchObject({
      kind: 'not_found',
    });
    await expect(revision(facts({ levels: [] }))).rejects.toMatchObject({ kind: 'not_found' });
  });
});
