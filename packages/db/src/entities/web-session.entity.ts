import { defineEntity, p } from '@mikro-orm/core';
import { AccessTokenEntity } from './organization.entity';

/**
 * A signed-in browser (the web app's cookie session): the hash of the cookie's secret and the access token
 * it signed in with, whose revocation or deletion ends it.
 */
export const WebSessionEntity = defineEntity({
  name: 'WebSession',
  tableName: 'web_sessions',
  properties: {
    id: p.uuid().primary(),
    /** hex SHA-256 of the cookie's secret; the secret itself is never stored */
    sessionHash: p.string().length(64).unique(),
    accessToken: () => p.manyToOne(AccessTokenEntity).deleteRule('cascade').index(),
    createdAt: p.datetime(3),
    expiresAt: p.datetime(3).index(),
  },
});
