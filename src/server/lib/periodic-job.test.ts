import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../db/client';
import { claimScheduledRun } from './periodic-job';

describe('claimScheduledRun: one run per period across instances', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openDatabase({});
  }, 60_000);
  afterAll(async () => database.close());

  it('gives a period to exactly one of several callers, then to whoever ticks once it has passed', async () => {
    const t0 = new Date('2026-11-26T10:00:00Z');
    const at = (ms: number) => new Date(t0.getTime() + ms);
    const claims = await Promise.all([1, 2, 3].map(() => claimScheduledRun(database.db, 'job a', 60_000, t0)));
    expect(claims.filter(Boolean)).toHaveLength(1);
    // Half a period later nobody runs it; a timer that fires a little early at the next period does.
    expect(await claimScheduledRun(database.db, 'job a', 60_000, at(30_000))).toBe(false);
    expect(await claimScheduledRun(database.db, 'job a', 60_000, at(59_000))).toBe(true);
    expect(await claimScheduledRun(database.db, 'job a', 60_000, at(60_000))).toBe(false);
    // An instance that stopped ticking leaves the next period to the others.
    expect(await claimScheduledRun(database.db, 'job a', 60_000, at(200_000))).toBe(true);
    // Jobs are claimed independently.
    expect(await claimScheduledRun(database.db, 'job b', 60_000, at(30_000))).toBe(true);
  });
});
