// `npm run bench`: DHR's public reads against a bare node:http baseline measured in the same run,
// plus the scale benchmarks of the radio (SSE fan-out, premium listener admission) and members admin (search, import).
// Writes bench/results.json and prints the table.
import fs from 'node:fs';
import path from 'node:path';
import { freePort } from '../scripts/lib/icecast';
import { load, startProcess, tempDir, waitForHttp, type BenchEntry } from './lib';
import { startStatusStandIn } from './sse-fanout';

/** Seconds of load per endpoint (and as much again for its baseline). */
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const root = path.resolve(import.meta.dirname, '..');

const entries: BenchEntry[] = [];
const extra: Record<string, unknown>[] = [];

// The baseline (bare node:http) and DHR run side by side; each endpoint is measured in rounds that
// alternate baseline and endpoint, so drift in the machine's speed hits both sides alike.
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const basePort = await freePort();
const baseline = startProcess(process.execPath, ['--import', 'tsx', path.join(root, 'bench/baseline-server.ts')], { PORT: String(basePort) });
const baseUrl = `http://127.0.0.1:${basePort}/`;
await waitForHttp(baseUrl);

// DHR, as `npm start` runs it (PGlite under a temp DATA_DIR, demo seed), logging at warn.
const appPort = await freePort();
const dataDir = tempDir('dhr-bench-');
// A loopback stand-in for Icecast's status JSON: both channels on air, as in production.
const icecast = await startStatusStandIn('Kerri Chandler - Rain');
const server = startProcess(process.execPath, ['--import', 'tsx', path.join(root, 'src/server/main.ts')], {
  PORT: String(appPort),
  HOST: '127.0.0.1',
  DATA_DIR: dataDir,
  LOG_LEVEL: 'warn',
  DHR1_STREAM_URL: `http://127.0.0.1:${icecast.port}/dhr1`,
  DHR2_STREAM_URL: `http://127.0.0.1:${icecast.port}/dhr2`,
  DHR1_STATUS_URL: icecast.statusUrl,
  DHR2_STATUS_URL: icecast.statusUrl,
  METADATA_POLL_S: '1',
  // The first monitor pass stores the on-air track, so the recent list is not empty.
  TRACK_MONITOR_INTERVAL_S: '2',
});
const appUrl = `http://127.0.0.1:${appPort}`;
await waitForHttp(`${appUrl}/api/health`);
await waitForHttp(`${appUrl}/api/live-metadata`);
await new Promise((r) => setTimeout(r, 3000));
await load(baseUrl, 2); // warm-up

const endpoints = ['/api/health', '/api/channels', '/api/live-metadata', '/api/tracks/recent/dhr1'];
for (const ep of endpoints) {
  const probe = await fetch(appUrl + ep).catch(() => undefined);
  if (!probe?.ok) {
    console.log(`${ep}: not answering 200 (${probe?.status ?? 'no reply'}), not measured`);
    continue;
  }
  await load(appUrl + ep, 2); // warm-up
  let baseRequests = 0;
  let appRequests = 0;
  let p99Ms = 0;
  let non2xx = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const b = await load(baseUrl, SECONDS / ROUNDS);
    const r = await load(appUrl + ep, SECONDS / ROUNDS);
    baseRequests += b.rps;
    appRequests += r.rps;
    p99Ms = Math.max(p99Ms, r.p99Ms);
    non2xx += r.non2xx;
  }
  const rps = Math.round(appRequests / ROUNDS);
  const baselineRps = Math.round(baseRequests / ROUNDS);
  entries.push({ name: `GET ${ep}`, rps, p99Ms, baselineRps, ratio: Number((rps / baselineRps).toFixed(3)), non2xx });
  console.log(`${ep}: ${rps} req/s vs baseline ${baselineRps} (ratio ${(rps / baselineRps).toFixed(3)}), p99 ${p99Ms} ms`);
}
await server.stop();
await baseline.stop();
await icecast.close();
fs.rmSync(dataDir, { recursive: true, force: true });

// 3. Scale benchmarks owned by their modules.
const scaleBenches: [string, string][] = [
  ['bench/sse-fanout.ts', 'benchSseFanout'],
  ['bench/admin-scale.ts', 'benchAdminScale'],
  ['bench/stream-auth.ts', 'benchStreamAuth'],
];
for (const [file, fn] of scaleBenches) {
  if (!fs.existsSync(path.join(root, file))) continue;
  const mod = (await import(path.join(root, file))) as Record<string, () => Promise<unknown>>;
  const bench = mod[fn];
  if (!bench) continue;
  console.log(`running ${file}...`);
  const result = await bench();
  for (const r of Array.isArray(result) ? result : [result]) extra.push(r as Record<string, unknown>);
}

const all = [...entries, ...extra];
fs.writeFileSync(path.join(root, 'bench/results.json'), JSON.stringify(all, null, 2) + '\n');
console.table(entries.map((e) => ({ name: e.name, rps: e.rps, 'p99 ms': e.p99Ms, baseline: e.baselineRps, ratio: e.ratio })));
if (extra.length) console.table(extra);
console.log('written bench/results.json');
