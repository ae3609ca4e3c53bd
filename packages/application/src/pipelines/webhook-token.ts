import { randomBytes } from 'node:crypto';

/** The secret part of a pipeline's webhook URL: 50 hex characters, as the public API's. */
export function newWebhookToken(): string {
  return randomBytes(25).toString('hex');
}
