import type { Badge, ProfileVisibility } from '../../../contracts/community';
import { effectiveTier, meetsTier } from '../../../contracts/tier-policy';
import type { UserRow } from '../../db/schema';

/**
 * Who sees a profile, and what a member's activity earns (docs/decisions/0016-community-comments-profiles-contact.md).
 * public: anyone; subscribers: signed-in members with a paid tier in force; private: the owner. Admins see all.
 */
export function maySeeProfile(visibility: ProfileVisibility, ownerId: string, viewer: UserRow | null, now: Date = new Date()): boolean {
  if (visibility === 'public') return true;
  if (!viewer) return false;
  if (viewer.id === ownerId || viewer.isAdmin) return true;
  return visibility === 'subscribers' && meetsTier(viewer, 'dhr1', now);
}

export type VerificationMethod = 'admin' | 'subscription' | 'email';

/** How a member is verified, strongest first: an admin, a paid subscription in force, a proven email. */
export function verificationOf(member: UserRow, now: Date = new Date()): VerificationMethod | null {
  if (member.isAdmin) return 'admin';
  if (effectiveTier(member, now) !== 'free') return 'subscription';
  return member.emailVerifiedAt ? 'email' : null;
}

export function badgesOf(member: UserRow, now: Date = new Date()): Badge[] {
  const badges: Badge[] = [];
  if (effectiveTier(member, now) !== 'free') badges.push('Supporter');
  if (verificationOf(member, now)) badges.push('Verified');
  return badges;
}

/** Reputation points: per approved comment, per follower, and for supporting the station. */
export const REPUTATION_POINTS = { approvedComment: 10, follower: 5, supporter: 50 } as const;

export function reputationOf(activity: { approvedComments: number; followers: number; supporter: boolean }): number {
  return (
    activity.approvedComments * REPUTATION_POINTS.approvedComment +
    activity.followers * REPUTATION_POINTS.follower +
    (activity.supporter ? REPUTATION_POINTS.supporter : 0)
  );
}
