/**
 * Community values, words and types without zod, so first-load code (the top bar's comments toggle,
 * the home page's row) imports them without the validator. The schemas are in community.ts, which
 * re-exports all of this.
 */
import { tiersWith, tierList } from './tier-table';

export const COMMENT_STATUSES = ['approved', 'pending', 'rejected'] as const;
export type CommentStatus = (typeof COMMENT_STATUSES)[number];

/** The longest comment, the feed lengths and the report threshold. */
export const REPORT_REASONS = ['spam', 'harassment', 'inappropriate', 'misinformation', 'other'] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];

export const PROFILE_VISIBILITIES = ['public', 'subscribers', 'private'] as const;
export type ProfileVisibility = (typeof PROFILE_VISIBILITIES)[number];

export const MODERATION_ACTIONS = ['approve', 'reject', 'delete', 'ban', 'unban'] as const;
export type ModerationAction = (typeof MODERATION_ACTIONS)[number];

/** Comment max 500 characters (after trimming). */
export const COMMENT_MAX_LENGTH = 500;
/** Different members whose reports take a comment off the public list until a moderator decides (docs/decisions/0016-community-comments-profiles-contact.md). */
export const COMMENT_HIDE_REPORTS = 3;
/** Longest recent-comments feed. */
export const RECENT_COMMENTS_MAX = 50;
/** Length of the feed GET /api/comments/recent answers. */
export const RECENT_COMMENTS_DEFAULT = 20;

/** The comment texts members see, word for word. */
export const COMMENT_MESSAGES = {
  subscriptionRequired: `Active subscription required to comment. Please upgrade to ${tierList(
    tiersWith((row) => row.comments),
    'or',
    true,
  )}.`,
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

/** What a moderator is told after each action. */
export const MODERATION_MESSAGES = {
  approved: 'Comment approved successfully',
  approveFailed: 'Failed to approve comment',
  rejected: 'Comment rejected successfully',
  rejectFailed: 'Failed to reject comment',
  deleted: 'Comment deleted permanently',
  deleteFailed: 'Failed to delete comment',
  // A ban covers comments and chat alike (chat-service.ts postChatMessage reads the same ban).
  banned: (name: string) => `User ${name} has been banned from commenting and chat`,
  banFailed: 'Failed to ban user',
  banReasonRequired: 'A reason is required to ban a member',
  banSelf: 'You cannot ban yourself',
  banInPast: 'The ban must end in the future',
  memberNotFound: 'Member not found',
  deleteConfirm: 'Delete this comment permanently? This cannot be undone.',
  notBanned: 'This member is not banned',
  liftConfirm: (name: string) => `Lift the ban on ${name}? They can comment and post again at once.`,
  lifted: (name: string) => `The ban on ${name} has been lifted`,
  liftFailed: 'Failed to lift the ban',
  threadApproved: 'Thread approved',
  threadRemoved: 'Thread removed',
  threadFailed: 'Failed to moderate the thread',
  removeThreadConfirm: 'Remove this thread permanently? This cannot be undone.',
  chatApproved: 'Chat message approved: everyone in the chat sees it now',
  chatRemoved: 'Chat message removed',
  chatFailed: 'Failed to moderate the chat message',
} as const;

/** Why an item waits in the moderation queue, in the moderator's words. */
export const HOLD_REASONS = {
  reported: (n: number) => `Reported ${n} ${n === 1 ? 'time' : 'times'}`,
  link: 'Held by the link rule (contains a link)',
  spam: 'Held by the spam rule (repeated text or a burst of posts)',
} as const;

export const PROFILE_MESSAGES = {
  notFound: 'Profile not found',
  notOwner: 'You can only change your own profile',
  followSelf: 'You cannot follow yourself',
} as const;

/** A news item's failed comment: the server's message, or 'Unknown error' when there is none. */
export function newsCommentFailure(message: string | undefined): string {
  return `Failed to post comment: ${message || 'Unknown error'}`;
}

export const CONTACT_MESSAGES = {
  required: 'Please fill in all required fields',
  sent: "Message sent successfully! We'll get back to you soon.",
  failed: 'Failed to send message. Please try again.',
  invalidEmail: 'Please enter a valid email address',
  notFound: 'Message not found',
  alreadyHandled: 'This message is already handled.',
  notHandled: 'This message is open already.',
  nameRequired: 'Please enter your name',
  emailRequired: 'Please enter your email address',
  messageRequired: 'Please enter your message',
} as const;

/** The contact form's checked fields, each with what is wrong with it; empty when the form may be sent. */
export type ContactFieldErrors = Partial<Record<'name' | 'email' | 'message', string>>;

/**
 * What is wrong with each field of a contact message (trimmed values): the server answers them in the
 * envelope's `fields`, and the form shows each under its field. `isEmail` is email.ts's rule.
 */
export function contactFieldErrors(body: { name: string; email: string; message: string }, isEmail: (s: string) => boolean): ContactFieldErrors {
  const errors: ContactFieldErrors = {};
  if (!body.name) errors.name = CONTACT_MESSAGES.nameRequired;
  if (!body.email) errors.email = CONTACT_MESSAGES.emailRequired;
  else if (!isEmail(body.email)) errors.email = CONTACT_MESSAGES.invalidEmail;
  if (!body.message) errors.message = CONTACT_MESSAGES.messageRequired;
  return errors;
}

/** The form's own message over its field errors: the spec's words for a missing field, else the first field's. */
export function contactProblemMessage(errors: ContactFieldErrors): string | undefined {
  const list = [errors.name, errors.email, errors.message].filter((e): e is string => e !== undefined);
  if (list.length === 0) return undefined;
  return list.some((e) => e !== CONTACT_MESSAGES.invalidEmail) ? CONTACT_MESSAGES.required : CONTACT_MESSAGES.invalidEmail;
}

export const BADGES = ['Supporter', 'Verified'] as const;
export type Badge = (typeof BADGES)[number];

export const IMAGE_KINDS = ['profile', 'banner'] as const;
export type ImageKind = (typeof IMAGE_KINDS)[number];

/** The hidden field people never fill; a bot that does is answered as if sent, and nothing is kept. */
export const CONTACT_HONEYPOT_FIELD = 'website';
