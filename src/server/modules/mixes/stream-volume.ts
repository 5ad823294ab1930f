import type { Db } from '../../db/client';
import { addStreamedBytes, streamedBytes } from './mixes-repository';

/** How long this instance trusts its last read of a member's day (other instances' bytes arrive by then). */
const REREAD_MS = 10_000;
/** Bytes sent here are written to the database this often (one atomic add per member and day). */
const FLUSH_MS = 2_000;

interface Tally {
  userId: string;
  day: Date;
  /** The database's count at the last read, plus what this instance has written since. */
  stored: number;
  /** Sent here, not yet written. */
  pending: number;
  /** Bytes of answers in flight here, reserved when each was admitted and not yet sent. */
  reserved: number;
  /** Answers in flight here. */
  inFlight: number;
  readAt: number;
}

/** Media answers one member may have in flight at once (per instance). */
export const MAX_MEDIA_ANSWERS_IN_FLIGHT = 3;

/** An admitted answer's hold on the volume: `end(sent)` gives back what it did not send (once). */
export interface VolumeReservation {
  end(sentBytes: number): void;
}

/**
 * Members' daily mix-streaming volume as this instance sees it. Every Range request of a player checks
 * it, so it is kept in memory: read from the database at most every REREAD_MS per member, and the
 * bytes sent here are added (atomically, one upsert per member and day) every FLUSH_MS rather than
 * once per answer. An instance's own bytes count at once; another instance's within REREAD_MS + FLUSH_MS.
 */
export class StreamVolume {
  private readonly tallies = new Map<string, Tally>();
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly db: Db) {}

  /** Bytes the member has streamed on `day` (a Dublin day's start). */
  async used(userId: string, day: Date, now = Date.now()): Promise<number> {
    const tally = this.tally(userId, day);
    if (now - tally.readAt > REREAD_MS) {
      const flushedBefore = tally.stored;
      const stored = await streamedBytes(this.db, userId, day);
      // A flush that finished during the read is already in `stored` either way.
      tally.stored = Math.max(stored, flushedBefore);
      tally.readAt = now;
    }
    return tally.stored + tally.pending + tally.reserved;
  }

  /**
   * Admits an answer of `bytes` to the member when their volume (counted, pending and reserved by the
   * answers in flight) is still under `limit` and fewer than MAX_MEDIA_ANSWERS_IN_FLIGHT of theirs are
   * in flight; the check and the reservation are one synchronous step, so parallel requests cannot all
   * pass on the same reading. An admitted answer may pass the limit by its own size, never by more.
   */
  async reserve(userId: string, day: Date, bytes: number, limit: number, now = Date.now()): Promise<VolumeReservation | 'over' | 'busy'> {
    await this.used(userId, day, now);
    const tally = this.tally(userId, day);
    if (tally.inFlight >= MAX_MEDIA_ANSWERS_IN_FLIGHT) return 'busy';
    if (tally.stored + tally.pending + tally.reserved >= limit) return 'over';
    tally.reserved += bytes;
    tally.inFlight += 1;
    let ended = false;
    return {
      end: (sentBytes: number) => {
        if (ended) return;
        ended = true;
        tally.reserved -= bytes;
        tally.inFlight -= 1;
        // A tally with answers in flight is never dropped by a flush, so this is the same one.
        this.add(userId, day, Math.min(bytes, Math.max(0, sentBytes)));
      },
    };
  }

  /** Counts bytes sent to the member on `day`; written to the database within FLUSH_MS. */
  add(userId: string, day: Date, bytes: number): void {
    if (bytes <= 0) return;
    this.tally(userId, day).pending += bytes;
    this.timer ??= setTimeout(() => void this.flush(), FLUSH_MS).unref();
  }

  /** Writes every pending count (also on shutdown). A failed write keeps its bytes for the next flush. */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const now = Date.now();
    await Promise.all(
      [...this.tallies.entries()].map(async ([key, tally]) => {
        const bytes = tally.pending;
        if (bytes === 0) {
          // Nothing to write, nothing in flight and not read lately: forget the member.
          if (now - tally.readAt > REREAD_MS && tally.inFlight === 0) this.tallies.delete(key);
          return;
        }
        tally.pending -= bytes;
        tally.stored += bytes;
        try {
          await addStreamedBytes(this.db, tally.userId, tally.day, bytes);
        } catch (err) {
          tally.pending += bytes;
          tally.stored -= bytes;
          this.timer ??= setTimeout(() => void this.flush(), FLUSH_MS).unref();
          throw err;
        }
      }),
    );
    if ([...this.tallies.values()].some((t) => t.pending > 0)) this.timer ??= setTimeout(() => void this.flush(), FLUSH_MS).unref();
  }

  private keyOf(userId: string, day: Date): string {
    return `${userId}|${day.getTime()}`;
  }

  private tally(userId: string, day: Date): Tally {
    const key = this.keyOf(userId, day);
    let tally = this.tallies.get(key);
    if (!tally) {
      tally = { userId, day, stored: 0, pending: 0, reserved: 0, inFlight: 0, readAt: -Infinity };
      this.tallies.set(key, tally);
    }
    return tally;
  }
}
