export const SCOPES = [
  'read_agents',
  'write_agents',
  'read_teams',
  'write_teams',
  'view_teams',
  'read_artifacts',
  'write_artifacts',
  'read_builds',
  'write_builds',
  'read_job_env',
  'read_build_logs',
  'write_build_logs',
  'read_organizations',
  'read_pipelines',
  'write_pipelines',
  'read_user',
  'read_registries',
  'write_registries',
  'create_registries',
  'delete_registries',
  'read_packages',
  'write_packages',
  'delete_packages',
  'read_rules',
  'write_rules',
  'read_pipeline_templates',
  'write_pipeline_templates',
  'read_suites',
  'write_suites',
  'read_clusters',
  'write_clusters',
  'read_notification_services',
  'write_notification_services',
  'graphql',
] as const;
export type Scope = (typeof SCOPES)[number];

export function isScope(s: string): s is Scope {
  return (SCOPES as readonly string[]).includes(s);
}

/** The token scope each operation requires; null means any valid token will do. */
export const OPERATIONS = {
  listBuilds: 'read_builds',
  getBuild: 'read_builds',
  createBuild: 'write_builds',
  cancelBuild: 'write_builds',
  rebuildBuild: 'write_builds',

  listTeamPipelines: 'view_teams',
  getTeamPipeline: 'view_teams',
  createTeamPipeline: 'write_teams',
  updateTeamPipeline: 'write_teams',
  deleteTeamPipeline: 'write_teams',

  createRegistry: 'create_registries',
  listRegistries: 'read_registries',
  getRegistry: 'read_registries',
  updateRegistry: 'write_registries',
  deleteRegistry: 'delete_registries',

  getAccessToken: null,
  deleteAccessToken: null,
  getUser: 'read_user',
  listOrganizations: 'read_organizations',
  getOrganization: 'read_organizations',
  listOrganizationMembers: 'read_organizations',

  listPipelines: 'read_pipelines',
  getPipeline: 'read_pipelines',
  createPipeline: 'write_pipelines',
  updatePipeline: 'write_pipelines',
  deletePipeline: 'write_pipelines',
  archivePipeline: 'write_pipelines',
  unarchivePipeline: 'write_pipelines',
  listPipelineTriggers: 'read_pipelines',
  getPipelineTrigger: 'read_pipelines',
  createPipelineTrigger: 'write_pipelines',
  updatePipelineTrigger: 'write_pipelines',
  deletePipelineTrigger: 'write_pipelines',
  listPipelineSchedules: 'read_pipelines',
  getPipelineSchedule: 'read_pipelines',
  createPipelineSchedule: 'write_pipelines',
  updatePipelineSchedule: 'write_pipelines',
  deletePipelineSchedule: 'write_pipelines',
  createPipelineWebhook: 'write_pipelines',
  deletePipelineWebhook: 'write_pipelines',
  getPipelineBadge: 'read_builds',

  listTeams: 'view_teams',
  getTeam: 'view_teams',
  listTeamMembers: 'view_teams',
  createTeam: 'write_teams',
  updateTeam: 'write_teams',
  deleteTeam: 'write_teams',
  addTeamMember: 'write_teams',
  removeTeamMember: 'write_teams',
  getTeamMember: 'view_teams',
  updateTeamMember: 'write_teams',

  getJobLog: 'read_build_logs',
  deleteJobLog: 'write_build_logs',
  getJobEnv: 'read_job_env',
  retryJob: 'write_builds',
  unblockJob: 'write_builds',
  cancelJob: 'write_builds',

  // As the public API: a build's annotations are read and written with its builds' scopes.
  listAnnotations: 'read_builds',
  createAnnotation: 'write_builds',
  deleteAnnotation: 'write_builds',

  listAgents: 'read_agents',
  getAgent: 'read_agents',
  stopAgent: 'write_agents',
  pauseAgent: 'write_agents',
  resumeAgent: 'write_agents',
  // Organization agent (registration) tokens, for organization admins (GraphQL).
  getAgentToken: 'read_agents',
  createAgentToken: 'write_agents',
  revokeAgentToken: 'write_agents',

  // Organization rules, for organization admins (GraphQL).
  getRule: 'read_rules',
  createRule: 'write_rules',
  updateRule: 'write_rules',
  deleteRule: 'write_rules',

  // Pipeline templates: members read the available ones, admins all of them and change them (GraphQL).
  getPipelineTemplate: 'read_pipeline_templates',
  createPipelineTemplate: 'write_pipeline_templates',
  updatePipelineTemplate: 'write_pipeline_templates',
  deletePipelineTemplate: 'write_pipeline_templates',

  // Test suites and the teams' access to them (GraphQL).
  getSuite: 'read_suites',
  writeSuite: 'write_suites',

  // Organization settings exist only over GraphQL, as in the public API: its own scope is all they need.
  updateOrganizationSettings: 'graphql',
  inviteOrganizationMembers: 'graphql',

  listClusters: 'read_clusters',
  getCluster: 'read_clusters',
  createCluster: 'write_clusters',
  updateCluster: 'write_clusters',
  deleteCluster: 'write_clusters',
  listClusterQueues: 'read_clusters',
  getClusterQueue: 'read_clusters',
  createClusterQueue: 'write_clusters',
  updateClusterQueue: 'write_clusters',
  deleteClusterQueue: 'write_clusters',
  pauseClusterQueueDispatch: 'write_clusters',
  resumeClusterQueueDispatch: 'write_clusters',
  listClusterTokens: 'read_clusters',
  getClusterToken: 'read_clusters',
  createClusterToken: 'write_clusters',
  updateClusterToken: 'write_clusters',
  deleteClusterToken: 'write_clusters',

  listArtifacts: 'read_artifacts',
  getArtifact: 'read_artifacts',
  downloadArtifact: 'read_artifacts',
  deleteArtifact: 'write_artifacts',

  listNotificationServices: 'read_notification_services',
  getNotificationService: 'read_notification_services',
  createNotificationService: 'write_notification_services',
  updateNotificationService: 'write_notification_services',
  deleteNotificationService: 'write_notification_services',
  pingNotificationService: 'write_notification_services',
} as const satisfies Record<string, Scope | null>;
export type Operation = keyof typeof OPERATIONS;

export function scopeFor(op: Operation): Scope | null {
  return OPERATIONS[op];
}

export function hasScope(scopes: readonly string[], scope: Scope): boolean {
  return scopes.includes(scope);
}
