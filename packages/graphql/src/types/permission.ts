import { builder } from '../builder';

/** Whether the viewer may do something, as the reference's `*Permissions` types answer it. */
export interface PermissionShape {
  allowed: boolean;
  code: string | null;
  message: string | null;
}

export const PermissionRef = builder.objectRef<PermissionShape>('Permission').implement({
  description: 'A permission for a viewer to do something',
  fields: (t) => ({
    allowed: t.exposeBoolean('allowed', { nullable: false }),
    code: t.exposeString('code', { nullable: true }),
    message: t.exposeString('message', { nullable: true }),
  }),
});

/** What an organization admin may do: the only ones who see the objects that carry these. */
export const ALLOWED: PermissionShape = { allowed: true, code: null, message: null };
