import {
  MAX_TEAM_DESCRIPTION_LENGTH,
  MAX_TEAM_NAME_LENGTH,
  TEAM_MEMBER_ROLES,
  TEAM_PRIVACIES,
} from '@ci/domain';
import { z } from 'zod';
import { UserWire } from '../users/user.wire';

const timestamp = z.string().meta({ description: 'ISO 8601 UTC with milliseconds', format: 'date-time' });
const privacy = z.enum(TEAM_PRIVACIES).meta({
  description: 'visible: every member of the organization sees the team; secret: only admins and its members',
});
const memberRole = z.enum(TEAM_MEMBER_ROLES).meta({
  description: 'maintainers manage the team (settings, members, pipelines); members only belong to it',
});

/** The wire shape of a team, keys in the order of the public API's example (teams-get.json). */
export const TeamWire = z
  .strictObject({
    id: z.uuid(),
    graphql_id: z.string().meta({ description: 'base64 of `Team---<id>`' }),
    name: z.string(),
    slug: z
      .string()
      .meta({ description: 'derived from the name, unique in the organization; renaming changes it' }),
    description: z.string(),
    created_at: timestamp,
    privacy,
    default: z.boolean().meta({ description: "the team's `is_default_team` setting" }),
    created_by: UserWire.nullable().meta({
      description: 'who created the team over the API; null for teams made otherwise',
    }),
  })
  .meta({ id: 'Team' });
export type TeamWire = z.infer<typeof TeamWire>;

/** The wire shape of a team membership, keys in the order of the public API's examples. */
export const TeamMemberWire = z
  .strictObject({
    role: memberRole,
    created_at: timestamp.meta({ description: 'when the user joined the team' }),
    user_id: z.uuid(),
    user_name: z.string(),
  })
  .meta({ id: 'TeamMember' });
export type TeamMemberWire = z.infer<typeof TeamMemberWire>;

const name = z.string().max(MAX_TEAM_NAME_LENGTH).meta({
  description:
    'needs a letter or digit; the slug is derived from it (`Fearless Frontenders` → `fearless-frontenders`)',
});
const settings = {
  description: z.string().max(MAX_TEAM_DESCRIPTION_LENGTH).nullable().optional(),
  privacy: privacy.optional(),
  is_default_team: z.boolean().optional(),
  default_member_role: memberRole.optional().meta({ description: 'the role of users added without one' }),
  members_can_create_pipelines: z.boolean().optional(),
};

/** Documented as inputs: the domain validates the bodies (422), keys it does not know are ignored. */
export const CreateTeamRequest = z
  .object({
    name,
    description: settings.description.meta({ default: '' }),
    privacy: settings.privacy.meta({ default: 'visible' }),
    is_default_team: settings.is_default_team.meta({ default: false }),
    default_member_role: settings.default_member_role.meta({ default: 'member' }),
    members_can_create_pipelines: settings.members_can_create_pipelines.meta({ default: true }),
  })
  .meta({ id: 'CreateTeamRequest', unusedIO: 'input' });
export type CreateTeamRequest = z.input<typeof CreateTeamRequest>;

export const UpdateTeamRequest = z
  .object({ name: name.optional(), ...settings })
  .meta({ id: 'UpdateTeamRequest', unusedIO: 'input' });
export type UpdateTeamRequest = z.input<typeof UpdateTeamRequest>;

export const CreateTeamMemberRequest = z
  .object({
    user_id: z.uuid().meta({ description: "UUID of a member of the team's organization" }),
    role: memberRole.optional().meta({ description: "the team's default_member_role when left out" }),
  })
  .meta({ id: 'CreateTeamMemberRequest', unusedIO: 'input' });
export type CreateTeamMemberRequest = z.input<typeof CreateTeamMemberRequest>;

export const UpdateTeamMemberRequest = z
  .object({ role: memberRole })
  .meta({ id: 'UpdateTeamMemberRequest', unusedIO: 'input' });
export type UpdateTeamMemberRequest = z.input<typeof UpdateTeamMemberRequest>;
