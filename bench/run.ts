// `npm run bench`: DHR's public reads against a bare node:http baseline measured in the same run
// (bench/public-reads.ts), the scale benchmarks of the radio (SSE fan-out, premium listener admission
// through Icecast URL auth, titles from the stream within a second), members admin (search, import), the live monitor, the news ingest, background jobs against listeners' requests (bench/isolation.ts), and the idle footprint
// (bench/idle-memory.ts). Updates bench/results.json (entries of other benches are kept) and prints the tables.
import fs from 'node:fs';
import path from 'node:path';
import { recordResults } from './lib';
import { benchPublicReads } from './public-reads';

const root = path.resolve(import.meta.dirname, '..');

// `npm run bench -- chat-fanout mix-range`: only the scale benches whose file names contain an argument
// (the public reads run when `public-reads` is one of them); no argument runs everything.
const only = process.argv.slice(2);
const entries = only.length && !only.includes('public-reads') ? [] : await benchPublicReads();
const extra: { name: string }[] = [];

// Scale benchmarks owned by their modules, and the idle footprint.
const scaleBenches: [string, string][] = [
  ['bench/sse-fanout.ts', 'benchSseFanout'],
  ['bench/chat-fanout.ts', 'benchChatFanout'],
  ['bench/admin-scale.ts', 'benchAdminScale'],
  ['bench/sync-preview.ts', 'benchSyncPreview'],
  ['bench/stream-auth.ts', 'benchStreamAuth'],
  ['bench/titles.ts', 'benchTitles'],
  ['bench/mix-range.ts', 'benchMixRange'],
  ['bench/mix-rendition.ts', 'benchMixRendition'],
  ['bench/live-monitor.ts', 'benchLiveMonitor'],
  ['bench/news-ingest.ts', 'benchNewsIngest'],
  ['bench/analytics.ts', 'benchAnalytics'],
  ['bench/isolation.ts', 'benchIsolation'],
  ['bench/idle-memory.ts', 'benchIdleMemory'],
];
for (const [file, fn] of scaleBenches) {
  if (!fs.existsSync(path.join(root, file))) continue;
  if (only.length && !only.some((name) => file.includes(name))) continue;
  const mod = (await import(path.join(root, file))) as Record<string, () => Promise<unknown>>;
  const bench = mod[fn];
  if (!bench) continue;
  console.log(`running ${file}...`);
  const result = await bench();
  for (const r of Array.isArray(result) ? result : [result]) extra.push(r as { name: string });
}

recordResults(root, [...entries, ...extra]);
console.table(entries.map((e) => ({ name: e.name, rps: e.rps, 'p99 ms': e.p99Ms, baseline: e.baselineRps, ratio: e.ratio })));
if (extra.length) console.table(extra);
console.log('written bench/results.json');
