import type { JobType } from '@ci/domain';

/** The member of the `Job` union each REST job type is. */
export const JOB_TYPE_NAMES = {
  script: 'JobTypeCommand',
  waiter: 'JobTypeWait',
  manual: 'JobTypeBlock',
  trigger: 'JobTypeTrigger',
} as const satisfies Record<JobType, string>;

export type JobTypeName = (typeof JOB_TYPE_NAMES)[JobType];
