/**
 * Public reads: DHR's cached public GETs against a bare node:http baseline, measured
 * in rounds that alternate baseline and endpoint so drift in the machine's speed hits both alike, and
 * a Fastify hello-world as a reference for what the framework itself costs.
 *   npx tsx bench/public-reads.ts            measure, print, update these entries in bench/results.json
 *   BENCH_READS=/api/nowplaying npx tsx bench/public-reads.ts   only the reads named (comma-separated)
 *   npx tsx bench/public-reads.ts --profile  CPU-profile the server under load on the reads and print
 *                                            the top self-time functions (writes bench/profiles/*.cpuprofile)
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../scripts/lib/icecast';
import { ALL_CPUS, cpuMicros, load, pinToCpus, recordIfAsked, serverArgs, startProcess, tempDir, waitForHttp, type BenchEntry, type Started } from './lib';
import { startStatusStandIn } from './sse-fanout';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Seconds of load per endpoint (and as much again for its baseline). */
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);

export const PUBLIC_READS = [
  '/api/health',
  '/api/channels',
  '/api/live-metadata',
  // The radio ecosystem's now-playing document (AzuraCast's shape), built from memory once a second.
  '/api/nowplaying',
  '/api/stations',
  // Community: served from memory until a comment changes (comments-cache.ts).
  '/api/comments/homepage',
  '/api/comments/recent/5',
  // The news reads every visitor of / (the ticker) and /forum makes, served from memory (docs/decisions/0017).
  '/api/articles/prioritized',
  '/api/rss/latest',
  '/api/forum/posts',
  // Shop: served from memory until a product changes (shop-routes.ts).
  '/api/shop/products',
];

interface Running {
  url: string;
  server: Started;
  stop: () => Promise<void>;
}

async function startYardstick(file: string): Promise<Running> {
  const port = await freePort();
  const server = startProcess(process.execPath, ['--import', 'tsx', path.join(root, file)], { PORT: String(port) });
  const url = `http://127.0.0.1:${port}/`;
  await waitForHttp(url);
  pinToCpus(server.child.pid ?? 0, SERVER_CPU);
  return { url, server, stop: server.stop };
}

/** DHR as `npm start` runs it (PGlite under a temp DATA_DIR, demo seed), logging at warn, both channels on air. */
async function startDhr(opts: { probe?: boolean } = {}): Promise<Running> {
  const port = await freePort();
  const dataDir = tempDir('dhr-bench-');
  // A loopback stand-in for Icecast's status JSON: both channels on air, as in production.
  const icecast = await startStatusStandIn('Kerri Chandler - Rain');
  const server = startProcess(
    process.execPath,
    serverArgs(root, opts),
    {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      DHR1_STREAM_URL: `http://127.0.0.1:${icecast.port}/dhr1`,
      DHR2_STREAM_URL: `http://127.0.0.1:${icecast.port}/dhr2`,
      DHR1_STATUS_URL: icecast.statusUrl,
      DHR2_STATUS_URL: icecast.statusUrl,
      METADATA_POLL_S: '1',
      // The stand-in serves a status page, not a stream: titles come from the status poll, as measured before.
      ICY_TITLES: 'off',
      // The first monitor pass stores the on-air track, so the recent list is not empty.
      TRACK_MONITOR_INTERVAL_S: '2',
    },
    opts,
  );
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(`${url}/api/health`);
  await waitForHttp(`${url}/api/live-metadata`);
  pinToCpus(server.child.pid ?? 0, SERVER_CPU);
  await new Promise((r) => setTimeout(r, 3000));
  return {
    url,
    server,
    stop: async () => {
      await server.stop();
      await icecast.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Loads `url` and reports its rate with the server's CPU microseconds per request. */
async function loadCounting(url: string, pid: number, seconds: number) {
  const before = cpuMicros(pid);
  const r = await load(url, seconds);
  return { ...r, cpuUs: cpuMicros(pid) - before };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** Headers a server sets per connection or per moment, which the replay leaves to node:http. */
const PER_RESPONSE = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length']);

/** Makes the baseline answer exactly what `url` answers (status, headers, body bytes) from now on. */
async function replayOn(baseline: Running, url: string): Promise<void> {
  const res = await fetch(url);
  const body = Buffer.from(await res.arrayBuffer());
  const headers = Object.fromEntries([...res.headers].filter(([k]) => !PER_RESPONSE.has(k)));
  const put = await fetch(baseline.url + '__replay', {
    method: 'PUT',
    body: JSON.stringify({ status: res.status, headers, bodyBase64: body.toString('base64') }),
  });
  if (put.status !== 204) throw new Error(`baseline refused the replay: ${put.status}`);
}

/**
 * Loads `url` in rounds alternating with the baseline, which first takes on the answer of `url` (the
 * same bytes on the wire: a bigger answer costs the load generator more to read, whichever server
 * sent it). `ratio` is the median of the rounds' request-rate ratios; `cpuRatio` compares the servers' CPU time per request.
 */
async function measureAgainst(name: string, target: Running, path: string, baseline: Running): Promise<BenchEntry> {
  const url = target.url.replace(/\/$/, '') + path;
  const pid = target.server.child.pid ?? 0;
  const basePid = baseline.server.child.pid ?? 0;
  await load(url, 2); // warm-up (and the route's cache filled)
  await replayOn(baseline, url);
  await load(baseline.url, 1);
  let baseRps = 0;
  let rpsSum = 0;
  const roundRatios: number[] = [];
  let p99Ms = 0;
  let non2xx = 0;
  let cpu = { us: 0, requests: 0, baseUs: 0, baseRequests: 0 };
  for (let round = 0; round < ROUNDS; round++) {
    const b = await loadCounting(baseline.url, basePid, SECONDS / ROUNDS);
    const r = await loadCounting(url, pid, SECONDS / ROUNDS);
    baseRps += b.rps;
    rpsSum += r.rps;
    roundRatios.push(r.rps / b.rps);
    p99Ms = Math.max(p99Ms, r.p99Ms);
    non2xx += r.non2xx;
    cpu = { us: cpu.us + r.cpuUs, requests: cpu.requests + r.total, baseUs: cpu.baseUs + b.cpuUs, baseRequests: cpu.baseRequests + b.total };
  }
  const rps = Math.round(rpsSum / ROUNDS);
  const baselineRps = Math.round(baseRps / ROUNDS);
  // The median of the rounds' ratios: one round the VM slowed down for does not move it.
  const ratio = Number(median(roundRatios).toFixed(3));
  const cpuUsPerRequest = Number((cpu.us / cpu.requests).toFixed(1));
  const baselineCpuUsPerRequest = Number((cpu.baseUs / cpu.baseRequests).toFixed(1));
  const cpuRatio = Number((baselineCpuUsPerRequest / cpuUsPerRequest).toFixed(3));
  console.log(
    `${name}: ${rps} req/s vs baseline ${baselineRps} (ratio ${ratio}), ${cpuUsPerRequest} vs ${baselineCpuUsPerRequest} CPU µs/request (cpuRatio ${cpuRatio}), p99 ${p99Ms} ms`,
  );
  return { name, rps, p99Ms, baselineRps, ratio, cpuUsPerRequest, baselineCpuUsPerRequest, cpuRatio, non2xx };
}

/** The load generator (this process, autocannon) runs on CPU 0 and every server under test on CPU 1. */
const LOAD_CPU = '0';
const SERVER_CPU = '1';

export async function benchPublicReads(): Promise<BenchEntry[]> {
  const pinned = pinToCpus(process.pid, LOAD_CPU);
  try {
    const entries = await measureAll();
    return entries.map((e) => ({ ...e, cpus: pinned ? 'load generator on CPU 0, server on CPU 1' : 'shared' }));
  } finally {
    if (pinned) pinToCpus(process.pid, ALL_CPUS);
  }
}

async function measureAll(): Promise<BenchEntry[]> {
  const baseline = await startYardstick('bench/baseline-server.ts');
  const hello = await startYardstick('bench/fastify-hello.ts');
  const dhr = await startDhr();
  const entries: BenchEntry[] = [];
  try {
    await load(baseline.url, 2); // warm-up
    // BENCH_READS=/api/a,/api/b measures only those (each against the baseline, without the reference).
    const only = process.env.BENCH_READS?.split(',').filter(Boolean);
    if (!only) entries.push(await measureAgainst('Fastify hello-world (reference)', hello, '', baseline));
    for (const ep of only ?? PUBLIC_READS) {
      const probe = await fetch(dhr.url + ep).catch(() => undefined);
      if (!probe?.ok) {
        console.log(`${ep}: not answering 200 (${probe?.status ?? 'no reply'}), not measured`);
        continue;
      }
      entries.push(await measureAgainst(`GET ${ep}`, dhr, ep, baseline));
    }
  } finally {
    await dhr.stop();
    await hello.stop();
    await baseline.stop();
  }
  return entries;
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** The functions with the most self time: share of the busy (non-idle) time and microseconds per request. */
export function topSelfTime(
  profile: CpuProfile,
  requests: number,
  count = 25,
): { busyUsPerRequest: number; top: { share: number; usPerRequest: number; fn: string }[] } {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  let busy = 0;
  profile.samples.forEach((id, i) => {
    const frame = byId.get(id)?.callFrame;
    if (!frame || frame.functionName === '(idle)') return;
    const where = frame.url.replace(/^.*node_modules\//, '').replace(`file://${root}/`, '');
    const key = `${frame.functionName || '(anonymous)'}${where ? ` ${where}:${frame.lineNumber + 1}` : ''}`;
    const dt = profile.timeDeltas[i] ?? 0;
    self.set(key, (self.get(key) ?? 0) + dt);
    busy += dt;
  });
  const top = [...self]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([fn, t]) => ({ share: Number(((t / busy) * 100).toFixed(1)), usPerRequest: Number((t / requests).toFixed(2)), fn }));
  return { busyUsPerRequest: Number((busy / requests).toFixed(1)), top };
}

/** CPU profile of the server while autocannon loads each public read in turn. */
async function profilePublicReads(endpoints: string[]): Promise<void> {
  const dhr = await startDhr({ probe: true });
  try {
    for (const ep of endpoints) await load(dhr.url + ep, 2); // warm-up, so the profile shows the steady state
    await dhr.server.ask('profile-start');
    let requests = 0;
    for (const ep of endpoints) requests += (await load(dhr.url + ep, SECONDS / 2)).total;
    const { profile } = (await dhr.server.ask('profile-stop')) as { profile: CpuProfile };
    const dir = path.join(root, 'bench/profiles');
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, `public-reads-${new Date().toISOString().replace(/[:.]/g, '-')}.cpuprofile`);
    fs.writeFileSync(file, JSON.stringify(profile));
    const { busyUsPerRequest, top } = topSelfTime(profile, requests);
    console.log(`profile written to ${path.relative(root, file)}: ${requests} requests, ${busyUsPerRequest} µs busy per request; top self time:`);
    for (const { share, usPerRequest, fn } of top) console.log(`${share.toFixed(1).padStart(5)}% ${usPerRequest.toFixed(2).padStart(6)} µs  ${fn}`);
  } finally {
    await dhr.stop();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const args = process.argv.slice(2);
  const run =
    args[0] === '--profile'
      ? profilePublicReads(args.length > 1 ? args.slice(1) : PUBLIC_READS.slice(0, 3))
      : benchPublicReads().then((entries) => {
          console.table(entries.map((e) => ({ name: e.name, rps: e.rps, 'p99 ms': e.p99Ms, baseline: e.baselineRps, ratio: e.ratio, cpuRatio: e.cpuRatio })));
          recordIfAsked(root, entries);
        });
  run.catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
