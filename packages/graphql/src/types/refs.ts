import type { BuildResult, EstablishedAccess, TeamPipelineResult } from '@ci/application';
import type { Agent, Pipeline, Team } from '@ci/domain';
import { builder } from '../builder';
import type { BuildNode } from './build-node';
import type { JobNode } from './job-node';
import { PipelineNode } from './pipeline-node';

/**
 * The object types whose modules refer to one another, declared first so that each module implements
 * one and links to the others. The shapes are what the use cases return.
 */

/** A build as the actor may see it (rule B2 decides `webhookURL` of its pipeline). */
export const BuildRef = builder.objectRef<BuildNode>('Build');

/**
 * A pipeline with the organization slug its addresses need; `showWebhookUrl` null: ask (rule B2).
 * `established`: the access the application decided for it in this request (its builds reuse it).
 */
export interface PipelineShape {
  pipeline: Pipeline;
  organizationSlug: string;
  showWebhookUrl: boolean | null;
  established?: EstablishedAccess;
}
export const PipelineRef = builder.objectRef<PipelineNode>('Pipeline');

/** A build's pipeline, with what the build's access decided about its webhook URL. */
export function pipelineOfBuild({ view, showWebhookUrl }: BuildResult): PipelineNode {
  return new PipelineNode({
    pipeline: view.pipeline,
    organizationSlug: view.organizationSlug,
    showWebhookUrl,
  });
}

export const JobTypeCommandRef = builder.objectRef<JobNode>('JobTypeCommand');
export const JobTypeWaitRef = builder.objectRef<JobNode>('JobTypeWait');
export const JobTypeBlockRef = builder.objectRef<JobNode>('JobTypeBlock');
export const JobTypeTriggerRef = builder.objectRef<JobNode>('JobTypeTrigger');

/** An agent; a job's agent comes with its job and needs no scope of its own, as REST embeds it. */
export const AgentRef = builder.objectRef<Agent>('Agent');

export const TeamRef = builder.objectRef<Team>('Team');
export const TeamPipelineRef = builder.objectRef<TeamPipelineResult>('TeamPipeline');
