import { AsyncLocalStorage } from 'node:async_hooks';

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
  return lane.run('background', fn);
}

/** The lane of the calling code: background inside runInBackground, foreground everywhere else. */
export function currentLane(): Lane {
  return lane.getStore() ?? 'foreground';
}
