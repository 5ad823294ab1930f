// Background work against listeners' requests (issue "Nothing an operator or a job does stalls a
// listener"). DHR runs as `npm start` does (its own process; PGlite under a temp DATA_DIR, or
// PostgreSQL at BENCH_DATABASE_URL as well). Four listener requests are sent open-loop, each 10 times a
// second from this process: GET /api/health, GET /api/live-metadata, a member's chat post and a premium
// stream admission (Icecast's listener_add for a dhr1 member's token). Their p99 is measured idle, then
// while each background job runs alone: a platform sync against Patreon and Buy Me a Coffee stand-ins
// that take 8 s to answer with 2,000 records, a 1,000-feed news ingest, a 10,000-row member import, the
// listening copy of a 60-minute mix and a backup. Goal: p99 during each ≤ 2× idle and ≤ 50 ms.
// Run alone: `npx tsx bench/isolation.ts`; `npm run bench -- isolation`.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../src/server/db/client';
import { vipMixes } from '../src/server/db/schema';
import { createSession, SESSION_COOKIE } from '../src/server/lib/sessions';
import { freePort } from '../scripts/lib/icecast';
import { bmcSubscription, patreonMember, startBmcStub, startPatreonStub } from '../tests/support/platform-stubs';
import { benchAdminCookie, startBenchServer, tempDir, waitForHttp, whenRunAlone } from './lib';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PROBE_RATE = 10;
const IDLE_SECONDS = Number(process.env.BENCH_ISOLATION_IDLE_SECONDS ?? 15);
const FEEDS = Number(process.env.BENCH_ISOLATION_FEEDS ?? 1000);
const FEED_ITEMS = 50;
const IMPORT_ROWS = Number(process.env.BENCH_ISOLATION_IMPORT_ROWS ?? 10_000);
const PLATFORM_RECORDS = 2000;
const PLATFORM_DELAY_MS = 8000;
const MIX_SECONDS = Number(process.env.BENCH_ISOLATION_MIX_SECONDS ?? 3600);
const LISTENERS = 200;
const STREAM_KEY = 'bench-isolation-stream-key-0123456789';
const JOB_TIMEOUT_MS = 10 * 60 * 1000;
const GOAL_RATIO = 2;
const GOAL_MS = 50;

type ProbeName = 'health' | 'liveMetadata' | 'chatPost' | 'streamAdmission';
const PROBES: ProbeName[] = ['health', 'liveMetadata', 'chatPost', 'streamAdmission'];

export interface IsolationPhase {
  job: string;
  seconds: number;
  /** p99 in ms of each listener request during the job; `idle` for the baseline phase. */
  p99Ms: Record<ProbeName, number>;
  /** Requests answered with an error (status ≥ 300 or no answer) during the phase, by probe. */
  failed: Record<ProbeName, number>;
  /** The bench process's own event-loop delay (p99, ms) in the phase: what it adds to every time above. */
  benchLoopP99Ms?: number;
  /** The worst probe's p99 over its idle p99. */
  worstRatio?: number;
  withinGoal?: boolean;
  skipped?: string;
}

export interface IsolationEntry {
  name: string;
  database: 'pglite' | 'postgres';
  phases: IsolationPhase[];
  goal: string;
  loadAverage: number[];
  cpus: number;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
const round1 = (n: number) => Math.round(n * 10) / 10;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Fixture {
  admin: string;
  listeners: string[];
  mixId: string;
  tag: string;
}

function feedXml(n: number): string {
  const items = Array.from({ length: FEED_ITEMS }, (_, i) => {
    const date = new Date(Date.UTC(2026, 10, 1) + (n * FEED_ITEMS + i) * 60_000).toUTCString();
    return `<item><title>Feed ${n} story ${i}: deep house &amp; more</title><link>https://feed${n}.example/story/${i}</link><guid>feed-${n}-${i}</guid><pubDate>${date}</pubDate>
<description><![CDATA[<p>Story <b>${i}</b> of feed ${n}. ${'Warm chords, late nights and long mixes. '.repeat(8)}</p>]]></description></item>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>Feed ${n}</title><link>https://feed${n}.example/</link>${items.join('\n')}</channel></rss>`;
}

/** Members, sessions, news sources and a mix whose listening copy failed (so a Retry makes it again). */
async function seed(dataDir: string, databaseUrl: string | undefined, feedOrigin: string, masterKey: string, masterBytes: number): Promise<Fixture> {
  const tag = Date.now().toString(36);
  const database = await openDatabase({ databaseUrl, pgliteDir: databaseUrl ? undefined : path.join(dataDir, 'db') });
  try {
    const { db } = database;
    await db.execute(sql`DELETE FROM news_sources WHERE url LIKE 'http://127.0.0.1:%/feed/%'`);
    await db.execute(sql`INSERT INTO news_sources (kind, name, url, item_type, last_fetched_at, next_fetch_at)
      SELECT 'rss', 'Isolation feed ' || g, ${feedOrigin} || '/feed/' || g || '.xml', 'rss', now() - interval '5 minutes', now() + interval '1 day'
      FROM generate_series(0, ${FEEDS - 1}) g`);
    // Earlier runs' members (PostgreSQL keeps them): the platforms list only this run's supporters.
    await db.execute(sql`DELETE FROM users WHERE email LIKE 'iso-%@bench.test'`);
    // The platforms' supporters exist as free members: the sync grants them their tiers.
    await db.execute(sql`INSERT INTO users (email, username)
      SELECT 'iso-' || ${tag} || '-supporter' || g || '@bench.test', 'iso' || ${tag} || 's' || g FROM generate_series(1, ${PLATFORM_RECORDS}) g`);
    await db.execute(sql`INSERT INTO users (email, username, subscription_tier, subscription_status, subscription_source)
      SELECT 'iso-' || ${tag} || '-listener' || g || '@bench.test', 'iso' || ${tag} || 'l' || g, 'dhr1', 'active', 'admin' FROM generate_series(1, ${LISTENERS}) g`);
    const ids = (await db.execute(sql`SELECT id FROM users WHERE email LIKE ${`iso-${tag}-listener%`} ORDER BY email`)) as unknown as
      { rows: { id: string }[] } | { id: string }[];
    const rows = Array.isArray(ids) ? ids : ids.rows;
    const listeners = await Promise.all(rows.map(async (r) => `${SESSION_COOKIE}=${await createSession(db, r.id)}`));
    const mixId = `mix-iso-${tag}`;
    await db.insert(vipMixes).values({
      id: mixId,
      title: 'Isolation Hour',
      artist: 'Noise',
      genre: 'minimal',
      duration: MIX_SECONDS,
      fileSize: masterBytes,
      bitrateKbps: 320,
      s3Url: masterKey,
      renditionState: 'failed',
    });
    const admin = await benchAdminCookie(db, `iso-admin-${tag}@bench.test`, `isoadmin${tag}`);
    return { admin, listeners, mixId, tag };
  } finally {
    await database.close();
  }
}

/** Sends the four listener requests, each PROBE_RATE times a second, and files each latency under the current phase. */
class Probes {
  private current = 'idle';
  /** This process's own event-loop delay per phase (p99, ms): a slow moment here is the bench's, not DHR's. */
  readonly benchLoopP99Ms = new Map<string, number>();
  private readonly loopDelay = monitorEventLoopDelay({ resolution: 5 });

  get phase(): string {
    return this.current;
  }

  set phase(next: string) {
    this.benchLoopP99Ms.set(this.current, round1(this.loopDelay.percentile(99) / 1e6));
    this.loopDelay.reset();
    this.current = next;
  }
  readonly times = new Map<string, Record<ProbeName, number[]>>();
  /** When each of `times` was asked, in ms since the probes started (BENCH_ISOLATION_DUMP: the tail against a job's steps). */
  readonly askedAt = new Map<string, Record<ProbeName, number[]>>();
  readonly startedAt = performance.now();
  readonly failures = new Map<string, Record<ProbeName, number>>();
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 128 });
  private timer: ReturnType<typeof setInterval> | undefined;
  private n = 0;
  /** Per-probe turns, so each member posts at most every LISTENERS / PROBE_RATE seconds (chat's slow mode). */
  private readonly turns: Record<ProbeName, number> = { health: 0, liveMetadata: 0, chatPost: 0, streamAdmission: 0 };
  private readonly inflight = new Set<Promise<void>>();

  constructor(
    private readonly url: string,
    private readonly fixture: Fixture,
  ) {}

  start(): void {
    this.loopDelay.enable();
    this.timer = setInterval(() => {
      for (const probe of PROBES) {
        const phase = this.phase;
        const p = this.measure(probe, phase).catch(() => this.fail(probe, phase));
        this.inflight.add(p);
        void p.then(() => this.inflight.delete(p));
      }
    }, 1000 / PROBE_RATE);
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.loopDelay.disable();
    await Promise.all([...this.inflight]);
    this.agent.destroy();
  }

  private fail(probe: ProbeName, phase: string): void {
    let byProbe = this.failures.get(phase);
    if (!byProbe) this.failures.set(phase, (byProbe = { health: 0, liveMetadata: 0, chatPost: 0, streamAdmission: 0 }));
    byProbe[probe] += 1;
  }

  private record(probe: ProbeName, started: number, phase: string): void {
    const add = (map: Map<string, Record<ProbeName, number[]>>, value: number) => {
      let byProbe = map.get(phase);
      if (!byProbe) map.set(phase, (byProbe = { health: [], liveMetadata: [], chatPost: [], streamAdmission: [] }));
      byProbe[probe].push(value);
    };
    add(this.times, performance.now() - started);
    add(this.askedAt, Math.round(started - this.startedAt));
  }

  private request(method: string, pathname: string, headers: Record<string, string>, body?: string): Promise<{ status: number; body: string }> {
    return new Promise((resolve, reject) => {
      const req = http.request(`${this.url}${pathname}`, { method, agent: this.agent, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
      });
      req.on('error', reject);
      req.end(body);
    });
  }

  private async measure(probe: ProbeName, phase: string): Promise<void> {
    const n = (this.n += 1);
    const turn = (this.turns[probe] += 1);
    const cookie = this.fixture.listeners[turn % this.fixture.listeners.length] ?? '';
    // Each request from its own address, as listeners' are (the per-address limits stay out of the way).
    const forwarded = { 'x-forwarded-for': `198.51.${(n >> 8) & 255}.${n & 255}` };
    if (probe === 'streamAdmission') {
      const ticket = await this.request('GET', '/api/channels/dhr1/stream', { cookie, ...forwarded });
      const mount = new URL((JSON.parse(ticket.body) as { url: string }).url).pathname + new URL((JSON.parse(ticket.body) as { url: string }).url).search;
      const auth = { authorization: `Basic ${Buffer.from(`icecast:${STREAM_KEY}`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' };
      const form = (action: string) =>
        new URLSearchParams({ action, mount, client: String(n), server: '127.0.0.1', port: '8000', ip: '198.51.100.7', agent: 'bench' }).toString();
      const started = performance.now();
      const res = await this.request('POST', '/api/stream-auth/listener', auth, form('listener_add'));
      if (res.status === 200 && res.body.includes('"admitted":true')) this.record(probe, started, phase);
      else this.fail(probe, phase);
      await this.request('POST', '/api/stream-auth/listener', auth, form('listener_remove'));
      return;
    }
    const started = performance.now();
    const res =
      probe === 'health'
        ? await this.request('GET', '/api/health', forwarded)
        : probe === 'liveMetadata'
          ? await this.request('GET', '/api/live-metadata', forwarded)
          : await this.request(
              'POST',
              '/api/chat/dhr1/messages',
              { cookie, 'content-type': 'application/json', ...forwarded },
              JSON.stringify({ text: `deep in it ${n}` }),
            );
    // Without a source on air the live metadata is its outage answer (503 from memory): still an answer.
    if (res.status < 300 || (probe === 'liveMetadata' && res.status === 503)) this.record(probe, started, phase);
    else this.fail(probe, phase);
  }
}

async function waitUntil(what: string, check: () => Promise<boolean>, everyMs = 1000): Promise<void> {
  const until = Date.now() + JOB_TIMEOUT_MS;
  while (Date.now() < until) {
    if (await check()) return;
    await sleep(everyMs);
  }
  throw new Error(`${what} did not finish within ${JOB_TIMEOUT_MS / 60000} minutes`);
}

async function adminJson<T>(url: string, cookie: string, method = 'GET', body?: unknown): Promise<T> {
  const res = await fetch(url, {
    method,
    headers: { cookie, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!res.ok) throw new Error(`${method} ${url} answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
  return (await res.json()) as T;
}

function importCsv(tag: string): string {
  const header = 'email,firstName,lastName,subscriptionTier,subscriptionStatus,subscriptionExpiry,pledgeAmount,source';
  const tiers = ['Free', 'DHR1', 'DHR2', 'VIP'];
  const rows = Array.from({ length: IMPORT_ROWS }, (_, i) =>
    [`iso-${tag}-import${i}@bench.test`, 'Ada', 'Lovelace', tiers[i % 4], 'active', '2027-01-31', String((i % 4) * 3), i % 2 ? 'patreon' : 'buymeacoffee'].join(
      ',',
    ),
  );
  return [header, ...rows].join('\n');
}

/** How a job's phase ended: skipped (why), or a check that it did its work, made after the phase. */
interface JobEnd {
  skipped?: string;
  confirm?: () => Promise<void>;
}

/** Runs each background job alone while the probes run; returns the phases in order. */
async function runJobs(url: string, fixture: Fixture, probes: Probes, ctx: { feedsServed: () => number; databaseUrl: string | undefined; dataDir: string }) {
  const jobs: [string, () => Promise<JobEnd | undefined>][] = [
    [
      'platform sync (8 s answers, 2,000 records)',
      async () => {
        await adminJson(`${url}/api/admin/sync-subscriptions`, fixture.admin, 'POST', { dryRun: false });
        return undefined;
      },
    ],
    [
      `news ingest (${FEEDS.toLocaleString('en-IE')} feeds)`,
      async () => {
        await adminJson(`${url}/api/news/refresh`, fixture.admin, 'POST', {});
        // The phase lasts while the feeds are fetched and stored. Whether every source was stored is
        // checked after it: the admin list of 1,000 sources is a large read of its own, for the server
        // and for this process, and would be measured as the ingest's cost.
        await waitUntil('the feeds to be fetched', async () => ctx.feedsServed() >= FEEDS, 100);
        await sleep(1000);
        return {
          confirm: () =>
            waitUntil(
              'the ingest',
              async () => {
                const list = await adminJson<{ url: string; itemCount: number; lastStatus: string | null }[]>(`${url}/api/admin/news-sources`, fixture.admin);
                return list.filter((s) => s.url.includes('/feed/')).every((s) => s.lastStatus === 'ok' && s.itemCount === FEED_ITEMS);
              },
              2000,
            ),
        };
      },
    ],
    [
      `member import (${IMPORT_ROWS.toLocaleString('en-IE')} rows)`,
      async () => {
        await adminJson(`${url}/api/admin/bulk-import`, fixture.admin, 'POST', { csvContent: importCsv(fixture.tag), confirm: true });
        return undefined;
      },
    ],
    [
      `listening copy (${Math.round(MIX_SECONDS / 60)}-minute mix)`,
      async () => {
        await adminJson(`${url}/api/admin/vip-mixes/${fixture.mixId}/rendition`, fixture.admin, 'POST');
        await waitUntil(
          'the listening copy',
          async () => {
            const mixes = await adminJson<{ id: string; rendition: { state: string } }[]>(`${url}/api/admin/vip-mixes`, fixture.admin);
            const state = mixes.find((m) => m.id === fixture.mixId)?.rendition.state;
            if (state === 'failed') throw new Error('the listening copy failed');
            return state === 'ready';
          },
          2000,
        );
        return undefined;
      },
    ],
    [
      'backup',
      async () => {
        // PGlite belongs to the one process that runs it: `npm run backup` refuses while DHR runs
        // (docs/operations.md), so there is no backup to run beside the server.
        if (!ctx.databaseUrl) return { skipped: 'PGlite backups run with DHR stopped (the directory lock refuses a running server)' };
        const file = path.join(ctx.dataDir, 'backup.tar.gz');
        await new Promise<void>((resolve, reject) => {
          const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'scripts/backup.ts'), '--out', file], {
            env: { ...process.env, DATABASE_URL: ctx.databaseUrl, DATA_DIR: ctx.dataDir },
            stdio: ['ignore', 'ignore', 'inherit'],
          });
          child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`backup exited ${code}`))));
        });
        return undefined;
      },
    ],
  ];
  const phases: { job: string; seconds: number; skipped?: string }[] = [];
  // BENCH_ISOLATION_JOBS=ingest,import runs only the jobs whose names contain one of the words (a second look at one job).
  const only = process.env.BENCH_ISOLATION_JOBS?.split(',').filter(Boolean);
  for (const [job, run] of jobs) {
    if (only && !only.some((word) => job.includes(word))) continue;
    await sleep(2000);
    probes.phase = job;
    console.log(`isolation: ${job}… (${Math.round(performance.now() - probes.startedAt)} ms in)`);
    const started = performance.now();
    const end = await run();
    const seconds = round1((performance.now() - started) / 1000);
    probes.phase = 'between';
    await end?.confirm?.();
    console.log(`isolation: ${job} took ${seconds} s`);
    phases.push({ job, seconds, ...(end?.skipped ? { skipped: end.skipped } : {}) });
  }
  return phases;
}

function summarise(probes: Probes, phases: { job: string; seconds: number; skipped?: string }[]): IsolationPhase[] {
  const p99Of = (phase: string) => {
    const byProbe = probes.times.get(phase);
    return Object.fromEntries(
      PROBES.map((p) => [
        p,
        round1(
          percentile(
            [...(byProbe?.[p] ?? [])].sort((a, b) => a - b),
            99,
          ),
        ),
      ]),
    ) as Record<ProbeName, number>;
  };
  const failedIn = (phase: string) => probes.failures.get(phase) ?? { health: 0, liveMetadata: 0, chatPost: 0, streamAdmission: 0 };
  const idle = p99Of('idle');
  // BENCH_ISOLATION_DUMP=/tmp/times.json keeps every latency by phase and probe: the tail behind a p99.
  if (process.env.BENCH_ISOLATION_DUMP) {
    const dump = { times: Object.fromEntries(probes.times), askedAt: Object.fromEntries(probes.askedAt) };
    fs.writeFileSync(process.env.BENCH_ISOLATION_DUMP, JSON.stringify(dump));
  }
  const loop = (phase: string) => probes.benchLoopP99Ms.get(phase);
  const rows: IsolationPhase[] = [{ job: 'idle', seconds: IDLE_SECONDS, p99Ms: idle, failed: failedIn('idle'), benchLoopP99Ms: loop('idle') }];
  for (const phase of phases) {
    if (phase.skipped) {
      rows.push({ job: phase.job, seconds: phase.seconds, p99Ms: idle, failed: failedIn(phase.job), skipped: phase.skipped });
      continue;
    }
    const p99Ms = p99Of(phase.job);
    const worstRatio = round1(Math.max(...PROBES.map((p) => p99Ms[p] / Math.max(idle[p], 1))));
    const failed = failedIn(phase.job);
    const withinGoal = PROBES.every((p) => failed[p] === 0 && p99Ms[p] <= Math.max(GOAL_RATIO * idle[p], 1) && p99Ms[p] <= GOAL_MS);
    rows.push({ job: phase.job, seconds: phase.seconds, p99Ms, failed, worstRatio, withinGoal, benchLoopP99Ms: loop(phase.job) });
  }
  return rows;
}

async function benchOn(databaseUrl: string | undefined, masterFile: string): Promise<IsolationEntry> {
  const dataDir = tempDir('dhr-bench-isolation-');
  let served = 0;
  // Made before the clock starts: the stand-in shares this process with the probes' timing.
  const bodies = Array.from({ length: FEEDS }, (_, n) => Buffer.from(feedXml(n)));
  const feeds = http.createServer((req, res) => {
    const n = Number(/^\/feed\/(\d+)\.xml$/.exec(req.url ?? '')?.[1] ?? -1);
    const body = bodies[n];
    if (!body) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/rss+xml; charset=utf-8' }).end(body, () => (served += 1));
  });
  await new Promise<void>((r) => feeds.listen(0, '127.0.0.1', r));
  const feedOrigin = `http://127.0.0.1:${(feeds.address() as { port: number }).port}`;
  const masterKey = `mixes/isolation-${Date.now().toString(36)}.mp3`;
  const mediaFile = path.join(dataDir, 'media', ...masterKey.split('/'));
  fs.mkdirSync(path.dirname(mediaFile), { recursive: true });
  fs.copyFileSync(masterFile, mediaFile);
  const fixture = await seed(dataDir, databaseUrl, feedOrigin, masterKey, fs.statSync(masterFile).size);
  const half = PLATFORM_RECORDS / 2;
  const supporter = (i: number) => `iso-${fixture.tag}-supporter${i}@bench.test`;
  const patreon = await startPatreonStub({
    token: 'iso-patreon',
    campaignId: 'iso-campaign',
    pageSize: half,
    members: Array.from({ length: half }, (_, i) => patreonMember({ email: supporter(i + 1), status: 'active_patron', cents: 500 })),
  });
  const bmc = await startBmcStub({
    token: 'iso-bmc',
    pageSize: half,
    subscriptions: Array.from({ length: half }, (_, i) => bmcSubscription({ email: supporter(half + i + 1), price: '5.000' })),
  });
  patreon.state.delayMs = PLATFORM_DELAY_MS;
  bmc.state.delayMs = PLATFORM_DELAY_MS;
  const port = await freePort();
  const server = startBenchServer(root, port, dataDir, databaseUrl, {
    NEWS_ALLOW_PRIVATE: 'true',
    TRUST_PROXY: '127.0.0.1',
    STREAM_AUTH_KEY: STREAM_KEY,
    DHR1_STREAM_URL: 'http://127.0.0.1:8000/dhr1',
    PATREON_API_URL: patreon.url,
    PATREON_ACCESS_TOKEN: 'iso-patreon',
    PATREON_CAMPAIGN_ID: 'iso-campaign',
    BMC_API_URL: bmc.url,
    BMC_ACCESS_TOKEN: 'iso-bmc',
  });
  const url = `http://127.0.0.1:${port}`;
  const probes = new Probes(url, fixture);
  try {
    await waitForHttp(`${url}/api/health`);
    probes.phase = 'warm-up';
    probes.start();
    await sleep(3000);
    probes.phase = 'idle';
    await sleep(IDLE_SECONDS * 1000);
    const phases = await runJobs(url, fixture, probes, { feedsServed: () => served, databaseUrl, dataDir });
    await probes.stop();
    const entry: IsolationEntry = {
      name: `Background jobs vs listeners' requests (p99 of health, live metadata, chat post, stream admission; ${databaseUrl ? 'PostgreSQL' : 'PGlite'})`,
      database: databaseUrl ? 'postgres' : 'pglite',
      phases: summarise(probes, phases),
      goal: `p99 during each job ≤ ${GOAL_RATIO}× idle and ≤ ${GOAL_MS} ms`,
      loadAverage: os.loadavg().map((l) => Math.round(l * 100) / 100),
      cpus: os.availableParallelism(),
    };
    for (const phase of entry.phases)
      console.log(
        `isolation (${entry.database}) ${phase.job}: ${phase.skipped ? `skipped: ${phase.skipped}` : `${PROBES.map((p) => `${p} ${phase.p99Ms[p]} ms${phase.failed[p] ? ` (${phase.failed[p]} failed)` : ''}`).join(', ')}${phase.worstRatio !== undefined ? ` (worst ${phase.worstRatio}× idle, ${phase.withinGoal ? 'within' : 'OVER'} the goal)` : ''}; bench loop p99 ${phase.benchLoopP99Ms} ms`}`,
      );
    return entry;
  } finally {
    await probes.stop().catch(() => undefined);
    await server.stop();
    await patreon.close();
    await bmc.close();
    await new Promise((r) => feeds.close(r));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function benchIsolation(): Promise<IsolationEntry[]> {
  const work = tempDir('dhr-bench-isolation-master-');
  const masterFile = path.join(work, 'master.mp3');
  // Noise under a tone at 320 kbit/s: the encoder works as hard as on music.
  execFileSync('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-y'],
    ...['-f', 'lavfi', '-i', `anoisesrc=d=${MIX_SECONDS}:c=pink:a=0.2`, '-f', 'lavfi', '-i', `sine=frequency=220:duration=${MIX_SECONDS}`],
    ...['-filter_complex', 'amix=inputs=2', '-ac', '2', '-ar', '44100', '-c:a', 'libmp3lame', '-b:a', '320k', masterFile],
  ]);
  try {
    const entries: IsolationEntry[] = [];
    // BENCH_ISOLATION_DATABASES=postgres runs PostgreSQL only (BENCH_DATABASE_URL), for a second look.
    const databases = (process.env.BENCH_ISOLATION_DATABASES ?? 'pglite,postgres').split(',');
    if (databases.includes('pglite')) entries.push(await benchOn(undefined, masterFile));
    if (process.env.BENCH_DATABASE_URL && databases.includes('postgres')) entries.push(await benchOn(process.env.BENCH_DATABASE_URL, masterFile));
    return entries;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

whenRunAlone(import.meta.url, benchIsolation);
