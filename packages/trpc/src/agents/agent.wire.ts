import { z } from 'zod';
import { AgentWire, JobWire } from '../builds/build.wire';

const timestamp = z.string().meta({ description: 'ISO 8601 UTC with milliseconds', format: 'date-time' });

/**
 * An agent as the agents endpoints answer it: the agent a job shows (`Agent`, one definition for both)
 * with what the public API's agent endpoints add (the recorded responses' keys), and its pause.
 */
export const AgentResourceWire = AgentWire.extend({
  job: JobWire.nullable().meta({
    description: 'the job it holds now, as builds show jobs; null also when the token may not see it',
  }),
  last_job_finished_at: timestamp.nullable(),
  paused: z.boolean(),
  paused_at: timestamp.nullable(),
  paused_note: z.string().nullable(),
  paused_until: timestamp.nullable().meta({ description: 'when its pause times out' }),
}).meta({ id: 'AgentResource' });

export type AgentResourceWire = z.infer<typeof AgentResourceWire>;

/** The stop body: `force` cancels the agent's current job; without it the agent finishes its job first. */
export const StopAgentRequest = z
  .object({ force: z.boolean().optional() })
  .meta({ id: 'StopAgentRequest', unusedIO: 'input' });

export const PauseAgentRequest = z
  .object({
    note: z.string().max(1000).optional().meta({ description: 'why the agent is paused' }),
    timeout_in_minutes: z
      .int()
      .min(1)
      .max(10_080)
      .optional()
      .meta({ description: 'the pause ends by itself after this long; 5 by default' }),
  })
  .meta({ id: 'PauseAgentRequest', unusedIO: 'input' });

export type StopAgentRequest = z.input<typeof StopAgentRequest>;
export type PauseAgentRequest = z.input<typeof PauseAgentRequest>;
