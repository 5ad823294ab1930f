import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client';
import { type Beat, deleteLiveSessions, insertActivity, recordBeats } from './visitors-repository';

/** How long heartbeats gather before they are written together. */
export const FLUSH_EVERY_MS = 1000;
/** A batch this large is written at once, without waiting for the timer. */
const BATCH_MAX = 4000;
/**
 * Rows per statement. On PGlite a statement runs on the server's own thread, so a second's 560 beats
 * in one upsert held every request for ~100 ms; statements of this size, with the event loop let
 * through between them, keep each pause to a few milliseconds (p99 of a heartbeat < 50 ms).
 */
const ROWS_PER_STATEMENT = 100;
/** Beyond this many waiting visitors (the database is away), new beats are dropped until a write succeeds. */
const BUFFER_MAX = 50_000;

/**
 * Heartbeats are answered at once and written a second later, all of the instance's visitors in one
 * multi-row upsert (docs/decisions/0018-live-monitor-shop-submissions.md): 50,000 visitors beating every
 * 90 s are one statement a second, not 560. A visitor's later beat in the same second replaces the earlier.
 */
export class HeartbeatBuffer {
  private beats = new Map<string, Beat>();
  private retired = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();
  private dropped = 0;

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Queues a beat; `retire` names an anonymous row this visitor leaves (they signed in). */
  add(beat: Beat, retire?: string): void {
    if (this.beats.size >= BUFFER_MAX && !this.beats.has(beat.key)) {
      this.dropped += 1;
      return;
    }
    this.beats.set(beat.key, beat);
    if (retire) this.retired.add(retire);
    if (this.beats.size >= BATCH_MAX) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), FLUSH_EVERY_MS);
  }

  /** Writes everything queued so far; resolves when it is in the database (tests, shutdown). */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const run = this.flushing.then(() => this.write());
    this.flushing = run.catch(() => undefined);
    return run;
  }

  private async write(): Promise<void> {
    if (!this.beats.size && !this.retired.size) return;
    const beats = [...this.beats.values()];
    const retired = [...this.retired];
    this.beats = new Map();
    this.retired = new Set();
    try {
      for (let i = 0; i < beats.length; i += ROWS_PER_STATEMENT) {
        const entered = await recordBeats(this.db, beats.slice(i, i + ROWS_PER_STATEMENT));
        await insertActivity(
          this.db,
          entered.flatMap((e) => (e.userId ? [{ userId: e.userId, action: e.newVisit ? 'arrived on' : 'viewed', page: e.page, at: e.at }] : [])),
        );
        // Let waiting requests in before the next statement (awaiting the query alone does not reach I/O).
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
      await deleteLiveSessions(this.db, retired);
      if (this.dropped) {
        this.log.warn({ dropped: this.dropped }, 'heartbeats dropped while the live monitor could not write');
        this.dropped = 0;
      }
    } catch (err) {
      // Heartbeats are soft state: the next beat of each visitor (90 s) writes them again.
      this.log.warn({ err, beats: beats.length }, 'could not write heartbeats');
    }
  }
}
