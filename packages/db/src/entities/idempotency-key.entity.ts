import { defineEntity, p } from '@mikro-orm/core';

/**
 * A create answered once and kept for 24 hours under the `Idempotency-Key` its client sent, by user
 * (`idempotency.ts` in domain): the request's hash and, once done, the response to answer again. A row
 * without a status is a request still running (`lockedUntil` bounds how long it holds the key). No
 * foreign key to users: a row lives a day, and a deleted user's stray row expires.
 */
export const IdempotencyKeyEntity = defineEntity({
  name: 'IdempotencyKey',
  tableName: 'idempotency_keys',
  properties: {
    userId: p.uuid().primary(),
    key: p.string().length(255).primary(),
    requestHash: p.string().length(64),
    status: p.integer().nullable(),
    contentType: p.string().length(255).nullable(),
    body: p.text().nullable(),
    lockedUntil: p.datetime(3),
    expiresAt: p.datetime(3).index(),
  },
});
