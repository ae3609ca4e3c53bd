import { encodeGraphqlId } from '@ci/domain';
import { uuidOf } from '../global-id';
import { BuildNode } from '../types/build-node';
import { BuildRef } from '../types/refs';
import { publicMutation } from './client-mutation-id';

publicMutation('annotationDelete', {
  description: "Delete a build's annotation (REST `DELETE …/annotations/{id}`: its rules and refusals).",
  inputFields: (t) => ({ id: t.id({ required: true }) }),
  resolve: async (input, ctx) => {
    const { build, deletedAnnotationId } = await ctx.useCases.byId.deleteAnnotation(
      ctx.actor,
      uuidOf(input.id, 'Annotation'),
    );
    return { build, deletedAnnotationId: encodeGraphqlId('Annotation', deletedAnnotationId) };
  },
  payloadFields: (t) => ({
    build: t.field({ type: BuildRef, nullable: true, resolve: (payload) => BuildNode.of(payload.build) }),
    deletedAnnotationId: t.exposeID('deletedAnnotationId', { nullable: false }),
  }),
});
