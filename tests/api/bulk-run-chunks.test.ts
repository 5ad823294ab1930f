import { like, sql } from 'drizzle-orm';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { users } from '../../src/server/db/schema';
import { BULK_CHUNK_MEMBERS, BULK_CHUNK_MEMBERS_WHILE_LISTENED_TO } from '../../src/server/modules/platforms/bulk-run-chunks';
import { createTestApp, expectServerErrors, memberWithRole } from '../support/app';
import { bmcSubscription, startBmcStub } from '../support/platform-stubs';

const BMC_TOKEN = 'bmc-token';
const HEADER = 'email,firstName,lastName,subscriptionTier,subscriptionStatus,subscriptionExpiry,pledgeAmount,source';

/**
 * Bulk runs write in short transactions (docs/decisions/0023-member-grants-and-bulk-runs.md): on
 * PGlite every other query waits while one is open, so a run of 1,000 members must let listeners'
 * requests through between its chunks; a run stopped part-way is recorded as interrupted, can be
 * reverted, and running it again applies the rest.
 */
describe('bulk runs in short transactions', async () => {
  const bmc = await startBmcStub({ token: BMC_TOKEN, pageSize: 100 });
  afterAll(() => bmc.close());
  const app = await createTestApp({ BMC_API_URL: bmc.url, BMC_ACCESS_TOKEN: BMC_TOKEN });
  const db = app.database.db;
  const admin = await memberWithRole(app, 'admin');
  const as = (method: 'GET' | 'POST', url: string, payload?: unknown) =>
    app.inject({ method, url, headers: { cookie: admin.cookie }, ...(payload === undefined ? {} : { payload: payload as object }) });
  const tagged = (t: string) =>
    db
      .select()
      .from(users)
      .where(like(users.email, `%-${t}@example.test`));
  const runOf = async (id: number) => (await as('GET', '/api/admin/sync-runs?webhooks=false')).json().find((r: { id: number }) => r.id === id);

  /**
   * Watches the transactions a bulk run opens for its chunks (writeInChunks): counts them, and runs
   * `onChunk` as each one opens (it may throw, like a process stopping there).
   */
  const watchChunks = (onChunk: (n: number) => void = () => undefined) => {
    const original = db.transaction.bind(db);
    let chunks = 0;
    vi.spyOn(db, 'transaction').mockImplementation(((fn: Parameters<typeof db.transaction>[0], config?: Parameters<typeof db.transaction>[1]) => {
      if (!new Error().stack?.includes('writeInChunks')) return original(fn, config);
      chunks++;
      const n = chunks;
      return original((tx) => {
        onChunk(n);
        return fn(tx);
      }, config);
    }) as typeof db.transaction);
    return { count: () => chunks };
  };
  afterEach(() => vi.restoreAllMocks());

  const t = Date.now().toString(36);
  const fans = Array.from({ length: 1000 }, (_, i) => `fan${i}-${t}@example.test`);

  it('imports 1,000 members in several short transactions: a query issued mid-run answers before the run ends', async () => {
    const events: string[] = [];
    let asked: Promise<unknown> | null = null;
    const watch = watchChunks((n) => {
      // A listener's request while the third chunk is being written: it waits for that chunk only.
      if (n === 3) asked = db.execute(sql`select 1`).then(() => events.push('query answered'));
    });
    const csv = [HEADER, ...fans.map((email, i) => `${email},Fan,${i},DHR1,active,,,`)].join('\n');
    const res = await as('POST', '/api/admin/bulk-import', { csvContent: csv });
    events.push('import done');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ imported: 1000, updated: 0, errors: [] });
    expect(watch.count()).toBe(Math.ceil(1000 / BULK_CHUNK_MEMBERS));
    await asked;
    expect(events).toEqual(['query answered', 'import done']);
    expect(await runOf(res.json().runId)).toMatchObject({ state: 'done', updated: 1000, revertible: true });
    expect((await tagged(t)).filter((u) => u.subscriptionTier === 'dhr1')).toHaveLength(1000);
  });

  it("writes smaller chunks while listeners' requests keep arriving, and the usual ones once they stop", async () => {
    const u = `${t}l`;
    const csv = (n: number, tier: string) =>
      [HEADER, ...Array.from({ length: n }, (_, i) => `heard${i}-${u}@example.test,Heard,${i},${tier},active,,,`)].join('\n');
    // A listener's request as each chunk opens: the station is being listened to throughout the run.
    const listened = watchChunks(() => void app.inject({ url: '/api/channels' }));
    await app.inject({ url: '/api/channels' });
    const first = await as('POST', '/api/admin/bulk-import', { csvContent: csv(200, 'DHR1') });
    expect(first.statusCode, first.body).toBe(200);
    expect(listened.count()).toBe(Math.ceil(200 / BULK_CHUNK_MEMBERS_WHILE_LISTENED_TO));
    vi.restoreAllMocks();
    // A second past the last request, nobody is listening: the usual chunks.
    await new Promise((r) => setTimeout(r, 1100));
    const quiet = watchChunks();
    const second = await as('POST', '/api/admin/bulk-import', { csvContent: csv(200, 'DHR2') });
    expect(second.statusCode, second.body).toBe(200);
    expect(quiet.count()).toBe(Math.ceil(200 / BULK_CHUNK_MEMBERS));
    expect((await tagged(u)).filter((m) => m.subscriptionTier === 'dhr2')).toHaveLength(200);
  });

  it('syncs 1,000 listed supporters in several short transactions', async () => {
    bmc.state.items = fans.map((email) => bmcSubscription({ email, price: '10.000' }));
    const watch = watchChunks();
    const res = await as('POST', '/api/admin/sync-subscriptions', {});
    expect(res.statusCode, res.body).toBe(200);
    expect(watch.count()).toBeGreaterThanOrEqual(Math.ceil(1000 / BULK_CHUNK_MEMBERS));
    expect(await runOf(res.json().runId)).toMatchObject({ state: 'done', trigger: 'manual' });
    // Each member now holds the Buy Me a Coffee grant too (the best one decides their access).
    const rows = await db.execute(sql`select count(*)::int as n from member_grants where source = 'buymeacoffee'`);
    expect((rows as unknown as { rows: { n: number }[] }).rows[0]?.n).toBe(1000);
  });

  it('records an import stopped after its first chunk as interrupted, reverts what it applied, and completes it when run again', async () => {
    // The stop is simulated by a chunk that throws: the server logs it and answers 500.
    expectServerErrors(app, /simulated stop|answered 500/);
    const u = `${t}x`;
    const csv = [HEADER, ...Array.from({ length: 400 }, (_, i) => `late${i}-${u}@example.test,Late,${i},VIP,active,,,`)].join('\n');
    watchChunks((n) => {
      if (n === 2) throw new Error('simulated stop');
    });
    const stopped = await as('POST', '/api/admin/bulk-import', { csvContent: csv });
    expect(stopped.statusCode).toBe(500);
    vi.restoreAllMocks();
    // The first chunk stays written; the rest is not.
    expect(await tagged(u)).toHaveLength(BULK_CHUNK_MEMBERS);
    const runs = (await as('GET', '/api/admin/sync-runs?webhooks=false')).json();
    const interrupted = runs.find((r: { trigger: string; state: string }) => r.trigger === 'import' && r.state === 'interrupted');
    expect(interrupted).toMatchObject({ ok: false, updated: BULK_CHUNK_MEMBERS, revertible: true, errors: ['simulated stop'] });

    // Its applied part can be reverted like any run (previewed first: it takes access from the first chunk's members).
    const preview = await as('POST', `/api/admin/sync-runs/${interrupted.id}/revert`, { dryRun: true });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json().plan.counts).toMatchObject({ loseAccess: BULK_CHUNK_MEMBERS });

    // Importing the file again applies the rest; the rows already applied change nothing.
    const again = await as('POST', '/api/admin/bulk-import', { csvContent: csv });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toMatchObject({ imported: 400 - BULK_CHUNK_MEMBERS, updated: 0, skipped: BULK_CHUNK_MEMBERS });
    expect(await runOf(again.json().runId)).toMatchObject({ state: 'done', updated: 400 - BULK_CHUNK_MEMBERS });
    const members = await tagged(u);
    expect(members).toHaveLength(400);
    expect(members.every((m) => m.subscriptionTier === 'vip' && m.subscriptionStatus === 'active')).toBe(true);

    // Reverting the interrupted run puts back only what it applied.
    const planId = (await as('POST', `/api/admin/sync-runs/${interrupted.id}/revert`, { dryRun: true })).json().plan.planId;
    const reverted = await as('POST', `/api/admin/sync-runs/${interrupted.id}/revert`, { confirm: true, planId });
    expect(reverted.statusCode, reverted.body).toBe(200);
    expect(reverted.json()).toMatchObject({ reverted: BULK_CHUNK_MEMBERS, skipped: [] });
    const after = await tagged(u);
    expect(after.filter((m) => m.subscriptionTier === 'free')).toHaveLength(BULK_CHUNK_MEMBERS);
    expect(after.filter((m) => m.subscriptionTier === 'vip')).toHaveLength(400 - BULK_CHUNK_MEMBERS);
    expect(await runOf(interrupted.id)).toMatchObject({ state: 'interrupted', revertible: false, revertedByRun: reverted.json().runId });
  });

  it('shows a run left applying by a process that stopped as interrupted, and a revert of it waits until then', async () => {
    const u = `${t}y`;
    const csv = [HEADER, ...Array.from({ length: 20 }, (_, i) => `gone${i}-${u}@example.test,,,DHR2,active,,,`)].join('\n');
    const res = await as('POST', '/api/admin/bulk-import', { csvContent: csv });
    const runId: number = res.json().runId;
    // As a restart mid-run leaves it: still 'applying', its last chunk written a while ago or just now.
    await db.execute(sql`update sync_runs set state = 'applying', finished_at = now() where id = ${runId}`);
    expect(await runOf(runId)).toMatchObject({ state: 'applying' });
    const busy = await as('POST', `/api/admin/sync-runs/${runId}/revert`, { dryRun: true });
    expect(busy.statusCode).toBe(409);
    expect(busy.json().error.code).toBe('run_applying');
    await db.execute(sql`update sync_runs set finished_at = now() - interval '1 hour' where id = ${runId}`);
    expect(await runOf(runId)).toMatchObject({ state: 'interrupted', revertible: true });
    const planId = (await as('POST', `/api/admin/sync-runs/${runId}/revert`, { dryRun: true })).json().plan.planId;
    const reverted = await as('POST', `/api/admin/sync-runs/${runId}/revert`, { confirm: true, planId });
    expect(reverted.json()).toMatchObject({ reverted: 20 });
    expect((await tagged(u)).every((m) => m.subscriptionTier === 'free')).toBe(true);
  });
});
