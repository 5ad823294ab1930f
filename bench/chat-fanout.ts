/**
 * Chat fan-out: 5,000 SSE readers hold GET /api/live/events open (visitors: they read the free chat),
 * and DHR2 members post 50 messages a second for 30 s through POST /api/chat/free/messages. Every
 * message goes writer -> NOTIFY -> LISTEN -> one frame to every reader. Each reader counts every
 * message it gets: none may be lost or arrive twice. Goal: delivery p99 < 500 ms (from the moment the
 * post was sent to the moment a reader has it).
 *
 * The app runs in this process (PGlite in memory) so the bench can create the posting members; posts
 * go through inject (each poster its own client address). The readers hold real sockets from
 * READER_PROCESSES child processes (bench/chat-readers.ts); each message carries its send time.
 * Run alone: `npx tsx bench/chat-fanout.ts`; BENCH_CHAT_CLIENTS, BENCH_CHAT_RATE and BENCH_CHAT_SECONDS
 * shrink it for a quick check.
 */
import { execSync, fork, type ChildProcess } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../src/server/app';
import { loadConfig } from '../src/server/config';
import { insertMember } from '../src/server/modules/members/members-repository';
import { createSession, SESSION_COOKIE } from '../src/server/lib/sessions';
import { whenRunAlone } from './lib';

export interface ChatFanoutResult {
  name: string;
  clients: number;
  messages: number;
  deliveries: number;
  lost: number;
  duplicated: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  goalP99Ms: number;
}

/** Child processes the readers are spread over. */
const READER_PROCESSES = 2;
/** Each poster posts at most this often, under the chat's per-member limit (20 a minute). */
const POSTER_EVERY_MS = 3_000;

function openFileLimit(): number {
  try {
    return Number(execSync('ulimit -n', { shell: '/bin/sh' }).toString().trim()) || 1024;
  } catch {
    return 1024;
  }
}

export async function benchChatFanout(
  clients = Number(process.env.BENCH_CHAT_CLIENTS ?? 5000),
  rate = Number(process.env.BENCH_CHAT_RATE ?? 50),
  seconds = Number(process.env.BENCH_CHAT_SECONDS ?? 30),
): Promise<ChatFanoutResult> {
  if (openFileLimit() < clients + 200) throw new Error(`chat fan-out needs ${clients + 200} open files; raise ulimit -n and run again`);
  const total = rate * seconds;
  const config = loadConfig(
    { LOG_LEVEL: 'warn', SEED_DEMO: 'false', PUBLIC_URL: 'http://127.0.0.1', SSE_MAX_PER_IP: String(clients + 10), SSE_MAX_TOTAL: String(clients + 10) },
    { backgroundJobs: false, memoryDb: true },
  );
  const app = await buildApp(config, { logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  let children: { child: ChildProcess; share: number; ready: Promise<void> }[] = [];
  try {
    // Enough posters that none goes over the per-member limit.
    const posterCount = Math.ceil((rate * POSTER_EVERY_MS) / 1000) + 1;
    const posters: string[] = [];
    for (let i = 0; i < posterCount; i++) {
      const user = await insertMember(app.database.db, {
        email: `bench-chat-${i}@example.test`,
        username: `benchposter${i}`,
        subscriptionTier: 'dhr2',
        subscriptionStatus: 'active',
      });
      posters.push(`${SESSION_COOKIE}=${await createSession(app.database.db, user.id)}`);
    }

    // The readers run in child processes (as listeners' browsers are not in the server's process).
    children = Array.from({ length: READER_PROCESSES }, (_, i) => {
      const share = Math.floor(clients / READER_PROCESSES) + (i < clients % READER_PROCESSES ? 1 : 0);
      const child = fork(path.join(path.dirname(fileURLToPath(import.meta.url)), 'chat-readers.ts'), [base, String(share), String(total)], {
        execArgv: ['--import', 'tsx'],
      });
      const ready = new Promise<void>((resolve, reject) => {
        child.once('error', reject);
        child.once('exit', (code) => reject(new Error(`reader process exited with ${code}`)));
        child.on('message', (m: { type?: string }) => m.type === 'ready' && resolve());
      });
      return { child, share, ready };
    });
    await Promise.all(children.map((c) => c.ready));
    const ask = <T>(child: ChildProcess, type: string, answer: string) =>
      new Promise<T>((resolve) => {
        const on = (m: { type?: string }) => {
          if (m.type !== answer) return;
          child.off('message', on);
          resolve(m as T);
        };
        child.on('message', on);
        child.send({ type });
      });
    const deliveredSoFar = async () =>
      (await Promise.all(children.map((c) => ask<{ deliveries: number }>(c.child, 'progress', 'progress')))).reduce((n, r) => n + r.deliveries, 0);

    // Posts at the set rate, round-robin over the posters, each from its own address.
    const started = performance.now();
    const posts: Promise<unknown>[] = [];
    for (let seq = 0; seq < total; seq++) {
      const due = started + (seq * 1000) / rate;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      const poster = seq % posterCount;
      posts.push(
        app
          .inject({
            method: 'POST',
            url: '/api/chat/free/messages',
            headers: { cookie: posters[poster] ?? '' },
            payload: { text: `bench ${seq} ${Date.now()}` },
            remoteAddress: `10.9.${poster >> 8}.${poster & 255}`,
          })
          .then((r) => {
            if (r.statusCode !== 201) throw new Error(`post ${seq}: ${r.statusCode} ${r.body}`);
          }),
      );
    }
    await Promise.all(posts);
    // Let the last frames arrive.
    const deadline = performance.now() + 10_000;
    while ((await deliveredSoFar()) < clients * total && performance.now() < deadline) await new Promise((r) => setTimeout(r, 200));

    const results = await Promise.all(children.map((c) => ask<{ deliveries: number; counts: string; histogram: number[] }>(c.child, 'finish', 'result')));
    let deliveries = 0;
    let lost = 0;
    let duplicated = 0;
    const histogram = new Uint32Array(60_001);
    for (const r of results) {
      deliveries += r.deliveries;
      for (const n of Buffer.from(r.counts, 'base64')) {
        if (n === 0) lost += 1;
        else if (n > 1) duplicated += 1;
      }
      r.histogram.forEach((n, ms) => (histogram[ms]! += n));
    }
    const pct = (p: number) => {
      const want = Math.ceil(deliveries * p);
      let seen = 0;
      for (let ms = 0; ms < histogram.length; ms++) {
        seen += histogram[ms] ?? 0;
        if (seen >= want) return ms;
      }
      return histogram.length - 1;
    };
    let maxMs = 0;
    for (let ms = histogram.length - 1; ms >= 0; ms--)
      if ((histogram[ms] ?? 0) > 0) {
        maxMs = ms;
        break;
      }
    return {
      name: `Chat fan-out: ${clients} readers, ${rate} messages/s for ${seconds} s`,
      clients,
      messages: total,
      deliveries,
      lost,
      duplicated,
      p50Ms: pct(0.5),
      p99Ms: pct(0.99),
      maxMs,
      goalP99Ms: 500,
    };
  } finally {
    for (const c of children) c.child.kill();
    app.modules.events.hub.closeAll();
    await app.close();
  }
}

whenRunAlone(import.meta.url, benchChatFanout);
