import { decodeGraphqlId, type GraphqlType } from '@ci/domain';

/**
 * The uuid a global id names when it names an object of `type`, else null: the use case then answers
 * as for an object that does not exist (after its scope check, as REST).
 */
export function uuidOf(globalId: string, type: GraphqlType): string | null {
  const decoded = decodeGraphqlId(globalId);
  return decoded?.type === type ? decoded.id : null;
}
