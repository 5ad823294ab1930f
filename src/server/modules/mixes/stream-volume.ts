import { randomUUID } from 'node:crypto';
import { MINUTE_MS } from '../../../contracts/time';
import type { Db } from '../../db/client';
import { admitStreamAnswer, endStreamAnswer, streamDay, streamedBytes } from './mixes-repository';

/** Media answers one member may have in flight at once, across every instance. */
export const MAX_MEDIA_ANSWERS_IN_FLIGHT = 3;

/**
 * An answer admitted this long ago no longer counts in flight, ended or not: an instance that stopped
 * without ending its answers blocks its members for this long at most. A player's open-ended range
 * that outlives it just stops counting (its bytes were reserved at admission either way).
 */
export const MEDIA_ANSWER_STALE_MS = 5 * MINUTE_MS;

/** An admitted answer's hold on the volume: `end(sent)` gives back what it did not send (once). */
export interface VolumeReservation {
  end(sentBytes: number): void;
}

/**
 * Members' daily mix-streaming volume, held in the database so that every instance sees the same
 * count and the same answers in flight. Two statements per admitted answer: one atomic upsert admits
 * it (reserves its length and records it in flight, only when the day is under the limit and fewer
 * than MAX_MEDIA_ANSWERS_IN_FLIGHT are in flight) and one atomic update ends it (gives back the
 * unsent bytes, drops it from the answers in flight). A refusal costs one more read (which limit).
 */
export class StreamVolume {
  /** Ends still being written, awaited on shutdown. */
  private readonly ending = new Set<Promise<void>>();

  constructor(
    private readonly db: Db,
    private readonly onError: (err: unknown) => void = () => undefined,
  ) {}

  /** Bytes the member has streamed on `day` (a Dublin day's start), with the answers in flight reserved. */
  async used(userId: string, day: Date): Promise<number> {
    return streamedBytes(this.db, userId, day);
  }

  /**
   * Admits an answer of `bytes` to the member when their volume (sent plus reserved by answers in
   * flight on any instance) is still under `limit` and fewer than MAX_MEDIA_ANSWERS_IN_FLIGHT of theirs
   * are in flight; check and reservation are one statement, so parallel requests on any instance
   * cannot all pass on the same reading. An admitted answer may pass the limit by its own size, never
   * by more.
   */
  async reserve(userId: string, day: Date, bytes: number, limit: number): Promise<VolumeReservation | 'over' | 'busy'> {
    if (limit <= 0) return 'over';
    const answerId = randomUUID();
    const admitted = await admitStreamAnswer(this.db, {
      userId,
      day,
      answerId,
      bytes,
      limit,
      maxInFlight: MAX_MEDIA_ANSWERS_IN_FLIGHT,
      staleMs: MEDIA_ANSWER_STALE_MS,
    });
    if (!admitted) {
      const now = await streamDay(this.db, userId, day, MEDIA_ANSWER_STALE_MS);
      return now.bytes >= limit ? 'over' : 'busy';
    }
    let ended = false;
    return {
      end: (sentBytes: number) => {
        if (ended) return;
        ended = true;
        const unsentBytes = bytes - Math.min(bytes, Math.max(0, sentBytes));
        const write = endStreamAnswer(this.db, { userId, day, answerId, unsentBytes }).catch(this.onError);
        this.ending.add(write);
        void write.finally(() => this.ending.delete(write));
      },
    };
  }

  /** Waits for the ends being written (on shutdown, and in tests). */
  async settled(): Promise<void> {
    while (this.ending.size > 0) await Promise.all([...this.ending]);
  }
}
