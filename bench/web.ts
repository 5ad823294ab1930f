// `npm run bench:web`: builds the web app, starts DHR on a free port with a temp DATA_DIR, runs
// Lighthouse 12 (mobile, Debian Chromium) on the public pages and writes the scores, layout shift,
// blocking time and JavaScript bytes into bench/results.json under `web`.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { CHROMIUM_FLAGS, CHROMIUM_PATH as CHROMIUM } from '../scripts/lib/chromium';
import { freePort } from '../scripts/lib/icecast';
import { recordResults, serverArgs, startProcess, tempDir, waitForHttp } from './lib';
import { startStatusStandIn } from './sse-fanout';

const root = path.resolve(import.meta.dirname, '..');
const ALL_PAGES = ['/', '/dhr1', '/vip', '/shop', '/forum'];

/** The value after `flag` on the command line, if given. */
function option(flag: string): string | undefined {
  const at = process.argv.indexOf(flag);
  return at > 0 ? process.argv[at + 1] : undefined;
}
/** `--pages /vip,/shop` audits only those pages. */
const PAGES = option('--pages')?.split(',') ?? ALL_PAGES;
/**
 * `--runs N` audits each page N times (default 3) and keeps the run with the median performance
 * score: one Lighthouse run on this VM varies by up to ±5 points (Lighthouse's own advice is the median of several).
 */
const RUNS = Math.max(1, Number(option('--runs') ?? 3));
const CHROME_FLAGS = ['--headless', ...CHROMIUM_FLAGS];

export interface WebPageResult {
  path: string;
  performance: number;
  accessibility: number;
  cumulativeLayoutShift: number;
  totalBlockingTimeMs: number;
  largestContentfulPaintMs: number;
  /** JavaScript bytes as the server sent them (its content encoding). */
  jsTransferBytes: number;
  /** The same scripts gzipped at level 9 from dist/web: independent of the server's compression. */
  jsGzipBytes: number;
  scripts: number;
  failingAccessibilityAudits: string[];
  /** Every run's performance score; the figures above are the median run's. */
  performanceRuns: number[];
}

interface NetworkItem {
  url: string;
  resourceType?: string;
  transferSize?: number;
}

const distDir = path.join(root, 'dist/web');
/** `--reports DIR` keeps each page's whole Lighthouse result there (the last run's), to see where its time goes. */
const reportDir = option('--reports') && path.resolve(option('--reports') ?? '');
if (reportDir) fs.mkdirSync(reportDir, { recursive: true });

function gzipBytesOf(urls: string[]): number {
  let total = 0;
  for (const url of urls) {
    const file = path.join(distDir, new URL(url).pathname);
    if (fs.existsSync(file)) total += gzipSync(fs.readFileSync(file), { level: 9 }).length;
  }
  return total;
}

async function audit(url: string, port: number): Promise<Omit<WebPageResult, 'path' | 'performanceRuns'>> {
  const result = await lighthouse(url, {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance', 'accessibility'],
    formFactor: 'mobile',
  });
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
  const { lhr } = result;
  if (reportDir) fs.writeFileSync(path.join(reportDir, `${new URL(url).pathname.slice(1).replace(/\W+/g, '_') || 'home'}.json`), JSON.stringify(lhr));
  if (lhr.runtimeError) throw new Error(`Lighthouse on ${url}: ${lhr.runtimeError.message}`);
  const numeric = (id: string) => Math.round((lhr.audits[id]?.numericValue ?? NaN) * 1000) / 1000;
  const network = (lhr.audits['network-requests']?.details as { items?: NetworkItem[] } | undefined)?.items ?? [];
  const scripts = network.filter((r) => r.resourceType === 'Script');
  const accessibility = lhr.categories.accessibility;
  return {
    performance: Math.round((lhr.categories.performance?.score ?? 0) * 100),
    accessibility: Math.round((accessibility?.score ?? 0) * 100),
    cumulativeLayoutShift: numeric('cumulative-layout-shift'),
    totalBlockingTimeMs: Math.round(numeric('total-blocking-time')),
    largestContentfulPaintMs: Math.round(numeric('largest-contentful-paint')),
    jsTransferBytes: scripts.reduce((n, r) => n + (r.transferSize ?? 0), 0),
    jsGzipBytes: gzipBytesOf(scripts.map((r) => r.url)),
    scripts: scripts.length,
    failingAccessibilityAudits: (accessibility?.auditRefs ?? []).filter((ref) => ref.weight > 0 && lhr.audits[ref.id]?.score === 0).map((ref) => ref.id),
  };
}

/**
 * Lighthouse sometimes fails to record a trace (NO_NAVSTART, seen with Debian's Chromium even on a
 * quiet machine); such a run says nothing about the page, so it is run again, up to three times.
 */
async function auditWithRetries(url: string, port: number): Promise<Omit<WebPageResult, 'path' | 'performanceRuns'>> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await audit(url, port);
    } catch (err) {
      if (attempt >= 3) throw err;
      console.log(`  ${(err as Error).message}; running it again`);
    }
  }
}

if (!fs.existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium`);

console.log('building the web app...');
execFileSync(process.execPath, [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });

const icecast = await startStatusStandIn('Kerri Chandler - Rain');
const appPort = await freePort();
const server = startProcess(process.execPath, serverArgs(root), {
  PORT: String(appPort),
  HOST: '127.0.0.1',
  DATA_DIR: tempDir('dhr-bench-web-'),
  LOG_LEVEL: 'warn',
  DHR1_STREAM_URL: `http://127.0.0.1:${icecast.port}/dhr1`,
  DHR2_STREAM_URL: `http://127.0.0.1:${icecast.port}/dhr2`,
  DHR1_STATUS_URL: icecast.statusUrl,
  DHR2_STATUS_URL: icecast.statusUrl,
});
const appUrl = `http://127.0.0.1:${appPort}`;
const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: CHROME_FLAGS, userDataDir: tempDir('dhr-bench-chrome-') });
const pages: WebPageResult[] = [];
try {
  await waitForHttp(`${appUrl}/api/health`);
  for (const page of PAGES) {
    console.log(`lighthouse ${page} (${RUNS} run${RUNS === 1 ? '' : 's'})...`);
    const runs = [];
    for (let i = 0; i < RUNS; i++) runs.push(await auditWithRetries(appUrl + page, chrome.port));
    const median = runs.toSorted((a, b) => a.performance - b.performance)[Math.floor((runs.length - 1) / 2)]!;
    pages.push({ path: page, ...median, performanceRuns: runs.map((r) => r.performance) });
  }
} finally {
  chrome.kill();
  await server.stop();
  await icecast.close();
}

// The entry named 'web' in bench/results.json; the other benchmarks' entries stay as they are.
const entry = { name: 'web', web: { measuredAt: new Date().toISOString(), lighthouse: '12', formFactor: 'mobile', runsPerPage: RUNS, pages } };
// A run over some pages only is a probe: bench/results.json keeps the figures of a whole run.
const whole = PAGES.length === ALL_PAGES.length;
if (whole) recordResults(root, [entry]);
console.table(
  pages.map((p) => ({
    page: p.path,
    perf: p.performance,
    runs: p.performanceRuns.join(' '),
    a11y: p.accessibility,
    CLS: p.cumulativeLayoutShift,
    'TBT ms': p.totalBlockingTimeMs,
    'JS transfer KB': Math.round(p.jsTransferBytes / 102.4) / 10,
    'JS gzip KB': Math.round(p.jsGzipBytes / 102.4) / 10,
  })),
);
for (const p of pages) if (p.failingAccessibilityAudits.length) console.log(`${p.path} accessibility: ${p.failingAccessibilityAudits.join(', ')}`);
console.log(whole ? 'written bench/results.json (web)' : 'not written to bench/results.json: not every page was audited');
