// Bulk runs at scale: the preview (dry run) of a platform sync over 100,000 members of whom 2,000
// have a Buy Me a Coffee record, on PGlite in memory, the platform served by a loopback stand-in
// speaking BMC's documented API. Target: under 5 s. The members are written with one SQL statement
// per table (a bench fixture, like bench/admin-scale.ts), then the preview runs over real HTTP twice;
// the second run is recorded. Run alone: `npx tsx bench/sync-preview.ts`; `npm run bench` calls it.
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { sql } from 'drizzle-orm';
import { buildApp } from '../src/server/app';
import { loadConfig } from '../src/server/config';
import { users } from '../src/server/db/schema';
import { createSession, SESSION_COOKIE } from '../src/server/lib/sessions';
import { bmcSubscription, startBmcStub } from '../tests/support/platform-stubs';
import { whenRunAlone } from './lib';

const MEMBERS = 100_000;
const RECORDS = 2_000;
/** Members the station had as BMC supporters who are no longer listed: the preview's losses. */
const LAPSED = 1_000;

export interface SyncPreviewEntry {
  name: string;
  wallMs: number;
  firstRunMs: number;
  members: number;
  platformRecords: number;
  loseAccess: number;
  targetMs: number;
  cpus: number;
  loadAverage: number[];
}

export async function benchSyncPreview(): Promise<SyncPreviewEntry> {
  const token = 'bench-bmc-token';
  const emails = Array.from({ length: RECORDS }, (_, i) => `member${i + 1}@bench.test`);
  const bmc = await startBmcStub({ token, pageSize: 500, subscriptions: emails.map((email) => bmcSubscription({ email, price: '5.000' })) });
  const config = loadConfig(
    { LOG_LEVEL: 'silent', SEED_DEMO: 'false', BMC_API_URL: bmc.url, BMC_ACCESS_TOKEN: token },
    { backgroundJobs: false, memoryDb: true },
  );
  const app = await buildApp(config, { logger: false });
  try {
    const db = app.database.db;
    // Members 1..2,000 are listed; 2,001..3,000 were BMC supporters and are not any more; the rest
    // are free, admin-managed or Patreon members the BMC listing does not concern.
    await db.execute(sql`
      insert into users (email, username, subscription_tier, subscription_status, subscription_source, subscription_expiry, pledge_amount_cents)
      select 'member' || g || '@bench.test', 'm' || g,
        case when g <= ${RECORDS + LAPSED} then 'dhr2' else (array['free','dhr1','dhr2','vip'])[1 + g % 4] end,
        case when g <= ${RECORDS + LAPSED} then 'active' else (array['active','inactive','cancelled','expired'])[1 + g % 4] end,
        case when g <= ${RECORDS + LAPSED} then 'buymeacoffee' else (array['admin','patreon'])[1 + g % 2] end,
        case when g % 3 = 0 then now() + interval '60 days' else null end,
        case when g <= ${RECORDS + LAPSED} then 500 else 0 end
      from generate_series(1, ${MEMBERS}) g`);
    await db.execute(sql`
      insert into member_grants (user_id, source, tier, status, expiry, pledge_amount_cents)
      select id, subscription_source, subscription_tier, subscription_status, subscription_expiry, pledge_amount_cents
      from users where subscription_tier <> 'free'`);
    const [admin] = await db
      .insert(users)
      .values({ email: `bench-admin-${randomBytes(4).toString('hex')}@example.test`, username: 'bench-admin', isAdmin: true })
      .returning();
    if (!admin) throw new Error('admin insert failed');
    const cookie = `${SESSION_COOKIE}=${await createSession(db, admin.id)}`;
    const preview = async () => {
      const started = performance.now();
      const res = await app.inject({ method: 'POST', url: '/api/admin/sync-subscriptions', headers: { cookie }, payload: { dryRun: true } });
      const ms = performance.now() - started;
      if (res.statusCode !== 200) throw new Error(`preview answered ${res.statusCode}: ${res.body.slice(0, 300)}`);
      // Both losses: access ended now, and subscriptions ended with access kept to a date.
      const { counts } = (res.json() as { plan: { counts: { loseAccess: number; stopPaying: number } } }).plan;
      return { ms, loseAccess: counts.loseAccess + counts.stopPaying };
    };
    const first = await preview();
    const second = await preview();
    return {
      name: `sync preview (dry run), ${MEMBERS.toLocaleString('en-IE')} members, ${RECORDS.toLocaleString('en-IE')} platform records (PGlite)`,
      wallMs: Math.round(second.ms),
      firstRunMs: Math.round(first.ms),
      members: MEMBERS,
      platformRecords: RECORDS,
      loseAccess: second.loseAccess,
      targetMs: 5_000,
      cpus: os.cpus().length,
      loadAverage: os.loadavg().map((l) => Math.round(l * 100) / 100),
    };
  } finally {
    await app.close();
    await bmc.close();
  }
}

whenRunAlone(import.meta.url, benchSyncPreview);
