import type {
  BlockedState,
  BuildState,
  Organization,
  Pipeline,
  PipelineTrigger,
  PipelineTriggerFields,
  User,
} from '@ci/domain';

/** A pipeline found by a secret of its own (webhook token, trigger token) rather than by a user's access. */
export interface InboundPipeline {
  organization: Organization;
  pipeline: Pipeline;
  pipelineCreator: User | null;
}

export interface SourceWebhookRepository {
  /** The pipeline whose webhook token this is, with the secret deliveries are signed with; null: none. */
  findByToken(token: string): Promise<(InboundPipeline & { secret: string | null }) | null>;
  /** Sets (a new token) or drops (null) the pipeline's webhook token; false when the pipeline is gone. */
  setToken(pipelineId: string, token: string | null): Promise<boolean>;
  /** Sets or clears the secret GitHub signs with and GitLab sends; false when the pipeline is gone. */
  setSecret(pipelineId: string, secret: string | null): Promise<boolean>;
  /** The ids of the pipeline's builds of the branch in these states, but `exceptId`, oldest first. */
  buildsOnBranch(input: {
    pipelineId: string;
    branch: string;
    states: readonly BuildState[];
    exceptId: string;
  }): Promise<string[]>;
}

export interface BadgeRepository {
  /** The pipeline by its UUID with its organization's slug; null: none. */
  findPipeline(pipelineId: string): Promise<{ pipeline: Pipeline; organizationSlug: string } | null>;
  /** The state of the branch's newest build; null: the branch has none. */
  latestBuild(
    pipelineId: string,
    branch: string,
  ): Promise<{ id: string; state: BuildState; blockedState: BlockedState | null } | null>;
}

export interface PipelineTriggerRepository {
  /** The pipeline's triggers, oldest first. */
  list(pipelineId: string): Promise<PipelineTrigger[]>;
  find(pipelineId: string, id: string): Promise<PipelineTrigger | null>;
  insert(trigger: PipelineTrigger): Promise<void>;
  update(input: {
    pipelineId: string;
    id: string;
    changes: Partial<PipelineTriggerFields>;
  }): Promise<PipelineTrigger | null>;
  delete(pipelineId: string, id: string): Promise<boolean>;
  /** The trigger with this token hash and its pipeline; null: none. */
  findByTokenHash(hash: string): Promise<(InboundPipeline & { trigger: PipelineTrigger }) | null>;
}
