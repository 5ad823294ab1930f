// The analytics rollups as a process of their own (rollup-process.ts starts it on PostgreSQL, with an
// IPC channel and DATABASE_URL set). It opens its own connection, runs the jobs it is sent one after
// another ({ id, job, now }), answers each ({ id, error? }), and exits when the server closes the
// channel (after a minute without a job, or when it stops). Built beside the server as dist/server/rollup-job.js.
import { openDatabase, type Database } from '../../db/client';
import { atLowestPriority } from '../../lib/low-priority';
import type { RollupReply, RollupRequest } from './rollup-process';
import { runRollupJob } from './rollups-service';

// Started under SCHED_IDLE where chrt exists; the threads Node starts later are moved too.
atLowestPriority();
const databaseUrl = process.env.DATABASE_URL ?? '';
let database: Promise<Database> | undefined;
let queue: Promise<unknown> = Promise.resolve();

async function stop(): Promise<never> {
  await (await database?.catch(() => undefined))?.close().catch(() => undefined);
  process.exit(0);
}

process.on('message', (request: RollupRequest) => {
  queue = queue.then(async () => {
    let reply: RollupReply;
    try {
      database ??= openDatabase({ databaseUrl });
      await runRollupJob((await database).db, request.job, new Date(request.now));
      reply = { id: request.id };
    } catch (err) {
      reply = { id: request.id, error: err instanceof Error ? (err.stack ?? err.message) : String(err) };
      // A connection that failed to open is tried again by the next job.
      if (database && !(await database.then(() => true).catch(() => false))) database = undefined;
    }
    // A server that has gone no longer waits for the answer.
    if (process.connected) process.send?.(reply);
  });
});
// The jobs sent before are done first.
process.on('disconnect', () => void queue.then(stop));
