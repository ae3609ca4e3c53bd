import type { EstablishedAccess } from '@ci/application';
import { canSeeWebhookUrl, encodeGraphqlId, type Pipeline, webAddresses } from '@ci/domain';
import type { GraphqlContext } from '../builder';
import type { PipelineShape } from './refs';
import type { RepositoryShape } from './repository-provider';

/** The pipeline's webhook URL for users who may edit it (rule B2), otherwise null. */
export async function webhookUrlOf(node: PipelineShape, ctx: GraphqlContext): Promise<string | null> {
  const shows = node.showWebhookUrl ?? canSeeWebhookUrl(await ctx.loaders.pipelineAccess.load(node.pipeline));
  return shows && node.pipeline.webhookToken !== null
    ? webAddresses.webhook(ctx.urls.api, node.pipeline.webhookToken)
    : null;
}

/**
 * A pipeline as the `Pipeline` type shows it: the shape the use cases give (the pipeline, its
 * organization's slug, what decides its webhook URL), and each field the type shows as it is or by a
 * pure rule read from it as a property. Those fields have no resolver, so a compiled query reads them in
 * place (ADR 0010); fields that need the request (`url`, `badgeURL`, `webhookURL`) or read more
 * (`organization`, `createdBy`, `builds`, `teams`) keep theirs.
 */
export class PipelineNode implements PipelineShape {
  readonly pipeline: Pipeline;
  readonly organizationSlug: string;
  readonly showWebhookUrl: boolean | null;
  readonly established?: EstablishedAccess;

  constructor(shape: PipelineShape) {
    this.pipeline = shape.pipeline;
    this.organizationSlug = shape.organizationSlug;
    this.showWebhookUrl = shape.showWebhookUrl;
    if (shape.established) this.established = shape.established;
  }

  /** A pipeline shape as a node; null stays null, a node stays itself. */
  static of(shape: PipelineShape): PipelineNode;
  static of(shape: PipelineShape | null): PipelineNode | null;
  static of(shape: PipelineShape | null): PipelineNode | null {
    return shape && (shape instanceof PipelineNode ? shape : new PipelineNode(shape));
  }

  /** the global id (`graphql_id`), read in place (ADR 0011) */
  get id(): string {
    return encodeGraphqlId('Pipeline', this.pipeline.id);
  }
  get uuid(): string {
    return this.pipeline.id;
  }
  get name(): string {
    return this.pipeline.name;
  }
  get slug(): string {
    return this.pipeline.slug;
  }
  get description(): string | null {
    return this.pipeline.description;
  }
  get repository(): RepositoryShape {
    return { url: this.pipeline.repository, pipeline: this };
  }
  get defaultBranch(): string | null {
    return this.pipeline.defaultBranch;
  }
  get branchConfiguration(): string | null {
    return this.pipeline.branchConfiguration;
  }
  /** REST `skip_queued_branch_builds` */
  get skipIntermediateBuilds(): boolean {
    return this.pipeline.skipQueuedBranchBuilds;
  }
  get skipIntermediateBuildsBranchFilter(): string | null {
    return this.pipeline.skipQueuedBranchBuildsFilter;
  }
  /** REST `cancel_running_branch_builds` */
  get cancelIntermediateBuilds(): boolean {
    return this.pipeline.cancelRunningBranchBuilds;
  }
  get cancelIntermediateBuildsBranchFilter(): string | null {
    return this.pipeline.cancelRunningBranchBuildsFilter;
  }
  get nextBuildNumber(): number {
    return this.pipeline.nextBuildNumber;
  }
  get archived(): boolean {
    return this.pipeline.archivedAt !== null;
  }
  get archivedAt(): Date | null {
    return this.pipeline.archivedAt;
  }
  get createdAt(): Date {
    return this.pipeline.createdAt;
  }
  get allowRebuilds(): boolean {
    return this.pipeline.allowRebuilds;
  }
  get color(): string | null {
    return this.pipeline.color;
  }
  get emoji(): string | null {
    return this.pipeline.emoji;
  }
  get defaultTimeoutInMinutes(): number | null {
    return this.pipeline.defaultTimeoutInMinutes;
  }
  get maximumTimeoutInMinutes(): number | null {
    return this.pipeline.maximumTimeoutInMinutes;
  }
  get tags(): Array<{ label: string }> {
    return (this.pipeline.tags ?? []).map((label) => ({ label }));
  }
  /** The YAML the steps came from; null for a pipeline defined by a list of steps (REST `steps`). */
  get steps(): { yaml: string } | null {
    return this.pipeline.configuration === null ? null : { yaml: this.pipeline.configuration };
  }
  /** as stored (REST `visibility`) */
  get visibility(): 'PUBLIC' | 'PRIVATE' {
    return this.pipeline.visibility === 'public' ? 'PUBLIC' : 'PRIVATE';
  }
}
