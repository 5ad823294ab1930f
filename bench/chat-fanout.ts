/**
 * Chat fan-out: 5,000 SSE readers hold GET /api/live/events open (visitors: they read the free chat),
 * and DHR2 members post 50 messages a second for 30 s through POST /api/chat/free/messages. Every
 * message goes writer -> NOTIFY -> LISTEN -> one frame to every reader. Each reader counts every
 * message it gets: none may be lost or arrive twice. Goal: delivery p99 < 500 ms (from the moment the
 * post was sent to the moment a reader has it).
 *
 * The app runs in this process (PGlite in memory) so the bench can create the posting members; posts
 * go through inject (each poster its own client address), readers through real sockets.
 * Run alone: `npx tsx bench/chat-fanout.ts`; BENCH_CHAT_CLIENTS, BENCH_CHAT_RATE and BENCH_CHAT_SECONDS
 * shrink it for a quick check.
 */
import { execSync } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../src/server/app';
import { loadConfig } from '../src/server/config';
import { insertMember } from '../src/server/modules/members/members-repository';
import { createSession, SESSION_COOKIE } from '../src/server/lib/sessions';

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

/** Connections opened at once while the crowd builds up (stays under the listen backlog). */
const CONNECT_BATCH = 250;
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
  const sockets: http.ClientRequest[] = [];
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

    const sentAt = new Float64Array(total);
    // counts[reader * total + seq]: how many times a reader got a message (1 is right).
    const counts = new Uint8Array(clients * total);
    const histogram = new Uint32Array(60_001);
    let deliveries = 0;
    const marker = /"text":"bench (\d+)"/g;

    const connectOne = (reader: number) =>
      new Promise<void>((resolve, reject) => {
        const req = http.get(`${base}/api/live/events`, { agent: false, headers: { accept: 'text/event-stream' } }, (res) => {
          if (res.statusCode !== 200) return reject(new Error(`reader ${reader}: status ${res.statusCode}`));
          res.setEncoding('utf8');
          let buffer = '';
          res.on('data', (chunk: string) => {
            const now = performance.now();
            buffer += chunk;
            const end = buffer.lastIndexOf('\n\n');
            if (end < 0) return;
            const frames = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            for (const m of frames.matchAll(marker)) {
              const seq = Number(m[1]);
              const at = reader * total + seq;
              counts[at] = Math.min(255, (counts[at] ?? 0) + 1);
              deliveries += 1;
              histogram[Math.min(60_000, Math.max(0, Math.round(now - (sentAt[seq] ?? now))))]! += 1;
            }
          });
          res.once('data', () => resolve());
        });
        req.on('error', reject);
        sockets.push(req);
      });
    for (let i = 0; i < clients; i += CONNECT_BATCH) {
      await Promise.all(Array.from({ length: Math.min(CONNECT_BATCH, clients - i) }, (_, k) => connectOne(i + k)));
    }

    // Posts at the set rate, round-robin over the posters, each from its own address.
    const started = performance.now();
    const posts: Promise<unknown>[] = [];
    for (let seq = 0; seq < total; seq++) {
      const due = started + (seq * 1000) / rate;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      const poster = seq % posterCount;
      sentAt[seq] = performance.now();
      posts.push(
        app
          .inject({
            method: 'POST',
            url: '/api/chat/free/messages',
            headers: { cookie: posters[poster] ?? '' },
            payload: { text: `bench ${seq}` },
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
    while (deliveries < clients * total && performance.now() < deadline) await new Promise((r) => setTimeout(r, 100));

    let lost = 0;
    let duplicated = 0;
    for (let i = 0; i < counts.length; i++) {
      if (counts[i] === 0) lost += 1;
      else if ((counts[i] ?? 0) > 1) duplicated += 1;
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
    for (const s of sockets) s.destroy();
    app.nowPlaying.hub.closeAll();
    await app.close();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  console.table([await benchChatFanout()]);
}
