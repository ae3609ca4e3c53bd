import { isAccessTokenUsable, isStorableText, parseBuildNumber, unauthenticated } from '@ci/domain';
import type { Deps, PipelineSlugs } from '../ports';
import { hashAccessTokenSecret, looksLikeAccessToken, sameHash } from './access-token-secret';
import type { Actor } from './actor';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * What a request names, to be read with its token: the pipeline, and the build of it when `number` is a
 * build number (one that is not names no build: the pipeline alone is read ahead).
 */
export function pipelineSlugs(
  organizationSlug: string,
  pipelineSlug: string,
  number?: string | null,
): PipelineSlugs {
  const buildNumber = number == null ? null : parseBuildNumber(number);
  return buildNumber === null
    ? { organizationSlug, pipelineSlug }
    : { organizationSlug, pipelineSlug, buildNumber };
}

/**
 * `Authorization: Bearer <token>` → the actor; any missing, malformed, unknown, expired or revoked token → 401.
 * `pipeline`: the pipeline the request names, if any: what the user may see of it is read with the token,
 * and `requirePipeline` uses it for this request instead of reading it again.
 */
export const authenticate =
  (deps: Deps) =>
  async (authorization: string | undefined, pipeline?: PipelineSlugs): Promise<Actor> => {
    const secret = authorization?.match(BEARER)?.[1];
    if (!secret || !looksLikeAccessToken(secret)) throw unauthenticated();
    const tokenHash = hashAccessTokenSecret(secret);
    // Slugs the database could not compare name nothing: requirePipeline refuses them without a read.
    const readAhead =
      pipeline && isStorableText(pipeline.organizationSlug) && isStorableText(pipeline.pipelineSlug)
        ? pipeline
        : undefined;
    const found = await deps.repos.accessTokens.findByHash(tokenHash, readAhead);
    if (!found || !sameHash(found.token.tokenHash, tokenHash)) throw unauthenticated();
    const { token, user, pipelineAccess } = found;
    if (!isAccessTokenUsable(token, deps.clock.now())) throw unauthenticated();
    return {
      tokenId: token.id,
      user,
      scopes: token.scopes,
      organizationIds: token.organizationIds,
      ...(pipelineAccess ? { pipelineAccess } : {}),
    };
  };
