import { type SubscriptionStatus, type Tier, tierRank } from './tiers';

/**
 * The single source of truth for what each tier may do (docs/decisions/0003-one-access-policy.md).
 * The server enforces it; the web app only shows it. Free of zod so the web bundle imports it
 * without the validator; the permissions schema lives in member-schemas.ts.
 */
export interface TierFeatures {
  canAccessDHR1: boolean;
  canAccessDHR2: boolean;
  canAccessVIP: boolean;
  canDownload: boolean;
  adFree: boolean;
  /** Reference figure from the spec's tier table; -1 = unlimited. The enforced rule is VIP_DAILY_DOWNLOADS. */
  maxDownloadsPerMonth: number;
  canUploadMixes: boolean;
  prioritySupport: boolean;
  exclusiveContent: boolean;
}

export const TIER_FEATURES: Record<Tier, TierFeatures> = {
  free: f(false, false, false, false, false, 0, false, false, false),
  dhr1: f(true, false, false, false, true, 10, false, false, false),
  dhr2: f(true, true, false, false, true, 50, true, false, false),
  vip: f(true, true, true, true, true, -1, true, true, true),
};

function f(
  canAccessDHR1: boolean,
  canAccessDHR2: boolean,
  canAccessVIP: boolean,
  canDownload: boolean,
  adFree: boolean,
  maxDownloadsPerMonth: number,
  canUploadMixes: boolean,
  prioritySupport: boolean,
  exclusiveContent: boolean,
): TierFeatures {
  return {
    canAccessDHR1,
    canAccessDHR2,
    canAccessVIP,
    canDownload,
    adFree,
    maxDownloadsPerMonth,
    canUploadMixes,
    prioritySupport,
    exclusiveContent,
  };
}

/** VIP downloads per day, reset at midnight Europe/Dublin. */
export const VIP_DAILY_DOWNLOADS = 2;

/** The lowest tier that may play VIP mixes (design §4: DHR1 and above play; only VIP downloads). */
export const MIX_PLAY_TIER = 'dhr1' satisfies Tier;

/**
 * The benefits listed on upgrade screens, per tier: only what DHR actually gives (there is no chatroom
 * yet, so it is not promised; 'Priority support' is the VIP flag on contact messages).
 */
export const TIER_BENEFITS: Record<Exclude<Tier, 'free'>, string[]> = {
  dhr1: ['Premium channel at 320kbps', 'Track identification', 'Ad-free listening', 'Play the VIP mix library', 'Comments on news, forum and home', 'Supporter badge on your profile'],
  dhr2: ['Everything in DHR1', 'The exclusive DHR2 channel', 'Enhanced streaming quality'],
  vip: ['Everything in DHR2', 'Exclusive mix library (1TB+)', 'Mix downloads (2 per day)', 'Priority support'],
};

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

/** Whether a member may play VIP mixes (MIX_PLAY_TIER and above; admins always). */
export function canPlayMixes(s: Subscriber, now: Date = new Date()): boolean {
  return meetsTier(s, MIX_PLAY_TIER, now);
}

/** Whether a member may download VIP mixes (the tier's canDownload; admins get VIP features), VIP_DAILY_DOWNLOADS a day. */
export function canDownloadMixes(s: Subscriber, now: Date = new Date()): boolean {
  return TIER_FEATURES[s.isAdmin ? 'vip' : effectiveTier(s, now)].canDownload;
}

/** GET /api/auth/permissions (spec §3); checked on the server by member-schemas.ts permissionsSchema. */
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
};

export interface PermissionsInput extends Subscriber {
  id: string;
  email: string;
  username: string;
  firstName: string | null;
}

/** The permission flags for a signed-in member. `downloadsToday` counts today's VIP downloads. */
export function permissionsFor(u: PermissionsInput, downloadsToday = 0, now: Date = new Date()): Permissions {
  const tier = effectiveTier(u, now);
  const features = TIER_FEATURES[u.isAdmin ? 'vip' : tier];
  const expired =
    u.subscriptionStatus === 'expired' ||
    (u.subscriptionExpiry !== null && u.subscriptionExpiry.getTime() <= now.getTime());
  const dailyLimit = features.canDownload ? VIP_DAILY_DOWNLOADS : 0;
  return {
    authenticated: true,
    isAdmin: u.isAdmin,
    canAccessDHR1: features.canAccessDHR1,
    canAccessDHR2: features.canAccessDHR2,
    canAccessVIP: features.canAccessVIP,
    canComment: u.isAdmin || tier !== 'free',
    canDownload: features.canDownload,
    canAutoSignInChat: u.isAdmin || tier !== 'free',
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
  };
}

/**
 * Pledge bands (euro cents a month), highest first: >=10 EUR vip, >=5 dhr2, >=3 dhr1, else free.
 * The platform mapping and the dashboard's SQL are both built from this table.
 */
export const PLEDGE_BANDS: readonly { tier: Exclude<Tier, 'free'>; minCents: number }[] = [
  { tier: 'vip', minCents: 1000 },
  { tier: 'dhr2', minCents: 500 },
  { tier: 'dhr1', minCents: 300 },
];

/** Pledge amount (euro cents a month) to tier, by PLEDGE_BANDS. */
export function tierForPledgeCents(cents: number): Tier {
  return PLEDGE_BANDS.find((b) => cents >= b.minCents)?.tier ?? 'free';
}
