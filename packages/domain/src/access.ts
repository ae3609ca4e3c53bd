export const ORGANIZATION_ROLES = ['admin', 'member'] as const;
export type OrganizationRole = (typeof ORGANIZATION_ROLES)[number];

/** Ordered from least to most access. */
export const ACCESS_LEVELS = ['read_only', 'build_and_read', 'manage_build_and_read'] as const;
export type AccessLevel = (typeof ACCESS_LEVELS)[number];

export const TEAM_MEMBER_ROLES = ['member', 'maintainer'] as const;
export type TeamMemberRole = (typeof TEAM_MEMBER_ROLES)[number];

/** read = read builds; build = create, cancel and rebuild builds; manage = edit the pipeline. */
export const PIPELINE_ACTIONS = ['read', 'build', 'manage'] as const;
export type PipelineAction = (typeof PIPELINE_ACTIONS)[number];

export type PipelineAccess = 'admin' | AccessLevel | 'none';

const ALLOWED_ACTIONS: Record<PipelineAccess, readonly PipelineAction[]> = {
  none: [],
  read_only: ['read'],
  build_and_read: ['read', 'build'],
  manage_build_and_read: ['read', 'build', 'manage'],
  admin: ['read', 'build', 'manage'],
};

export function isAccessLevel(s: string): s is AccessLevel {
  return (ACCESS_LEVELS as readonly string[]).includes(s);
}

export function highestAccessLevel(levels: readonly AccessLevel[]): AccessLevel | null {
  let highest: AccessLevel | null = null;
  for (const level of levels) {
    if (highest === null || ACCESS_LEVELS.indexOf(level) > ACCESS_LEVELS.indexOf(highest)) highest = level;
  }
  return highest;
}

/**
 * What a user may do on one pipeline. A pipeline that belongs to no team is open to every member
 * (decisions.md), and a member can build it but not edit it.
 */
export function pipelineAccess(input: {
  role: OrganizationRole;
  teamAccessLevels: readonly AccessLevel[];
  pipelineHasTeams: boolean;
}): PipelineAccess {
  if (input.role === 'admin') return 'admin';
  const highest = highestAccessLevel(input.teamAccessLevels);
  if (highest) return highest;
  return input.pipelineHasTeams ? 'none' : 'build_and_read';
}

export function allows(access: PipelineAccess, action: PipelineAction): boolean {
  return ALLOWED_ACTIONS[access].includes(action);
}

/** Rule B2: the webhook URL is shown only to users who may edit the pipeline. */
export function canSeeWebhookUrl(access: PipelineAccess): boolean {
  return allows(access, 'manage');
}
