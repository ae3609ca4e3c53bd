import { describe, expect, it } from 'vitest';
import { hasScope, isScope, OPERATIONS, type Operation, SCOPES, type Scope, scopeFor } from './scopes';

describe('scopeFor', () => {
  // The spec's authentication table, one row per operation it names.
  it.each<[string, Operation[], Scope]>([
    ['List builds (all, organization, pipeline), Get a build', ['listBuilds', 'getBuild'], 'read_builds'],
    ['Create, cancel, rebuild a build', ['createBuild', 'cancelBuild', 'rebuildBuild'], 'write_builds'],
    ['List and get team pipelines', ['listTeamPipelines', 'getTeamPipeline'], 'view_teams'],
    [
      'Create, update, delete a team pipeline',
      ['createTeamPipeline', 'updateTeamPipeline', 'deleteTeamPipeline'],
      'write_teams',
    ],
    ['Create a registry', ['createRegistry'], 'create_registries'],
    ['List and get registries', ['listRegistries', 'getRegistry'], 'read_registries'],
    ['Update a registry', ['updateRegistry'], 'write_registries'],
    ['Delete a registry', ['deleteRegistry'], 'delete_registries'],
  ])('requires the spec scope for "%s"', (_row, operations, scope) => {
    for (const op of operations) expect(scopeFor(op)).toBe(scope);
  });

  it.each<[Operation, Scope | null]>([
    ['getAccessToken', null],
    ['deleteAccessToken', null],
    ['getUser', 'read_user'],
    ['listOrganizations', 'read_organizations'],
    ['getOrganization', 'read_organizations'],
    ['listOrganizationMembers', 'read_organizations'],
    ['listPipelines', 'read_pipelines'],
    ['getPipeline', 'read_pipelines'],
    ['createPipeline', 'write_pipelines'],
    ['updatePipeline', 'write_pipelines'],
    ['deletePipeline', 'write_pipelines'],
    ['archivePipeline', 'write_pipelines'],
    ['unarchivePipeline', 'write_pipelines'],
    ['listTeams', 'view_teams'],
    ['getTeam', 'view_teams'],
    ['listTeamMembers', 'view_teams'],
    ['createTeam', 'write_teams'],
    ['updateTeam', 'write_teams'],
    ['deleteTeam', 'write_teams'],
    ['addTeamMember', 'write_teams'],
    ['removeTeamMember', 'write_teams'],
    ['getTeamMember', 'view_teams'],
    ['updateTeamMember', 'write_teams'],
    ['getJobLog', 'read_build_logs'],
    ['getJobEnv', 'read_job_env'],
    ['retryJob', 'write_builds'],
    ['unblockJob', 'write_builds'],
    ['cancelJob', 'write_builds'],
    ['listAgents', 'read_agents'],
    ['getAgent', 'read_agents'],
    ['listClusters', 'read_clusters'],
    ['getClusterToken', 'read_clusters'],
    ['createCluster', 'write_clusters'],
    ['pauseClusterQueueDispatch', 'write_clusters'],
    ['deleteClusterToken', 'write_clusters'],
  ])('requires %s to carry %s', (op, scope) => {
    expect(scopeFor(op)).toBe(scope);
  });

  it('maps every operation to a known scope or to no scope', () => {
    for (const scope of Object.values(OPERATIONS)) {
      expect(scope === null || SCOPES.includes(scope)).toBe(true);
    }
  });
});

describe('isScope', () => {
  it.each([
    ['read_builds', true],
    ['graphql', true],
    ['delete_packages', true],
    ['READ_BUILDS', false],
    ['read_build', false],
    ['', false],
  ])('says %j is a scope: %s', (s, expected) => {
    expect(isScope(s)).toBe(expected);
  });

  it('lists each scope once', () => {
    expect(new Set(SCOPES).size).toBe(SCOPES.length);
  });
});

describe('hasScope', () => {
  it.each<[readonly string[], Scope, boolean]>([
    [['read_builds', 'write_builds'], 'write_builds', true],
    [['read_builds'], 'write_builds', false],
    [[], 'read_builds', false],
    [['read_builds_extra'], 'read_builds', false],
  ])('with scopes %j finds %s: %s', (scopes, scope, expected) => {
    expect(hasScope(scopes, scope)).toBe(expected);
  });
});
