import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * When each periodic job may next run, across every instance: an instance runs a job only when it
 * moves this time forward (one atomic update), so N instances run each job once per period, and a
 * dead instance's turn is taken by the next one that ticks.
 * @owner src/server/lib/periodic-job.ts
 */
export const scheduledRuns = pgTable('scheduled_runs', {
  name: text('name').primaryKey(),
  nextRunAt: timestamp('next_run_at', { withTimezone: true }).notNull(),
});
