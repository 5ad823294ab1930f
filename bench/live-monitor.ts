// The live monitor at the spec's scale: 50,000 visitors each beating every 90 s is about
// 560 heartbeats a second. The server runs as `npm start` does (its own process, PGlite under a temp
// DATA_DIR, or PostgreSQL with BENCH_DATABASE_URL) on a database seeded with 50,000 online sessions;
// heartbeats are sent open-loop at that rate for BENCH_LIVE_SECONDS and their latency recorded; a bare
// node:http server under the same schedule is the baseline. Then the admin's live-users read is timed.
// Run alone: `npx tsx bench/live-monitor.ts`; `npm run bench` calls benchLiveMonitor().
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { HEARTBEAT_INTERVAL_MS } from '../src/contracts/live-values';
import { openDatabase } from '../src/server/db/client';
import { freePort } from '../scripts/lib/icecast';
import { benchAdminCookie, startBenchServer, tempDir, waitForHttp, whenRunAlone } from './lib';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const VISITORS = Number(process.env.BENCH_LIVE_VISITORS ?? 50_000);
const MEMBERS = 2_000;
const SECONDS = Number(process.env.BENCH_LIVE_SECONDS ?? 20);
const RATE = Math.round(VISITORS / (HEARTBEAT_INTERVAL_MS / 1000));
const PAGES = ['/', '/dhr1', '/dhr2', '/vip', '/forum', '/shop', '/upload'];
const BUDGET_P99_MS = 50;
const BUDGET_LIVE_USERS_MS = 100;

export interface LiveMonitorEntry {
  name: string;
  visitors: number;
  ratePerS: number;
  sent: number;
  failed: number;
  p50Ms: number;
  p99Ms: number;
  baselineP50Ms: number;
  baselineP99Ms: number;
  /** DHR's p99 over the bare server's p99 under the same schedule. */
  ratio: number;
  liveUsersMedianMs: number;
  liveUsersMaxMs: number;
  database: 'pglite' | 'postgres';
  withinBudget: boolean;
}

const anonId = (i: number) => `bench-visitor-${String(i).padStart(10, '0')}`;
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
const round1 = (n: number) => Math.round(n * 10) / 10;

/**
 * 50,000 online sessions (2,000 of them members) and an admin with a session; returns the admin's cookie.
 * The seeded beats are dated up to 90 s ahead so every visitor is still online when the server is up.
 */
async function seed(dataDir: string, databaseUrl: string | undefined): Promise<string> {
  const database = await openDatabase({ databaseUrl, pgliteDir: databaseUrl ? undefined : path.join(dataDir, 'db') });
  try {
    const { db } = database;
    await db.execute(sql`DELETE FROM live_sessions`);
    await db.execute(sql`INSERT INTO users (email, username, subscription_tier, subscription_status)
      SELECT 'bench-member-' || g || '@example.test', 'benchmember' || g, (ARRAY['free','dhr1','dhr2','vip'])[1 + g % 4], 'active'
      FROM generate_series(1, ${MEMBERS}) g ON CONFLICT (email) DO NOTHING`);
    await db.execute(sql`INSERT INTO live_sessions (id, user_id, tier, current_page, country, city, started_at, last_seen_at, page_changed_at, page_views)
      SELECT 'm:' || id, id, subscription_tier, '/dhr1', 'IE', 'Dublin', now() - interval '20 minutes', now() + interval '90 seconds' - (random() * interval '60 seconds'), now() - interval '5 minutes', 3
      FROM users WHERE email LIKE 'bench-member-%'`);
    await db.execute(sql`INSERT INTO live_sessions (id, user_id, current_page, country, city, started_at, last_seen_at, page_changed_at, page_views)
      SELECT 'a:bench-visitor-' || lpad(g::text, 10, '0'), NULL, '/', 'IE', 'Dublin', now() - interval '10 minutes', now() + interval '90 seconds' - (random() * interval '60 seconds'), now() - interval '2 minutes', 2
      FROM generate_series(0, ${VISITORS - MEMBERS - 1}) g`);
    return await benchAdminCookie(db, 'bench-admin@example.test', 'benchadmin');
  } finally {
    await database.close();
  }
}

/** Sends `rate` requests a second for `seconds`, open-loop (a slow answer does not slow the schedule). */
async function openLoop(url: string, rate: number, seconds: number, body: (n: number) => string): Promise<{ times: number[]; failed: number; sent: number }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const times: number[] = [];
  let failed = 0;
  let sent = 0;
  const total = rate * seconds;
  const started = performance.now();
  const inflight = new Set<Promise<void>>();
  await new Promise<void>((resolve) => {
    const tick = setInterval(() => {
      const due = Math.min(total, Math.floor(((performance.now() - started) / 1000) * rate));
      while (sent < due) {
        const payload = body(sent);
        sent += 1;
        const t0 = performance.now();
        const p = new Promise<void>((done) => {
          const req = http.request(
            url,
            { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } },
            (res) => {
              res.resume();
              res.on('end', () => {
                if (res.statusCode === 200) times.push(performance.now() - t0);
                else failed += 1;
                done();
              });
            },
          );
          req.on('error', () => {
            failed += 1;
            done();
          });
          req.end(payload);
        });
        inflight.add(p);
        void p.then(() => inflight.delete(p));
      }
      if (sent >= total) {
        clearInterval(tick);
        resolve();
      }
    }, 5);
  });
  await Promise.all([...inflight]);
  agent.destroy();
  return { times: times.sort((a, b) => a - b), failed, sent };
}

export async function benchLiveMonitor(): Promise<LiveMonitorEntry> {
  const databaseUrl = process.env.BENCH_DATABASE_URL;
  const dataDir = tempDir('dhr-bench-live-');
  const cookie = await seed(dataDir, databaseUrl);
  const port = await freePort();
  const server = startBenchServer(root, port, dataDir, databaseUrl);
  const bare = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      res.end('{"ok":true}');
    });
  });
  try {
    const url = `http://127.0.0.1:${port}`;
    await waitForHttp(`${url}/api/health`);
    await new Promise<void>((r) => bare.listen(0, '127.0.0.1', r));
    const bareUrl = `http://127.0.0.1:${(bare.address() as { port: number }).port}/`;
    // Visitor n beats as visitor n mod 48,000 (anonymous; members beat with their session, measured apart).
    const beat = (n: number) => JSON.stringify({ page: PAGES[n % PAGES.length], anonymousId: anonId(n % (VISITORS - MEMBERS)) });

    await openLoop(`${url}/api/admin/heartbeat`, RATE, 2, beat); // warm-up (geo tables, JIT)
    const baseline = await openLoop(bareUrl, RATE, SECONDS, beat);
    const run = await openLoop(`${url}/api/admin/heartbeat`, RATE, SECONDS, beat);

    const liveTimes: number[] = [];
    for (let i = 0; i < 12; i++) {
      const t0 = performance.now();
      const res = await fetch(`${url}/api/admin/live-users`, { headers: { cookie } });
      const body = (await res.json()) as { onlineNow?: number };
      if (!res.ok || (body.onlineNow ?? 0) < VISITORS * 0.9) throw new Error(`live-users answered ${res.status} with ${body.onlineNow} online`);
      if (i >= 2) liveTimes.push(performance.now() - t0);
    }
    liveTimes.sort((a, b) => a - b);

    const p99 = round1(percentile(run.times, 99));
    const baseP99 = round1(percentile(baseline.times, 99));
    const entry: LiveMonitorEntry = {
      name: `Live monitor: heartbeats of ${VISITORS.toLocaleString('en-IE')} visitors (${RATE}/s) and the live-users read`,
      visitors: VISITORS,
      ratePerS: RATE,
      sent: run.sent,
      failed: run.failed,
      p50Ms: round1(percentile(run.times, 50)),
      p99Ms: p99,
      baselineP50Ms: round1(percentile(baseline.times, 50)),
      baselineP99Ms: baseP99,
      ratio: round1(p99 / Math.max(baseP99, 0.1)),
      liveUsersMedianMs: round1(percentile(liveTimes, 50)),
      liveUsersMaxMs: round1(liveTimes.at(-1) ?? 0),
      database: databaseUrl ? 'postgres' : 'pglite',
      withinBudget: p99 < BUDGET_P99_MS && run.failed === 0 && (liveTimes.at(-1) ?? Infinity) < BUDGET_LIVE_USERS_MS,
    };
    console.log(
      `live-monitor: heartbeat p50 ${entry.p50Ms} ms, p99 ${entry.p99Ms} ms at ${RATE}/s (bare node:http p99 ${baseP99} ms, ratio ${entry.ratio}), ` +
        `${run.failed} failed; live-users with ${VISITORS} sessions median ${entry.liveUsersMedianMs} ms, max ${entry.liveUsersMaxMs} ms; ` +
        `budgets (p99 < ${BUDGET_P99_MS} ms, live-users < ${BUDGET_LIVE_USERS_MS} ms): ${entry.withinBudget ? 'met' : 'MISSED'}`,
    );
    return entry;
  } finally {
    await new Promise((r) => bare.close(r));
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

whenRunAlone(import.meta.url, benchLiveMonitor);
