import { DAY_MS, HOUR_MS } from '../../../contracts/time';

/**
 * When a source is fetched next (docs/decisions/0024-news-from-the-real-web.md): every poll interval
 * while it works; after failures the wait doubles from the interval up to a day, with ±15 % jitter so
 * sources that failed together do not come back together; after 7 days of failures it is paused.
 */

export const BACKOFF_MAX_MS = DAY_MS;
export const PAUSE_AFTER_FAILING_MS = 7 * DAY_MS;
const JITTER = 0.15;

/** The wait before the next fetch. `failures` counts this one (0 after a success); `random` is in [0, 1). */
export function nextFetchDelay(failures: number, intervalMs: number, random = Math.random()): number {
  if (failures <= 0) return intervalMs;
  // 2^(failures-1) stops growing long before it matters: 2^20 intervals is far past a day.
  const base = Math.min(BACKOFF_MAX_MS, intervalMs * 2 ** Math.min(failures - 1, 20));
  const jittered = base * (1 - JITTER + 2 * JITTER * random);
  return Math.round(Math.max(intervalMs, Math.min(BACKOFF_MAX_MS, jittered)));
}

/** True when a source failing since `failingSince` has failed long enough to be paused. */
export function shouldPause(failingSince: Date, now: Date): boolean {
  return now.getTime() - failingSince.getTime() >= PAUSE_AFTER_FAILING_MS;
}

/** How long a queued source stays claimed: a poll holding 1,000 sources works through them within it. */
export const CLAIM_MS = HOUR_MS / 2;
