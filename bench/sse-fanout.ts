/**
 * SSE fan-out: DHR runs as `npm start` does (child process, PGlite), 5,000 clients hold
 * GET /api/live/events open, one title changes, and we measure how long until every client has it,
 * and how much the server's RSS grew for those clients. Goals: < 2 s and < 150 MB.
 *
 * The title change comes from a loopback stand-in for Icecast's status-json.xsl polled every 50 ms, so
 * the figure is the real path (poll -> NOTIFY -> LISTEN -> one frame written to every socket).
 * `deliveryMs` counts from the moment the server saw the change (the event's `updatedAt`);
 * `endToEndMs` from the moment the stand-in started answering with the new title.
 * Run alone: `npx tsx bench/sse-fanout.ts [clients]`.
 */
import { execSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../scripts/lib/icecast';
import { rssMb, serverArgs, startProcess, tempDir, waitForHttp, whenRunAlone } from './lib';

export interface SseFanoutResult {
  name: string;
  clients: number;
  deliveryMs: number;
  /** Peak server RSS while 5,000 clients connect and receive the change, minus the idle RSS. */
  memoryGrowthMb: number;
  /** Settled RSS with all clients connected, minus the idle RSS (garbage collection can make it negative). */
  settledGrowthMb: number;
  endToEndMs: number;
  connectMs: number;
  serverRssBeforeMb: number;
  serverRssAfterMb: number;
  goalDeliveryMs: number;
  goalMemoryGrowthMb: number;
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Connections opened at once while the crowd builds up (stays under the listen backlog). */
const CONNECT_BATCH = 250;

function openFileLimit(): number {
  try {
    return Number(execSync('ulimit -n', { shell: '/bin/sh' }).toString().trim()) || 1024;
  } catch {
    return 1024;
  }
}

/**
 * RSS once it has settled (four readings 250 ms apart within 2 MB), else the median of what was seen
 * within 10 s: single readings swing with garbage collection and PGlite's own allocations.
 */
async function settledRssMb(pid: number): Promise<number> {
  const xs: number[] = [];
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    xs.push(rssMb(pid));
    const last = xs.slice(-4);
    if (last.length === 4 && Math.max(...last) - Math.min(...last) <= 2) return last.reduce((a, b) => a + b, 0) / 4;
    await new Promise((r) => setTimeout(r, 250));
  }
  xs.sort((a, b) => a - b);
  return xs[Math.floor(xs.length / 2)] ?? 0;
}

/**
 * A loopback stand-in for Icecast's status-json.xsl with mounts /dhr1 and /dhr2 on air, so DHR's
 * live metadata answers 200 without a real Icecast (bench/run.ts can point DHR1/DHR2_STATUS_URL at it).
 */
export async function startStatusStandIn(
  initialTitle: string,
  listeners = 0,
): Promise<{ port: number; statusUrl: string; setTitle: (t: string) => void; close: () => Promise<void> }> {
  let title = initialTitle;
  const server = http.createServer((_req, res) => {
    const port = (server.address() as AddressInfo).port;
    const source = (mount: string) => ({ listenurl: `http://127.0.0.1:${port}/${mount}`, title, listeners, audio_bitrate: 128 });
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ icestats: { source: [source('dhr1'), source('dhr2')] } }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    statusUrl: `http://127.0.0.1:${port}/status-json.xsl`,
    setTitle: (t) => {
      title = t;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

export async function benchSseFanout(clients = Number(process.env.BENCH_SSE_CLIENTS ?? 5000)): Promise<SseFanoutResult> {
  // The clients live in this process, so it needs one descriptor per client plus slack.
  const limit = openFileLimit();
  if (limit < clients + 200) {
    throw new Error(`SSE fan-out needs ${clients + 200} open files but ulimit -n is ${limit}; raise it (ulimit -n 20000) and run again`);
  }

  const status = await startStatusStandIn('Kerri Chandler - Rain', clients);
  const statusPort = status.port;

  const appPort = await freePort();
  const dataDir = tempDir('dhr-bench-sse-');
  const server = startProcess(process.execPath, serverArgs(root), {
    PORT: String(appPort),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    SEED_DEMO: 'false',
    METADATA_POLL_S: '0.05',
    // The stand-in serves a status page, not a stream: titles come from the status poll, as measured before.
    ICY_TITLES: 'off',
    DHR1_STREAM_URL: `http://127.0.0.1:${statusPort}/dhr1`,
    DHR2_STREAM_URL: `http://127.0.0.1:${statusPort}/dhr2`,
    DHR1_STATUS_URL: `http://127.0.0.1:${statusPort}/status-json.xsl`,
    DHR2_STATUS_URL: `http://127.0.0.1:${statusPort}/status-json.xsl`,
    // Every bench client shares 127.0.0.1; in production they come from many addresses. The caps that
    // guard one instance (SSE_MAX_PER_IP, SSE_MAX_TOTAL) are raised to the bench's size, not measured here.
    SSE_MAX_PER_IP: String(clients),
    SSE_MAX_TOTAL: String(clients),
  });
  const base = `http://127.0.0.1:${appPort}`;
  const sockets: http.ClientRequest[] = [];
  try {
    await waitForHttp(`${base}/api/live-metadata`);
    const pid = server.child.pid ?? 0;
    // Start-up (migrations, seeding) peaks far above the idle figure; let it come down first.
    await new Promise((r) => setTimeout(r, 3000));
    const serverRssBeforeMb = await settledRssMb(pid);

    const marker = `Bench Change ${Date.now()}`;
    const receivedAt = new Array<number>(clients).fill(0);
    let received = 0;
    let connected = 0;
    let onAll: () => void = () => undefined;
    const allReceived = new Promise<void>((r) => (onAll = r));

    const connectOne = (i: number) =>
      new Promise<void>((resolve, reject) => {
        const req = http.get(`${base}/api/live/events`, { agent: false, headers: { accept: 'text/event-stream' } }, (res) => {
          if (res.statusCode !== 200) return reject(new Error(`client ${i}: status ${res.statusCode}`));
          res.setEncoding('utf8');
          let tail = '';
          res.on('data', (chunk: string) => {
            if (receivedAt[i]) return;
            // A frame may arrive split; keep the end of the previous chunk.
            const text = tail + chunk;
            if (text.includes(marker)) {
              receivedAt[i] = performance.now();
              received += 1;
              if (received === clients) onAll();
            }
            tail = text.slice(-marker.length);
          });
          // The initial state is the first write: once it arrives the client is in the server's set.
          res.once('data', () => {
            connected += 1;
            resolve();
          });
        });
        req.on('error', reject);
        sockets.push(req);
      });

    // Peak RSS while the crowd connects and the change goes out (conservative: GC may lower the settled figure).
    let peakRssMb = serverRssBeforeMb;
    const sampler = setInterval(() => {
      peakRssMb = Math.max(peakRssMb, rssMb(pid));
    }, 100);
    const t0 = performance.now();
    for (let i = 0; i < clients; i += CONNECT_BATCH) {
      await Promise.all(Array.from({ length: Math.min(CONNECT_BATCH, clients - i) }, (_, k) => connectOne(i + k)));
    }
    const connectMs = Math.round(performance.now() - t0);
    if (connected !== clients) throw new Error(`only ${connected} of ${clients} clients connected`);

    // The change: the next poll sees it and publishes it.
    const changedAt = performance.now();
    const changedAtWall = Date.now();
    status.setTitle(`DHR Bench - ${marker}`);
    const timeout = new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`only ${received} of ${clients} clients got the change within 30 s`)), 30_000).unref(),
    );
    await Promise.race([allReceived, timeout]);
    const lastAt = Math.max(...receivedAt);
    // With every client still connected.
    const serverRssAfterMb = await settledRssMb(pid);
    clearInterval(sampler);
    peakRssMb = Math.max(peakRssMb, serverRssAfterMb);

    // When the server saw the change, from its own clock (same machine).
    const meta = (await (await fetch(`${base}/api/live-metadata`)).json()) as { updatedAt?: string };
    const seenWall = meta.updatedAt ? Date.parse(meta.updatedAt) : changedAtWall;
    const endToEndMs = Math.round(lastAt - changedAt);
    const deliveryMs = Math.max(0, Math.round(endToEndMs - (seenWall - changedAtWall)));

    return {
      name: `SSE fan-out: ${clients} clients, one title change`,
      clients,
      deliveryMs,
      memoryGrowthMb: Number((peakRssMb - serverRssBeforeMb).toFixed(1)),
      settledGrowthMb: Number((serverRssAfterMb - serverRssBeforeMb).toFixed(1)),
      endToEndMs,
      connectMs,
      serverRssBeforeMb: Number(serverRssBeforeMb.toFixed(1)),
      serverRssAfterMb: Number(serverRssAfterMb.toFixed(1)),
      goalDeliveryMs: 2000,
      goalMemoryGrowthMb: 150,
    };
  } finally {
    for (const s of sockets) s.destroy();
    await server.stop();
    await status.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

whenRunAlone(import.meta.url, () => benchSseFanout(process.argv[2] ? Number(process.argv[2]) : undefined));
