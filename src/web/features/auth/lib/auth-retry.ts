import { MINUTE_MS } from '../../../../contracts/time';
import { ApiError } from '../../../lib/http';

/** Statuses that retrying cannot fix: signed out, refused, or rate limited. */
const NO_RETRY = new Set([401, 403, 429]);

/** Auth reads are retried up to 2 times, except on 401, 403 and 429. */
export function authRetry(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError && NO_RETRY.has(error.status)) return false;
  return failureCount < 2;
}

/** 1 s, doubling, capped at 30 s. */
export function authRetryDelay(attemptIndex: number): number {
  return Math.min(1000 * 2 ** attemptIndex, 30_000);
}

/** Auth reads stay fresh for 10 minutes. */
export const AUTH_STALE_MS = 10 * MINUTE_MS;

/** On premium pages (behind a tier gate) auth reads stay fresh for 5 minutes, with no retry. */
export const PREMIUM_AUTH_STALE_MS = 5 * MINUTE_MS;

/** 401 means anonymous; 429 too, with a warning. Anything else is a real failure. */
export function isAnonymousAnswer(err: unknown, what: string): boolean {
  if (!(err instanceof ApiError)) return false;
  if (err.status === 429) {
    console.warn(`${what}: rate limited (429); treating the visitor as signed out`);
    return true;
  }
  return err.status === 401;
}
