import { z } from 'zod';
import { isEmailAddress } from './admin';
import { IMAGE_URL_PATTERN } from './images';
import { tierSchema } from './member-schemas';

/**
 * Community payloads: comments, reports, moderation, bans, profiles, follows, contact
 * (spec §3, §5, §7; docs/decisions/0016-community-comments-profiles-contact.md). Shared by
 * src/server/modules/{comments,profiles,contact} and src/web/features/community.
 */

// ---------------------------------------------------------------- values and words

export const COMMENT_STATUSES = ['approved', 'pending', 'rejected'] as const;
export type CommentStatus = (typeof COMMENT_STATUSES)[number];

/** Spec §9. */
export const REPORT_REASONS = ['spam', 'harassment', 'inappropriate', 'misinformation', 'other'] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];

export const PROFILE_VISIBILITIES = ['public', 'subscribers', 'private'] as const;
export type ProfileVisibility = (typeof PROFILE_VISIBILITIES)[number];

export const MODERATION_ACTIONS = ['approve', 'reject', 'delete', 'ban'] as const;
export type ModerationAction = (typeof MODERATION_ACTIONS)[number];

/** Spec §9: comment max 500 characters (after trimming). */
export const COMMENT_MAX_LENGTH = 500;
/** Different members whose reports take a comment off the public list until a moderator decides (design §4). */
export const COMMENT_HIDE_REPORTS = 3;
/** The discussion of the home page's 'Connect and Share' row and the top bar's comments toggle. */
export const HOMEPAGE_DISCUSSION = 'homepage';
/** Longest recent-comments feed. */
export const RECENT_COMMENTS_MAX = 50;
/** Length of the feed GET /api/comments/recent answers. */
export const RECENT_COMMENTS_DEFAULT = 20;

/** Spec §5, §6, §8 wording. */
export const COMMENT_MESSAGES = {
  subscriptionRequired: 'Active subscription required to comment. Please upgrade to DHR1, DHR2, or VIP.',
  subscriptionRequiredShort: 'Subscription required to comment',
  banned: 'You are banned from commenting.',
  empty: 'Comment cannot be empty',
  tooLong: `Comment must be ${COMMENT_MAX_LENGTH} characters or fewer`,
  posted: 'Comment posted!',
  submitted: 'Comment submitted for moderation!',
  postFailed: 'Failed to submit comment',
  reported: 'Comment reported successfully. It will be reviewed by moderators.',
  reportFailed: 'Failed to report comment',
  reportOwn: 'You cannot report your own comment',
  alreadyReported: 'You have already reported this comment',
  notFound: 'Comment not found',
  emptyList: 'No comments yet. Be the first to share your thoughts!',
} as const;

/** Spec §8 moderation alerts. */
export const MODERATION_MESSAGES = {
  approved: 'Comment approved successfully',
  approveFailed: 'Failed to approve comment',
  rejected: 'Comment rejected successfully',
  rejectFailed: 'Failed to reject comment',
  deleted: 'Comment deleted permanently',
  deleteFailed: 'Failed to delete comment',
  banned: (name: string) => `User ${name} has been banned from commenting`,
  banFailed: 'Failed to ban user',
  banReasonRequired: 'A reason is required to ban a member',
  banSelf: 'You cannot ban yourself',
  banInPast: 'The ban must end in the future',
  memberNotFound: 'Member not found',
  deleteConfirm: 'Delete this comment permanently? This cannot be undone.',
} as const;

export const PROFILE_MESSAGES = {
  notFound: 'Profile not found',
  notOwner: 'You can only change your own profile',
  followSelf: 'You cannot follow yourself',
} as const;

export const CONTACT_MESSAGES = {
  required: 'Please fill in all required fields',
  sent: "Message sent successfully! We'll get back to you soon.",
  failed: 'Failed to send message. Please try again.',
  invalidEmail: 'Please enter a valid email address',
  notFound: 'Message not found',
} as const;

// ---------------------------------------------------------------- text

/** C0 controls and DEL, except tab (9), line feed (10) and carriage return (13). */
function hasControlChar(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if ((c < 32 && c !== 9 && c !== 10 && c !== 13) || c === 127) return true;
  }
  return false;
}
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Text people can type: no control characters (tabs and line breaks aside), no broken UTF-16. */
export function isCleanText(s: string): boolean {
  return !hasControlChar(s) && !LONE_SURROGATE.test(s);
}

/** A bounded string of clean text (members' words are stored and shown as text, never as markup). */
export const textField = (max: number) => z.string().max(max).refine(isCleanText, 'contains characters that are not allowed');

// ---------------------------------------------------------------- comments

export const discussionIdSchema = textField(200).trim().min(1);
export const commentIdParamsSchema = z.object({ id: z.uuid() });
export const discussionParamsSchema = z.object({ articleId: discussionIdSchema });
export const recentParamsSchema = z.object({ limit: z.coerce.number().int().min(1).max(RECENT_COMMENTS_MAX) });

/** What the public sees of a comment (never an email address). */
export const commentSchema = z.object({
  id: z.string(),
  articleId: z.string(),
  articleTitle: z.string().nullable(),
  articleSource: z.string().nullable(),
  userId: z.string(),
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

/** Spec §3 recent-comments feed item. */
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

/** Identity fields some clients send (spec §3's news payload); accepted and ignored: the session says who posts. */
const ignoredField = z.string().max(500).nullish();
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

/** Spec §7 sends moderatorId and moderatorUsername; ignored (the moderator is the signed-in admin). */
export const moderationDecisionSchema = z
  .object({ moderatorId: ignoredField, moderatorUsername: ignoredField })
  .nullish();
export const moderationResultSchema = z.object({ message: z.string() });

export const banCommentsSchema = z.object({
  reason: textField(500).trim(),
  /** ISO date-time; absent or null = permanent. */
  expiresAt: z.iso.datetime({ offset: true }).nullable().optional(),
});
export type BanCommentsBody = z.infer<typeof banCommentsSchema>;
export const userIdParamsSchema = z.object({ id: z.uuid() });

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

export const BADGES = ['Supporter', 'Verified'] as const;
export type Badge = (typeof BADGES)[number];

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

const imageUrlSchema = z.string().max(200).regex(IMAGE_URL_PATTERN, 'must be an image uploaded to DHR').nullable();
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

export const IMAGE_KINDS = ['profile', 'banner'] as const;
export type ImageKind = (typeof IMAGE_KINDS)[number];
export const uploadImageResponseSchema = z.object({ imageUrl: z.string() });

// ---------------------------------------------------------------- contact

/** The hidden field people never fill; a bot that does is answered as if sent, and nothing is kept. */
export const CONTACT_HONEYPOT_FIELD = 'website';

export const contactSchema = z.object({
  name: textField(100).trim(),
  email: textField(320).trim(),
  subject: textField(200).trim().optional(),
  message: textField(5000).trim(),
  [CONTACT_HONEYPOT_FIELD]: z.string().max(500).optional(),
});
export type ContactBody = z.input<typeof contactSchema>;
export const contactResponseSchema = z.object({ message: z.string() });

export function contactProblem(body: { name: string; email: string; message: string }): string | undefined {
  if (!body.name || !body.email || !body.message) return CONTACT_MESSAGES.required;
  if (!isEmailAddress(body.email)) return CONTACT_MESSAGES.invalidEmail;
  return undefined;
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
});
export type ContactMessage = z.infer<typeof contactMessageSchema>;
export const contactMessageListSchema = z.array(contactMessageSchema);
export const contactInboxQuerySchema = z.object({ status: z.enum(['open', 'handled', 'all']).default('open') });
export const contactMessageParamsSchema = z.object({ id: z.uuid() });
