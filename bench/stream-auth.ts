// How long Icecast takes to admit a premium listener through DHR (URL listener auth, ADR 0012):
// 200 listeners connect at once to a real icecast2; a timing relay between Icecast and the hook records
// each listener_add round trip. The same run measures a bare node:http hook as the baseline.
// Run alone: `npx tsx bench/stream-auth.ts`; `npm run bench` calls benchStreamAuth().
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildApp } from '../src/server/app';
import { loadConfig } from '../src/server/config';
import { insertMember } from '../src/server/modules/members/members-repository';
import { freePort, hasIcecast, ICECAST_INSTALL_HINT, startIcecast } from '../scripts/lib/icecast';
import { whenRunAlone } from './lib';

const CONNECTS = Number(process.env.BENCH_STREAM_CONNECTS ?? 200);
/** The issue's budget for a listener_add round trip at p95. */
const BUDGET_P95_MS = 50;
const KEY = 'bench-stream-auth-key-0123456789';

export interface StreamAuthEntry {
  name: string;
  connects?: number;
  admitted?: number;
  p95Ms?: number;
  p99Ms?: number;
  baselineP95Ms?: number;
  /** Connects Icecast turned away as busy (over 100 pending checks) or reset, and that were tried again. */
  icecastBusyRetries?: number;
  /** Connects that were not admitted, by reason. */
  failures?: Record<string, number>;
  budgetP95Ms?: number;
  withinBudget?: boolean;
  skipped?: string;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}
const round1 = (n: number) => Math.round(n * 10) / 10;

/** Relays Icecast's auth POSTs to `target` and records each round trip in ms. */
function startRelay(): Promise<{ url: string; setTarget: (url: string) => void; times: number[]; close: () => Promise<void> }> {
  let target = '';
  const times: number[] = [];
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const server = http.createServer((req, res) => {
    const started = performance.now();
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const up = http.request(
        target,
        { method: 'POST', agent, headers: { ...req.headers, host: new URL(target).host, 'content-length': body.length } },
        (upRes) => {
          const out: Buffer[] = [];
          upRes.on('data', (c: Buffer) => out.push(c));
          upRes.on('end', () => {
            if (body.toString().includes('action=listener_add')) times.push(performance.now() - started);
            res.writeHead(upRes.statusCode ?? 502, upRes.headers);
            res.end(Buffer.concat(out));
          });
        },
      );
      up.on('error', () => {
        res.writeHead(502);
        res.end();
      });
      up.end(body);
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as AddressInfo).port;
      resolve({
        url: `http://127.0.0.1:${port}/api/stream-auth/listener`,
        setTarget: (u) => (target = u),
        times,
        close: () =>
          new Promise<void>((r) => {
            agent.destroy();
            server.closeAllConnections();
            server.close(() => r());
          }),
      });
    });
  });
}

/**
 * Icecast 2.4 answers 403 "busy" while more than 100 auth checks wait (and may reset a connection in a
 * burst); players retry, so do we, this many times, 1-2 s apart (a tighter retry storm would load this
 * process, where the relay measures).
 */
const BUSY_RETRIES = 40;

/** Opens one listener per URL, all at once; resolves with how many were admitted (a busy 403 is retried after a pause). */
async function connectAll(urls: string[]): Promise<{ admitted: number; busyRetries: number; failures: Record<string, number> }> {
  let busyRetries = 0;
  const failures: Record<string, number> = {};
  const fail = (why: string) => {
    failures[why] = (failures[why] ?? 0) + 1;
    return false;
  };
  const results = await Promise.all(
    urls.map(async (url) => {
      for (let attempt = 0; attempt <= BUSY_RETRIES; attempt++) {
        const controller = new AbortController();
        try {
          const res = await fetch(url, { signal: controller.signal });
          // Admitted is all we measure: hang up at once rather than decode audio beside DHR.
          controller.abort();
          if (res.status === 200) return true;
          if (res.status !== 403) return fail(`HTTP ${res.status}`);
        } catch {
          // Icecast under a burst sometimes resets a connection before answering; a player tries again.
        }
        busyRetries += 1;
        await new Promise((r) => setTimeout(r, 1000 + Math.random() * 1000));
      }
      return fail('still busy after retries');
    }),
  );
  return { admitted: results.filter(Boolean).length, busyRetries, failures };
}

export async function benchStreamAuth(): Promise<StreamAuthEntry> {
  const name = `Icecast admits a premium listener through DHR (listener_add, ${CONNECTS} concurrent connects)`;
  if (!hasIcecast) {
    console.log(`stream-auth: icecast2/ffmpeg missing, skipped (${ICECAST_INSTALL_HINT})`);
    return { name, skipped: 'icecast2 or ffmpeg not installed' };
  }
  const icecastPort = await freePort();
  const config = loadConfig(
    { LOG_LEVEL: 'silent', SEED_DEMO: 'false', STREAM_AUTH_KEY: KEY, DHR1_STREAM_URL: `http://127.0.0.1:${icecastPort}/dhr1` },
    { backgroundJobs: false, memoryDb: true },
  );
  const app = await buildApp(config, { logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const dhrHook = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/api/stream-auth/listener`;

  // The baseline: a bare node:http hook that admits everyone.
  const bare = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'icecast-auth-user': '1', 'content-type': 'application/json' });
      res.end('{"admitted":true}');
    });
  });
  await new Promise<void>((r) => bare.listen(0, '127.0.0.1', r));
  const bareHook = `http://127.0.0.1:${(bare.address() as AddressInfo).port}/`;

  const relay = await startRelay();
  const radio = await startIcecast({ port: icecastPort, maxClients: CONNECTS * 2 + 50, listenerAuth: { mounts: ['dhr1'], url: relay.url, key: KEY } });
  try {
    await radio.startFeed('dhr1', { bitrateKbps: 320 });
    // One member per listener, as on air: a member may hold only STREAM_MAX_CONCURRENT connections.
    const listenerUrls = async (n: number, tag: string) => {
      const urls: string[] = [];
      for (let i = 0; i < n; i++) {
        const member = await insertMember(app.database.db, {
          email: `bench-listener-${tag}-${i}@example.test`,
          username: `benchlistener${tag}${i}`,
          subscriptionTier: 'dhr1',
          subscriptionStatus: 'active',
        });
        urls.push(`${radio.streamUrl('dhr1')}?token=${app.modules.streamTokens.issue(member.id, '/dhr1').token}`);
      }
      return urls;
    };
    const [warmUp, listeners] = [await listenerUrls(20, 'w'), await listenerUrls(CONNECTS, 'm')];

    relay.setTarget(bareHook);
    await connectAll(warmUp);
    relay.times.length = 0;
    const bareRun = await connectAll(listeners);
    const baseline = [...relay.times].sort((a, b) => a - b);
    if (bareRun.admitted < CONNECTS) console.log(`stream-auth: the bare hook got ${bareRun.admitted}/${CONNECTS} admitted`);

    relay.setTarget(dhrHook);
    await connectAll(warmUp);
    relay.times.length = 0;
    const run = await connectAll(listeners);
    const times = [...relay.times].sort((a, b) => a - b);
    const p95 = round1(percentile(times, 95));
    const entry: StreamAuthEntry = {
      name,
      connects: CONNECTS,
      admitted: run.admitted,
      p95Ms: p95,
      p99Ms: round1(percentile(times, 99)),
      baselineP95Ms: round1(percentile(baseline, 95)),
      icecastBusyRetries: run.busyRetries,
      failures: run.failures,
      budgetP95Ms: BUDGET_P95_MS,
      withinBudget: p95 < BUDGET_P95_MS && run.admitted === CONNECTS,
    };
    console.log(
      `stream-auth: listener_add p95 ${entry.p95Ms} ms (p99 ${entry.p99Ms} ms; bare hook p95 ${entry.baselineP95Ms} ms), ` +
        `${run.admitted}/${CONNECTS} admitted (${run.busyRetries} retries after a busy answer or reset${run.admitted < CONNECTS ? `; not admitted: ${JSON.stringify(run.failures)}` : ''}); budget < ${BUDGET_P95_MS} ms: ${entry.withinBudget ? 'met' : 'MISSED'}`,
    );
    return entry;
  } finally {
    await radio.stop();
    await relay.close();
    await new Promise((r) => bare.close(r));
    await app.close();
  }
}

whenRunAlone(import.meta.url, benchStreamAuth);
