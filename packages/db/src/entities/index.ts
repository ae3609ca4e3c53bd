import { AgentEntity, AgentRegistrationTokenEntity } from './agent.entity';
import { BuildEntity, JobEntity, JobLogChunkEntity } from './build.entity';
import { ClusterEntity, ClusterQueueEntity, ClusterTokenEntity } from './cluster.entity';
import {
  AccessTokenEntity,
  OrganizationEntity,
  OrganizationMemberEntity,
  UserEntity,
} from './organization.entity';
import { CatalogRevisionEntity, PipelineCountsEntity, PipelineEntity } from './pipeline.entity';
import { RateLimitWindowEntity } from './rate-limit.entity';
import { RegistryEntity } from './registry.entity';
import { TeamEntity, TeamMemberEntity, TeamPipelineEntity } from './team.entity';

export {
  AccessTokenEntity,
  AgentEntity,
  AgentRegistrationTokenEntity,
  BuildEntity,
  CatalogRevisionEntity,
  ClusterEntity,
  ClusterQueueEntity,
  ClusterTokenEntity,
  JobEntity,
  JobLogChunkEntity,
  OrganizationEntity,
  OrganizationMemberEntity,
  PipelineCountsEntity,
  PipelineEntity,
  RateLimitWindowEntity,
  RegistryEntity,
  TeamEntity,
  TeamMemberEntity,
  TeamPipelineEntity,
  UserEntity,
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
  AgentRegistrationTokenEntity,
  JobLogChunkEntity,
  PipelineCountsEntity,
  CatalogRevisionEntity,
];
