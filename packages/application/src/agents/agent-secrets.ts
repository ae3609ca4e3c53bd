import { randomBytes } from 'node:crypto';
import { hashAccessTokenSecret } from '../auth/access-token-secret';

/** Registration tokens (per organization) and agent access tokens (per agent): random, stored hashed. */
export function generateAgentSecret(kind: 'registration' | 'agent'): string {
  return `${kind === 'registration' ? 'bkrt_' : 'bkat_'}${randomBytes(24).toString('hex')}`;
}

export const hashAgentSecret = hashAccessTokenSecret;

/** `Authorization: Token <secret>`, as the public agent sends it (a Bearer header is taken too). */
export function agentSecretFrom(authorization: string | undefined): string | null {
  const match = /^(?:Token|Bearer)\s+(\S{1,200})\s*$/i.exec(authorization ?? '');
  return match?.[1] ?? null;
}
