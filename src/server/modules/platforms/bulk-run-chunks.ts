import type { Db } from '../../db/client';
import { runInBackground } from '../../db/lanes';
import { LISTENED_TO_WITHIN_MS, listenedToWithin, yieldToListeners } from '../../lib/event-loop';
import { BULK_CHUNK_MEMBERS } from '../members/entitlement-service';
import { advanceSyncRun, markRunInterrupted } from './platforms-repository';

export { BULK_CHUNK_MEMBERS };

/**
 * Members per chunk while listeners' requests are arriving (one in the last second). A request's
 * statement waits for at most the chunk in the database; on PGlite a chunk of 20 members is about
 * 16 ms there, which put a listener's p99 during a 10,000-row import at about 3 times idle. With no
 * one listening, chunks stay at BULK_CHUNK_MEMBERS: fewer transactions, a shorter run.
 */
export const BULK_CHUNK_MEMBERS_WHILE_LISTENED_TO = 8;

function chunkSize(): number {
  return listenedToWithin(LISTENED_TO_WITHIN_MS) ? BULK_CHUNK_MEMBERS_WHILE_LISTENED_TO : BULK_CHUNK_MEMBERS;
}

/** The items in chunks of `size`. */
export function inChunks<T>(items: readonly T[], size = BULK_CHUNK_MEMBERS): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * Writes a run opened 'applying' chunk by chunk, each chunk in its own short transaction that also
 * adds its count to the run (so an interrupted run says what it applied). A chunk that fails marks
 * the run interrupted and rethrows: the chunks before it stay written (their history lines name the
 * run, so it can be reverted), and running the sync or import again applies the rest. Returns the
 * members whose access changed.
 */
export function writeInChunks<T>(db: Db, runId: number, items: readonly T[], write: (tx: Db, chunk: readonly T[]) => Promise<number>): Promise<number> {
  // In the background lane: a listener's statement never waits behind the chunks still to come (db/lanes.ts).
  return runInBackground(() => writeInChunksNow(db, runId, items, write));
}

async function writeInChunksNow<T>(db: Db, runId: number, items: readonly T[], write: (tx: Db, chunk: readonly T[]) => Promise<number>): Promise<number> {
  let updated = 0;
  try {
    for (let at = 0; at < items.length;) {
      await yieldToListeners();
      const chunk = items.slice(at, (at += chunkSize()));
      updated += await db.transaction(async (tx) => {
        const n = await write(tx, chunk);
        await advanceSyncRun(tx, runId, n);
        return n;
      });
    }
  } catch (err) {
    await markRunInterrupted(db, runId, err instanceof Error ? err.message : String(err)).catch(() => undefined);
    throw err;
  }
  return updated;
}
