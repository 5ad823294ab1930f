import path from 'node:path';
import { fileURLToPath } from 'node:url';
import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import Fastify, { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { SECOND_MS } from '../contracts/time';
import type { Config } from './config';
import { openDatabase, type Database } from './db/client';
import { seedChannels, seedDemoAudio, seedDemoOnce } from './db/seed/seed';
import { accessPlugin } from './plugins/access';
import { errorsPlugin } from './plugins/errors';
import { memoryAnswersPlugin, MemoryAnswers } from './plugins/memory-answers';
import { metricsPlugin } from './plugins/metrics';
import { securityPlugin } from './plugins/security';
import { corsPlugin } from './plugins/cors';
import { webPlugin } from './plugins/web';
import { apiDocumentPlugin } from './plugins/api-document';
import { trustProxyWarning } from './lib/client-address';
import { answerListener } from './lib/event-loop';
import { mailPlugin } from './lib/mail';
import { mediaStoragePlugin } from './lib/storage/storage-plugin';
import type { MediaStorage } from './lib/storage/media-storage';
import { PageHints } from './plugins/page-hints';
import { registerModules, type Modules } from './modules/index';
import { serializeErrorForLog } from './lib/log-serializers';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    database: Database;
  }
}

export interface BuildOptions {
  /** Use this database instead of opening one from config (tests share a prepared one). */
  database?: Database;
  /** Where the web build lives; defaults to dist/web. */
  webRoot?: string;
  logger?: boolean;
  /** Where log lines go instead of stdout (tests read them). */
  logStream?: { write(line: string): void };
  /** Use this media storage instead of the configured one (tests). */
  mediaStorage?: MediaStorage;
}

/** Connection limits of the Node server: slow or idle clients cannot hold sockets forever. */
export const SERVER_LIMITS = {
  /** The request head must arrive within this time. */
  headersTimeoutMs: 10 * SECOND_MS,
  /** The whole request (head and body) must arrive within this time; responses, SSE included, are not bounded. */
  requestTimeoutMs: 30 * SECOND_MS,
  /** An idle keep-alive socket is closed after this time. */
  keepAliveTimeoutMs: 30 * SECOND_MS,
  /** A keep-alive socket serves at most this many requests, so no client pins one socket forever. */
  maxRequestsPerSocket: 1000,
} as const;

/** The path of a request URL without its query: queries may carry one-time tokens or emails. */
export function withoutQuery(url: string | undefined): string {
  if (!url) return '';
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

interface LoggedRequest {
  method: string;
  url?: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}

/** What the request log records about a request: never its query string, cookies or other headers. */
export function serializeRequestForLog(req: LoggedRequest) {
  return { method: req.method, url: withoutQuery(req.url), host: req.host, remoteAddress: req.ip, remotePort: req.socket?.remotePort };
}

/**
 * One log line per request, when it completes: method, path without its query, status and time (and
 * the request id every `req.log` line carries). Fastify's default writes two lines, each serialising
 * the whole request or reply; at info level that was most of a cached read's cost
 * (docs/decisions/0020-hot-path-and-first-paint.md). Below info nothing is built.
 */
export class RequestLogController extends LogController {
  constructor(private readonly enabled: boolean) {
    super();
  }

  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (!this.enabled && !error) return;
    const line = { method: request.method, url: withoutQuery(request.url), statusCode: reply.statusCode, responseTime: reply.elapsedTime };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}

const INFO_LEVELS: ReadonlySet<string> = new Set(['info', 'debug', 'trace']);

const defaultWebRoot = fileURLToPath(new URL('../../dist/web', import.meta.url));

function trustProxySetting(value: string | undefined): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (!value) return false;
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    return (_address, hop) => hop < hops;
  }
  return value.split(',').map((v) => v.trim());
}

/** Builds the whole app as one Fastify instance: external plugins, app plugins, then routes. */
/** The app as buildApp returns it: tests, benches and scripts reach the modules' shared objects through `modules`. */
export type DhrApp = FastifyInstance & { readonly modules: Modules };

export async function buildApp(config: Config, opts: BuildOptions = {}): Promise<DhrApp> {
  // Public reads a module holds in memory are answered by the HTTP server before Fastify routes them.
  const memoryAnswers = new MemoryAnswers();
  const logRequests = opts.logger !== false && INFO_LEVELS.has(config.LOG_LEVEL);
  const app = Fastify({
    serverFactory: memoryAnswers.serverFactory(SERVER_LIMITS),
    logger:
      opts.logger === false
        ? false
        : {
            level: config.LOG_LEVEL,
            serializers: { req: serializeRequestForLog, err: (e: unknown) => serializeErrorForLog(e) },
            ...(opts.logStream ? { stream: opts.logStream } : {}),
          },
    logController: new RequestLogController(logRequests),
    // Only the configured proxies may speak for the client's address (per-IP rate limits rely on it).
    trustProxy: trustProxySetting(config.TRUST_PROXY),
    bodyLimit: 2 * 1024 * 1024,
    // Graceful shutdown: close() lets in-flight requests finish and refuses new ones.
    return503OnClosing: true,
    forceCloseConnections: 'idle',
  }).withTypeProvider<ZodTypeProvider>();
  const proxyWarning = trustProxyWarning(config);
  if (proxyWarning) app.log.warn(proxyWarning);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const database =
    opts.database ??
    (await openDatabase({
      databaseUrl: config.DATABASE_URL,
      pgliteDir: config.memoryDb ? undefined : path.join(config.dataDir, 'db'),
      pgliteOptimize: config.PGLITE_OPTIMIZE,
    }));
  app.decorate('config', config);
  app.decorate('database', database);
  // Modules name their pages' lead images here; the web plugin, registered last, sends them.
  app.decorate('pageHints', new PageHints());
  if (!opts.database) app.addHook('onClose', async () => database.close());

  await seedChannels(database.db, config);
  await seedDemoOnce(database.db, config.SEED_DEMO);

  // First of all hooks: a listener's request counts as being answered (background work waits for it,
  // lib/event-loop.ts) from here until its headers go out. An operator's requests do not hold jobs back.
  app.addHook('onRequest', (req, reply, next) => {
    if (req.url.startsWith('/api/admin/')) next();
    else answerListener(reply.raw, next);
  });

  // External plugins.
  await app.register(cookie);
  // A GET or HEAD carries no body to inflate: its routes skip the decompression hook (it ran on
  // every public read for nothing). Registered before compress, whose own onRoute hook reads it.
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (methods.every((m) => m === 'GET' || m === 'HEAD')) route.decompress ??= false;
  });
  await app.register(compress, { threshold: 1024 });

  // App plugins: one error shape, one access policy, security headers, metrics.
  await app.register(errorsPlugin);
  await app.register(accessPlugin);
  // The API document sees every route registered after it.
  await app.register(apiDocumentPlugin);
  await app.register(securityPlugin);
  // After the access plugin: CORS's hook goes before the session lookup of the routes that opt in.
  await app.register(corsPlugin);
  await app.register(metricsPlugin);
  await app.register(memoryAnswersPlugin, { answers: memoryAnswers, logRequests });
  await app.register(mailPlugin);
  await app.register(mediaStoragePlugin, { storage: opts.mediaStorage });
  if (config.SEED_DEMO) {
    // An unreachable bucket must not stop the radio from starting: the demo mixes just have no sound yet.
    await seedDemoAudio(database.db, app.mediaStorage).catch((err: unknown) => app.log.warn({ err }, 'could not write the demo mix audio'));
  }

  // Routes, jobs and listeners, by domain, with the objects each module uses (modules/index.ts).
  const webRoot = opts.webRoot ?? defaultWebRoot;
  const modules = await registerModules(app, webRoot);
  await app.register(webPlugin, { webRoot, heads: modules.pageHeads });
  return Object.assign(app, { modules });
}
