import { z } from 'zod';
import { emailSchema, passwordSchema, tokenSchema } from './auth';

/** A member's own data and account: the export, deleting the account, changing the email. */

export { ACCOUNT_MESSAGES } from './account-values';

// ---------------------------------------------------------------- GET /api/me/export

const isoDate = z.string();
const nullableDate = z.string().nullable();

export const ownDataExportSchema = z.object({
  exportedAt: isoDate,
  account: z.object({
    id: z.string(),
    email: z.string(),
    username: z.string(),
    firstName: z.string().nullable(),
    lastName: z.string().nullable(),
    hasPassword: z.boolean(),
    isAdmin: z.boolean(),
    createdAt: isoDate,
    updatedAt: isoDate,
    lastLoginAt: nullableDate,
    emailVerifiedAt: nullableDate,
  }),
  subscription: z.object({
    tier: z.string(),
    status: z.string(),
    source: z.string(),
    expiry: nullableDate,
    pledgeAmountCents: z.number(),
  }),
  grants: z.array(z.object({ source: z.string(), tier: z.string(), status: z.string(), expiry: nullableDate, pledgeAmountCents: z.number() })),
  platformLinks: z.array(z.object({ platform: z.string(), kind: z.string(), key: z.string(), via: z.string(), createdAt: isoDate })),
  platformRecords: z.array(
    z.object({
      platform: z.string(),
      email: z.string(),
      fullName: z.string().nullable(),
      platformStatus: z.string().nullable(),
      amountCents: z.number(),
      lastChargeAt: nullableDate,
      nextChargeAt: nullableDate,
      periodEndAt: nullableDate,
      isCancelled: z.boolean(),
      updatedAt: isoDate,
    }),
  ),
  profile: z
    .object({
      bio: z.string().nullable(),
      location: z.string().nullable(),
      website: z.string().nullable(),
      favoriteGenres: z.array(z.string()),
      profileImageUrl: z.string().nullable(),
      profileBannerUrl: z.string().nullable(),
      emailNotifications: z.boolean(),
      chatNotifications: z.boolean(),
      profileVisibility: z.string(),
      updatedAt: isoDate,
    })
    .nullable(),
  comments: z.array(
    z.object({ id: z.string(), discussionId: z.string(), articleTitle: z.string().nullable(), content: z.string(), status: z.string(), createdAt: isoDate }),
  ),
  forumPosts: z.array(z.object({ id: z.string(), category: z.string(), title: z.string(), body: z.string(), status: z.string(), createdAt: isoDate })),
  follows: z.object({
    following: z.array(z.object({ memberId: z.string(), username: z.string(), since: isoDate })),
    followers: z.array(z.object({ memberId: z.string(), username: z.string(), since: isoDate })),
  }),
  mixDownloads: z.array(z.object({ mixId: z.string(), title: z.string().nullable(), at: isoDate })),
  /** Messages in the channel chats (kept 30 days), held ones included. */
  chatMessages: z.array(z.object({ channel: z.string(), at: isoDate, text: z.string(), status: z.enum(['shown', 'held']) })),
  sessions: z.array(z.object({ createdAt: isoDate, lastSeenAt: isoDate, expiresAt: isoDate, ip: z.string().nullable(), userAgent: z.string().nullable() })),
  /** Premium-stream connections (kept 30 days after they end), with the network only. */
  streamConnections: z.array(z.object({ mount: z.string(), network: z.string(), userAgent: z.string(), since: isoDate, endedAt: isoDate.nullable() })),
  /** Listening sessions through the member's premium admission (kept 30 days), with the network and country only. */
  listeningSessions: z.array(
    z.object({
      channel: z.string(),
      mount: z.string(),
      network: z.string(),
      country: z.string().nullable(),
      player: z.string(),
      userAgent: z.string(),
      startedAt: isoDate,
      endedAt: isoDate.nullable(),
      durationS: z.number().nullable(),
    }),
  ),
});
export type OwnDataExport = z.infer<typeof ownDataExportSchema>;

// ---------------------------------------------------------------- DELETE /api/me

/** The current password, or the token of the emailed confirmation link (accounts without a password). */
export const deleteAccountBodySchema = z.strictObject({ password: passwordSchema.optional(), token: tokenSchema.optional() });
export type DeleteAccountBody = z.infer<typeof deleteAccountBodySchema>;

// ---------------------------------------------------------------- POST /api/me/email

export const emailChangeBodySchema = z.strictObject({ newEmail: emailSchema, password: passwordSchema.optional() });
export type EmailChangeBody = z.infer<typeof emailChangeBodySchema>;
