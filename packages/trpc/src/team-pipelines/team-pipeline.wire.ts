import { ACCESS_LEVELS } from '@ci/domain';
import { z } from 'zod';

const accessLevel = z.enum(ACCESS_LEVELS).meta({
  description:
    'read_only reads builds; build_and_read also creates, cancels and rebuilds; manage_build_and_read also edits the pipeline',
});

/**
 * The wire shape of a team/pipeline association, keys in the order of the public API's examples
 * (team-pipelines-get.json).
 */
export const TeamPipelineWire = z
  .strictObject({
    access_level: accessLevel,
    created_at: z.string().meta({
      description: 'when the association was created; ISO 8601 UTC with milliseconds',
      format: 'date-time',
    }),
    pipeline_id: z.uuid(),
    pipeline_url: z.string().meta({ description: 'REST address of the pipeline' }),
  })
  .meta({ id: 'TeamPipeline' });
export type TeamPipelineWire = z.infer<typeof TeamPipelineWire>;

/** Documented as inputs: the domain validates the bodies (422 `Validation failed: …`), other keys are ignored. */
export const CreateTeamPipelineRequest = z
  .object({
    pipeline_id: z.uuid().meta({ description: "UUID of a pipeline of the team's organization" }),
    access_level: accessLevel,
  })
  .meta({ id: 'CreateTeamPipelineRequest', unusedIO: 'input' });
export type CreateTeamPipelineRequest = z.input<typeof CreateTeamPipelineRequest>;

export const UpdateTeamPipelineRequest = z
  .object({ access_level: accessLevel })
  .meta({ id: 'UpdateTeamPipelineRequest', unusedIO: 'input' });
export type UpdateTeamPipelineRequest = z.input<typeof UpdateTeamPipelineRequest>;
