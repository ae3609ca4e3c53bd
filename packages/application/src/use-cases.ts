import { deleteAccessToken } from './access-tokens/delete-access-token';
import { getAccessToken } from './access-tokens/get-access-token';
import { createAccessToken, revokeAccessToken } from './admin/access-tokens';
import { acceptInvitation, addMember, createOrganization, createUser } from './admin/organizations';
import { addTeamPipeline, createPipeline } from './admin/pipelines';
import { seedDemo } from './admin/seed-demo';
import { createTeam } from './admin/teams';
import { getAgentView, listAgentViews, pauseAgent, resumeAgent, stopAgent } from './agents/agent-controls';
import {
  agentJobAction,
  agentJobState,
  appendAgentLog,
  connectAgent,
  createAgentToken,
  disconnectAgent,
  heartbeatAgent,
  markSilentAgentsLost,
  pingAgent,
  registerAgent,
  sweepLostJobs,
} from './agents/agent-protocol';
import {
  createAgentTokenInOrganizationId,
  findAgentToken,
  getAgentTokensById,
  listAgentTokens,
  revokeAgentTokenById,
} from './agents/agent-tokens';
import { findAgent, getAgent, getAgentsById, getWorkOfAgents } from './agents/agents-by-id';
import { getJobMetaData, jobMetaDataExists, jobMetaDataKeys, setJobMetaData } from './agents/job-meta-data';
import { uploadPipeline } from './agents/job-pipeline-upload';
import { listAgents } from './agents/list-agents';
import {
  agentAnnotate,
  agentRemoveAnnotation,
  createAnnotation,
  deleteAnnotation,
  listAnnotations,
  listAnnotationsOfBuilds,
} from './annotations/annotations';
import { deleteAnnotationById, getAnnotationsById } from './annotations/annotations-by-id';
import {
  createArtifacts,
  openSignedArtifact,
  searchArtifacts,
  updateArtifactStates,
  uploadArtifact,
} from './artifacts/agent-artifacts';
import {
  deleteArtifact,
  downloadArtifact,
  getArtifact,
  getArtifactDownloadUrl,
  getArtifactsOfBuilds,
  getArtifactsOfJobs,
  listBuildArtifacts,
  listJobArtifacts,
} from './artifacts/artifacts';
import { deleteArtifactById, getArtifactsById } from './artifacts/artifacts-by-id';
import { authenticate } from './auth/authenticate';
import { organizationsById, pipelineAccessFor } from './auth/usable-memberships';
import { authenticateSession, signIn, signOut } from './auth/web-sessions';
import {
  cancelBuildById,
  createBuildOnPipelineId,
  findBuild,
  getBuildsById,
  getJobsById,
  rebuildBuildById,
} from './builds/builds-by-id';
import { listBuildsOfCreators, listBuildsOfPipelines } from './builds/builds-of';
import { cancelBuild } from './builds/cancel-build';
import { createBuild } from './builds/create-build';
import { getBuild } from './builds/get-build';
import { listBuilds } from './builds/list-builds';
import { pipelineRevision } from './builds/pipeline-revision';
import { rebuildBuild } from './builds/rebuild-build';
import {
  createClusterQueue,
  deleteClusterQueue,
  getClusterQueue,
  listClusterQueues,
  pauseClusterQueueDispatch,
  resumeClusterQueueDispatch,
  updateClusterQueue,
} from './clusters/cluster-queues';
import {
  createClusterToken,
  deleteClusterToken,
  getClusterToken,
  listClusterTokens,
  updateClusterToken,
} from './clusters/cluster-tokens';
import { createCluster, deleteCluster, getCluster, listClusters, updateCluster } from './clusters/clusters';
import {
  createClusterInOrganizationId,
  createClusterQueueInClusterId,
  createClusterTokenInClusterId,
  deleteClusterById,
  deleteClusterQueueById,
  deleteClusterTokenById,
  findClusterOfOrganization,
  getClusterQueuesById,
  getClustersById,
  getClusterTokensById,
  listQueuesOfClusters,
  listTokensOfClusters,
  pauseClusterQueueDispatchById,
  resumeClusterQueueDispatchById,
  updateClusterById,
  updateClusterQueueById,
  updateClusterTokenById,
} from './clusters/clusters-by-id';
import { idempotentCreate } from './idempotency/idempotent-create';
import { getPipelineBadge } from './inbound/pipeline-badge';
import {
  createPipelineTrigger,
  deletePipelineTrigger,
  getPipelineTrigger,
  listPipelineTriggers,
  updatePipelineTrigger,
} from './inbound/pipeline-triggers';
import {
  createPipelineWebhook,
  createPipelineWebhookById,
  deletePipelineWebhook,
  deletePipelineWebhookById,
} from './inbound/pipeline-webhook';
import { deliverWebhook } from './inbound/source-webhooks';
import {
  deleteJobLog,
  followJobLog,
  getBlockFields,
  getJobEnv,
  getJobLog,
  retryJob,
  unblockJob,
} from './jobs/job-actions';
import { cancelJobById, getRetrySourcesOf, retryJobById, unblockJobById } from './jobs/jobs-by-id';
import { listOrganizationJobs } from './jobs/list-organization-jobs';
import { runTriggerJobs } from './jobs/trigger-jobs';
import { attemptDeliveries } from './notifications/notification-delivery';
import { notificationsFor, queueNotifications } from './notifications/notification-fan-out';
import {
  createNotificationService,
  deleteNotificationService,
  getNotificationService,
  listNotificationDeliveries,
  listNotificationServices,
  pingNotificationService,
  updateNotificationService,
} from './notifications/notification-services';
import { getOrganization } from './organizations/get-organization';
import { listOrganizationMembers } from './organizations/list-organization-members';
import { listOrganizations } from './organizations/list-organizations';
import {
  bannersById,
  bannersOfOrganizations,
  createInvitations,
  deleteBanner,
  invitationsById,
  listInvitations,
  updateApiIpAllowlist,
  updateTwoFactorRequirement,
  upsertBanner,
} from './organizations/organization-settings';
import {
  findOrganization,
  getOrganizationMembersById,
  getOrganizationsById,
} from './organizations/organizations-by-id';
import {
  buildsOfSchedule,
  createPipelineSchedule,
  createPipelineScheduleOnPipelineId,
  deletePipelineSchedule,
  deletePipelineScheduleById,
  findPipelineScheduleBySlug,
  getPipelineSchedule,
  getPipelineSchedulesById,
  listPipelineSchedules,
  listSchedulesOfPipelines,
  runDueSchedules,
  schedulesOfBuilds,
  updatePipelineSchedule,
  updatePipelineScheduleById,
} from './pipeline-schedules/pipeline-schedules';
import {
  createPipelineTemplate,
  deletePipelineTemplate,
  findPipelineTemplate,
  getPipelineTemplatesById,
  listPipelineTemplates,
  updatePipelineTemplate,
} from './pipeline-templates/pipeline-templates';
import { archivePipeline, unarchivePipeline } from './pipelines/archive-pipeline';
import { createPipeline as createPipelineOverApi } from './pipelines/create-pipeline';
import { deletePipeline } from './pipelines/delete-pipeline';
import { getPipeline } from './pipelines/get-pipeline';
import { listPipelines } from './pipelines/list-pipelines';
import {
  archivePipelineById,
  createPipelineInOrganizationId,
  deletePipelineById,
  findPipeline,
  getPipelinesById,
  unarchivePipelineById,
  updatePipelineById,
} from './pipelines/pipelines-by-id';
import { updatePipeline } from './pipelines/update-pipeline';
import type { Deps } from './ports';
import { countRequest } from './rate-limits/count-request';
import { authenticateRequest, refuseAuthentication } from './rate-limits/refuse-authentication';
import { createRegistry } from './registries/create-registry';
import { deleteRegistry } from './registries/delete-registry';
import { getRegistry } from './registries/get-registry';
import { listRegistries } from './registries/list-registries';
import {
  createRegistryInOrganizationId,
  deleteRegistryById,
  findRegistry,
  getRegistriesById,
  updateRegistryById,
} from './registries/registries-by-id';
import { updateRegistry } from './registries/update-registry';
import { createRule, deleteRule, findRule, getRulesById, listRules, updateRule } from './rules/rules';
import {
  createSuite,
  createTeamSuite,
  deleteTeamSuite,
  getSuitesById,
  getTeamSuitesById,
  listSuites,
  listTeamSuites,
  updateTeamSuite,
} from './suites/suites';
import { createTeamPipeline } from './team-pipelines/create-team-pipeline';
import { deleteTeamPipeline } from './team-pipelines/delete-team-pipeline';
import { getTeamPipeline } from './team-pipelines/get-team-pipeline';
import { listTeamPipelines } from './team-pipelines/list-team-pipelines';
import {
  createTeamPipelineByIds,
  deleteTeamPipelineById,
  getTeamPipelinesById,
  updateTeamPipelineById,
} from './team-pipelines/team-pipelines-by-id';
import { listTeamPipelinesOfPipelines, listTeamPipelinesOfTeams } from './team-pipelines/team-pipelines-of';
import { updateTeamPipeline } from './team-pipelines/update-team-pipeline';
import { addTeamMember } from './teams/add-team-member';
import { createTeam as createTeamAsActor } from './teams/create-team';
import { deleteTeam } from './teams/delete-team';
import { getTeam } from './teams/get-team';
import { getTeamMember } from './teams/get-team-member';
import { listTeamMembers } from './teams/list-team-members';
import { listTeams } from './teams/list-teams';
import { removeTeamMember } from './teams/remove-team-member';
import {
  addTeamMemberByIds,
  createTeamInOrganizationId,
  deleteTeamById,
  findTeam,
  getTeamMembersById,
  getTeamsById,
  listMembersOfTeams,
  removeTeamMemberById,
  updateTeamById,
  updateTeamMemberById,
} from './teams/teams-by-id';
import { updateTeam } from './teams/update-team';
import { updateTeamMember } from './teams/update-team-member';
import { getUser } from './users/get-user';
import { getPeopleById, getUsersById } from './users/users-by-id';

/** Every use case, bound to its dependencies: what transports and the CLI call. */
export function createUseCases(deps: Deps) {
  return {
    authenticate: authenticate(deps),
    signIn: signIn(deps),
    authenticateSession: authenticateSession(deps),
    signOut: signOut(deps),
    countRequest: countRequest(deps),
    refuseAuthentication: refuseAuthentication(deps),
    authenticateRequest: authenticateRequest(deps),
    idempotentCreate: idempotentCreate(deps),
    listBuilds: listBuilds(deps),
    pipelineRevision: pipelineRevision(deps),
    getBuild: getBuild(deps),
    createBuild: createBuild(deps),
    cancelBuild: cancelBuild(deps),
    rebuildBuild: rebuildBuild(deps),
    deliverWebhook: deliverWebhook(deps),
    getPipelineBadge: getPipelineBadge(deps),
    listPipelineTriggers: listPipelineTriggers(deps),
    getPipelineTrigger: getPipelineTrigger(deps),
    createPipelineTrigger: createPipelineTrigger(deps),
    updatePipelineTrigger: updatePipelineTrigger(deps),
    deletePipelineTrigger: deletePipelineTrigger(deps),
    listPipelineSchedules: listPipelineSchedules(deps),
    getPipelineSchedule: getPipelineSchedule(deps),
    createPipelineSchedule: createPipelineSchedule(deps),
    updatePipelineSchedule: updatePipelineSchedule(deps),
    deletePipelineSchedule: deletePipelineSchedule(deps),
    createPipelineWebhook: createPipelineWebhook(deps),
    deletePipelineWebhook: deletePipelineWebhook(deps),
    listTeamPipelines: listTeamPipelines(deps),
    getTeamPipeline: getTeamPipeline(deps),
    createTeamPipeline: createTeamPipeline(deps),
    updateTeamPipeline: updateTeamPipeline(deps),
    deleteTeamPipeline: deleteTeamPipeline(deps),
    listRegistries: listRegistries(deps),
    getRegistry: getRegistry(deps),
    createRegistry: createRegistry(deps),
    updateRegistry: updateRegistry(deps),
    deleteRegistry: deleteRegistry(deps),
    listClusters: listClusters(deps),
    getCluster: getCluster(deps),
    createCluster: createCluster(deps),
    updateCluster: updateCluster(deps),
    deleteCluster: deleteCluster(deps),
    listClusterQueues: listClusterQueues(deps),
    getClusterQueue: getClusterQueue(deps),
    createClusterQueue: createClusterQueue(deps),
    updateClusterQueue: updateClusterQueue(deps),
    deleteClusterQueue: deleteClusterQueue(deps),
    pauseClusterQueueDispatch: pauseClusterQueueDispatch(deps),
    resumeClusterQueueDispatch: resumeClusterQueueDispatch(deps),
    listClusterTokens: listClusterTokens(deps),
    getClusterToken: getClusterToken(deps),
    createClusterToken: createClusterToken(deps),
    updateClusterToken: updateClusterToken(deps),
    deleteClusterToken: deleteClusterToken(deps),
    listTeams: listTeams(deps),
    getTeam: getTeam(deps),
    createTeam: createTeamAsActor(deps),
    updateTeam: updateTeam(deps),
    deleteTeam: deleteTeam(deps),
    listTeamMembers: listTeamMembers(deps),
    getTeamMember: getTeamMember(deps),
    addTeamMember: addTeamMember(deps),
    updateTeamMember: updateTeamMember(deps),
    removeTeamMember: removeTeamMember(deps),
    listPipelines: listPipelines(deps),
    getPipeline: getPipeline(deps),
    createPipeline: createPipelineOverApi(deps),
    updatePipeline: updatePipeline(deps),
    deletePipeline: deletePipeline(deps),
    archivePipeline: archivePipeline(deps),
    unarchivePipeline: unarchivePipeline(deps),
    getAccessToken: getAccessToken(deps),
    deleteAccessToken: deleteAccessToken(deps),
    getUser: getUser(deps),
    listOrganizations: listOrganizations(deps),
    getOrganization: getOrganization(deps),
    listOrganizationMembers: listOrganizationMembers(deps),
    notificationServices: {
      create: createNotificationService(deps),
      list: listNotificationServices(deps),
      get: getNotificationService(deps),
      update: updateNotificationService(deps),
      delete: deleteNotificationService(deps),
      deliveries: listNotificationDeliveries(deps),
      ping: pingNotificationService(deps),
    },
    /** Background work (no actor): the notifications' fan-out and deliveries, the schedules' tick. */
    background: {
      notificationsFor: notificationsFor(deps),
      queueNotifications: queueNotifications(deps),
      attemptDeliveries: attemptDeliveries(deps),
      runDueSchedules: runDueSchedules(deps),
    },
    /** The same use cases addressed by UUID, for GraphQL. */
    byId: {
      organizations: organizationsById(deps),
      builds: getBuildsById(deps),
      jobs: getJobsById(deps),
      annotationsOfBuilds: listAnnotationsOfBuilds(deps),
      annotations: getAnnotationsById(deps),
      deleteAnnotation: deleteAnnotationById(deps),
      findBuild: findBuild(deps),
      createBuild: createBuildOnPipelineId(deps),
      createPipelineWebhook: createPipelineWebhookById(deps),
      deletePipelineWebhook: deletePipelineWebhookById(deps),
      pipelineSchedules: getPipelineSchedulesById(deps),
      schedulesOfPipelines: listSchedulesOfPipelines(deps),
      findPipelineScheduleBySlug: findPipelineScheduleBySlug(deps),
      createPipelineSchedule: createPipelineScheduleOnPipelineId(deps),
      updatePipelineSchedule: updatePipelineScheduleById(deps),
      deletePipelineSchedule: deletePipelineScheduleById(deps),
      schedulesOfBuilds: schedulesOfBuilds(deps),
      buildsOfSchedule: buildsOfSchedule(deps),
      cancelBuild: cancelBuildById(deps),
      rebuildBuild: rebuildBuildById(deps),
      registries: getRegistriesById(deps),
      findRegistry: findRegistry(deps),
      createRegistry: createRegistryInOrganizationId(deps),
      updateRegistry: updateRegistryById(deps),
      deleteRegistry: deleteRegistryById(deps),
      clusters: getClustersById(deps),
      clusterQueues: getClusterQueuesById(deps),
      clusterTokens: getClusterTokensById(deps),
      findClusterOfOrganization: findClusterOfOrganization(deps),
      queuesOfClusters: listQueuesOfClusters(deps),
      tokensOfClusters: listTokensOfClusters(deps),
      createCluster: createClusterInOrganizationId(deps),
      updateCluster: updateClusterById(deps),
      deleteCluster: deleteClusterById(deps),
      createClusterQueue: createClusterQueueInClusterId(deps),
      updateClusterQueue: updateClusterQueueById(deps),
      deleteClusterQueue: deleteClusterQueueById(deps),
      pauseClusterQueueDispatch: pauseClusterQueueDispatchById(deps),
      resumeClusterQueueDispatch: resumeClusterQueueDispatchById(deps),
      createClusterToken: createClusterTokenInClusterId(deps),
      updateClusterToken: updateClusterTokenById(deps),
      deleteClusterToken: deleteClusterTokenById(deps),
      teamPipelines: getTeamPipelinesById(deps),
      createTeamPipeline: createTeamPipelineByIds(deps),
      updateTeamPipeline: updateTeamPipelineById(deps),
      deleteTeamPipeline: deleteTeamPipelineById(deps),
      pipelineAccess: pipelineAccessFor(deps),
      readableOrganizations: getOrganizationsById(deps),
      findOrganization: findOrganization(deps),
      organizationMembers: getOrganizationMembersById(deps),
      pipelines: getPipelinesById(deps),
      findPipeline: findPipeline(deps),
      createPipeline: createPipelineInOrganizationId(deps),
      updatePipeline: updatePipelineById(deps),
      archivePipeline: archivePipelineById(deps),
      unarchivePipeline: unarchivePipelineById(deps),
      deletePipeline: deletePipelineById(deps),
      teams: getTeamsById(deps),
      findTeam: findTeam(deps),
      teamMembers: getTeamMembersById(deps),
      users: getUsersById(deps),
      people: getPeopleById(deps),
      /** Lists of several parents at once, for a page whose items each ask for theirs. */
      buildsOfPipelines: listBuildsOfPipelines(deps),
      buildsOfCreators: listBuildsOfCreators(deps),
      teamPipelinesOfTeams: listTeamPipelinesOfTeams(deps),
      teamPipelinesOfPipelines: listTeamPipelinesOfPipelines(deps),
      membersOfTeams: listMembersOfTeams(deps),
      agents: getAgentsById(deps),
      findAgent: findAgent(deps),
      workOfAgents: getWorkOfAgents(deps),
      retrySources: getRetrySourcesOf(deps),
      retryJob: retryJobById(deps),
      unblockJob: unblockJobById(deps),
      cancelJob: cancelJobById(deps),
      agentTokens: getAgentTokensById(deps),
      findAgentToken: findAgentToken(deps),
      createAgentToken: createAgentTokenInOrganizationId(deps),
      revokeAgentToken: revokeAgentTokenById(deps),
      rules: getRulesById(deps),
      findRule: findRule(deps),
      createRule: createRule(deps),
      updateRule: updateRule(deps),
      deleteRule: deleteRule(deps),
      pipelineTemplates: getPipelineTemplatesById(deps),
      findPipelineTemplate: findPipelineTemplate(deps),
      createPipelineTemplate: createPipelineTemplate(deps),
      updatePipelineTemplate: updatePipelineTemplate(deps),
      deletePipelineTemplate: deletePipelineTemplate(deps),
      suites: getSuitesById(deps),
      teamSuites: getTeamSuitesById(deps),
      createTeamSuite: createTeamSuite(deps),
      updateTeamSuite: updateTeamSuite(deps),
      deleteTeamSuite: deleteTeamSuite(deps),
      updateApiIpAllowlist: updateApiIpAllowlist(deps),
      updateTwoFactorRequirement: updateTwoFactorRequirement(deps),
      upsertBanner: upsertBanner(deps),
      deleteBanner: deleteBanner(deps),
      bannersOfOrganizations: bannersOfOrganizations(deps),
      createInvitations: createInvitations(deps),
      invitations: listInvitations(deps),
      bannersById: bannersById(deps),
      invitationsById: invitationsById(deps),
      createTeam: createTeamInOrganizationId(deps),
      updateTeam: updateTeamById(deps),
      deleteTeam: deleteTeamById(deps),
      addTeamMember: addTeamMemberByIds(deps),
      updateTeamMember: updateTeamMemberById(deps),
      removeTeamMember: removeTeamMemberById(deps),
      artifactsOfJobs: getArtifactsOfJobs(deps),
      artifactsOfBuilds: getArtifactsOfBuilds(deps),
      artifactDownloadUrl: getArtifactDownloadUrl(deps),
      artifacts: getArtifactsById(deps),
      deleteArtifact: deleteArtifactById(deps),
    },
    getJobLog: getJobLog(deps),
    followJobLog: followJobLog(deps),
    listAnnotations: listAnnotations(deps),
    createAnnotation: createAnnotation(deps),
    deleteAnnotation: deleteAnnotation(deps),
    listBuildArtifacts: listBuildArtifacts(deps),
    listJobArtifacts: listJobArtifacts(deps),
    getArtifact: getArtifact(deps),
    downloadArtifact: downloadArtifact(deps),
    deleteArtifact: deleteArtifact(deps),
    deleteJobLog: deleteJobLog(deps),
    getJobEnv: getJobEnv(deps),
    retryJob: retryJob(deps),
    unblockJob: unblockJob(deps),
    getBlockFields: getBlockFields(deps),
    listAgents: listAgents(deps),
    getAgent: getAgent(deps),
    listAgentViews: listAgentViews(deps),
    getAgentView: getAgentView(deps),
    stopAgent: stopAgent(deps),
    pauseAgent: pauseAgent(deps),
    resumeAgent: resumeAgent(deps),
    listAgentTokens: listAgentTokens(deps),
    listOrganizationJobs: listOrganizationJobs(deps),
    runTriggerJobs: runTriggerJobs(deps),
    listRules: listRules(deps),
    listPipelineTemplates: listPipelineTemplates(deps),
    listSuites: listSuites(deps),
    listTeamSuites: listTeamSuites(deps),
    agents: {
      register: registerAgent(deps),
      connect: connectAgent(deps),
      disconnect: disconnectAgent(deps),
      heartbeat: heartbeatAgent(deps),
      ping: pingAgent(deps),
      jobAction: agentJobAction(deps),
      jobState: agentJobState(deps),
      appendLog: appendAgentLog(deps),
      uploadPipeline: uploadPipeline(deps),
      setMetaData: setJobMetaData(deps),
      getMetaData: getJobMetaData(deps),
      metaDataExists: jobMetaDataExists(deps),
      metaDataKeys: jobMetaDataKeys(deps),
      annotate: agentAnnotate(deps),
      removeAnnotation: agentRemoveAnnotation(deps),
      sweepLostJobs: sweepLostJobs(deps),
      markSilentAgentsLost: markSilentAgentsLost(deps),
      createArtifacts: createArtifacts(deps),
      uploadArtifact: uploadArtifact(deps),
      updateArtifactStates: updateArtifactStates(deps),
      searchArtifacts: searchArtifacts(deps),
      openSignedArtifact: openSignedArtifact(deps),
    },
    admin: {
      createOrganization: createOrganization(deps),
      createUser: createUser(deps),
      addMember: addMember(deps),
      acceptInvitation: acceptInvitation(deps),
      createTeam: createTeam(deps),
      createPipeline: createPipeline(deps),
      addTeamPipeline: addTeamPipeline(deps),
      createAccessToken: createAccessToken(deps),
      revokeAccessToken: revokeAccessToken(deps),
      seedDemo: seedDemo(deps),
      createAgentToken: createAgentToken(deps),
      createSuite: createSuite(deps),
      isEmpty: async () => (await deps.repos.organizations.countAll()) === 0,
    },
  };
}

export type UseCases = ReturnType<typeof createUseCases>;
