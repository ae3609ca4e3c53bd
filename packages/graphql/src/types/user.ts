import { avatarUrl, gravatarUrl } from '@ci/application';
import type { User } from '@ci/domain';
import { builder } from '../builder';

export const Avatar = builder.objectRef<{ url: string }>('Avatar').implement({
  description: 'An avatar belonging to a user',
  fields: (t) => ({ url: t.exposeString('url', { nullable: false }) }),
});

export const UserRef = builder.objectRef<User>('User');

builder.node(UserRef, {
  description: 'A user',
  id: { resolve: (user) => user.id },
  fields: (t) => ({
    uuid: t.exposeString('id', { nullable: false, description: 'The public UUID of the user' }),
    name: t.exposeString('name', { nullable: false }),
    email: t.exposeString('email', { nullable: false }),
    avatar: t.field({ type: Avatar, nullable: false, resolve: (user) => ({ url: avatarUrl(user) }) }),
  }),
});

/** A build's author who is not a user here: the name and email the build was created with. */
export interface UnregisteredUserShape {
  name: string;
  email: string;
}

export const UnregisteredUser = builder.objectRef<UnregisteredUserShape>('UnregisteredUser').implement({
  description: 'A person who hasn’t signed up',
  fields: (t) => ({
    name: t.exposeString('name', { nullable: true }),
    email: t.exposeString('email', { nullable: true }),
    avatar: t.field({
      type: Avatar,
      nullable: false,
      resolve: (person) => ({ url: gravatarUrl(person.email) }),
    }),
  }),
});

export const BuildCreator = builder.unionType('BuildCreator', {
  description: 'Either a `User` or an `UnregisteredUser` type',
  types: [UnregisteredUser, UserRef],
  resolveType: (creator) => ('id' in creator ? UserRef : UnregisteredUser),
});
