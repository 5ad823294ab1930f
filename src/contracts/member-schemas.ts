import { z } from 'zod';
import type { Permissions } from './tier-policy';
import { SUBSCRIPTION_SOURCES, SUBSCRIPTION_STATUSES, TIERS, type MemberSummary } from './tiers';

/**
 * The zod schemas of the member and permission payloads. The types and rules they check live in
 * the zod-free tiers.ts and tier-policy.ts, which the web app imports without pulling zod in.
 */

export const tierSchema = z.enum(TIERS);
export const subscriptionStatusSchema = z.enum(SUBSCRIPTION_STATUSES);
export const subscriptionSourceSchema = z.enum(SUBSCRIPTION_SOURCES);

export const memberSummarySchema = z.object({
  id: z.string(),
  email: z.string(),
  username: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  subscriptionTier: tierSchema,
  subscriptionStatus: subscriptionStatusSchema,
  subscriptionExpiry: z.string().nullable(),
  subscriptionSource: subscriptionSourceSchema,
  isAdmin: z.boolean(),
}) satisfies z.ZodType<MemberSummary>;

/** GET /api/auth/permissions. */
export const permissionsSchema = z.object({
  authenticated: z.boolean(),
  isAdmin: z.boolean(),
  canAccessDHR1: z.boolean(),
  canAccessDHR2: z.boolean(),
  canAccessVIP: z.boolean(),
  canComment: z.boolean(),
  canDownload: z.boolean(),
  canAutoSignInChat: z.boolean(),
  subscriptionTier: z.string(),
  subscriptionStatus: z.string(),
  subscriptionExpiry: z.string().nullable(),
  subscriptionExpired: z.boolean(),
  dailyDownloadLimit: z.number(),
  remainingDownloads: z.number(),
  userId: z.string().nullable(),
  email: z.string().nullable(),
  username: z.string().nullable(),
  hasPassword: z.boolean(),
  firstName: z.string().nullable(),
}) satisfies z.ZodType<Permissions>;
