// Serving VIP mixes with HTTP Range (ADR 0015): MB/s of DHR's session-bound stream route (a DHR1
// member's link and session cookie, serving the mix's listening copy) against a bare node:http +
// fs.createReadStream server on the same 100 MB file in the same run (goal: ratio >= 0.8), then 200
// parallel streams through DHR with their errors and the memory growth.
// Run alone: `npx tsx bench/mix-range.ts`; `npm run bench` calls benchMixRange().
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import { freePort } from '../scripts/lib/icecast';
import { openDatabase } from '../src/server/db/client';
import { vipMixes } from '../src/server/db/schema';
import { insertMember } from '../src/server/modules/members/members-repository';
import { seedDemo } from '../src/server/db/seed/seed';
import { MediaLinks, mediaPath } from '../src/server/lib/media-links';
import { createSession, SESSION_COOKIE } from '../src/server/lib/sessions';
import { hashToken } from '../src/server/lib/tokens';
import { ALL_CPUS, pinToCpus, rssMb, serverArgs, startProcess, tempDir, waitForHttp, whenRunAlone } from './lib';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const MIX_ID = 'mix-midnight-drift';
/** The 100 MB file is the mix's listening copy: what a stream link serves. */
const MIX_KEY = 'renditions/bench-100mb.mp3';

const MIX_BYTES = 100 * 1024 * 1024;
const CHUNK_BYTES = 4 * 1024 * 1024;
const SECONDS = Number(process.env.BENCH_MIX_SECONDS ?? 3);
/** Alternating rounds (odd, for a median). */
const ROUNDS = 5;
const CONCURRENCY = 8;
const PARALLEL_STREAMS = 200;
const STREAM_BYTES = 2 * 1024 * 1024;
const GOAL_RATIO = 0.8;

export interface MixRangeEntry {
  name: string;
  mbPerS: number;
  baselineMbPerS: number;
  ratio: number;
  goalRatio: number;
  parallelStreams: number;
  parallelErrors: number;
  parallelMbPerS: number;
  rssGrowthMb: number;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: PARALLEL_STREAMS });

/** GETs `url` with a Range header and counts the body bytes; rejects on a status other than 206. */
function rangeGet(url: string, start: number, end: number, cookie = ''): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent, headers: { range: `bytes=${start}-${end}`, ...(cookie ? { cookie } : {}) } }, (res) => {
      let n = 0;
      res.on('data', (c: Buffer) => (n += c.length));
      res.on('end', () => (res.statusCode === 206 ? resolve(n) : reject(new Error(`status ${res.statusCode}`))));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

/** One listener's way in: a session-bound link and that session's cookie (none for the baseline). */
interface Listener {
  url: string;
  cookie: string;
}

/** Random 4 MB ranges over the file from `CONCURRENCY` clients (each a listener of its own) for SECONDS; MB/s. */
async function throughput(listeners: readonly Listener[]): Promise<number> {
  const until = performance.now() + SECONDS * 1000;
  const started = performance.now();
  let bytes = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async (_, i) => {
      const { url, cookie } = listeners[i % listeners.length] as Listener;
      while (performance.now() < until) {
        const start = Math.floor(Math.random() * ((MIX_BYTES - CHUNK_BYTES) / 65_536)) * 65_536;
        bytes += await rangeGet(url, start, start + CHUNK_BYTES - 1, cookie);
      }
    }),
  );
  return bytes / (1024 * 1024) / ((performance.now() - started) / 1000);
}

/** Makes the 100 MB file of noise. */
function writeNoise(file: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const block = Buffer.alloc(1024 * 1024);
  for (let i = 0; i < block.length; i++) block[i] = (i * 131 + 7) & 0xff;
  const fd = fs.openSync(file, 'w');
  for (let i = 0; i < MIX_BYTES / block.length; i++) fs.writeSync(fd, block);
  fs.closeSync(fd);
}

/**
 * The demo catalogue with the 100 MB file as one mix's listening copy, and PARALLEL_STREAMS DHR1
 * members signed in: a member may have at most 3 media answers in flight (ADR 0015), so each
 * parallel client is a listener of its own, as on a real station.
 */
async function seed(dataDir: string): Promise<{ memberId: string; sessionToken: string }[]> {
  const database = await openDatabase({ pgliteDir: path.join(dataDir, 'db') });
  try {
    const { db } = database;
    await seedDemo(db);
    // Every copy counts as made, so no ffmpeg runs while the bench measures.
    await db.update(vipMixes).set({ renditionState: 'ready', renditionPercent: 100 });
    await db.update(vipMixes).set({ renditionKey: MIX_KEY, renditionSize: MIX_BYTES }).where(eq(vipMixes.id, MIX_ID));
    const members: { memberId: string; sessionToken: string }[] = [];
    for (let i = 0; i < PARALLEL_STREAMS; i++) {
      const member = await insertMember(db, { email: `bench${i}@example.test`, username: `bench${i}`, subscriptionTier: 'dhr1', subscriptionStatus: 'active' });
      members.push({ memberId: member.id, sessionToken: await createSession(db, member.id) });
    }
    return members;
  } finally {
    await database.close();
  }
}

const round1 = (n: number) => Math.round(n * 10) / 10;

/**
 * DHR runs as `npm start` does and the baseline in its own process, each pinned to CPU 1 with this
 * process (the clients) on CPU 0, as bench/public-reads.ts does: in one process the clients, DHR and
 * the baseline shared one thread and single samples ranged 0.5-0.9.
 */
export async function benchMixRange(): Promise<MixRangeEntry> {
  const dataDir = tempDir('dhr-bench-mix-');
  const file = path.join(dataDir, 'media', ...MIX_KEY.split('/'));
  writeNoise(file);
  const members = await seed(dataDir);
  const key = randomBytes(32).toString('hex');
  const port = await freePort();
  const basePort = await freePort();
  const pinned = pinToCpus(process.pid, '0');
  const server = startProcess(process.execPath, serverArgs(root), {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    SEED_DEMO: 'true',
    STREAM_AUTH_KEY: key,
    // The bench streams gigabytes per member.
    MIX_STREAM_DAILY_MB: '10000000',
  });
  const baseline = startProcess(process.execPath, ['--import', 'tsx', path.join(root, 'bench/range-baseline-server.ts')], {
    PORT: String(basePort),
    FILE: file,
  });
  try {
    const links = new MediaLinks(key);
    const listeners: Listener[] = members.map(({ memberId, sessionToken }) => ({
      url: `http://127.0.0.1:${port}${mediaPath(MIX_ID, 'stream', links.issue({ memberId, sessionIdHash: hashToken(sessionToken), mixId: MIX_ID, purpose: 'stream' }, 3600).token)}`,
      cookie: `${SESSION_COOKIE}=${sessionToken}`,
    }));
    const baseUrl = `http://127.0.0.1:${basePort}/mix.mp3`;
    const bare: Listener[] = [{ url: baseUrl, cookie: '' }];
    await waitForHttp(`http://127.0.0.1:${port}/api/health`);
    await waitForHttp(baseUrl);
    for (const child of [server.child, baseline.child]) pinToCpus(child.pid ?? 0, '1');

    // Warm both, then measure in alternating rounds so neither gets a quieter machine; the ratio is
    // the median of the rounds' ratios.
    await throughput(bare);
    await throughput(listeners);
    const rounds: { base: number; dhr: number }[] = [];
    for (let i = 0; i < ROUNDS; i++) rounds.push({ base: await throughput(bare), dhr: await throughput(listeners) });
    const ratios = rounds.map((r) => r.dhr / r.base).sort((a, b) => a - b);
    const medianRatio = ratios[Math.floor(ratios.length / 2)] ?? 0;
    const baselineMbPerS = rounds.reduce((n, r) => n + r.base, 0) / ROUNDS;
    const mbPerS = rounds.reduce((n, r) => n + r.dhr, 0) / ROUNDS;

    const rssBefore = rssMb(server.child.pid ?? 0);
    const started = performance.now();
    const outcomes = await Promise.allSettled(
      Array.from({ length: PARALLEL_STREAMS }, (_, i) => {
        const start = (i * 409_600) % (MIX_BYTES - STREAM_BYTES);
        const { url, cookie } = listeners[i] as Listener;
        return rangeGet(url, start, start + STREAM_BYTES - 1, cookie);
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const ok = outcomes.filter((o): o is PromiseFulfilledResult<number> => o.status === 'fulfilled' && o.value === STREAM_BYTES);
    const rssGrowthMb = rssMb(server.child.pid ?? 0) - rssBefore;
    return {
      name: 'vip mix range serving (100 MB listening copy, session-bound link)',
      mbPerS: round1(mbPerS),
      baselineMbPerS: round1(baselineMbPerS),
      ratio: Math.round(medianRatio * 100) / 100,
      goalRatio: GOAL_RATIO,
      parallelStreams: PARALLEL_STREAMS,
      parallelErrors: PARALLEL_STREAMS - ok.length,
      parallelMbPerS: round1((ok.length * STREAM_BYTES) / (1024 * 1024) / seconds),
      rssGrowthMb: round1(rssGrowthMb),
    };
  } finally {
    agent.destroy();
    await server.stop();
    await baseline.stop();
    if (pinned) pinToCpus(process.pid, ALL_CPUS);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

whenRunAlone(import.meta.url, benchMixRange);
