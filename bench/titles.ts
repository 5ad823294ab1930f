// Titles within a second of the audio: a real Icecast, an ffmpeg source on a premium mount (listener
// auth through DHR, as on air, at its 320 kbps), and DHR as `npm start` runs it (its own process, PGlite under a temp
// DATA_DIR, or PostgreSQL with BENCH_DATABASE_URL; the status poll at its default period). The title is
// changed 20 times through Icecast's admin metadata call (what a source's metadata update does); for
// each change the delay until (a) an SSE now-playing event carries it and (b) /api/nowplaying/dhr1
// shows it is measured. Goal: p95 ≤ 1 s for both. The same run with ICY_TITLES=off (the status poll
// alone) follows as the baseline. Also checks that DHR's own reader connection is not
// in the listener figure. Run alone: `npx tsx bench/titles.ts`; `npm run bench -- titles` calls benchTitles().
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SECOND_MS } from '../src/contracts/time';
import { freePort, hasIcecast, ICECAST_INSTALL_HINT, startIcecast, type IcecastServer } from '../scripts/lib/icecast';
import { startBenchServer, tempDir, waitForHttp, whenRunAlone } from './lib';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CHANGES = Number(process.env.BENCH_TITLE_CHANGES ?? 20);
const GOAL_P95_MS = 1000;
const BITRATE_KBPS = 320;
/** METADATA_POLL_S's default, which the bench server keeps. */
const STATUS_POLL_S = 10;
/** A change not seen after this long counts as this long (and fails the goal). */
const GIVE_UP_MS = 15_000;
const KEY = 'bench-stream-auth-key-0123456789';

export interface TitlesEntry {
  name: string;
  changes?: number;
  sseP50Ms?: number;
  sseP95Ms?: number;
  sseMaxMs?: number;
  apiP50Ms?: number;
  apiP95Ms?: number;
  apiMaxMs?: number;
  goalP95Ms?: number;
  withinGoal?: boolean;
  /** What Icecast counts on the mount (DHR's reader) and what DHR reports: the reader must not be a listener. */
  icecastListeners?: number;
  dhrListeners?: number;
  bitrateKbps?: number;
  statusPollS?: number;
  database?: 'pglite' | 'postgres';
  cpus?: number;
  loadAverage?: number[];
  skipped?: string;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
const round1 = (n: number) => Math.round(n * 10) / 10;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Follows /api/live/events and keeps, per title, when its now-playing event first arrived. */
function followSse(port: number): { seen: Map<string, number>; close: () => void } {
  const seen = new Map<string, number>();
  let buffer = '';
  const req = http.get(`http://127.0.0.1:${port}/api/live/events`, { agent: false }, (res) => {
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      const at = performance.now();
      buffer += chunk;
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = /^data: (.*)$/m.exec(frame)?.[1];
        if (!frame.includes('event: now-playing') || !data) continue;
        const title = (JSON.parse(data) as { title?: string }).title ?? '';
        if (!seen.has(title)) seen.set(title, at);
      }
    });
  });
  req.on('error', () => undefined);
  return { seen, close: () => req.destroy() };
}

async function nowPlaying(port: number): Promise<{ title: string; listeners: number; online: boolean }> {
  const res = await fetch(`http://127.0.0.1:${port}/api/nowplaying/dhr1`);
  const doc = (await res.json()) as { is_online: boolean; listeners: { current: number }; now_playing: { song: { title: string } } };
  return { title: doc.now_playing.song.title, listeners: doc.listeners.current, online: doc.is_online };
}

/** Polls /api/nowplaying every 20 ms until it shows `title`; the time it first did. */
async function apiShows(port: number, title: string, deadline: number): Promise<number | undefined> {
  while (performance.now() < deadline) {
    if ((await nowPlaying(port)).title === title) return performance.now();
    await sleep(20);
  }
  return undefined;
}

function mountListeners(doc: unknown): number {
  const source = (doc as { icestats?: { source?: unknown } }).icestats?.source;
  const list = (Array.isArray(source) ? source : source ? [source] : []) as { listenurl?: string; listeners?: number }[];
  return list.find((s) => s.listenurl?.endsWith('/dhr1'))?.listeners ?? -1;
}

/** Changes the title CHANGES times; each change's delay to the SSE event and to /api/nowplaying, sorted. */
async function measureChanges(
  port: number,
  radio: IcecastServer,
  sse: ReturnType<typeof followSse>,
  spreadMs: number,
): Promise<{ sseMs: number[]; apiMs: number[] }> {
  const sseMs: number[] = [];
  const apiMs: number[] = [];
  for (let i = 1; i <= CHANGES; i++) {
    const title = `Track ${i} ${Date.now().toString(36)}`;
    // Changes land anywhere between two metadata blocks (or two status reads), as real ones do.
    await sleep(300 + Math.random() * spreadMs);
    const changed = performance.now();
    await radio.setTitle('dhr1', `Bench Artist - ${title}`);
    const api = await apiShows(port, title, changed + GIVE_UP_MS);
    apiMs.push((api ?? changed + GIVE_UP_MS) - changed);
    while (!sse.seen.has(title) && performance.now() < changed + GIVE_UP_MS) await sleep(10);
    sseMs.push((sse.seen.get(title) ?? changed + GIVE_UP_MS) - changed);
  }
  return { sseMs: sseMs.sort((a, b) => a - b), apiMs: apiMs.sort((a, b) => a - b) };
}

/** One run: DHR with the in-band reader (`icy`) or with the status poll only, against a fresh Icecast. */
async function run(name: string, icy: boolean): Promise<TitlesEntry> {
  const [icecastPort, port] = [await freePort(), await freePort()];
  const databaseUrl = process.env.BENCH_DATABASE_URL;
  const stream = (m: string) => `http://127.0.0.1:${icecastPort}/${m}`;
  const server = startBenchServer(root, port, tempDir('dhr-bench-titles-'), databaseUrl, {
    STREAM_AUTH_KEY: KEY,
    ICY_TITLES: icy ? 'on' : 'off',
    DHR1_STREAM_URL: stream('dhr1'),
    DHR2_STREAM_URL: stream('dhr2'),
    DHR1_FREE_STREAM_URL: stream('dhr1-free'),
  });
  let radio: IcecastServer | undefined;
  let sse: ReturnType<typeof followSse> | undefined;
  try {
    await waitForHttp(`http://127.0.0.1:${port}/api/health`);
    radio = await startIcecast({
      listenerAuth: { mounts: ['dhr1', 'dhr2'], url: `http://127.0.0.1:${port}/api/stream-auth/listener`, key: KEY },
      port: icecastPort,
    });
    // The premium mount's bitrate: Icecast's default in-band metadata interval (16,000 bytes) is then 0.4 s of audio.
    await radio.startFeed('dhr1', { bitrateKbps: BITRATE_KBPS });
    await radio.setTitle('dhr1', 'Bench - Warm Up');
    const ready = performance.now() + 60_000;
    // On air with its first title, and DHR's reader (reconnecting with backoff until Icecast came up) on the mount.
    while ((await nowPlaying(port)).title !== 'Warm Up' || mountListeners(await radio.status()) !== (icy ? 1 : 0)) {
      if (performance.now() > ready) throw new Error('DHR did not show the first title (with its reader connected) within 60 s');
      await sleep(100);
    }
    sse = followSse(port);
    await sleep(500);
    // Spread over a metadata interval and more (0.4 s), or over a whole poll period for the baseline.
    const { sseMs, apiMs } = await measureChanges(port, radio, sse, icy ? SECOND_MS : STATUS_POLL_S * SECOND_MS);
    const entry: TitlesEntry = {
      name,
      changes: CHANGES,
      sseP50Ms: round1(percentile(sseMs, 50)),
      sseP95Ms: round1(percentile(sseMs, 95)),
      sseMaxMs: round1(sseMs.at(-1) ?? 0),
      apiP50Ms: round1(percentile(apiMs, 50)),
      apiP95Ms: round1(percentile(apiMs, 95)),
      apiMaxMs: round1(apiMs.at(-1) ?? 0),
      ...(icy ? { goalP95Ms: GOAL_P95_MS, withinGoal: percentile(sseMs, 95) <= GOAL_P95_MS && percentile(apiMs, 95) <= GOAL_P95_MS } : {}),
      icecastListeners: mountListeners(await radio.status()),
      dhrListeners: (await nowPlaying(port)).listeners,
      bitrateKbps: BITRATE_KBPS,
      statusPollS: STATUS_POLL_S,
      database: databaseUrl ? 'postgres' : 'pglite',
      cpus: os.availableParallelism(),
      loadAverage: os.loadavg().map((l) => Math.round(l * 100) / 100),
    };
    console.log(
      `titles${icy ? '' : ' (status poll only)'}: SSE p95 ${entry.sseP95Ms} ms (max ${entry.sseMaxMs}), /api/nowplaying p95 ${entry.apiP95Ms} ms (max ${entry.apiMaxMs})` +
        `${icy ? `; goal p95 ≤ ${GOAL_P95_MS} ms: ${entry.withinGoal ? 'met' : 'MISSED'}` : ''}; Icecast counts ${entry.icecastListeners} on the mount, DHR reports ${entry.dhrListeners}`,
    );
    return entry;
  } finally {
    sse?.close();
    await radio?.stop();
    await server.stop();
  }
}

/** With the in-band reader (the figures that count), then the status poll alone (what it replaced; BENCH_TITLES_BASELINE=0 skips it). */
export async function benchTitles(): Promise<TitlesEntry[]> {
  const name = `Titles: a title change on the source to the SSE event and /api/nowplaying (real Icecast, premium mount, ${CHANGES} changes)`;
  const baselineName = 'Titles, baseline: the same with ICY_TITLES=off (titles from the status poll every 10 s)';
  if (!hasIcecast) {
    console.log(`titles: icecast2/ffmpeg missing, skipped (${ICECAST_INSTALL_HINT})`);
    return [{ name, skipped: 'icecast2 or ffmpeg not installed' }];
  }
  const entries = [await run(name, true)];
  if (process.env.BENCH_TITLES_BASELINE !== '0') entries.push(await run(baselineName, false));
  return entries;
}

whenRunAlone(import.meta.url, benchTitles);
