import { encodeGraphqlId } from '@ci/domain';
import { uuidOf } from '../global-id';
import { ArtifactRef } from '../types/artifact';
import { publicMutation } from './client-mutation-id';

publicMutation('artifactDelete', {
  description: 'Delete an artifact (REST `DELETE …/artifacts/{id}`: its rules and refusals).',
  inputFields: (t) => ({ id: t.id({ required: true }) }),
  resolve: async (input, ctx) => {
    const artifact = await ctx.useCases.byId.deleteArtifact(ctx.actor, uuidOf(input.id, 'Artifact'));
    return { artifact, deletedArtifactId: encodeGraphqlId('Artifact', artifact.id) };
  },
  payloadFields: (t) => ({
    artifact: t.field({
      type: ArtifactRef,
      nullable: true,
      description: 'The artifact as it was',
      resolve: (payload) => payload.artifact,
    }),
    deletedArtifactId: t.exposeID('deletedArtifactId', { nullable: false }),
  }),
});
