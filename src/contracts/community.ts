import { z } from 'zod';
import { EMAIL_INPUT_MAX, isEmailAddress } from './email';
import {
  BADGES,
  COMMENT_STATUSES,
  CONTACT_HONEYPOT_FIELD,
  contactFieldErrors,
  type ContactFieldErrors,
  MODERATION_ACTIONS,
  PROFILE_VISIBILITIES,
  RECENT_COMMENTS_MAX,
  REPORT_REASONS,
} from './community-values';
import { IMAGE_URL_PATTERN } from './images';
import { tierSchema } from './member-schemas';
import { textField, uuidField } from './text-field';

/**
 * Community payloads: comments, reports, moderation, bans, profiles, follows, contact
 * (docs/decisions/0016-community-comments-profiles-contact.md). Shared by
 * src/server/modules/{comments,profiles,contact} and src/web/features/community.
 */

export * from './community-values';
// ---------------------------------------------------------------- text

// ---------------------------------------------------------------- comments

export const discussionIdSchema = textField(200).trim().min(1);
export const commentIdParamsSchema = z.object({ id: uuidField() });
export const discussionParamsSchema = z.object({ articleId: discussionIdSchema });
export const recentParamsSchema = z.object({ limit: z.coerce.number().int().min(1).max(RECENT_COMMENTS_MAX) });

/** The author shown on comments and forum threads whose member deleted their account. */
export const DELETED_MEMBER_NAME = 'Deleted member';

/** What the public sees of a comment (never an email address). */
export const commentSchema = z.object({
  id: z.string(),
  articleId: z.string(),
  articleTitle: z.string().nullable(),
  articleSource: z.string().nullable(),
  /** Null when the author deleted their account (the name is then DELETED_MEMBER_NAME). */
  userId: z.string().nullable(),
  username: z.string(),
  userName: z.string(),
  userTier: tierSchema,
  content: z.string(),
  status: z.enum(COMMENT_STATUSES),
  createdAt: z.string(),
  timestamp: z.string(),
  moderatedAt: z.string().nullable(),
  moderatorUsername: z.string().nullable(),
});
export type Comment = z.infer<typeof commentSchema>;
export const commentListSchema = z.array(commentSchema);

/** One item of the recent-comments feed. */
export const recentCommentSchema = z.object({
  id: z.string(),
  articleId: z.string(),
  userName: z.string(),
  articleTitle: z.string().nullable(),
  userTier: tierSchema,
  createdAt: z.string(),
  comment: z.string(),
});
export type RecentComment = z.infer<typeof recentCommentSchema>;
export const recentCommentListSchema = z.array(recentCommentSchema);

/** Identity fields some clients send (the news page's payload); accepted and ignored: the session says who posts. */
const ignoredField = textField(500).nullish();
const ignoredIdentity = { userId: ignoredField, userName: ignoredField, userEmail: ignoredField, userTier: ignoredField };

/**
 * POST /api/comments: the home shape `{articleId, content}` or the news shape
 * `{articleId, articleTitle, articleSource, comment}`. Trimming and the 1-500 rule are the service's,
 * with the spec's words; the schema only bounds the input.
 */
export const postCommentSchema = z.object({
  articleId: discussionIdSchema,
  content: textField(10_000).optional(),
  comment: textField(10_000).optional(),
  articleTitle: textField(300).trim().optional(),
  articleSource: textField(200).trim().optional(),
  ...ignoredIdentity,
});
export type PostCommentBody = z.infer<typeof postCommentSchema>;

export const postCommentResponseSchema = z.object({ comment: commentSchema, message: z.string() });
export type PostCommentResponse = z.infer<typeof postCommentResponseSchema>;

export const reportCommentSchema = z.object({ reason: z.enum(REPORT_REASONS), reportedBy: ignoredField });
export const reportCommentResponseSchema = z.object({ message: z.string() });

// ---------------------------------------------------------------- moderation

/** A comment as moderators see it: with the author's email and its open reports. */
export const moderatedCommentSchema = commentSchema.extend({
  userEmail: z.string(),
  isReported: z.boolean(),
  reportCount: z.number().int(),
  reportReason: z.string().nullable(),
  reportedAt: z.string().nullable(),
  reports: z.array(z.object({ reason: z.enum(REPORT_REASONS), reportedAt: z.string(), reporterName: z.string() })),
  authorBanned: z.boolean(),
});
export type ModeratedComment = z.infer<typeof moderatedCommentSchema>;
export const moderatedCommentListSchema = z.array(moderatedCommentSchema);

/** Clients may send moderatorId and moderatorUsername; ignored (the moderator is the signed-in admin). */
export const moderationDecisionSchema = z.object({ moderatorId: ignoredField, moderatorUsername: ignoredField }).nullish();
export const moderationResultSchema = z.object({ message: z.string() });

export const banCommentsSchema = z.object({
  reason: textField(500).trim(),
  /** ISO date-time; absent or null = permanent. */
  expiresAt: textField(40)
    .pipe(z.iso.datetime({ offset: true }))
    .nullable()
    .optional(),
});
export type BanCommentsBody = z.infer<typeof banCommentsSchema>;
export const userIdParamsSchema = z.object({ id: uuidField() });

// ---------------------------------------------------------------- GET /api/admin/moderation/queue

export const MODERATION_QUEUE_MAX = 400;
/**
 * One held item: a comment (with an excerpt of its text), a forum thread (with its title) or a chat
 * message (its text as the excerpt, and its chat: 'free' or a channel id, with the channel's name).
 */
export const moderationQueueItemSchema = z.object({
  kind: z.enum(['comment', 'thread', 'chat']),
  channel: z.string().optional(),
  channelName: z.string().optional(),
  id: z.string(),
  title: z.string().optional(),
  excerpt: z.string().optional(),
  author: z.string(),
  /** Null when the author deleted their account. */
  authorId: z.string().nullable(),
  /** Why it is held (HOLD_REASONS). */
  reason: z.string(),
  /** True when it is held because members reported it. */
  reported: z.boolean(),
  createdAt: z.string(),
});
export type ModerationQueueItem = z.infer<typeof moderationQueueItemSchema>;
export const moderationQueueSchema = z.object({
  items: z.array(moderationQueueItemSchema).max(MODERATION_QUEUE_MAX),
  /** Held comments, held threads, held chat messages, and the items held because of reports. */
  counts: z.object({ comments: z.number().int(), threads: z.number().int(), chat: z.number().int(), reported: z.number().int() }),
});
export type ModerationQueue = z.infer<typeof moderationQueueSchema>;

// ---------------------------------------------------------------- GET /api/admin/bans

export const commentBanSchema = z.object({
  userId: z.string(),
  email: z.string(),
  username: z.string(),
  reason: z.string(),
  /** ISO date-time; null = permanent. */
  until: z.string().nullable(),
  /** The banning admin's username (null when that account is gone). */
  bannedBy: z.string().nullable(),
  createdAt: z.string(),
});
export type CommentBan = z.infer<typeof commentBanSchema>;
export const commentBanListSchema = z.array(commentBanSchema).max(1000);

export const moderationLogEntrySchema = z.object({
  id: z.string(),
  moderatorUsername: z.string(),
  action: z.enum(MODERATION_ACTIONS),
  commentId: z.string().nullable(),
  targetUsername: z.string().nullable(),
  detail: z.string().nullable(),
  createdAt: z.string(),
});
export type ModerationLogEntry = z.infer<typeof moderationLogEntrySchema>;
export const moderationLogSchema = z.array(moderationLogEntrySchema);

// ---------------------------------------------------------------- profiles

export const profileSchema = z.object({
  id: z.string(),
  username: z.string(),
  profileImageUrl: z.string().nullable(),
  profileBannerUrl: z.string().nullable(),
  subscriptionTier: tierSchema,
  isVerified: z.boolean(),
  verificationMethod: z.enum(['email', 'subscription', 'admin']).nullable(),
  followerCount: z.number().int(),
  followingCount: z.number().int(),
  reputationScore: z.number().int(),
  badgeCount: z.number().int(),
  badges: z.array(z.enum(BADGES)),
  commentCount: z.number().int(),
  bio: z.string().nullable(),
  location: z.string().nullable(),
  website: z.string().nullable(),
  joinDate: z.string(),
  favoriteGenres: z.array(z.string()),
  isFollowing: z.boolean(),
  isOwner: z.boolean(),
  /** Settings: present only for the owner and admins. */
  emailNotifications: z.boolean().nullable(),
  chatNotifications: z.boolean().nullable(),
  profileVisibility: z.enum(PROFILE_VISIBILITIES).nullable(),
});
export type Profile = z.infer<typeof profileSchema>;

const imageUrlSchema = textField(200).regex(IMAGE_URL_PATTERN, 'must be an image uploaded to DHR').nullable();
const optionalText = (max: number) =>
  textField(max)
    .trim()
    .transform((v) => (v === '' ? null : v))
    .nullable();

export const updateProfileSchema = z.strictObject({
  profileImageUrl: imageUrlSchema.optional(),
  profileBannerUrl: imageUrlSchema.optional(),
  emailNotifications: z.boolean().optional(),
  chatNotifications: z.boolean().optional(),
  profileVisibility: z.enum(PROFILE_VISIBILITIES).optional(),
  bio: optionalText(500).optional(),
  location: optionalText(100).optional(),
  website: textField(300)
    .trim()
    .refine((v) => v === '' || /^https?:\/\/[^\s]+$/i.test(v), 'must start with http:// or https://')
    .transform((v) => (v === '' ? null : v))
    .nullable()
    .optional(),
  favoriteGenres: z.array(textField(40).trim().min(1)).max(10).optional(),
});
export type UpdateProfileBody = z.input<typeof updateProfileSchema>;

export const followResultSchema = z.object({ isFollowing: z.boolean(), followerCount: z.number().int(), followingCount: z.number().int() });
export type FollowResult = z.infer<typeof followResultSchema>;

export const uploadImageResponseSchema = z.object({ imageUrl: z.string() });
export type UploadImageResponse = z.infer<typeof uploadImageResponseSchema>;

// ---------------------------------------------------------------- contact

export const contactSchema = z.object({
  name: textField(100).trim(),
  email: textField(EMAIL_INPUT_MAX).trim(),
  subject: textField(200).trim().optional(),
  message: textField(5000).trim(),
  [CONTACT_HONEYPOT_FIELD]: textField(500).optional(),
});
export type ContactBody = z.input<typeof contactSchema>;
export const contactResponseSchema = z.object({ message: z.string() });

/** The contact message's field errors by email.ts's rule (community-values' contactFieldErrors). */
export function contactProblems(body: { name: string; email: string; message: string }): ContactFieldErrors {
  return contactFieldErrors(body, isEmailAddress);
}

export const contactMessageSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  subject: z.string().nullable(),
  message: z.string(),
  priority: z.boolean(),
  fromMember: z.string().nullable(),
  createdAt: z.string(),
  handledAt: z.string().nullable(),
  /** The admin who marked it handled (username), while it is handled. */
  handledBy: z.string().nullable(),
});
export type ContactMessage = z.infer<typeof contactMessageSchema>;
/** The inbox: at most 500 messages, and how many match in all (the page says "showing 500 of 510"). */
export const contactMessageListSchema = z.object({ messages: z.array(contactMessageSchema), total: z.number().int().min(0) });
export type ContactMessageList = z.infer<typeof contactMessageListSchema>;
export const contactInboxQuerySchema = z.object({ status: z.enum(['open', 'handled', 'all']).default('open') });
export const contactMessageParamsSchema = z.object({ id: uuidField() });
