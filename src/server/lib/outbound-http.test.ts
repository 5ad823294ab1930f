import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { callService, FetchError, openServiceStream, safeFetch, serviceJson } from './outbound-http';

/** One loopback server; each test says what the next replies are. */
type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;
let replies: Handler[] = [];
const seen: { url: string; userAgent: string | undefined; at: number }[] = [];
const server = http.createServer((req, res) => {
  seen.push({ url: req.url ?? '', userAgent: req.headers['user-agent'], at: Date.now() });
  const next = replies.shift();
  if (next) next(req, res);
  else res.writeHead(500).end('no reply set up');
});
let origin = '';

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  replies = [];
  seen.length = 0;
});

const json = (status: number, body: unknown, headers: Record<string, string> = {}): Handler => {
  return (_req, res) => res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
};
const failure = async (p: Promise<unknown>): Promise<FetchError> => {
  try {
    await p;
  } catch (err) {
    if (err instanceof FetchError) return err;
    throw err;
  }
  throw new Error('expected a FetchError');
};

describe('outbound HTTP core', () => {
  it('ends a call that gets no reply within its time, naming the host', async () => {
    replies = [() => undefined];
    const err = await failure(callService(`${origin}/slow`, { timeoutMs: 100 }));
    expect(err.code).toBe('timeout');
    expect(err.message).toBe('no reply within 100 ms');
    expect(err.host).toBe('127.0.0.1');
  });

  it('stops reading a reply as soon as it passes the cap, declared or streamed', async () => {
    const big = Buffer.alloc(64 * 1024, 'x');
    replies = [
      (_req, res) => res.writeHead(200, { 'content-length': String(big.length) }).end(big),
      (_req, res) => {
        res.writeHead(200);
        const drip = setInterval(() => res.write(big), 5);
        res.on('close', () => clearInterval(drip));
      },
    ];
    expect((await failure(callService(`${origin}/declared`, { maxBytes: 1024 }))).code).toBe('too_large');
    expect((await failure(callService(`${origin}/endless`, { maxBytes: 100 * 1024, timeoutMs: 5_000 }))).code).toBe('too_large');
    // 'truncate' keeps the first bytes of an endless reply instead.
    replies = [
      (_req, res) => {
        res.writeHead(200);
        const drip = setInterval(() => res.write(big), 5);
        res.on('close', () => clearInterval(drip));
      },
    ];
    const sample = await callService(`${origin}/stream`, { maxBytes: 100_000, overflow: 'truncate' });
    expect(sample.body.byteLength).toBe(100_000);
  });

  it('retries a 503 and returns the success that follows, with a User-Agent', async () => {
    replies = [json(503, {}), json(200, { ok: true })];
    expect(await serviceJson(`${origin}/flaky`, { retries: 2, baseDelayMs: 1 })).toEqual({ ok: true });
    expect(seen).toHaveLength(2);
    expect(seen[0]?.userAgent).toMatch(/^DHR\//);
  });

  it('waits as long as Retry-After asks, and gives up at once when that is too long', async () => {
    replies = [json(429, {}, { 'retry-after': '1' }), json(200, { ok: true })];
    await serviceJson(`${origin}/limited`, { retries: 1, baseDelayMs: 1 });
    const [first, second] = seen;
    expect((second?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(950);

    seen.length = 0;
    replies = [json(429, {}, { 'retry-after': '3600' }), json(200, { ok: true })];
    const err = await failure(serviceJson(`${origin}/limited`, { retries: 3, baseDelayMs: 1 }));
    expect(err).toMatchObject({ code: 'http', status: 429, retryAfterMs: 3_600_000 });
    expect(seen).toHaveLength(1);
  });

  it('does not retry a 400', async () => {
    replies = [json(400, { error: 'bad' }), json(200, { ok: true })];
    const err = await failure(serviceJson(`${origin}/bad`, { retries: 3, baseDelayMs: 1 }));
    expect(err).toMatchObject({ code: 'http', status: 400, message: 'HTTP 400 Bad Request' });
    expect(seen).toHaveLength(1);
  });

  it('says when a reply is not JSON, and when nothing listens', async () => {
    replies = [(_req, res) => res.writeHead(200).end('<html>')];
    expect((await failure(serviceJson(`${origin}/page`))).code).toBe('not_json');
    const err = await failure(callService('http://127.0.0.1:1/', { retries: 1, baseDelayMs: 1 }));
    expect(err.message).toBe('unreachable (ECONNREFUSED)');
  });

  it('safeFetch refuses loopback unless allowed, on the same core', async () => {
    expect((await failure(safeFetch(`${origin}/feed`))).code).toBe('blocked');
    replies = [(_req, res) => res.writeHead(200).end('feed')];
    const res = await safeFetch(`${origin}/feed`, { allowPrivate: true });
    expect(res.body.toString()).toBe('feed');
    expect(seen[0]?.userAgent).toMatch(/^DHRNewsBot\//);
  });
});

describe('openServiceStream', () => {
  it('hands over an endless body as it comes, and ends it when the caller aborts', async () => {
    let closed: Promise<void> = Promise.resolve();
    replies = [
      (req, res) => {
        res.writeHead(200, { 'icy-metaint': '16000' });
        const drip = setInterval(() => res.write('x'.repeat(100)), 5);
        closed = new Promise((resolve) => res.on('close', () => resolve(clearInterval(drip))));
        expect(req.headers['icy-metadata']).toBe('1');
      },
    ];
    const abort = new AbortController();
    const { headers, body } = await openServiceStream(`${origin}/mount`, { headers: { 'icy-metadata': '1' }, signal: abort.signal });
    expect(headers['icy-metaint']).toBe('16000');
    let bytes = 0;
    await expect(
      (async () => {
        for await (const chunk of body) {
          bytes += (chunk as Buffer).length;
          if (bytes >= 1000) abort.abort();
        }
      })(),
    ).rejects.toThrow();
    await closed;
    expect(bytes).toBeGreaterThanOrEqual(1000);
    expect(seen[0]?.userAgent).toMatch(/^DHR\//);
  });

  it('throws a FetchError for a refusal, for headers that never come, and for a silent body', async () => {
    replies = [(_req, res) => res.writeHead(401).end('no')];
    expect(await failure(openServiceStream(`${origin}/mount`))).toMatchObject({ code: 'http', status: 401, host: '127.0.0.1' });
    replies = [() => undefined];
    expect(await failure(openServiceStream(`${origin}/mount`, { headersTimeoutMs: 100 }))).toMatchObject({ code: 'timeout' });
    replies = [(_req, res) => res.writeHead(200).write('a')];
    const { body } = await openServiceStream(`${origin}/mount`, { idleTimeoutMs: 100 });
    const read = async () => {
      for await (const chunk of body) void chunk;
    };
    expect(await failure(read())).toMatchObject({ code: 'timeout', message: 'no data for 100 ms' });
  });
});
