// `npm run bench`: DHR's public reads against a bare node:http baseline measured in the same run,
// plus the scale benchmarks of the radio (SSE fan-out) and members admin (search, import).
// Writes bench/results.json and prints the table.
import fs from 'node:fs';
import path from 'node:path';
import { freePort } from '../scripts/lib/icecast';
import { load, startProcess, tempDir, waitForHttp, type BenchEntry } from './lib';
import { startStatusStandIn } from './sse-fanout';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const root = path.resolve(import.meta.dirname, '..');

const entries: BenchEntry[] = [];
const extra: Record<string, unknown>[] = [];

// 1. Baseline.
const basePort = await freePort();
const baseline = startProcess(process.execPath, ['--import', 'tsx', path.join(root, 'bench/baseline-server.ts')], { PORT: String(basePort) });
await waitForHttp(`http://127.0.0.1:${basePort}/`);
await load(`http://127.0.0.1:${basePort}/`, 2); // warm-up
const base = await load(`http://127.0.0.1:${basePort}/`, SECONDS);
await baseline.stop();
console.log(`baseline node:http: ${base.rps} req/s, p99 ${base.p99Ms} ms`);

// 2. DHR, as `npm start` runs it (PGlite under a temp DATA_DIR, demo seed), request logging at warn.
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

const endpoints = ['/api/health', '/api/channels', '/api/live-metadata', '/api/tracks/recent/dhr1'];
for (const ep of endpoints) {
  const probe = await fetch(appUrl + ep).catch(() => undefined);
  if (!probe?.ok) {
    console.log(`${ep}: not answering 200 (${probe?.status ?? 'no reply'}), not measured`);
    continue;
  }
  await load(appUrl + ep, 2);
  const r = await load(appUrl + ep, SECONDS);
  entries.push({
    name: `GET ${ep}`,
    rps: r.rps,
    p99Ms: r.p99Ms,
    baselineRps: base.rps,
    ratio: Number((r.rps / base.rps).toFixed(3)),
    non2xx: r.non2xx,
  });
}
await server.stop();
await icecast.close();
fs.rmSync(dataDir, { recursive: true, force: true });

// 3. Scale benchmarks owned by their modules.
const scaleBenches: [string, string][] = [
  ['bench/sse-fanout.ts', 'benchSseFanout'],
  ['bench/admin-scale.ts', 'benchAdminScale'],
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
