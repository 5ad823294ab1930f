import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/client';
import { runInBackground } from '../db/lanes';
import { scheduledRuns } from '../db/schema';

/**
 * Claims this period's run of the job `name` for the calling instance: true when the job was due
 * (its next run time had passed, or it never ran) and this call moved it `everyMs` ahead. One atomic
 * statement, so of several instances ticking at once exactly one gets true. The next run time is
 * set a little short of a whole period, so a timer that fires a few milliseconds early on the
 * instance that ran last time still finds the job due.
 */
export async function claimScheduledRun(db: Db, name: string, everyMs: number, now: Date = new Date()): Promise<boolean> {
  const next = new Date(now.getTime() + Math.max(0, everyMs - Math.min(everyMs / 10, 5_000)));
  const rows = await db
    .insert(scheduledRuns)
    .values({ name, nextRunAt: next })
    .onConflictDoUpdate({
      target: scheduledRuns.name,
      set: { nextRunAt: next },
      setWhere: sql`${scheduledRuns.nextRunAt} <= ${now.toISOString()}::timestamptz`,
    })
    .returning({ name: scheduledRuns.name });
  return rows.length > 0;
}

/** The next run time of a job that runs once in a database's life: never again. */
const NEVER_AGAIN = new Date('9999-12-31T00:00:00Z');

/**
 * Claims a job that runs once in a database's life (the demo seed): true for the first caller only,
 * ever, on every instance and after every restart. Run it in the transaction that does the job, so a
 * crash before the job's writes commit leaves the claim untaken too.
 */
export async function claimOneTimeRun(db: Db, name: string): Promise<boolean> {
  const rows = await db.insert(scheduledRuns).values({ name, nextRunAt: NEVER_AGAIN }).onConflictDoNothing().returning({ name: scheduledRuns.name });
  return rows.length > 0;
}

export interface PeriodicJob {
  /** Stable name: the claim's key across instances, and the log's label. */
  name: string;
  everyMs: number;
  run: () => Promise<unknown>;
}

/**
 * Runs a job every `everyMs` across all instances together: each instance ticks, the one that claims
 * the period (claimScheduledRun) runs it. Only while background jobs are on (tests that drive time
 * themselves turn them off), from ready until close. A failure is logged and the job runs again next
 * period; the timer never keeps the process alive.
 */
export function runPeriodically(app: FastifyInstance, job: PeriodicJob): void {
  if (!app.config.backgroundJobs) return;
  let timer: NodeJS.Timeout | undefined;
  const tick = async () => {
    // Every periodic job is background work: listeners' statements go first (db/lanes.ts).
    await runInBackground(async () => {
      if (await claimScheduledRun(app.database.db, job.name, job.everyMs)) await job.run();
    });
  };
  app.addHook('onReady', async () => {
    timer = setInterval(() => void tick().catch((err: unknown) => app.log.warn({ err }, `${job.name} failed; will retry`)), job.everyMs);
    timer.unref();
  });
  app.addHook('onClose', async () => clearInterval(timer));
}
