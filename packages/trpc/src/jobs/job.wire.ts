import { JOB_STATES } from '@ci/domain';
import { z } from 'zod';
import { documentedAs } from '../documented';
import { UserWire } from '../users/user.wire';

/** Unix time in nanoseconds is past 2^53: an integer, but not one of the safe integers `z.int()` takes. */
const nanoseconds = z
  .number()
  .refine(Number.isInteger, 'expected an integer')
  .meta(documentedAs({ type: 'integer' }));

export const JobLogWire = z
  .strictObject({
    url: z.string(),
    content: z.string(),
    size: z.number().int().meta({ description: 'bytes of `content` (UTF-8)' }),
    header_times: z
      .array(nanoseconds)
      .meta({ description: 'Unix time in nanoseconds of each log section header (`---`, `+++`, `~~~`)' }),
  })
  .meta({ id: 'JobLog' });

export const JobEnvWire = z.strictObject({ env: z.record(z.string(), z.string()) }).meta({ id: 'JobEnv' });

export const UnblockedJobWire = z
  .strictObject({
    id: z.uuid(),
    graphql_id: z.string(),
    type: z.literal('manual'),
    label: z.string().nullable(),
    state: z.enum(JOB_STATES),
    step_key: z.string().nullable(),
    web_url: z.null(),
    unblocked_by: UserWire.nullable(),
    unblocked_at: z.string().nullable(),
    unblockable: z.boolean(),
    unblock_url: z.string(),
  })
  .meta({ id: 'UnblockedJob' });

/** A block step's field, for the web's unblock form (tRPC only: the public REST job shows no fields). */
export const BlockFieldWire = z.strictObject({
  type: z.enum(['text', 'select']),
  key: z.string(),
  label: z.string(),
  hint: z.string().nullable(),
  required: z.boolean(),
  default: z.union([z.string(), z.array(z.string())]).nullable(),
  options: z.array(z.strictObject({ label: z.string(), value: z.string() })),
  multiple: z.boolean(),
});

export type JobLogWire = z.infer<typeof JobLogWire>;
export type UnblockedJobWire = z.infer<typeof UnblockedJobWire>;
