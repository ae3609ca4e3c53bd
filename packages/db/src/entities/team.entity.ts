import type { AccessLevel, Team, TeamMember, TeamMemberRole, TeamPipeline, TeamPrivacy } from '@ci/domain';
import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { OrganizationEntity, UserEntity } from './organization.entity';
import { PipelineEntity } from './pipeline.entity';

export const TeamEntity = defineEntity({
  name: 'Team',
  tableName: 'teams',
  uniques: [{ properties: ['organization', 'slug'] }],
  properties: {
    id: p.uuid().primary(),
    organization: () => p.manyToOne(OrganizationEntity).deleteRule('cascade'),
    slug: p.string().length(255),
    name: p.string().length(255),
    description: p.text().nullable(),
    privacy: p.string().length(16).default('visible').$type<TeamPrivacy>(),
    isDefaultTeam: p.boolean().default(false),
    defaultMemberRole: p.string().length(16).default('member').$type<TeamMemberRole>(),
    membersCanCreatePipelines: p.boolean().default(true),
    membersCanCreateSuites: p.boolean().default(true),
    membersCanCreateRegistries: p.boolean().default(true),
    membersCanDestroyRegistries: p.boolean().default(false),
    membersCanDestroyPackages: p.boolean().default(false),
    /** null for teams made by the CLI or the seed, and once the creating user is deleted */
    createdBy: () => p.manyToOne(UserEntity).nullable().deleteRule('set null').index(),
    createdAt: p.datetime(3),
    members: () => p.oneToMany(TeamMemberEntity).mappedBy('team'),
  },
});

export const TeamMemberEntity = defineEntity({
  name: 'TeamMember',
  tableName: 'team_members',
  properties: {
    /** The membership's own id (its GraphQL `TeamMember` id). */
    id: p.uuid().unique(),
    team: () => p.manyToOne(TeamEntity).primary().deleteRule('cascade'),
    user: () => p.manyToOne(UserEntity).primary().deleteRule('cascade').index(),
    role: p.string().length(16).$type<TeamMemberRole>(),
    createdAt: p.datetime(3),
  },
});

export const TeamPipelineEntity = defineEntity({
  name: 'TeamPipeline',
  tableName: 'team_pipelines',
  properties: {
    id: p.uuid().unique(),
    team: () => p.manyToOne(TeamEntity).primary().deleteRule('cascade'),
    pipeline: () => p.manyToOne(PipelineEntity).primary().deleteRule('cascade').index(),
    accessLevel: p.string().length(32).$type<AccessLevel>(),
    createdAt: p.datetime(3),
  },
});

export function toTeam(team: InferEntity<typeof TeamEntity>): Team {
  return {
    id: team.id,
    organizationId: team.organization.id,
    slug: team.slug,
    name: team.name,
    description: team.description ?? null,
    privacy: team.privacy,
    isDefaultTeam: team.isDefaultTeam,
    defaultMemberRole: team.defaultMemberRole,
    membersCanCreatePipelines: team.membersCanCreatePipelines,
    membersCanCreateSuites: team.membersCanCreateSuites,
    membersCanCreateRegistries: team.membersCanCreateRegistries,
    membersCanDestroyRegistries: team.membersCanDestroyRegistries,
    membersCanDestroyPackages: team.membersCanDestroyPackages,
    createdById: team.createdBy?.id ?? null,
    createdAt: team.createdAt,
  };
}

export function toTeamMember(member: InferEntity<typeof TeamMemberEntity>): TeamMember {
  return {
    id: member.id,
    teamId: member.team.id,
    userId: member.user.id,
    role: member.role,
    createdAt: member.createdAt,
  };
}

export function toTeamPipeline(teamPipeline: InferEntity<typeof TeamPipelineEntity>): TeamPipeline {
  return {
    id: teamPipeline.id,
    teamId: teamPipeline.team.id,
    pipelineId: teamPipeline.pipeline.id,
    accessLevel: teamPipeline.accessLevel,
    createdAt: teamPipeline.createdAt,
  };
}
