// News ingest: 1,000 distinct feeds of 50 items each, served from a loopback server, are
// queued by one POST /api/news/refresh and fetched and parsed in the background. Records items stored
// per second and the p99 of /api/health while the ingest runs against an idle baseline measured in the
// same run. The server runs as `npm start` does (its own process, PGlite under a temp DATA_DIR, or
// PostgreSQL with BENCH_DATABASE_URL). Run alone: `npx tsx bench/news-ingest.ts` (BENCH_NEWS_FEEDS,
// BENCH_NEWS_ITEMS, BENCH_NEWS_IDLE_SECONDS make it smaller); `npm run bench` calls benchNewsIngest().
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../src/server/db/client';
import { freePort } from '../scripts/lib/icecast';
import { benchAdminCookie, startBenchServer, tempDir, waitForHttp, whenRunAlone } from './lib';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const FEEDS = Number(process.env.BENCH_NEWS_FEEDS ?? 1000);
const ITEMS = Number(process.env.BENCH_NEWS_ITEMS ?? 50);
const IDLE_SECONDS = Number(process.env.BENCH_NEWS_IDLE_SECONDS ?? 10);
/** /api/health requests a second, open-loop, idle and during the ingest. */
const HEALTH_RATE = 50;
const INGEST_TIMEOUT_MS = 15 * 60 * 1000;

export interface NewsIngestEntry {
  name: string;
  feeds: number;
  itemsPerFeed: number;
  itemsStored: number;
  ingestSeconds: number;
  itemsPerS: number;
  refreshAnswerMs: number;
  healthIdleP99Ms: number;
  healthIngestP99Ms: number;
  healthIngestMaxMs: number;
  /** p99 during the ingest over the idle p99. */
  ratio: number;
  database: 'pglite' | 'postgres';
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
const round1 = (n: number) => Math.round(n * 10) / 10;

/** Feed `n`: 50 items of realistic size, each feed different (titles, links, guids, text). */
function feed(n: number): string {
  const items = Array.from({ length: ITEMS }, (_, i) => {
    const date = new Date(Date.UTC(2026, 10, 1) + (n * ITEMS + i) * 60_000).toUTCString();
    return `<item><title>Feed ${n} story ${i}: deep house &amp; more</title><link>https://feed${n}.example/story/${i}</link><guid>feed-${n}-${i}</guid><pubDate>${date}</pubDate>
<description><![CDATA[<p>Story <b>${i}</b> of feed ${n}. ${'Warm chords, late nights and long mixes. '.repeat(8)}</p><img src="/img/${i}.jpg">]]></description></item>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>Feed ${n}</title><link>https://feed${n}.example/</link>${items.join('\n')}</channel></rss>`;
}

/**
 * The sources, fetched a few minutes ago and not due before a day (so no scheduled poll takes them),
 * and an admin session to read the sources page with. The Refresh makes every working source due.
 */
async function seed(dataDir: string, databaseUrl: string | undefined, feedOrigin: string): Promise<string> {
  const database = await openDatabase({ databaseUrl, pgliteDir: databaseUrl ? undefined : path.join(dataDir, 'db') });
  try {
    const { db } = database;
    await db.execute(sql`DELETE FROM news_sources WHERE url LIKE ${`${feedOrigin}/%`}`);
    await db.execute(sql`INSERT INTO news_sources (kind, name, url, item_type, last_fetched_at, next_fetch_at)
      SELECT 'rss', 'Bench feed ' || g, ${feedOrigin} || '/feed/' || g || '.xml', 'rss', now() - interval '5 minutes', now() + interval '1 day'
      FROM generate_series(0, ${FEEDS - 1}) g`);
    return await benchAdminCookie(db, 'bench-news-admin@example.test', 'benchnewsadmin');
  } finally {
    await database.close();
  }
}

/** GETs `url` `rate` times a second, open-loop, until `stop()` says so; returns the sorted latencies. */
async function sampleHealth(url: string, stop: () => boolean): Promise<number[]> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const times: number[] = [];
  const inflight = new Set<Promise<void>>();
  await new Promise<void>((resolve) => {
    const tick = setInterval(() => {
      if (stop()) {
        clearInterval(tick);
        resolve();
        return;
      }
      const t0 = performance.now();
      const p = new Promise<void>((done) => {
        http
          .get(url, { agent }, (res) => {
            res.resume();
            res.on('end', () => {
              if (res.statusCode === 200) times.push(performance.now() - t0);
              done();
            });
          })
          .on('error', () => done());
      });
      inflight.add(p);
      void p.then(() => inflight.delete(p));
    }, 1000 / HEALTH_RATE);
  });
  await Promise.all([...inflight]);
  agent.destroy();
  return times.sort((a, b) => a - b);
}

export async function benchNewsIngest(): Promise<NewsIngestEntry> {
  const databaseUrl = process.env.BENCH_DATABASE_URL;
  const dataDir = tempDir('dhr-bench-news-');
  const bodies = new Map<number, Buffer>();
  let served = 0;
  const feeds = http.createServer((req, res) => {
    const n = Number(/^\/feed\/(\d+)\.xml$/.exec(req.url ?? '')?.[1] ?? -1);
    if (n < 0 || n >= FEEDS) return void res.writeHead(404).end();
    let body = bodies.get(n);
    if (!body) bodies.set(n, (body = Buffer.from(feed(n))));
    res.writeHead(200, { 'content-type': 'application/rss+xml; charset=utf-8' }).end(body, () => (served += 1));
  });
  await new Promise<void>((r) => feeds.listen(0, '127.0.0.1', r));
  const feedOrigin = `http://127.0.0.1:${(feeds.address() as { port: number }).port}`;
  const cookie = await seed(dataDir, databaseUrl, feedOrigin);
  const port = await freePort();
  const server = startBenchServer(root, port, dataDir, databaseUrl, { NEWS_ALLOW_PRIVATE: 'true' });
  try {
    const url = `http://127.0.0.1:${port}`;
    await waitForHttp(`${url}/api/health`);
    const idleUntil = performance.now() + IDLE_SECONDS * 1000;
    const idle = await sampleHealth(`${url}/api/health`, () => performance.now() > idleUntil);

    const started = performance.now();
    const refresh = await fetch(`${url}/api/news/refresh`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    const refreshAnswerMs = performance.now() - started;
    const { queued } = (await refresh.json()) as { queued: number };
    if (queued !== FEEDS) throw new Error(`refresh queued ${queued} of ${FEEDS} sources`);

    // The sources page says when every source has been stored. It is a heavy read (every source with
    // its report), so it is only asked once every feed has been served, then once a second.
    let done = false;
    let itemsStored = 0;
    const watch = (async () => {
      while (!done && performance.now() - started < INGEST_TIMEOUT_MS) {
        await new Promise((r) => setTimeout(r, served < FEEDS ? 100 : 1000));
        if (served < FEEDS) continue;
        const list = (await (await fetch(`${url}/api/admin/news-sources`, { headers: { cookie } })).json()) as {
          url: string;
          lastFetchedAt: string | null;
          itemCount: number;
          lastStatus: string | null;
        }[];
        const mine = list.filter((s) => s.url.startsWith(feedOrigin));
        itemsStored = mine.reduce((n, s) => n + s.itemCount, 0);
        done = mine.every(
          (s) => s.lastStatus === 'ok' && s.lastFetchedAt && Date.parse(s.lastFetchedAt) > Date.now() - 60 * 60 * 1000 && s.itemCount === ITEMS,
        );
      }
      done = true;
    })();
    const during = await sampleHealth(`${url}/api/health`, () => done);
    await watch;
    const ingestSeconds = (performance.now() - started) / 1000;

    const idleP99 = round1(percentile(idle, 99));
    const ingestP99 = round1(percentile(during, 99));
    const entry: NewsIngestEntry = {
      name: `News ingest: ${FEEDS.toLocaleString('en-IE')} feeds of ${ITEMS} items from loopback, /api/health p99 during vs idle`,
      feeds: FEEDS,
      itemsPerFeed: ITEMS,
      itemsStored,
      ingestSeconds: round1(ingestSeconds),
      itemsPerS: Math.round(itemsStored / ingestSeconds),
      refreshAnswerMs: round1(refreshAnswerMs),
      healthIdleP99Ms: idleP99,
      healthIngestP99Ms: ingestP99,
      healthIngestMaxMs: round1(during.at(-1) ?? 0),
      ratio: round1(ingestP99 / Math.max(idleP99, 0.1)),
      database: databaseUrl ? 'postgres' : 'pglite',
    };
    if (itemsStored < FEEDS * ITEMS) throw new Error(`only ${itemsStored} of ${FEEDS * ITEMS} items stored within ${INGEST_TIMEOUT_MS / 60000} minutes`);
    console.log(
      `news-ingest: ${itemsStored} items from ${FEEDS} feeds in ${entry.ingestSeconds} s (${entry.itemsPerS} items/s; Refresh answered in ${entry.refreshAnswerMs} ms); ` +
        `/api/health p99 ${ingestP99} ms during the ingest (max ${entry.healthIngestMaxMs} ms) vs ${idleP99} ms idle (ratio ${entry.ratio})`,
    );
    return entry;
  } finally {
    await server.stop();
    await new Promise((r) => feeds.close(r));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

whenRunAlone(import.meta.url, benchNewsIngest);
