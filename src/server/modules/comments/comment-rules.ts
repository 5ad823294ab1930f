import { COMMENT_MESSAGES } from '../../../contracts/community';
import { effectiveTier, mayComment } from '../../../contracts/tier-policy';
import { DAY_MS, MINUTE_MS, RADIO_LOCALE, RADIO_TIME_ZONE } from '../../../contracts/time';
import type { Database, Db } from '../../db/client';
import type { CommentBanRow, UserRow } from '../../db/schema';
import { AppError, forbidden, unauthorized } from '../../lib/errors';
import { accountsSharingIdentity, platformIdentitiesOf } from '../platforms/platforms-repository';
import { anyIdentityBanInForce, identityBanFor } from '../platforms/links-repository';
import { hasLink } from '../../lib/link-detector';
import { anyBanInForce, authorActivity, bannedAmong, findBan } from './comments-repository';

/**
 * Who may write in a discussion, and when a new comment waits for a moderator. Shared by every
 * place members write (home and news comments here, forum threads in the forum module).
 * docs/decisions/0016-community-comments-profiles-contact.md.
 */

/**
 * The NOTIFY channel that says a member's standing changed (a comment ban given or lifted, a chat mute);
 * the payload is their id. Every instance tells that member's open pages (the chat plugin), so a
 * member learns it before typing, not on sending.
 */
export const STANDING_NOTIFY_CHANNEL = 'dhr_member_standing';

/** Tells every instance that `userId`'s standing changed (after the change is stored). */
export function announceStanding(database: Pick<Database, 'notify'>, userId: string): Promise<void> {
  return database.notify(STANDING_NOTIFY_CHANNEL, userId);
}

const banEnd = new Intl.DateTimeFormat(RADIO_LOCALE, { timeZone: RADIO_TIME_ZONE, dateStyle: 'medium', timeStyle: 'short' });

const inForce = (ban: CommentBanRow | null, now: Date): ban is CommentBanRow => ban !== null && (ban.expiresAt === null || ban.expiresAt > now);

/**
 * The ban that stops `member` from commenting and posting, or null: their own ban in force, else a
 * ban in force on any account sharing a platform identity with them (a payer email or Patreon user
 * id; platforms-repository's accountsSharingIdentity), so a second account paying as the same person
 * is banned too, and a ban on an identity recorded when a member was banned (links-repository's
 * banned identities), which follows the payer to any account that claims or links it later, even
 * after the banned account let it go. The one rule for comments, forum threads and chat.
 */
export async function activeBan(db: Db, member: UserRow, now: Date = new Date()): Promise<CommentBanRow | null> {
  // One round of reads (a post awaits this): most of the time nobody is banned, and the two
  // "any ban at all" reads spare looking at platform identities.
  const [own, accounts, identities] = await Promise.all([findBan(db, member.id), anyBanInForce(db, now), anyIdentityBanInForce(db, now)]);
  if (inForce(own, now)) return own;
  if (!accounts && !identities) return null;
  if (accounts) {
    const sharing = await accountsSharingIdentity(db, member);
    const banned = await bannedAmong(db, sharing, now);
    for (const id of banned) {
      const ban = await findBan(db, id);
      if (inForce(ban, now)) return ban;
    }
  }
  // An identity a ban recorded (a payer email, a Patreon user id) that this account has claimed or linked since.
  if (!identities) return null;
  const followed = await identityBanFor(db, await platformIdentitiesOf(db, member, true), now);
  return followed ? { userId: member.id, reason: followed.reason, expiresAt: followed.expiresAt, bannedBy: null, createdAt: followed.createdAt } : null;
}

/**
 * Throws a 403 unless `user` may post: signed in, not banned (activeBan), and on a tier whose row in
 * the tier table allows comments (admins always). A ban whose end has passed no longer counts.
 */
export async function assertMayPost(db: Db, user: UserRow | null, now: Date = new Date()): Promise<UserRow> {
  if (!user) throw unauthorized();
  const ban = await activeBan(db, user, now);
  if (ban) {
    const until = ban.expiresAt ? ` until ${banEnd.format(ban.expiresAt)}` : '';
    throw new AppError(403, 'banned', `${COMMENT_MESSAGES.banned} Reason: ${ban.reason}${until ? `. The ban lasts${until}.` : '.'}`);
  }
  if (!mayComment(user, now)) throw forbidden(COMMENT_MESSAGES.subscriptionRequired, 'subscription_required');
  return user;
}

/** A burst: this many comments by one member within SPAM_BURST_WINDOW_MS holds the next one for review. */
export const SPAM_BURST_COUNT = 3;
export const SPAM_BURST_WINDOW_MS = 2 * MINUTE_MS;

const normalise = (s: string) => s.trim().replace(/\s+/g, ' ').toLowerCase();

/**
 * The simple spam filter: a comment with a link, a repeat of the author's last comment, or
 * a burst of comments waits for a moderator ('pending'); anything else is published ('approved').
 * Call it before storing the new comment.
 */
export async function spamVerdict(db: Db, userId: string, text: string, shown: string = text, now: Date = new Date()): Promise<'approved' | 'pending'> {
  // `shown`: everything of the comment others will read (its text, and the article title and source the client sent).
  if (hasLink(shown)) return 'pending';
  const { last, recent } = await authorActivity(db, userId, new Date(now.getTime() - SPAM_BURST_WINDOW_MS));
  if (last !== null && normalise(last) === normalise(text)) return 'pending';
  if (recent >= SPAM_BURST_COUNT) return 'pending';
  return 'approved';
}

// ---------------------------------------------------------------- report standing

/** An account this young, without a paid tier, needs an approved comment and this age for its reports to count. */
export const REPORT_STANDING_AGE_MS = 14 * DAY_MS;
/** Reports of one comment by one person (network or payer identity) within this time count once. */
export const SAME_PERSON_WINDOW_MS = DAY_MS;

/**
 * Whether a member's report counts towards the automatic hide: a verified email, and a paid tier or
 * an account older than 14 days with at least one approved comment. Three free sign-ups silence nobody.
 */
export function hasReportStanding(member: UserRow, approvedComments: number, now: Date = new Date()): boolean {
  if (!member.emailVerifiedAt) return false;
  if (effectiveTier(member, now) !== 'free') return true;
  return now.getTime() - member.createdAt.getTime() >= REPORT_STANDING_AGE_MS && approvedComments >= 1;
}
