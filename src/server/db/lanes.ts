import { AsyncLocalStorage } from 'node:async_hooks';
import { BACKGROUND_SHARE, LISTENED_TO_WITHIN_MS, listenedToWithin, listenersAnswered, stopCountingCurrentRequest } from '../lib/event-loop';

export { BACKGROUND_SHARE };

/**
 * Which work a database statement is for: a listener's or operator's request (`foreground`, the
 * default) or a job (`background`: bulk runs, the sync, news ingest, periodic jobs). The database
 * client reads it when the statement is sent: on PGlite waiting foreground statements go before
 * background ones (db/pglite-thread.ts), on PostgreSQL background statements use a small pool of
 * their own (db/client.ts), so a job never holds every connection
 * (docs/decisions/0034-background-work-off-the-request-path.md).
 */
export type Lane = 'foreground' | 'background';

const lane = new AsyncLocalStorage<Lane>();

/** Runs `fn` (and everything it starts) in the background lane. */
export function runInBackground<T>(fn: () => Promise<T>): Promise<T> {
  // A request that waits for this work is no longer one the work should wait for.
  stopCountingCurrentRequest();
  return lane.run('background', fn);
}

/** The lane of the calling code: background inside runInBackground, foreground everywhere else. */
export function currentLane(): Lane {
  return lane.getStore() ?? 'foreground';
}

/** The longest rest after one unit: a long transaction does not stall its job for as long again. */
const BACKGROUND_MAX_REST_MS = 500;

/** Paces the background lane's units (BACKGROUND_SHARE); one per database, shared by all its jobs. */
export class BackgroundPacer {
  private nextStart = 0;

  constructor(
    private readonly share = BACKGROUND_SHARE,
    private readonly maxRestMs = BACKGROUND_MAX_REST_MS,
  ) {}

  /** Resolves once the lane has rested after its last unit and no listener's request is being answered. */
  async ready(): Promise<void> {
    for (let wait = this.nextStart - performance.now(); wait > 0; wait = this.nextStart - performance.now()) {
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
    await listenersAnswered();
  }

  /**
   * A unit that started at `startedAt` (performance.now()) has ended: while the station is being
   * listened to, the lane rests in proportion. With no listener's request in the last second there
   * is nobody to leave the cores to, and the job goes at full speed
   * (docs/decisions/0037-background-work-rests-while-listened-to.md).
   */
  ended(startedAt: number): void {
    if (!listenedToWithin(LISTENED_TO_WITHIN_MS)) return;
    const end = performance.now();
    const rest = Math.min(this.maxRestMs, (end - startedAt) * (1 / this.share - 1));
    this.nextStart = Math.max(this.nextStart, end + rest);
  }

  /** Runs one unit when the lane has rested, and records it. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    await this.ready();
    const started = performance.now();
    try {
      return await work();
    } finally {
      this.ended(started);
    }
  }
}
