import type { BuildRef } from '@ci/application';
import { parseBuildNumber } from '@ci/domain';
import { z } from 'zod';
import { documented, documentedList } from '../documented';
import { listPage } from '../pagination';
import { organizationSlug, pageParameters } from '../parameters';
import { authed, router } from '../trpc';
import { presentAnnotation } from './annotation.presenter';
import { AnnotationWire, type CreateAnnotationRequest } from './annotation.wire';

const ANNOTATIONS = '/organizations/{organization}/pipelines/{pipeline}/builds/{number}/annotations';
const TAGS = ['Annotations'];

const buildKey = {
  organization: organizationSlug,
  pipeline: z.string().meta({ description: 'pipeline slug' }),
  number: z.string().meta({ description: 'build number' }),
};
const ListAnnotationsInput = z.object({ ...buildKey, ...pageParameters });
const AnnotationKey = z.object({
  ...buildKey,
  annotation: z.string().meta({ description: 'annotation UUID' }),
});
// The body passes untouched: the domain checks each field and answers 422 naming it.
const CreateAnnotationInput = z.looseObject({
  organization: buildKey.organization,
  pipeline: buildKey.pipeline,
  number: buildKey.number,
}) as unknown as z.ZodType<
  { organization: string; pipeline: string; number: string } & CreateAnnotationRequest
>;

const buildRef = (input: { organization: string; pipeline: string; number: string }): BuildRef => ({
  organization: input.organization,
  pipeline: input.pipeline,
  number: parseBuildNumber(input.number),
});

export const annotationsRouter = router({
  list: authed
    .meta({
      openapi: {
        method: 'GET',
        path: ANNOTATIONS,
        tags: TAGS,
        summary: "List a build's annotations, newest first",
      },
      operation: 'listAnnotations',
    })
    .input(ListAnnotationsInput)
    .output(documentedList(AnnotationWire))
    .query(async ({ ctx, input }) => {
      const { annotations } = await listPage(ctx, input, (page) =>
        ctx.useCases.listAnnotations(ctx.actor, buildRef(input), page),
      );
      return annotations.map(presentAnnotation);
    }),

  create: authed
    .meta({
      openapi: {
        method: 'POST',
        path: ANNOTATIONS,
        tags: TAGS,
        summary: 'Annotate a build: a new context, or replace, append to or restyle an existing one',
      },
      operation: 'createAnnotation',
      successStatus: 201,
      requestBody: 'CreateAnnotationRequest',
    })
    .input(CreateAnnotationInput)
    .output(documented(AnnotationWire))
    .mutation(async ({ ctx, input }) => {
      const { organization, pipeline, number, ...body } = input;
      return presentAnnotation(
        await ctx.useCases.createAnnotation(ctx.actor, buildRef({ organization, pipeline, number }), body),
      );
    }),

  delete: authed
    .meta({
      openapi: {
        method: 'DELETE',
        path: `${ANNOTATIONS}/{annotation}`,
        tags: TAGS,
        summary: "Delete a build's annotation",
      },
      operation: 'deleteAnnotation',
      successStatus: 204,
    })
    .input(AnnotationKey)
    .output(z.void())
    .mutation(async ({ ctx, input }) => {
      await ctx.useCases.deleteAnnotation(ctx.actor, { ...buildRef(input), annotation: input.annotation });
    }),
});
