import { lowestTierWith, PAID_TIERS, TIER_TABLE, type TierRow } from './tier-table';
import { TIERS, type SubscriptionStatus, type Tier, tierRank } from './tiers';

/**
 * What each tier may do, read from the tier table (tier-table.ts), and the access rule
 * (docs/decisions/0003-one-access-policy.md). The server enforces it; the web app only shows it.
 * Free of zod so the web bundle imports it without the validator; the permissions schema lives in
 * member-schemas.ts.
 */

/** The lowest tier that may play VIP mixes. */
export const MIX_PLAY_TIER: Tier = lowestTierWith((row) => row.playsMixes);

/** The lowest tier that may download VIP mixes. */
export const MIX_DOWNLOAD_TIER: Tier = lowestTierWith((row) => row.mixDownloadsPerDay > 0);

/** The lowest tier whose contact messages are marked priority. */
export const PRIORITY_SUPPORT_TIER: Tier = lowestTierWith((row) => row.prioritySupport);

/** The tier whose rules an admin gets: the top of the ladder. */
const ADMIN_TIER: Tier = TIERS[TIERS.length - 1] ?? 'vip';

/** What the access rules need to know of a member. */
export interface Subscriber {
  isAdmin: boolean;
  subscriptionTier: Tier;
  subscriptionStatus: SubscriptionStatus;
  subscriptionExpiry: Date | null;
}

/**
 * The access rule, in one place: a subscription gives access while its status is one of these and
 * its expiry (if any) is in the future. The server's SQL figures are built from this list too.
 */
export const ACCESS_STATUSES = ['active', 'cancelled_with_access'] as const satisfies readonly SubscriptionStatus[];

/**
 * Statuses that give access only up to a set expiry: a cancelled subscription paid to a future date
 * keeps access until that date (paid time is never cut short); without an expiry it gives none.
 */
export const PAID_UNTIL_STATUSES = ['cancelled'] as const satisfies readonly SubscriptionStatus[];

/** Whether the status (with its expiry, for PAID_UNTIL_STATUSES) may give access; the expiry still has to be in the future. */
export function statusGivesAccess(status: SubscriptionStatus, expiry: Date | null = null): boolean {
  if ((ACCESS_STATUSES as readonly SubscriptionStatus[]).includes(status)) return true;
  return expiry !== null && (PAID_UNTIL_STATUSES as readonly SubscriptionStatus[]).includes(status);
}

/** Access needs status active or cancelled_with_access (or cancelled with an expiry), and no expiry or one in the future. */
export function hasActiveSubscription(s: Subscriber, now: Date = new Date()): boolean {
  const statusOk = statusGivesAccess(s.subscriptionStatus, s.subscriptionExpiry);
  const notExpired = s.subscriptionExpiry === null || s.subscriptionExpiry.getTime() > now.getTime();
  return statusOk && notExpired;
}

/** The tier whose features a member gets right now: free when the subscription gives no access. */
export function effectiveTier(s: Subscriber, now: Date = new Date()): Tier {
  return hasActiveSubscription(s, now) ? s.subscriptionTier : 'free';
}

/** The dashboard's member buckets: every member is in exactly one (memberBucket). */
export const MEMBER_BUCKETS = ['active', 'cancelledWithAccess', 'expired', 'free'] as const;
export type MemberBucket = (typeof MEMBER_BUCKETS)[number];

/** Statuses only a paid subscription reaches: a member with one of them has paid at some point. */
export const PAID_HISTORY_STATUSES = ['cancelled', 'cancelled_with_access', 'expired'] as const satisfies readonly SubscriptionStatus[];

/**
 * Which bucket a member is in now, by the access rule (admins are counted by their subscription):
 * - active: a paid tier with access now and status active;
 * - cancelledWithAccess: a paid tier with access now under any other status (cancelled, paid to a future date);
 * - expired: no paid access now, but a paid tier or a status of PAID_HISTORY_STATUSES;
 * - free: never paid (free tier, status active or inactive).
 * The dashboard's SQL (members-repository's memberFigures) is built from the same constants.
 */
export function memberBucket(s: Subscriber, now: Date = new Date()): MemberBucket {
  if (effectiveTier(s, now) !== 'free') return s.subscriptionStatus === 'active' ? 'active' : 'cancelledWithAccess';
  const paidStatus = (PAID_HISTORY_STATUSES as readonly SubscriptionStatus[]).includes(s.subscriptionStatus);
  return s.subscriptionTier !== 'free' || paidStatus ? 'expired' : 'free';
}

/** Whether a member passes a check for `required`; admins pass every tier check. */
export function meetsTier(s: Subscriber, required: Tier, now: Date = new Date()): boolean {
  if (s.isAdmin) return true;
  return tierRank(effectiveTier(s, now)) >= tierRank(required);
}

/** The tier-table row whose benefits a member has now: their effective tier's; an admin's is the top tier's. */
export function benefitsOf(s: Subscriber, now: Date = new Date()): TierRow {
  return TIER_TABLE[s.isAdmin ? ADMIN_TIER : effectiveTier(s, now)];
}

/** Whether a member may play VIP mixes (playsMixes). */
export function canPlayMixes(s: Subscriber, now: Date = new Date()): boolean {
  return benefitsOf(s, now).playsMixes;
}

/** Mixes a member may download a day (mixDownloadsPerDay). */
export function mixDownloadsPerDay(s: Subscriber, now: Date = new Date()): number {
  return benefitsOf(s, now).mixDownloadsPerDay;
}

/** Whether a member may download VIP mixes at all. */
export function canDownloadMixes(s: Subscriber, now: Date = new Date()): boolean {
  return mixDownloadsPerDay(s, now) > 0;
}

/** Whether a member's contact messages are marked priority (prioritySupport). */
export function hasPrioritySupport(s: Subscriber, now: Date = new Date()): boolean {
  return benefitsOf(s, now).prioritySupport;
}

/** Whether a member may comment and post in the forum (comments). */
export function mayComment(s: Subscriber, now: Date = new Date()): boolean {
  return benefitsOf(s, now).comments;
}

/** GET /api/auth/permissions; checked on the server by member-schemas.ts permissionsSchema. */
export interface Permissions {
  authenticated: boolean;
  isAdmin: boolean;
  canAccessDHR1: boolean;
  canAccessDHR2: boolean;
  canAccessVIP: boolean;
  canComment: boolean;
  canDownload: boolean;
  canAutoSignInChat: boolean;
  subscriptionTier: string;
  subscriptionStatus: string;
  subscriptionExpiry: string | null;
  subscriptionExpired: boolean;
  dailyDownloadLimit: number;
  remainingDownloads: number;
  userId: string | null;
  email: string | null;
  username: string | null;
  firstName: string | null;
  /** Whether the member can sign in with a password (members from before passwords had none). */
  hasPassword: boolean;
}

export const ANONYMOUS_PERMISSIONS: Permissions = {
  authenticated: false,
  isAdmin: false,
  canAccessDHR1: false,
  canAccessDHR2: false,
  canAccessVIP: false,
  canComment: false,
  canDownload: false,
  canAutoSignInChat: false,
  subscriptionTier: 'free',
  subscriptionStatus: 'inactive',
  subscriptionExpiry: null,
  subscriptionExpired: false,
  dailyDownloadLimit: 0,
  remainingDownloads: 0,
  userId: null,
  email: null,
  username: null,
  firstName: null,
  hasPassword: false,
};

export interface PermissionsInput extends Subscriber {
  id: string;
  email: string;
  username: string;
  firstName: string | null;
  passwordHash: string | null;
}

/** The permission flags for a signed-in member. `downloadsToday` counts today's VIP downloads. */
export function permissionsFor(u: PermissionsInput, downloadsToday = 0, now: Date = new Date()): Permissions {
  const row = benefitsOf(u, now);
  const expired = u.subscriptionStatus === 'expired' || (u.subscriptionExpiry !== null && u.subscriptionExpiry.getTime() <= now.getTime());
  const dailyLimit = row.mixDownloadsPerDay;
  return {
    authenticated: true,
    isAdmin: u.isAdmin,
    canAccessDHR1: row.channels.includes('dhr1'),
    canAccessDHR2: row.channels.includes('dhr2'),
    canAccessVIP: row.vipPages,
    canComment: row.comments,
    canDownload: dailyLimit > 0,
    canAutoSignInChat: row.chatSignIn,
    subscriptionTier: u.subscriptionTier,
    subscriptionStatus: u.subscriptionStatus,
    subscriptionExpiry: u.subscriptionExpiry ? u.subscriptionExpiry.toISOString() : null,
    subscriptionExpired: expired,
    dailyDownloadLimit: dailyLimit,
    remainingDownloads: Math.max(0, dailyLimit - downloadsToday),
    userId: u.id,
    email: u.email,
    username: u.username,
    firstName: u.firstName,
    hasPassword: u.passwordHash !== null,
  };
}

/**
 * Pledge bands (euro cents a month), highest first: each paid tier from its pledgeMinCents in the
 * tier table; a pledge below every band is free. The platform mapping and the dashboard's SQL are
 * both built from this list.
 */
export const PLEDGE_BANDS: readonly { tier: Exclude<Tier, 'free'>; minCents: number }[] = PAID_TIERS.map((tier) => ({
  tier,
  minCents: TIER_TABLE[tier].pledgeMinCents,
})).sort((a, b) => b.minCents - a.minCents);

/** Pledge amount (euro cents a month) to tier, by PLEDGE_BANDS. */
export function tierForPledgeCents(cents: number): Tier {
  return PLEDGE_BANDS.find((b) => cents >= b.minCents)?.tier ?? 'free';
}

/** Whether a member reads and posts in the channel chats without an extra step (chatSignIn). */
export function mayChat(s: Subscriber, now: Date = new Date()): boolean {
  return benefitsOf(s, now).chatSignIn;
}

/** Whether a member's chat messages carry the supporter badge and skip slow mode (chatPriority). */
export function hasChatPriority(s: Subscriber, now: Date = new Date()): boolean {
  return benefitsOf(s, now).chatPriority;
}
