import type { OrganizationRole, TeamMemberRole } from './access';
import { type DomainError, unprocessable } from './errors';
import { err, ok, type Result } from './result';
import { isStorableText } from './storable-text';

/** A new organization's settings: no IP allowlist, 2FA not required. */
export const ORGANIZATION_SETTINGS_DEFAULTS = {
  allowedApiIpAddresses: '',
  membersRequireTwoFactorAuthentication: false,
} as const;

/** Only organization admins change an organization's settings (allowlist, 2FA, banner, invitations). */
export function canChangeOrganizationSettings(role: OrganizationRole): boolean {
  return role === 'admin';
}

/** The organization's banner: one at most, shown to its members (here: over GraphQL only). */
export interface OrganizationBanner {
  id: string;
  organizationId: string;
  message: string;
  createdAt: Date;
}

export const MAX_BANNER_MESSAGE_LENGTH = 10_000;

/** A banner's message: text, not blank, of a storable length. */
export function parseBannerMessage(message: string): Result<string> {
  const trimmed = message.trim();
  if (trimmed === '') return err(invalid('invalid_banner', ["Message can't be blank"]));
  if (message.length > MAX_BANNER_MESSAGE_LENGTH || !isStorableText(message)) {
    return err(invalid('invalid_banner', ['Message is invalid']));
  }
  return ok(message);
}

/** An invitation to join an organization, accepted by the invited user (the admin CLI here). */
export interface OrganizationInvitation {
  id: string;
  organizationId: string;
  email: string;
  role: OrganizationRole;
  /** the teams the new member joins, with their role in each */
  teams: ReadonlyArray<{ teamId: string; role: TeamMemberRole }>;
  createdById: string | null;
  createdAt: Date;
  acceptedAt: Date | null;
  acceptedById: string | null;
}

export const MAX_INVITATION_EMAILS = 100;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The emails of an invitation request: at least one, each an address; duplicates (any case) once, lowercased. */
export function parseInvitationEmails(emails: readonly string[]): Result<string[]> {
  const reasons: string[] = [];
  if (emails.length === 0) reasons.push("Emails can't be blank");
  if (emails.length > MAX_INVITATION_EMAILS)
    reasons.push(`Emails can't be more than ${MAX_INVITATION_EMAILS}`);
  const wrong = emails.filter((email) => email.length > 255 || !EMAIL.test(email.trim()));
  for (const email of wrong) reasons.push(`Email ${JSON.stringify(email.slice(0, 64))} is invalid`);
  if (reasons.length > 0) return err(invalid('invalid_invitation', reasons));
  return ok([...new Set(emails.map((email) => email.trim().toLowerCase()))]);
}

/** The invitation's state as the public API names it; nothing here expires or revokes invitations. */
/** The states an invitation is in here: invitations neither expire nor are revoked. */
export type InvitationState = 'accepted' | 'pending';

export function invitationState(invitation: Pick<OrganizationInvitation, 'acceptedAt'>): InvitationState {
  return invitation.acceptedAt ? 'accepted' : 'pending';
}

/** An invitation that was accepted already. */
export function invitationAlreadyAccepted(): DomainError {
  return unprocessable('invitation_accepted', 'This invitation has already been accepted');
}

/** A team named by an invitation request that is not one of the organization's. */
export function invitationTeamNotFound(): DomainError {
  return invalid('invalid_invitation', ['Teams must be teams of the organization']);
}

function invalid(code: string, reasons: readonly string[]): DomainError {
  return unprocessable(code, `Validation failed: ${reasons.join(', ')}`);
}
