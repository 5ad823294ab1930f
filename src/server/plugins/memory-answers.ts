import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import FindMyWay from 'find-my-way';
import { sessionCookieName } from '../lib/sessions';
import type { RequestRecorder } from './metrics';
import { PUBLIC_CORS_HEADERS } from './cors';
import { API_HEADERS } from './security';
import { preSerializedJson } from './reply-schemas';

/**
 * Public reads answered from memory before Fastify routes the request (docs/decisions/0021-memory-answers.md).
 *
 * A public GET route whose module keeps its answer in memory declares `config.fromMemory`. The HTTP
 * server asks it first: when the module holds the answer right now, it is written at once (same
 * status, body and headers as the route, compressed once per body); otherwise, and for anything
 * unusual (HEAD, a session cookie on a route that reads the session, the server closing), the
 * request goes through Fastify as before. The access policy still decides: only routes
 * whose policy is public may declare it, checked when the route is registered.
 */

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route's answer when its module holds it in memory right now (public GET routes only). */
    fromMemory?: FromMemory;
  }
  interface FastifyInstance {
    memoryAnswers: MemoryAnswers;
  }
}

/** What a route answers now, from its module's memory. */
export interface MemoryAnswer {
  /** 200 unless said otherwise. */
  status?: number;
  /** JSON text, sent as `application/json; charset=utf-8`. */
  body: string;
  cacheControl: string;
  /** Answered with 304 when the request's If-None-Match is this value. */
  etag?: string;
  /** Any further header the route sets (e.g. `pragma`). */
  headers?: Readonly<Record<string, string>>;
}

/**
 * The route's answer from memory, or undefined when the module does not hold it (the route then
 * serves the request). `params` are the route's path parameters, decoded as Fastify decodes them;
 * `query` is the raw query string, '' when there is none.
 */
export type FromMemory = (params: Readonly<Record<string, string>>, query: string) => MemoryAnswer | undefined;

interface MemoryRoute {
  url: string;
  fromMemory: FromMemory;
  /** Whether the answer is the same with a session (otherwise a request with one goes to the route). */
  sharedAnswer: boolean;
  /** Whether bodies over the threshold are compressed (the route's `compress` option). */
  compress: boolean;
  record: RequestRecorder;
  /** Headers the route's plugins add to every answer (CORS of a `cors: 'public'` route). */
  headers: Readonly<Record<string, string>>;
  /** Headers and bytes per answer object: dropped with the answer when its module drops its cache. */
  prepared: WeakMap<MemoryAnswer, Prepared>;
}

/**
 * The headers an answer carries, whichever path sends it: the memory path (prepare) and the route
 * (sendAnswer) both build them here, so a header an answer names cannot differ between the two.
 * Headers every route gets from the app's hooks (API_HEADERS, CORS) are the same constants those
 * hooks send.
 */
function answerHeaders(answer: MemoryAnswer): Record<string, string> {
  return { 'cache-control': answer.cacheControl, ...answer.headers, ...(answer.etag === undefined ? {} : { etag: answer.etag }) };
}

/**
 * The route's side of a memory answer: the same status, headers, 304 and body the memory path
 * writes, sent through Fastify (its hooks add the app's headers, compression, metrics and the log).
 * `T` is the reply type the route's schema documents (the body is sent as serialised).
 */
export function sendAnswer<T>(req: FastifyRequest, reply: FastifyReply, answer: MemoryAnswer): T {
  reply.headers(answerHeaders(answer));
  if (answer.etag !== undefined && req.headers['if-none-match'] === answer.etag) return reply.code(304).send() as T;
  return reply
    .code(answer.status ?? 200)
    .type(JSON_TYPE)
    .send(preSerializedJson<T>(answer.body)) as T;
}

/** The compression threshold of @fastify/compress as app.ts registers it. */
export const COMPRESS_THRESHOLD = 1024;
const JSON_TYPE = 'application/json; charset=utf-8';
export class MemoryAnswers {
  /**
   * Every GET route of the app, with the router Fastify uses and its options: a path finds the route
   * Fastify would pick (static before parametric, the same parameter decoding), and only a route that
   * answers from memory carries a store.
   */
  private readonly router = FindMyWay<FindMyWay.HTTPVersion.V1>({
    caseSensitive: true,
    ignoreTrailingSlash: false,
    ignoreDuplicateSlashes: false,
    maxParamLength: 100,
  });
  private closing = false;
  private sessionCookie = '';
  private logLine: ((line: Record<string, unknown>) => void) | undefined;
  private readonly memoryUrls = new Set<string>();
  /** Requests answered from memory so far (tests assert the path was taken). */
  served = 0;

  /** The request handler of the HTTP server: memory first, Fastify (`next`) otherwise. */
  serverFactory(limits: { keepAliveTimeoutMs: number; requestTimeoutMs: number; headersTimeoutMs: number; maxRequestsPerSocket: number }) {
    return (next: http.RequestListener) => {
      const server = http.createServer((req, res) => {
        if (!this.serve(req, res)) next(req, res);
      });
      // With a server factory, Fastify leaves the server's limits to us.
      server.keepAliveTimeout = limits.keepAliveTimeoutMs;
      server.requestTimeout = limits.requestTimeoutMs;
      server.headersTimeout = limits.headersTimeoutMs;
      server.maxRequestsPerSocket = limits.maxRequestsPerSocket;
      return server;
    };
  }

  configure(opts: { sessionCookie: string; logLine?: (line: Record<string, unknown>) => void }): void {
    this.sessionCookie = `${opts.sessionCookie}=`;
    this.logLine = opts.logLine;
  }

  /** The paths of the routes that answer from memory (the parity test covers each). */
  memoryRoutes(): string[] {
    return [...this.memoryUrls];
  }

  /** A GET route of the app; `memory` when it answers from memory. */
  addRoute(url: string, memory: MemoryRoute | null): void {
    this.router.on('GET', url, noHandler, memory);
    if (memory) this.memoryUrls.add(url);
  }

  close(): void {
    this.closing = true;
  }

  /** Answers `req` from memory when it can; false hands it to Fastify untouched. */
  serve(req: IncomingMessage, res: ServerResponse): boolean {
    if (req.method !== 'GET' || this.closing) return false;
    const url = req.url ?? '';
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    const found = this.router.find('GET', path);
    const route = found?.store as MemoryRoute | null | undefined;
    if (!route) return false;
    const params = found?.params as Record<string, string>;
    if (!route.sharedAnswer && req.headers.cookie?.includes(this.sessionCookie)) return false;
    const started = performance.now();
    let answer: MemoryAnswer | undefined;
    try {
      answer = route.fromMemory(params, q < 0 ? '' : url.slice(q + 1));
    } catch {
      return false; // the route itself will answer, with its own error handling
    }
    if (!answer) return false;
    const status = this.write(req, res, route, answer);
    this.served += 1;
    const ms = performance.now() - started;
    route.record('GET', status, ms / 1000);
    this.logLine?.({ method: 'GET', url: path, statusCode: status, responseTime: ms });
    return true;
  }

  private write(req: IncomingMessage, res: ServerResponse, route: MemoryRoute, answer: MemoryAnswer): number {
    const ready = this.prepare(answer, route);
    if (answer.etag !== undefined && req.headers['if-none-match'] === answer.etag) {
      res.writeHead(304, ready.notModified).end();
      return 304;
    }
    const encoding = ready.compressible ? pickEncoding(req.headers['accept-encoding']) : undefined;
    const variant = encoding ? (ready[encoding] ??= encoded(answer.body, ready.identity.headers, encoding)) : ready.identity;
    res.writeHead(ready.status, variant.headers).end(variant.body);
    return ready.status;
  }

  /** The answer's headers and bytes, built once per answer object (modules keep one per cached body). */
  private prepare(answer: MemoryAnswer, route: MemoryRoute): Prepared {
    let ready = route.prepared.get(answer);
    if (ready) return ready;
    const base = { ...API_HEADERS, ...route.headers, ...answerHeaders(answer) };
    const body = Buffer.from(answer.body);
    ready = {
      status: answer.status ?? 200,
      notModified: base,
      identity: { headers: { ...base, 'content-type': JSON_TYPE, 'content-length': body.length }, body },
      compressible: route.compress && body.length >= COMPRESS_THRESHOLD,
    };
    route.prepared.set(answer, ready);
    return ready;
  }
}

interface Variant {
  headers: Readonly<Record<string, string | number>>;
  body: Buffer;
}

interface Prepared {
  status: number;
  /** Headers of a 304 (no body, no content headers). */
  notModified: Readonly<Record<string, string>>;
  identity: Variant;
  /** Whether the body reaches the compression threshold on a route that compresses. */
  compressible: boolean;
  br?: Variant;
  gzip?: Variant;
}

/** The body compressed with `encoding`, with its headers (computed once per answer). */
function encoded(body: string, identity: Readonly<Record<string, string | number>>, encoding: 'br' | 'gzip'): Variant {
  const bytes = encoding === 'br' ? brotliCompressSync(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 5 } }) : gzipSync(body, { level: 6 });
  return { headers: { ...identity, vary: 'accept-encoding', 'content-encoding': encoding, 'content-length': bytes.length }, body: bytes };
}

/** br when the client takes it, else gzip, else none (a `q=0` refuses an encoding). */
export function pickEncoding(header: string | string[] | undefined): 'br' | 'gzip' | undefined {
  if (!header) return undefined;
  const accepted = new Set<string>();
  for (const part of String(header).split(',')) {
    const [name = '', ...attrs] = part.trim().toLowerCase().split(';');
    const refused = attrs.some((a) => /^\s*q\s*=\s*0(\.0*)?\s*$/.test(a));
    if (!refused) accepted.add(name.trim());
  }
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip') || accepted.has('*')) return 'gzip';
  return undefined;
}

const noHandler = () => undefined;

/**
 * Collects the routes that declare `fromMemory` and wires the server's memory answers to the app's
 * metrics, request log and shutdown. The instance is created before Fastify (its server factory).
 */
export const memoryAnswersPlugin = fp(
  async (app: FastifyInstance, opts: { answers: MemoryAnswers; logRequests: boolean }) => {
    const { answers } = opts;
    app.decorate('memoryAnswers', answers);
    answers.configure({
      sessionCookie: sessionCookieName(app.config.secureCookies),
      logLine: opts.logRequests ? (line) => app.log.info(line, 'request completed') : undefined,
    });
    app.addHook('onRoute', (route) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      if (!methods.includes('GET')) return; // the HEAD twin Fastify adds carries the same config
      const fromMemory = route.config?.fromMemory;
      if (fromMemory && route.config?.access?.kind !== 'public') throw new Error(`Route ${route.url} answers from memory but its policy is not public`);
      answers.addRoute(
        route.url,
        fromMemory
          ? {
              url: route.url,
              fromMemory,
              sharedAnswer: route.config?.sharedAnswer === true,
              compress: route.compress !== false,
              record: app.requestRecorder(route.url),
              headers: route.config?.cors === 'public' ? PUBLIC_CORS_HEADERS : {},
              prepared: new WeakMap(),
            }
          : null,
      );
    });
    // Like Fastify's return503OnClosing: once closing starts, requests go to Fastify, which refuses them.
    app.addHook('preClose', async () => answers.close());
  },
  { name: 'memory-answers', dependencies: ['metrics'] },
);
