import { AgentEntity, AgentRegistrationTokenEntity } from './agent.entity';
import { AnnotationEntity } from './annotation.entity';
import { ArtifactEntity } from './artifact.entity';
import { BackgroundWorkerEntity } from './background-worker.entity';
import { BuildEntity, JobEntity, JobLogChunkEntity } from './build.entity';
import { ClusterEntity, ClusterQueueEntity, ClusterTokenEntity } from './cluster.entity';
import { IdempotencyKeyEntity } from './idempotency-key.entity';
import { NotificationDeliveryEntity, NotificationServiceEntity } from './notification.entity';
import {
  AccessTokenEntity,
  OrganizationBannerEntity,
  OrganizationEntity,
  OrganizationInvitationEntity,
  OrganizationMemberEntity,
  UserEntity,
} from './organization.entity';
import { CatalogRevisionEntity, PipelineCountsEntity, PipelineEntity } from './pipeline.entity';
import { PipelineScheduleBuildEntity, PipelineScheduleEntity } from './pipeline-schedule.entity';
import { PipelineTemplateEntity } from './pipeline-template.entity';
import { PipelineTriggerEntity } from './pipeline-trigger.entity';
import { RateLimitWindowEntity } from './rate-limit.entity';
import { RegistryEntity } from './registry.entity';
import { RuleEntity } from './rule.entity';
import { SuiteEntity, TeamSuiteEntity } from './suite.entity';
import { TeamEntity, TeamMemberEntity, TeamPipelineEntity } from './team.entity';
import { WebSessionEntity } from './web-session.entity';

export {
  AccessTokenEntity,
  AgentEntity,
  AgentRegistrationTokenEntity,
  AnnotationEntity,
  ArtifactEntity,
  BackgroundWorkerEntity,
  BuildEntity,
  CatalogRevisionEntity,
  ClusterEntity,
  ClusterQueueEntity,
  ClusterTokenEntity,
  IdempotencyKeyEntity,
  JobEntity,
  JobLogChunkEntity,
  NotificationDeliveryEntity,
  NotificationServiceEntity,
  OrganizationBannerEntity,
  OrganizationEntity,
  OrganizationInvitationEntity,
  OrganizationMemberEntity,
  PipelineCountsEntity,
  PipelineEntity,
  PipelineScheduleBuildEntity,
  PipelineScheduleEntity,
  PipelineTemplateEntity,
  PipelineTriggerEntity,
  RateLimitWindowEntity,
  RegistryEntity,
  RuleEntity,
  SuiteEntity,
  TeamEntity,
  TeamMemberEntity,
  TeamPipelineEntity,
  TeamSuiteEntity,
  UserEntity,
  WebSessionEntity,
};

/** Every entity, listed explicitly (no folder scanning). */
export const entities = [
  OrganizationEntity,
  UserEntity,
  OrganizationMemberEntity,
  AccessTokenEntity,
  TeamEntity,
  TeamMemberEntity,
  ClusterEntity,
  ClusterQueueEntity,
  ClusterTokenEntity,
  PipelineEntity,
  TeamPipelineEntity,
  AgentEntity,
  BuildEntity,
  JobEntity,
  RegistryEntity,
  RateLimitWindowEntity,
  IdempotencyKeyEntity,
  AgentRegistrationTokenEntity,
  JobLogChunkEntity,
  PipelineCountsEntity,
  CatalogRevisionEntity,
  RuleEntity,
  PipelineTemplateEntity,
  PipelineTriggerEntity,
  PipelineScheduleEntity,
  PipelineScheduleBuildEntity,
  SuiteEntity,
  TeamSuiteEntity,
  OrganizationBannerEntity,
  OrganizationInvitationEntity,
  AnnotationEntity,
  ArtifactEntity,
  NotificationServiceEntity,
  NotificationDeliveryEntity,
  BackgroundWorkerEntity,
  WebSessionEntity,
];
