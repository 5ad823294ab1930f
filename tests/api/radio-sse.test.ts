import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nowPlayingEventSchema, type NowPlayingEvent } from '../../src/contracts/radio';
import { buildApp } from '../../src/server/app';
import { loadConfig } from '../../src/server/config';
import { NOW_PLAYING_CHANNEL } from '../../src/server/modules/radio/now-playing';
import { createTestApp } from '../support/app';
import { onAir } from '../support/now-playing';

interface SseEvent {
  id?: string;
  event?: string;
  data: string;
}

/** A minimal EventSource over node:http: collects events and comment lines as they arrive. */
class SseClient {
  readonly events: SseEvent[] = [];
  readonly comments: string[] = [];
  status = 0;
  headers: http.IncomingHttpHeaders = {};
  /** Everything received, as sent. */
  text = '';
  private req: http.ClientRequest | undefined;
  private buffer = '';
  private waiters: (() => void)[] = [];

  static async connect(url: string, headers: Record<string, string> = {}, localAddress?: string): Promise<SseClient> {
    const c = new SseClient();
    await new Promise<void>((resolve, reject) => {
      c.req = http.get(url, { headers: { accept: 'text/event-stream', ...headers }, agent: false, localAddress }, (res) => {
        c.status = res.statusCode ?? 0;
        c.headers = res.headers;
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => c.feed(chunk));
        resolve();
      });
      c.req.on('error', reject);
    });
    return c;
  }

  private feed(chunk: string) {
    this.text += chunk;
    this.buffer += chunk;
    let at: number;
    while ((at = this.buffer.indexOf('\n\n')) >= 0) {
      const block = this.buffer.slice(0, at);
      this.buffer = this.buffer.slice(at + 2);
      const ev: SseEvent = { data: '' };
      let isEvent = false;
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) this.comments.push(line);
        else if (line.startsWith('id: ')) ev.id = line.slice(4);
        else if (line.startsWith('event: ')) ev.event = line.slice(7);
        else if (line.startsWith('data: ')) {
          ev.data = line.slice(6);
          isEvent = true;
        }
      }
      if (isEvent) this.events.push(ev);
    }
    for (const w of this.waiters.splice(0)) w();
  }

  nowPlaying(): (NowPlayingEvent & { id: number })[] {
    return this.events.filter((e) => e.event === 'now-playing').map((e) => ({ ...nowPlayingEventSchema.parse(JSON.parse(e.data)), id: Number(e.id) }));
  }

  async waitFor(what: string, ok: () => boolean, ms = 5000): Promise<void> {
    const deadline = Date.now() + ms;
    while (!ok()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; got ${JSON.stringify(this.events)}`);
      await new Promise<void>((r) => {
        this.waiters.push(r);
        setTimeout(r, 50);
      });
    }
  }

  close() {
    this.req?.destroy();
  }
}

describe('GET /api/live/events (Server-Sent Events)', async () => {
  const app = await createTestApp();
  let url = '';
  beforeAll(async () => {
    await app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/api/live/events`;
    await app.modules.nowPlaying.publish(onAir('dhr1', 'Kerri Chandler', 'Rain'));
    await app.modules.nowPlaying.publish(onAir('dhr2', 'Larry Heard', 'Can You Feel It'));
  });

  it('sends the current state of every channel on connect, then each change', async () => {
    const c = await SseClient.connect(url);
    expect(c.status).toBe(200);
    expect(c.headers['content-type']).toContain('text/event-stream');
    expect(c.headers['cache-control']).toContain('no-cache');
    await c.waitFor('initial state', () => c.nowPlaying().length >= 2);
    const initial = c.nowPlaying();
    expect(initial.map((e) => [e.channel, e.title])).toEqual([
      ['dhr1', 'Rain'],
      ['dhr2', 'Can You Feel It'],
    ]);
    await app.modules.nowPlaying.publish(onAir('dhr1', 'Moodymann', 'Shades Of Jae'));
    await c.waitFor('the change', () => c.nowPlaying().length >= 3);
    const change = c.nowPlaying()[2];
    expect(change).toMatchObject({ channel: 'dhr1', artist: 'Moodymann', title: 'Shades Of Jae', online: true });
    // Ids increase with every change.
    const ids = c.nowPlaying().map((e) => e.id);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
    c.close();
  });

  it('honours Last-Event-ID: a reconnect gets only what changed since', async () => {
    const first = await SseClient.connect(url);
    await first.waitFor('initial state', () => first.nowPlaying().length >= 2);
    const lastId = Math.max(...first.nowPlaying().map((e) => e.id));
    first.close();
    // While the client is away, dhr2 changes.
    await app.modules.nowPlaying.publish(onAir('dhr2', 'Ron Trent', 'Altered States'));
    const again = await SseClient.connect(url, { 'last-event-id': String(lastId) });
    await again.waitFor('the missed change', () => again.nowPlaying().length >= 1);
    await new Promise((r) => setTimeout(r, 200));
    expect(again.nowPlaying().map((e) => [e.channel, e.title])).toEqual([['dhr2', 'Altered States']]);
    again.close();
    // Up to date: nothing is replayed.
    const latest = Math.max(lastId, ...again.nowPlaying().map((e) => e.id));
    const idle = await SseClient.connect(`${url}?lastEventId=${latest}`);
    await new Promise((r) => setTimeout(r, 200));
    expect(idle.nowPlaying()).toEqual([]);
    idle.close();
    // An id this server never issued gets the full state.
    const stranger = await SseClient.connect(url, { 'last-event-id': '99999999999999' });
    await stranger.waitFor('full state', () => stranger.nowPlaying().length >= 2);
    stranger.close();
  });

  it('sends heartbeat comments from one shared timer and forgets closed clients', async () => {
    const settle = async (n: number) => {
      const deadline = Date.now() + 3000;
      while (app.modules.events.hub.size !== n && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(app.modules.events.hub.size).toBe(n);
    };
    // Earlier tests' clients leave the set as their sockets close; the shared timer stops with the last one.
    await settle(0);
    const before = 0;
    app.modules.events.hub.heartbeatMs = 100;
    const clients = await Promise.all([1, 2, 3].map(() => SseClient.connect(url)));
    await Promise.all(clients.map((c) => c.waitFor('a heartbeat', () => c.comments.includes(': heartbeat'))));
    expect(app.modules.events.hub.size).toBe(before + 3);
    for (const c of clients) c.close();
    await settle(before);
    app.modules.events.hub.heartbeatMs = 25_000;
  });

  it('tells clients when a channel goes off air', async () => {
    const c = await SseClient.connect(url);
    await c.waitFor('initial state', () => c.nowPlaying().length >= 2);
    await app.modules.nowPlaying.publish({ ...onAir('dhr2', '', ''), online: false, current_track: '', listeners: null, bitrate: null });
    await c.waitFor('off air', () => c.nowPlaying().some((e) => e.channel === 'dhr2' && !e.online));
    expect((await app.inject({ method: 'GET', url: '/api/live-metadata/dhr2' })).statusCode).toBe(503);
    c.close();
  });

  it('applies a change another instance published through NOTIFY, once', async () => {
    const c = await SseClient.connect(url);
    await c.waitFor('initial state', () => c.nowPlaying().length >= 2);
    const n = c.nowPlaying().length;
    const event = onAir('dhr1', 'Dennis Ferrer', 'Hey Hey');
    // Exactly what another instance's poller sends.
    await app.database.notify(NOW_PLAYING_CHANNEL, JSON.stringify({ v: Date.now() + 5, e: event, g: null }));
    await c.waitFor('the remote change', () => c.nowPlaying().length > n);
    // A duplicate (same content) and garbage are ignored.
    await app.database.notify(NOW_PLAYING_CHANNEL, JSON.stringify({ v: Date.now() + 10, e: event, g: null }));
    await app.database.notify(NOW_PLAYING_CHANNEL, '{"not":"valid"');
    await new Promise((r) => setTimeout(r, 300));
    expect(
      c
        .nowPlaying()
        .slice(n)
        .map((e) => e.title),
    ).toEqual(['Hey Hey']);
    expect((await app.inject({ method: 'GET', url: '/api/live-metadata' })).json()).toMatchObject({ artist: 'Dennis Ferrer', title: 'Hey Hey' });
    c.close();
  });

  it('two app instances on one database agree on what plays', async () => {
    // On PostgreSQL the second instance has its own pool and LISTEN connection; on PGlite (in-process
    // only) it shares the first one's database object, as two apps in one process would.
    const pgUrl = app.config.DATABASE_URL;
    const second = await buildApp(loadConfig({ LOG_LEVEL: 'silent', ...(pgUrl ? { DATABASE_URL: pgUrl } : {}) }, { backgroundJobs: false, memoryDb: true }), {
      logger: false,
      ...(pgUrl ? {} : { database: app.database }),
    });
    try {
      await second.listen({ port: 0, host: '127.0.0.1' });
      const secondUrl = `http://127.0.0.1:${(second.server.address() as AddressInfo).port}/api/live/events`;
      const c = await SseClient.connect(secondUrl);
      // The first instance's poller sees a change; the second instance's client hears it.
      await app.modules.nowPlaying.publish(onAir('dhr1', 'Chez Damier', 'Can You Feel It'));
      await c.waitFor('the change on the other instance', () => c.nowPlaying().some((e) => e.artist === 'Chez Damier'));
      const res = await second.inject({ method: 'GET', url: '/api/live-metadata' });
      expect(res.json()).toMatchObject({ artist: 'Chez Damier', title: 'Can You Feel It' });
      c.close();
    } finally {
      await second.close();
    }
  });

  afterAll(async () => {
    app.modules.events.hub.closeAll();
  });
});

describe('bounded live connections', async () => {
  const app = await createTestApp({ SSE_MAX_PER_IP: '2', SSE_MAX_TOTAL: '3' });
  let url = '';
  beforeAll(async () => {
    await app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/api/live/events`;
  });
  const settle = async (n: number) => {
    const deadline = Date.now() + 3000;
    while (app.modules.events.hub.size !== n && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(app.modules.events.hub.size).toBe(n);
  };

  it('caps streams per client address and in total: 503 with Retry-After and an SSE retry hint beyond', async () => {
    // Loopback answers from any 127.x address: two "clients" on one machine.
    const a = [await SseClient.connect(url, {}, '127.0.0.1'), await SseClient.connect(url, {}, '127.0.0.1')];
    expect(a.map((c) => c.status)).toEqual([200, 200]);
    const third = await SseClient.connect(url, {}, '127.0.0.1');
    expect(third.status).toBe(503);
    expect(third.headers['retry-after']).toMatch(/^[1-9]\d*$/);
    await third.waitFor('the refusal', () => third.events.length > 0);
    expect(third.text).toMatch(/^retry: [1-9]\d*\n/);
    expect(third.events[0]?.event).toBe('error');
    expect(JSON.parse(third.events[0]?.data ?? '{}')).toMatchObject({ error: { code: 'too_many_streams' } });
    third.close();

    // Another address still gets a stream, until the total cap.
    const b = await SseClient.connect(url, {}, '127.0.0.2');
    expect(b.status).toBe(200);
    const overTotal = await SseClient.connect(url, {}, '127.0.0.3');
    expect(overTotal.status).toBe(503);
    overTotal.close();
    await settle(3);

    // A closed stream frees its slot for its address.
    a[0]?.close();
    await settle(2);
    const again = await SseClient.connect(url, {}, '127.0.0.1');
    expect(again.status).toBe(200);
    for (const c of [a[1], b, again]) c?.close();
    await settle(0);
  });

  it('keeps a live stream open past the request timeouts of the server', async () => {
    // requestTimeout bounds receiving the request, not the response: a stream outlives it.
    app.server.requestTimeout = 300;
    app.server.headersTimeout = 300;
    app.modules.events.hub.heartbeatMs = 100;
    const c = await SseClient.connect(url);
    await new Promise((r) => setTimeout(r, 1200));
    await c.waitFor('heartbeats after the timeouts', () => c.comments.filter((l) => l === ': heartbeat').length >= 5);
    expect(app.modules.events.hub.size).toBe(1);
    c.close();
    await settle(0);
  });

  afterAll(async () => {
    app.modules.events.hub.closeAll();
  });
});

describe('bounded live connections over IPv6', async () => {
  // Behind a trusted proxy on loopback, the client address comes from X-Forwarded-For.
  const app = await createTestApp({ SSE_MAX_PER_IP: '2', SSE_MAX_TOTAL: '50', TRUST_PROXY: '127.0.0.1' });
  let url = '';
  beforeAll(async () => {
    await app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/api/live/events`;
  });

  it('counts IPv6 clients by their /64, like the rate limits: rotating addresses inside one /64 gets no more streams', async () => {
    const from = (address: string) => SseClient.connect(url, { 'x-forwarded-for': address });
    const ok = [await from('2001:db8:1:2::1'), await from('2001:db8:1:2:ffff::9')];
    expect(ok.map((c) => c.status)).toEqual([200, 200]);
    const rotated = await from('2001:db8:1:2:abcd:ef01:2345:6789');
    expect(rotated.status).toBe(503);
    rotated.close();
    // Another /64 is another client.
    const other = await from('2001:db8:1:3::1');
    expect(other.status).toBe(200);
    for (const c of [...ok, other]) c.close();
  });

  it('holds the cap when one /64 opens many streams at once', async () => {
    const many = await Promise.all(Array.from({ length: 8 }, (_, i) => SseClient.connect(url, { 'x-forwarded-for': `2001:db8:9:9::${i + 1}` })));
    expect(many.filter((c) => c.status === 200)).toHaveLength(2);
    expect(many.filter((c) => c.status === 503)).toHaveLength(6);
    for (const c of many) c.close();
  });

  afterAll(async () => {
    app.modules.events.hub.closeAll();
  });
});
