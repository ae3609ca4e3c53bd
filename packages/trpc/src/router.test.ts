import { describe, expect, it } from 'vitest';
import { appRouter } from './router';
import type { Meta } from './trpc';

/** Every procedure by its dotted name (tRPC's record is flat at run time). */
const procedures = Object.entries(
  appRouter._def.procedures as unknown as Record<string, { _def: { meta?: Meta } }>,
).map(([name, procedure]) => ({ name, meta: procedure._def.meta }));

/** The paths that name a pipeline by its slug: a team pipeline's `{pipeline}` is a UUID, not one. */
const NAMES_A_PIPELINE = /^\/organizations\/\{organization\}\/pipelines\/\{pipeline\}(?:\/|$)/;

describe('the read-ahead of each procedure (ADR 0007)', () => {
  it('reads the pipeline ahead on every path that names one by slug, and on no other', () => {
    const readingAhead = procedures.filter(({ meta }) => meta?.readAhead).map(({ name }) => name);
    const namingAPipeline = procedures
      .filter(({ meta }) => NAMES_A_PIPELINE.test(meta?.openapi?.path ?? ''))
      .map(({ name }) => name);
    expect(readingAhead).toEqual(namingAPipeline);
    expect(readingAhead.filter((name) => name.startsWith('teamPipelines.'))).toEqual([]);
  });

  it("reads a build ahead only for the build's GET", () => {
    expect(procedures.filter(({ meta }) => meta?.readAhead === 'build').map(({ name }) => name)).toEqual([
      'builds.get',
    ]);
  });
});
