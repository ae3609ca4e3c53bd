import type { AccessLevel, OrganizationRole, Pipeline, Scope } from '@ci/domain';
import { describe, expect, it } from 'vitest';
import type { Actor } from '../auth/actor';
import type { Deps, PipelineAccessEntry } from '../ports';
import { ACME, actorWith, uuid as id, OTHER } from '../use-case.fixture';
import {
  archivePipelineById,
  createPipelineInOrganizationId,
  deletePipelineById,
  findPipeline,
  getPipelinesById,
  unarchivePipelineById,
  updatePipelineById,
} from './pipelines-by-id';

/** teamed: a team of the member's has it; hidden: only teams the member is not in; open: no team. */
const PIPELINES = {
  teamed: { id: id(1), organizationId: ACME.id, slug: 'teamed' },
  hidden: { id: id(2), organizationId: ACME.id, slug: 'hidden' },
  open: { id: id(3), organizationId: ACME.id, slug: 'open' },
  elsewhere: { id: id(4), organizationId: OTHER.id, slug: 'elsewhere' },
} as unknown as Record<'teamed' | 'hidden' | 'open' | 'elsewhere', Pipeline>;

function actor(scopes: Scope[] = ['read_pipelines'], organizationIds: string[] | null = null): Actor {
  return actorWith(scopes, organizationIds);
}

function world(role: OrganizationRole, level: AccessLevel = 'build_and_read') {
  const reads: string[] = [];
  const entries: PipelineAccessEntry[] = (['teamed', 'hidden', 'open'] as const).map((name) => ({
    pipelineId: PIPELINES[name].id,
    organizationId: ACME.id,
    teamAccessLevels: name === 'teamed' ? [level] : [],
    pipelineHasTeams: name !== 'open',
  }));
  const deps = {
    repos: {
      lookups: {
        pipelines: async (ids: readonly string[]) => {
          reads.push('pipelines');
          return Object.values(PIPELINES).filter((pipeline) => ids.includes(pipeline.id));
        },
      },
      access: {
        memberships: async () => [
          { organization: ACME, role },
          { organization: OTHER, role: 'admin' as const },
        ],
        pipelineAccessIn: async () => entries,
        pipeline: async ({
          organizationSlug,
          pipelineSlug,
        }: {
          organizationSlug: string;
          pipelineSlug: string;
        }) => {
          reads.push('pipeline by slug');
          const organization =
            organizationSlug === 'acme' ? ACME : organizationSlug === 'other' ? OTHER : null;
          if (!organization) return null;
          const pipeline =
            Object.values(PIPELINES).find(
              (p) => p.slug === pipelineSlug && p.organizationId === organization.id,
            ) ?? null;
          const entry = entries.find((e) => e.pipelineId === pipeline?.id);
          return {
            organization,
            role: organization === ACME ? role : 'admin',
            pipeline,
            teamAccessLevels: entry?.teamAccessLevels ?? [],
            pipelineHasTeams: entry?.pipelineHasTeams ?? false,
          };
        },
      },
      pipelines: {
        findRecord: async (pipelineId: string) => ({
          pipeline: Object.values(PIPELINES).find((p) => p.id === pipelineId),
          createdBy: null,
        }),
      },
    },
  } as unknown as Deps;
  return { deps, reads };
}

const slugs = (answers: Array<{ pipeline: Pipeline } | null>) => answers.map((a) => a?.pipeline.slug ?? null);
const ALL = [PIPELINES.teamed.id, PIPELINES.hidden.id, PIPELINES.open.id, PIPELINES.elsewhere.id, 'nope'];

describe('getPipelinesById', () => {
  it.each<[string, OrganizationRole, AccessLevel, Array<string | null>, Array<boolean | null>]>([
    [
      'an admin sees every pipeline, with its webhook URL',
      'admin',
      'read_only',
      ['teamed', 'hidden', 'open', 'elsewhere', null],
      [true, true, true, true, null],
    ],
    [
      "a member sees their teams' pipelines and team-less ones, the webhook URL where they may edit",
      'member',
      'manage_build_and_read',
      ['teamed', null, 'open', 'elsewhere', null],
      [true, null, false, true, null],
    ],
    [
      'a member of a read_only team sees without the webhook URL',
      'member',
      'read_only',
      ['teamed', null, 'open', 'elsewhere', null],
      [false, null, false, true, null],
    ],
  ])('%s', async (_case, role, level, expected, webhook) => {
    const { deps } = world(role, level);
    const answers = await getPipelinesById(deps)(actor(), ALL);
    expect(slugs(answers)).toEqual(expected);
    expect(answers.map((a) => a?.showWebhookUrl ?? null)).toEqual(webhook);
    expect(answers.map((a) => a?.organizationSlug ?? null)).toEqual(
      expected.map((slug) => (slug === null ? null : slug === 'elsewhere' ? 'other' : 'acme')),
    );
  });

  it('leaves out the organizations the token may not use', async () => {
    const { deps } = world('admin');
    expect(slugs(await getPipelinesById(deps)(actor(['read_pipelines'], [ACME.id]), ALL))).toEqual([
      'teamed',
      'hidden',
      'open',
      null,
      null,
    ]);
  });

  it('checks the scope before reading anything', async () => {
    const { deps, reads } = world('admin');
    await expect(getPipelinesById(deps)(actor(['read_builds']), ALL)).rejects.toMatchObject({
      message: "Your access token doesn't have the read_pipelines scope",
    });
    expect(reads).toEqual([]);
  });
});

describe('findPipeline', () => {
  it.each<[string, OrganizationRole, { slug?: string; uuid?: string }, string]>([
    ['a hidden pipeline by slug', 'member', { slug: 'acme/hidden' }, 'No pipeline found'],
    ['a hidden pipeline by uuid', 'member', { uuid: id(2) }, 'No pipeline found'],
    ['a slug of another shape', 'admin', { slug: 'acme' }, 'No pipeline found'],
    ['a slug with an empty part', 'admin', { slug: 'acme/' }, 'No pipeline found'],
    ['an unknown organization', 'admin', { slug: 'nope/teamed' }, 'No organization found'],
    ['neither slug nor uuid', 'admin', {}, 'Find a pipeline by either its slug or its uuid'],
    ['both', 'admin', { slug: 'acme/open', uuid: id(3) }, 'Find a pipeline by either its slug or its uuid'],
  ])('refuses %s', async (_case, role, key, message) => {
    const { deps } = world(role);
    await expect(findPipeline(deps)(actor(), key)).rejects.toMatchObject({ message });
  });

  it('answers the same pipeline by slug and by uuid', async () => {
    const { deps } = world('member', 'read_only');
    const bySlug = await findPipeline(deps)(actor(), { slug: 'acme/teamed' });
    const byUuid = await findPipeline(deps)(actor(), { uuid: id(1) });
    expect(bySlug).toEqual(byUuid);
    expect(bySlug).toMatchObject({ organizationSlug: 'acme', showWebhookUrl: false });
  });

  it('refuses a slug of another shape with the scope error first', async () => {
    const { deps } = world('admin');
    await expect(findPipeline(deps)(actor(['read_builds']), { slug: 'x' })).rejects.toMatchObject({
      message: "Your access token doesn't have the read_pipelines scope",
    });
  });
});

describe('pipeline changes by id', () => {
  it('need write_pipelines before anything is read', async () => {
    const { deps, reads } = world('admin');
    await expect(
      updatePipelineById(deps)(actor(['read_pipelines']), PIPELINES.teamed.id, {}),
    ).rejects.toMatchObject({
      message: "Your access token doesn't have the write_pipelines scope",
    });
    await expect(
      createPipelineInOrganizationId(deps)(actor(['read_pipelines']), ACME.id, {}),
    ).rejects.toMatchObject({
      message: "Your access token doesn't have the write_pipelines scope",
    });
    expect(reads).toEqual([]);
  });

  it('answer an unknown pipeline, or one of an organization the token may not use, as none', async () => {
    const { deps } = world('admin');
    const writer = actor(['write_pipelines'], [ACME.id]);
    for (const change of [
      updatePipelineById,
      archivePipelineById,
      unarchivePipelineById,
      deletePipelineById,
    ]) {
      for (const pipelineId of [PIPELINES.elsewhere.id, id(99), 'nope', null]) {
        await expect(
          (change(deps) as (a: Actor, p: string | null, b?: unknown) => Promise<unknown>)(
            writer,
            pipelineId,
            {},
          ),
        ).rejects.toMatchObject({ message: 'No pipeline found' });
      }
    }
    for (const organizationId of [OTHER.id, id(99), null]) {
      await expect(createPipelineInOrganizationId(deps)(writer, organizationId, {})).rejects.toMatchObject({
        message: 'No organization found',
      });
    }
  });

  it("refuse a member whose team may not edit the pipeline, as REST's use cases do", async () => {
    const { deps } = world('member', 'build_and_read');
    const writer = actor(['write_pipelines']);
    await expect(updatePipelineById(deps)(writer, PIPELINES.teamed.id, {})).rejects.toMatchObject({
      message: 'Forbidden',
    });
    await expect(archivePipelineById(deps)(writer, PIPELINES.teamed.id)).rejects.toMatchObject({
      message: 'Forbidden',
    });
    await expect(deletePipelineById(deps)(writer, PIPELINES.teamed.id)).rejects.toMatchObject({
      message: 'Forbidden',
    });
  });
});
