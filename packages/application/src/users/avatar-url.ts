import { hash } from 'node:crypto';
import type { User } from '@ci/domain';

/** A person's Gravatar address, as the public API shows for people without an avatar of their own. */
export function gravatarUrl(email: string): string {
  const digest = hash('md5', email.trim().toLowerCase(), 'hex');
  return `https://www.gravatar.com/avatar/${digest}`;
}

/** The avatar a user shows: their own, else their Gravatar. */
export function avatarUrl(user: Pick<User, 'avatarUrl' | 'email'>): string {
  return user.avatarUrl ?? gravatarUrl(user.email);
}
