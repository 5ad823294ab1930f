/**
 * Idle footprint: DHR starts as `npm start` runs the server (PGlite under a temp
 * DATA_DIR, demo seed), answers /api/health, then sits idle; we read the server process's VmRSS from
 * /proc and ask a preloaded probe (bench/probe.mjs) for the JS heap and the buffers outside it
 * (PGlite's WebAssembly memory is one of them). Measured twice: the first start on an empty
 * DATA_DIR (it runs initdb), then a restart on the directory the first start left behind.
 * Run alone: `npx tsx bench/idle-memory.ts` (with BENCH_RECORD=1 it updates its own entry in bench/results.json).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../scripts/lib/icecast';
import { serverArgs, startProcess, tempDir, waitForHttp, whenRunAlone } from './lib';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Seconds the server sits idle after its first answer before the reading. */
const IDLE_S = Number(process.env.BENCH_IDLE_S ?? 10);
const MB = 1024 * 1024;

interface ProbeReading {
  rss: number;
  heapTotal: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
}

export interface IdleMemoryResult {
  name: string;
  /** VmRSS of the server process after the first start (empty DATA_DIR) and IDLE_S idle seconds. */
  idleRssMb: number;
  /** The same after a restart on the initialised DATA_DIR. */
  restartIdleRssMb: number;
  /** VmRSS of the restarted server 2 s after its first visitor (home page and heartbeat, with its geo lookup); goal ≤ 250 MB. */
  firstVisitorRssMb: number;
  /** That first heartbeat's answer time. */
  firstHeartbeatMs: number;
  /** VmHWM: the most the first start ever held (start-up peak). */
  peakRssMb: number;
  restartPeakRssMb: number;
  /** JS heap in use and reserved by V8. */
  jsHeapUsedMb: number;
  jsHeapTotalMb: number;
  /** Memory outside the JS heap that V8 accounts for, PGlite's WebAssembly heap included (reserved, not all resident). */
  externalMb: number;
  /** The ArrayBuffers among it (PGlite's file bundle, leftovers of initdb until collected). */
  arrayBuffersMb: number;
  idleSeconds: number;
}

const round = (bytes: number) => Number((bytes / MB).toFixed(1));

function procStatusKb(pid: number, field: string): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
}

interface Reading {
  rssMb: number;
  peakMb: number;
  probe: ProbeReading;
  firstVisitorRssMb: number;
  firstHeartbeatMs: number;
}

/** The first visitor: the home page, then its heartbeat (which looks its address up in the geo tables). */
async function firstVisit(url: string): Promise<number> {
  await (await fetch(`${url}/`)).arrayBuffer();
  const started = performance.now();
  const res = await fetch(`${url}/api/admin/heartbeat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ page: '/', anonymousId: 'bench-first-visitor-0001' }),
  });
  if (!res.ok) throw new Error(`heartbeat answered ${res.status}`);
  return performance.now() - started;
}

async function measureOnce(dataDir: string): Promise<Reading> {
  const port = await freePort();
  const server = startProcess(
    process.execPath,
    serverArgs(root, { probe: true }),
    { PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    { probe: true },
  );
  try {
    await waitForHttp(`http://127.0.0.1:${port}/api/health`, 120_000);
    await new Promise((r) => setTimeout(r, IDLE_S * 1000));
    const pid = server.child.pid ?? 0;
    const rssMb = procStatusKb(pid, 'VmRSS') / 1024;
    const peakMb = procStatusKb(pid, 'VmHWM') / 1024;
    const probe = (await server.ask('memory')) as ProbeReading;
    const firstHeartbeatMs = await firstVisit(`http://127.0.0.1:${port}`);
    await new Promise((r) => setTimeout(r, 2000));
    const firstVisitorRssMb = procStatusKb(pid, 'VmRSS') / 1024;
    return { rssMb, peakMb, probe, firstVisitorRssMb, firstHeartbeatMs };
  } finally {
    await server.stop();
  }
}

export async function benchIdleMemory(): Promise<IdleMemoryResult> {
  const dataDir = tempDir('dhr-idle-');
  try {
    const first = await measureOnce(dataDir);
    const restart = await measureOnce(dataDir);
    return {
      name: 'idle memory (npm start, PGlite)',
      idleRssMb: Number(first.rssMb.toFixed(1)),
      restartIdleRssMb: Number(restart.rssMb.toFixed(1)),
      firstVisitorRssMb: Number(restart.firstVisitorRssMb.toFixed(1)),
      firstHeartbeatMs: Number(restart.firstHeartbeatMs.toFixed(1)),
      peakRssMb: Number(first.peakMb.toFixed(1)),
      restartPeakRssMb: Number(restart.peakMb.toFixed(1)),
      jsHeapUsedMb: round(first.probe.heapUsed),
      jsHeapTotalMb: round(first.probe.heapTotal),
      externalMb: round(first.probe.external),
      arrayBuffersMb: round(first.probe.arrayBuffers),
      idleSeconds: IDLE_S,
    };
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

whenRunAlone(import.meta.url, benchIdleMemory);
