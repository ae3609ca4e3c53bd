import type { AccessTokenView } from '@ci/application';
import { formatTimestamp } from '@ci/domain';
import type { AccessTokenWire } from './access-token.wire';

/** The wire form of a token (REST and tRPC): never its secret nor its hash. */
export function presentAccessToken({ token, user }: AccessTokenView): AccessTokenWire {
  return {
    uuid: token.id,
    scopes: [...token.scopes],
    description: token.description,
    created_at: formatTimestamp(token.createdAt),
    expires_at: formatTimestamp(token.expiresAt),
    user: { email: user.email, name: user.name },
  };
}
