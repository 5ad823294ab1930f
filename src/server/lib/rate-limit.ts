import { lt, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../db/client';
import { rateLimits } from '../db/schema';
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
  perIp: Limit;
  perEmail?: Limit;
}

const MIN = MINUTE_MS;

/**
 * Every rate limit in one place. Counters live in the database, so all instances share them.
 * Auth limits count per IP and per email; the recommendations limit per IP.
 */
export const RATE_RULES = {
  login: { name: 'login', perIp: { max: 20, windowMs: 15 * MIN }, perEmail: { max: 10, windowMs: 15 * MIN } },
  register: { name: 'register', perIp: { max: 10, windowMs: 60 * MIN }, perEmail: { max: 5, windowMs: 60 * MIN } },
  signInLink: { name: 'link', perIp: { max: 10, windowMs: 15 * MIN }, perEmail: { max: 3, windowMs: 15 * MIN } },
  followLink: { name: 'follow', perIp: { max: 30, windowMs: 15 * MIN } },
  resetRequest: { name: 'reset', perIp: { max: 10, windowMs: 15 * MIN }, perEmail: { max: 3, windowMs: 15 * MIN } },
  resetConfirm: { name: 'reset-confirm', perIp: { max: 20, windowMs: 15 * MIN } },
  codeRequest: { name: 'code', perIp: { max: 10, windowMs: 15 * MIN }, perEmail: { max: 3, windowMs: 15 * MIN } },
  codeCheck: { name: 'code-check', perIp: { max: 20, windowMs: 15 * MIN }, perEmail: { max: 10, windowMs: 15 * MIN } },
  checkUser: { name: 'exists', perIp: { max: 10, windowMs: 15 * MIN }, perEmail: { max: 5, windowMs: 15 * MIN } },
  adminSetup: { name: 'setup', perIp: { max: 10, windowMs: 60 * MIN } },
  recommendations: { name: 'recommendations', perIp: { max: 60, windowMs: MIN } },
  /** Calls to Icecast's listener-auth hook without the stream host's key (guessing it). */
  streamAuth: { name: 'stream-auth', perIp: { max: 30, windowMs: 15 * MIN } },
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
 * Counts this request against the rule per IP and (when given) per email; throws 429 with a
 * message that says when to try again once either is over its limit.
 */
export async function enforceRateLimit(db: Db, req: FastifyRequest, rule: RateRule, email?: string): Promise<void> {
  const now = new Date();
  const checks: Promise<{ count: number; resetAt: Date; max: number }>[] = [
    hit(db, `${rule.name}:ip:${req.ip}`, rule.perIp, now).then((r) => ({ ...r, max: rule.perIp.max })),
  ];
  if (email && rule.perEmail) {
    const perEmail = rule.perEmail;
    // Emails are keyed by hash so the table holds no addresses.
    checks.push(hit(db, `${rule.name}:email:${hashToken(email)}`, perEmail, now).then((r) => ({ ...r, max: perEmail.max })));
  }
  const results = await Promise.all(checks);
  const over = results.filter((r) => r.count > r.max);
  if (over.length === 0) return;
  const waitMs = Math.max(...over.map((r) => r.resetAt.getTime() - now.getTime()));
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  throw tooManyRequests(retryMessage(seconds), seconds);
}

export async function deleteExpiredRateLimits(db: Db): Promise<void> {
  await db.delete(rateLimits).where(lt(rateLimits.resetAt, new Date()));
}
