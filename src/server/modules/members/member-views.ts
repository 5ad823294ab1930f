import type { AdminUser } from '../../../contracts/admin';
import type { AuthUser } from '../../../contracts/auth';
import type { MemberSummary } from '../../../contracts/tiers';
import type { UserRow } from '../../db/schema';

/** The columns the shared view reads. */
type MemberSummaryRow = Pick<
  UserRow,
  'id' | 'email' | 'username' | 'firstName' | 'lastName' | 'subscriptionTier' | 'subscriptionStatus' | 'subscriptionExpiry' | 'subscriptionSource' | 'isAdmin'
>;

/** The shared view of a member row (never the password hash); auth and admin replies extend it. */
export function toMemberSummary(u: MemberSummaryRow): MemberSummary {
  return {
    id: u.id,
    email: u.email,
    username: u.username,
    firstName: u.firstName,
    lastName: u.lastName,
    subscriptionTier: u.subscriptionTier,
    subscriptionStatus: u.subscriptionStatus,
    subscriptionExpiry: u.subscriptionExpiry ? u.subscriptionExpiry.toISOString() : null,
    subscriptionSource: u.subscriptionSource,
    isAdmin: u.isAdmin,
  };
}

/** The member as they see themselves. */
export function toAuthUser(u: UserRow): AuthUser {
  return {
    ...toMemberSummary(u),
    hasPassword: u.passwordHash !== null,
  };
}

/** The member as the admin pages list and edit them. */
export function toAdminUser(u: MemberSummaryRow & Pick<UserRow, 'createdAt' | 'lastLoginAt' | 'pledgeAmountCents'>): AdminUser {
  return {
    ...toMemberSummary(u),
    createdAt: u.createdAt.toISOString(),
    lastLoginAt: u.lastLoginAt ? u.lastLoginAt.toISOString() : null,
    pledgeAmount: u.pledgeAmountCents,
  };
}

/** A username from the email's local part when none is given (platform members, quick assign, import). */
export function usernameFromEmail(email: string): string {
  return (email.split('@')[0] ?? email).slice(0, 50) || 'member';
}
