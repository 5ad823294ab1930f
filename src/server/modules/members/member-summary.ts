import type { MemberSummary } from '../../../contracts/tiers';
import type { UserRow } from '../../db/schema';

/** The shared view of a member row (never the password hash); auth and admin replies extend it. */
export function toMemberSummary(u: UserRow): MemberSummary {
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
