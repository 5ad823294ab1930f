import { and, eq, gt, lt, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../db/client';
import { rateLimits } from '../db/schema';
import { clientBucket, clientNetwork } from './client-address';
import { tooManyRequests } from './errors';
import { hashToken } from './tokens';
import { MINUTE_MS } from '../../contracts/time';

/** A fixed window: at most `max` hits per `windowMs`. */
export interface Limit {
  max: number;
  windowMs: number;
}

export interface RateRule {
  /** Bucket name, e.g. 'login'. */
  name: string;
  /** Per client address (IPv6 per /64). */
  perIp: Limit;
  /** Per email, from anywhere: for requests that send mail, so nobody floods an inbox. */
  perEmail?: Limit;
  /**
   * Per email from one network (IPv4 /24, IPv6 /64): for password and code guesses, so an attacker's
   * failures slow the attacker down without locking the member out from their own network.
   */
  perEmailNetwork?: Limit;
  /** Per signed-in member, whatever their address: for member writes (comments, reports, uploads). */
  perMember?: Limit;
}

const MIN = MINUTE_MS;

/**
 * Every rate limit in one place. Counters live in the database, so all instances share them.
 * Auth limits count per IP and per email (or per email and network); the recommendations limit per IP.
 */
export const RATE_RULES = {
  login: { name: 'login', perIp: { max: 20, windowMs: 15 * MIN }, perEmailNetwork: { max: 10, windowMs: 15 * MIN } },
  // Admin sign-in counts apart, so member-login noise never holds the admin up.
  adminLogin: { name: 'admin-login', perIp: { max: 10, windowMs: 15 * MIN }, perEmailNetwork: { max: 10, windowMs: 15 * MIN } },
  register: { name: 'register', perIp: { max: 10, windowMs: 60 * MIN }, perEmail: { max: 5, windowMs: 60 * MIN } },
  signInLink: { name: 'link', perIp: { max: 10, windowMs: 15 * MIN }, perEmail: { max: 3, windowMs: 15 * MIN } },
  followLink: { name: 'follow', perIp: { max: 30, windowMs: 15 * MIN } },
  resetRequest: { name: 'reset', perIp: { max: 10, windowMs: 15 * MIN }, perEmail: { max: 3, windowMs: 15 * MIN } },
  resetConfirm: { name: 'reset-confirm', perIp: { max: 20, windowMs: 15 * MIN } },
  codeRequest: { name: 'code', perIp: { max: 10, windowMs: 15 * MIN }, perEmail: { max: 3, windowMs: 15 * MIN } },
  codeCheck: { name: 'code-check', perIp: { max: 20, windowMs: 15 * MIN }, perEmailNetwork: { max: 10, windowMs: 15 * MIN } },
  /** Claim a Buy Me a Coffee payment: each request mails a code to the payer email. */
  payerClaim: { name: 'payer-claim', perIp: { max: 10, windowMs: 15 * MIN }, perEmail: { max: 3, windowMs: 15 * MIN } },
  /** Connect Patreon: each start and return costs Patreon calls. */
  patreonConnect: { name: 'patreon-connect', perIp: { max: 20, windowMs: 15 * MIN } },
  checkUser: { name: 'exists', perIp: { max: 10, windowMs: 15 * MIN }, perEmail: { max: 5, windowMs: 15 * MIN } },
  adminSetup: { name: 'setup', perIp: { max: 10, windowMs: 60 * MIN } },
  recommendations: { name: 'recommendations', perIp: { max: 60, windowMs: MIN } },
  /** DJ mix submissions: each one mails the station and the DJ. */
  submission: { name: 'submission', perIp: { max: 5, windowMs: 60 * MIN }, perEmail: { max: 3, windowMs: 60 * MIN } },
  /** Newsletter sign-ups send a confirmation mail; confirm/unsubscribe links are guessed per IP. */
  newsletter: { name: 'newsletter', perIp: { max: 10, windowMs: 60 * MIN }, perEmail: { max: 3, windowMs: 60 * MIN } },
  newsletterLink: { name: 'newsletter-link', perIp: { max: 30, windowMs: 15 * MIN } },
  /** Calls to Icecast's listener-auth hook without the stream host's key (guessing it). */
  streamAuth: { name: 'stream-auth', perIp: { max: 30, windowMs: 15 * MIN } },
  // Community (docs/decisions/0016-community-comments-profiles-contact.md): member writes count per member.
  commentPost: { name: 'comment', perIp: { max: 60, windowMs: 10 * MIN }, perMember: { max: 10, windowMs: 10 * MIN } },
  commentReport: { name: 'report', perIp: { max: 60, windowMs: 60 * MIN }, perMember: { max: 20, windowMs: 60 * MIN } },
  imageUpload: { name: 'image-upload', perIp: { max: 30, windowMs: 60 * MIN }, perMember: { max: 10, windowMs: 60 * MIN } },
  follow: { name: 'follow-member', perIp: { max: 200, windowMs: 60 * MIN }, perMember: { max: 100, windowMs: 60 * MIN } },
  contact: { name: 'contact', perIp: { max: 5, windowMs: 60 * MIN } },
  /** The news panel's Refresh (it makes DHR fetch the news sources). */
  newsRefresh: { name: 'news-refresh', perIp: { max: 6, windowMs: 15 * MIN } },
  /** Mailed account confirmations (deleting the account, a new email address). */
  accountMail: { name: 'account-mail', perIp: { max: 10, windowMs: 15 * MIN }, perMember: { max: 3, windowMs: 15 * MIN } },
  /** Password or link confirmations of the member's own account changes. */
  accountConfirm: { name: 'account-confirm', perIp: { max: 20, windowMs: 15 * MIN }, perMember: { max: 10, windowMs: 15 * MIN } },
  /** Channel chat messages (slow mode comes on top, for members without the supporter badge). */
  chatPost: { name: 'chat', perIp: { max: 120, windowMs: MIN }, perMember: { max: 20, windowMs: MIN } },
  /** Starting forum threads. */
  forumPost: { name: 'forum-post', perIp: { max: 10, windowMs: 60 * MIN } },
} as const satisfies Record<string, RateRule>;

/** Counts one hit on `key` and returns how many hits the window holds and when it resets. */
async function hit(db: Db, key: string, limit: Limit, now: Date): Promise<{ count: number; resetAt: Date }> {
  const nowIso = now.toISOString();
  const resetIso = new Date(now.getTime() + limit.windowMs).toISOString();
  // One atomic upsert: a window that has passed starts again at 1.
  const rows = await db
    .insert(rateLimits)
    .values({ key, count: 1, resetAt: new Date(resetIso) })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        count: sql`CASE WHEN ${rateLimits.resetAt} <= ${nowIso}::timestamptz THEN 1 ELSE ${rateLimits.count} + 1 END`,
        resetAt: sql`CASE WHEN ${rateLimits.resetAt} <= ${nowIso}::timestamptz THEN ${resetIso}::timestamptz ELSE ${rateLimits.resetAt} END`,
      },
    })
    .returning({ count: rateLimits.count, resetAt: rateLimits.resetAt });
  const row = rows[0];
  if (!row) throw new Error('rate limit upsert returned nothing');
  return row;
}

export function retryMessage(seconds: number): string {
  if (seconds < 60) return `Too many attempts. Please try again in ${seconds} second${seconds === 1 ? '' : 's'}.`;
  const minutes = Math.ceil(seconds / 60);
  return `Too many attempts. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
}

/**
 * Counts this request against the rule per IP, per signed-in member (rules with `perMember`) and
 * (when an email is given) per email or per email and network; throws 429 with a message that says when to try again once any is over its limit.
 */
export async function enforceRateLimit(db: Db, req: FastifyRequest, rule: RateRule, email?: string): Promise<void> {
  const now = new Date();
  const count = (key: string, limit: Limit) => hit(db, key, limit, now).then((r) => ({ ...r, max: limit.max }));
  const keys = ruleKeys(req, rule, email);
  const checks = [count(keys.ip, rule.perIp)];
  if (email && rule.perEmail) checks.push(count(`${rule.name}:email:${hashToken(email)}`, rule.perEmail));
  if (keys.emailNetwork && rule.perEmailNetwork) checks.push(count(keys.emailNetwork, rule.perEmailNetwork));
  if (req.user && rule.perMember) checks.push(count(`${rule.name}:member:${req.user.id}`, rule.perMember));
  const results = await Promise.all(checks);
  const over = results.filter((r) => r.count > r.max);
  if (over.length === 0) return;
  const waitMs = Math.max(...over.map((r) => r.resetAt.getTime() - now.getTime()));
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  throw tooManyRequests(retryMessage(seconds), seconds);
}

/** The counter keys of a request under `rule`. Emails are keyed by hash so the table holds no addresses. */
function ruleKeys(req: FastifyRequest, rule: RateRule, email?: string): { ip: string; emailNetwork?: string } {
  return {
    ip: `${rule.name}:ip:${clientBucket(req.ip)}`,
    ...(email && rule.perEmailNetwork ? { emailNetwork: `${rule.name}:email-net:${hashToken(`${email} ${clientNetwork(req.ip)}`)}` } : {}),
  };
}

/**
 * Sign-in limits count failures only: a request that turned out right takes back
 * the hit `enforceRateLimit` counted for its address and clears that account's failures from this
 * network, so a family or an office behind one address is never locked out by signing in.
 * (Counting first and forgiving after keeps parallel guesses counted.)
 */
export async function forgiveSuccess(db: Db, req: FastifyRequest, rule: RateRule, email: string): Promise<void> {
  const keys = ruleKeys(req, rule, email);
  await db
    .update(rateLimits)
    .set({ count: sql`${rateLimits.count} - 1` })
    .where(and(eq(rateLimits.key, keys.ip), gt(rateLimits.count, 0)));
  if (keys.emailNetwork) await db.delete(rateLimits).where(eq(rateLimits.key, keys.emailNetwork));
}

export async function deleteExpiredRateLimits(db: Db): Promise<void> {
  await db.delete(rateLimits).where(lt(rateLimits.resetAt, new Date()));
}
