import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client';
import { type Beat, deleteLiveSessions, insertActivity, recordBeats } from './live-repository';

/** How long heartbeats gather before they are written together. */
export const FLUSH_EVERY_MS = 1000;
/** A batch this large is written at once (one statement stays well under PostgreSQL's parameter limit). */
const BATCH_MAX = 4000;
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
      for (let i = 0; i < beats.length; i += BATCH_MAX) {
        const entered = await recordBeats(this.db, beats.slice(i, i + BATCH_MAX));
        await insertActivity(
          this.db,
          entered.flatMap((e) => (e.userId ? [{ userId: e.userId, action: e.newVisit ? 'arrived on' : 'viewed', page: e.page, at: e.at }] : [])),
        );
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
