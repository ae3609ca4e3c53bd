import { readFileSync } from 'node:fs';
import type { UseCases } from '@ci/application';
import {
  type AccessLevel,
  encodeGraphqlId,
  isAccessLevel,
  isScope,
  ORGANIZATION_ROLES,
  type OrganizationRole,
  type Scope,
} from '@ci/domain';
import { list, parseDuration } from './arguments';
import { type CommandOptions, optional, required, UsageError } from './options';

type Command = (
  useCases: UseCases,
  options: CommandOptions,
  database: { migrated: string[] },
) => Promise<Record<string, unknown>>;

/** A command on the database; it returns one JSON-able object: what `--json` prints. */
export interface LocalCommand {
  description: string;
  /** names from OPTIONS; `!`: required */
  options: string[];
  run: Command;
}

export const COMMANDS: Record<string, LocalCommand> = {
  'agent-token create': {
    description: 'an agent registration token, printed once',
    options: ['org!', 'description'],
    run: async (useCases, options) => {
      const description = optional(options, 'description');
      const { token, secret } = await useCases.admin.createAgentToken({
        organization: required(options, 'org'),
        ...(description ? { description } : {}),
      });
      // The token is shown once: only its hash is stored.
      return { id: token.id, description: token.description, token: secret };
    },
  },
  'org create': {
    description: 'an organization',
    options: ['name!', 'slug'],
    run: async (useCases, options) => {
      const slug = optional(options, 'slug');
      const org = await useCases.admin.createOrganization({
        name: required(options, 'name'),
        ...(slug ? { slug } : {}),
      });
      return {
        id: org.id,
        graphql_id: encodeGraphqlId('Organization', org.id),
        slug: org.slug,
        name: org.name,
      };
    },
  },
  'user create': {
    description: 'a user',
    options: ['name!', 'email!'],
    run: async (useCases, options) => {
      const user = await useCases.admin.createUser({
        name: required(options, 'name'),
        email: required(options, 'email'),
      });
      return {
        id: user.id,
        graphql_id: encodeGraphqlId('User', user.id),
        name: user.name,
        email: user.email,
      };
    },
  },
  'member add': {
    description: 'add a user to an organization (--role admin or member)',
    options: ['org!', 'email!', 'role'],
    run: async (useCases, options) => {
      const role = optional(options, 'role') ?? 'member';
      if (!ORGANIZATION_ROLES.includes(role as OrganizationRole))
        throw new UsageError('--role must be admin or member');
      const result = await useCases.admin.addMember({
        organization: required(options, 'org'),
        email: required(options, 'email'),
        role: role as OrganizationRole,
      });
      return {
        organization: result.organization.slug,
        user_id: result.user.id,
        email: result.user.email,
        role,
      };
    },
  },
  'invitation accept': {
    description: 'the invited user joins, as invited',
    options: ['id!', 'name'],
    run: async (useCases, options) => {
      const name = optional(options, 'name');
      const { invitation, user } = await useCases.admin.acceptInvitation({
        invitation: required(options, 'id'),
        ...(name ? { name } : {}),
      });
      return {
        invitation_id: invitation.id,
        organization_id: invitation.organizationId,
        user_id: user.id,
        email: user.email,
        role: invitation.role,
        accepted_at: invitation.acceptedAt?.toISOString() ?? null,
      };
    },
  },
  'team create': {
    description: 'a team',
    options: ['org!', 'name!', 'members'],
    run: async (useCases, options) => {
      const members = list(optional(options, 'members'));
      const team = await useCases.admin.createTeam({
        organization: required(options, 'org'),
        name: required(options, 'name'),
        ...(members ? { members } : {}),
      });
      return { id: team.id, graphql_id: encodeGraphqlId('Team', team.id), slug: team.slug, name: team.name };
    },
  },
  'pipeline create': {
    description: 'a pipeline; steps from a pipeline YAML file',
    options: ['org!', 'name!', 'repository!', 'steps', 'branch-filter', 'default-branch'],
    run: async (useCases, options) => {
      const stepsFile = optional(options, 'steps');
      const pipeline = await useCases.admin.createPipeline({
        organization: required(options, 'org'),
        name: required(options, 'name'),
        repository: required(options, 'repository'),
        ...(stepsFile ? { steps: readFileSync(stepsFile, 'utf8') } : {}),
        branchConfiguration: optional(options, 'branch-filter') ?? null,
        defaultBranch: optional(options, 'default-branch') ?? 'main',
      });
      return {
        id: pipeline.id,
        graphql_id: encodeGraphqlId('Pipeline', pipeline.id),
        slug: pipeline.slug,
        name: pipeline.name,
        steps: pipeline.steps.length,
      };
    },
  },
  'team-pipeline add': {
    description: 'give a team access to a pipeline',
    options: ['org!', 'team!', 'pipeline!', 'access-level!'],
    run: async (useCases, options) => {
      const accessLevel = required(options, 'access-level');
      if (!isAccessLevel(accessLevel)) {
        throw new UsageError('--access-level must be read_only, build_and_read or manage_build_and_read');
      }
      const { team, pipeline, teamPipeline } = await useCases.admin.addTeamPipeline({
        organization: required(options, 'org'),
        team: required(options, 'team'),
        pipeline: required(options, 'pipeline'),
        accessLevel: accessLevel as AccessLevel,
      });
      return { team_id: team.id, pipeline_id: pipeline.id, access_level: teamPipeline.accessLevel };
    },
  },
  'token create': {
    description: 'an API access token, printed once',
    options: ['email!', 'scopes!', 'orgs', 'expires-in', 'description'],
    run: async (useCases, options) => {
      const scopesText = required(options, 'scopes');
      const scopes = scopesText === 'all' ? 'all' : (list(scopesText) ?? []);
      if (scopes !== 'all') {
        const unknown = scopes.filter((scope) => !isScope(scope));
        if (unknown.length || scopes.length === 0)
          throw new UsageError(`Unknown scopes: ${unknown.join(', ') || '(none)'}`);
      }
      const expiresIn = optional(options, 'expires-in');
      const expiresInMs = expiresIn === undefined ? null : parseDuration(expiresIn);
      if (expiresIn !== undefined && expiresInMs === null)
        throw new UsageError('--expires-in takes a duration such as 30d, 12h or 45m');
      const organizations = list(optional(options, 'orgs'));
      const { token, secret } = await useCases.admin.createAccessToken({
        email: required(options, 'email'),
        scopes: scopes as Scope[] | 'all',
        ...(organizations ? { organizations } : {}),
        expiresAt: expiresInMs === null ? null : new Date(Date.now() + expiresInMs),
        description: optional(options, 'description') ?? null,
      });
      return {
        id: token.id,
        token: secret,
        scopes: token.scopes,
        organization_ids: token.organizationIds,
        expires_at: token.expiresAt?.toISOString() ?? null,
      };
    },
  },
  'token revoke': {
    description: 'revoke a token at once',
    options: ['id!'],
    run: async (useCases, options) => useCases.admin.revokeAccessToken(required(options, 'id')),
  },
  'db migrate': {
    description: 'apply pending migrations',
    options: [],
    // Opening the database applies pending migrations; this reports which ones ran.
    run: async (_useCases, _options, database) => ({ applied: database.migrated }),
  },
  seed: {
    description: 'the demo organization acme',
    options: [],
    run: async (useCases) => {
      const demo = await useCases.admin.seedDemo();
      return {
        organization: demo.organization.slug,
        admin: demo.admin.email,
        member: demo.member.email,
        teams: demo.teams.map((team) => team.slug),
        pipelines: demo.pipelines.map((pipeline) => pipeline.slug),
        builds: demo.builds.length,
        cluster: demo.cluster.id,
        token: demo.secret,
      };
    },
  },
};
