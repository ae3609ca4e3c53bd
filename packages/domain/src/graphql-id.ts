import { isUuid } from './ids';

export const GRAPHQL_TYPES = [
  'Build',
  'Job',
  'Pipeline',
  'User',
  'Agent',
  'Organization',
  'Team',
  'TeamPipeline',
  'Registry',
  'AgentToken',
  'Rule',
  'Annotation',
  'PipelineTemplate',
  'Suite',
  'TeamSuite',
  'Cluster',
  'ClusterQueue',
  'ClusterToken',
  'Artifact',
  'NotificationService',
  'PipelineSchedule',
  // GraphQL's own objects: memberships and the session, which REST shows no graphql_id of.
  'OrganizationMember',
  'TeamMember',
  'Viewer',
  // Organization settings, shown over GraphQL only.
  'OrganizationBanner',
  'OrganizationInvitation',
] as const;
export type GraphqlType = (typeof GRAPHQL_TYPES)[number];

const SEPARATOR = '---';

export function isGraphqlType(s: string): s is GraphqlType {
  return (GRAPHQL_TYPES as readonly string[]).includes(s);
}

export function encodeGraphqlId(type: GraphqlType, id: string): string {
  return btoa(`${type}${SEPARATOR}${id}`);
}

/** Null for anything that `encodeGraphqlId` could not have produced; the id comes back lowercase. */
export function decodeGraphqlId(s: string): { type: GraphqlType; id: string } | null {
  let decoded: string;
  try {
    decoded = atob(s);
  } catch {
    return null;
  }
  // atob forgives whitespace and missing padding; only the canonical encoding is accepted.
  if (btoa(decoded) !== s) return null;
  const parts = decoded.split(SEPARATOR);
  if (parts.length !== 2) return null;
  const [type, id] = parts as [string, string];
  if (!isGraphqlType(type) || !isUuid(id)) return null;
  return { type, id: id.toLowerCase() };
}
