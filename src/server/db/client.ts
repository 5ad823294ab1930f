import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import v8 from 'node:v8';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { ADVISORY_LOCKS, type AdvisoryLock } from './advisory-locks';
import * as schema from './schema';
import { acquireDirLock, type DirLock } from './dir-lock';
import { BackgroundPacer, currentLane } from './lanes';
import { PgliteThread } from './pglite-thread';

export type Schema = typeof schema;
/** The database or a transaction: repositories accept either, so callers can compose them in one transaction. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export type NotifyHandler = (payload: string) => void;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Publish on a Postgres NOTIFY channel; every instance listening on the same database receives it. */
  notify(channel: string, payload: string): Promise<void>;
  /** Subscribe to a NOTIFY channel; returns an unsubscribe function. */
  listen(channel: string, handler: NotifyHandler): Promise<() => Promise<void>>;
  ping(): Promise<void>;
  /**
   * Runs `fn` holding a session-level advisory try-lock on a connection of its own, outside any
   * transaction (a job that calls out, such as the sync, holds it across instances without keeping a
   * transaction open). `locked: false` when another session holds it. PGlite (one process owns the
   * database): runs `fn`.
   */
  withTryLock<T>(lock: AdvisoryLock, fn: () => Promise<T>): Promise<{ locked: true; value: T } | { locked: false }>;
  close(): Promise<void>;
}

/** DHR's migrations (drizzle-kit's folder; copied beside the bundle by the build). */
export const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

/**
 * PGlite starts Postgres with the server defaults, whose shared_buffers (128 MB) is allocated and
 * zeroed inside the WebAssembly heap, so all of it is resident from the first second. DHR's whole
 * database is a few megabytes and its files sit in the OS page cache anyway: 16 MB of buffers keeps
 * every hot page while the idle process holds about 110 MB less (docs/decisions/0014-lean-idle-and-hot-path.md).
 */
/** How every PGlite of DHR starts (the server, its first init, backups and restores). */
export const pgliteStartParams = [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'];

export interface OpenDatabaseOptions {
  /** PostgreSQL URL; when absent PGlite is used. */
  databaseUrl?: string | undefined;
  /** Where PGlite persists; undefined means in memory (tests). */
  pgliteDir?: string | undefined;
  /** Compile PGlite's WebAssembly with V8's optimizing tier too (PGLITE_OPTIMIZE): see baselineWasmOnly. */
  pgliteOptimize?: boolean | undefined;
}

/** Open the database, apply migrations, and return it. */
export async function openDatabase(opts: OpenDatabaseOptions): Promise<Database> {
  if (!opts.databaseUrl && !opts.pgliteOptimize) baselineWasmOnly();
  const database = opts.databaseUrl ? await openPostgres(opts.databaseUrl) : await openPglite(opts.pgliteDir);
  return database;
}

/**
 * PGlite's Postgres is WebAssembly. V8 compiles it with its baseline compiler (Liftoff), then again,
 * function by function as they get hot, with its optimizing one (TurboFan). The second copy costs an
 * idle server about 55 MB and a start about two seconds, for large scans about 25% faster (measured
 * in docs/decisions/0026-compiled-start-and-install.md). The embedded database of a small station
 * keeps the baseline code only, unless PGLITE_OPTIMIZE=true. The flag is process-wide and read when
 * a module is compiled, so it is set before PGlite loads; PostgreSQL runs no WebAssembly at all.
 */
function baselineWasmOnly(): void {
  v8.setFlagsFromString('--liftoff-only');
}

/**
 * Creates the cluster in `dir` in a short-lived child process. PGlite's initdb runs a second
 * Postgres instance with its own WebAssembly heap and leaves 100-450 MB of garbage that an idle
 * server has no reason to collect; done in a child, that memory goes back to the system when it
 * exits, and the server then resumes the directory like any restart (docs/decisions/0014-lean-idle-and-hot-path.md).
 */
async function initPgliteDir(dir: string): Promise<void> {
  const pglite = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const script = `const { PGlite } = require(process.argv[1]);
const db = new PGlite(process.argv[2], { startParams: JSON.parse(process.argv[3]) });
db.waitReady.then(() => db.close()).catch((err) => { console.error(err); process.exit(1); });`;
  await promisify(execFile)(process.execPath, ['--liftoff-only', '-e', script, pglite, dir, JSON.stringify(pgliteStartParams)], {
    maxBuffer: 16 * 1024 * 1024,
  });
}

async function openPglite(dir: string | undefined): Promise<Database> {
  let lock: DirLock | undefined;
  if (dir) {
    fs.mkdirSync(dir, { recursive: true });
    // PGlite has no lock of its own; two processes on one directory corrupt it.
    lock = acquireDirLock(path.join(dir, '..', 'db.lock'), dir);
  }
  let client: PgliteThread;
  try {
    if (dir && !fs.existsSync(path.join(dir, 'PG_VERSION'))) await initPgliteDir(dir);
    // Its own thread: a long statement never holds the server's event loop (pglite-thread.ts).
    client = await PgliteThread.start(dir, pgliteStartParams);
  } catch (err) {
    lock?.release();
    throw err;
  }
  const db = drizzlePglite({ client: client as unknown as PGlite, schema }) as unknown as Db;
  try {
    await migratePglite(drizzlePglite({ client: client as unknown as PGlite, schema }), { migrationsFolder });
  } catch (err) {
    await client.close().catch(() => undefined);
    lock?.release();
    throw err;
  }
  return {
    db,
    kind: 'pglite',
    async notify(channel, payload) {
      client.notify(channel, payload);
    },
    async listen(channel, handler) {
      const unsub = await client.listen(channel, handler);
      return async () => unsub();
    },
    async ping() {
      await client.query('SELECT 1');
    },
    async withTryLock(_lock, fn) {
      return { locked: true, value: await fn() };
    },
    async close() {
      try {
        await client.close();
      } finally {
        lock?.release();
      }
    },
  };
}

/** The application_name of every connection a DHR server opens: `npm run restore` refuses a database DHR is connected to. */
export const DHR_APPLICATION_NAME = 'dhr';

/**
 * The connection settings of DHR's own connections: named DHR_APPLICATION_NAME in pg_stat_activity.
 * pg lets the URL's `application_name` win over the config, so one given in DATABASE_URL is dropped.
 */
export function dhrConnection(url: string): { connectionString: string; application_name: string } {
  const u = new URL(url);
  if (!u.searchParams.has('application_name')) return { connectionString: url, application_name: DHR_APPLICATION_NAME };
  u.searchParams.delete('application_name');
  return { connectionString: u.toString(), application_name: DHR_APPLICATION_NAME };
}

/** Connections for requests, and for background work (db/lanes.ts): a job never holds a request's connection. */
const REQUEST_CONNECTIONS = 10;
const BACKGROUND_CONNECTIONS = 2;

/**
 * The background pool's query and connect, each unit (a statement, or a client from connect to
 * release: a transaction) paced by `pacer` (db/lanes.ts BACKGROUND_SHARE). Callback forms pass through.
 */
function pacedPool(background: pg.Pool, pacer: BackgroundPacer): Pick<pg.Pool, 'query' | 'connect'> {
  const query = ((...args: unknown[]) => {
    if (typeof args.at(-1) === 'function') return (background.query as (...a: unknown[]) => unknown)(...args);
    return pacer.run(() => (background.query as (...a: unknown[]) => Promise<unknown>)(...args));
  }) as pg.Pool['query'];
  const connect = ((...args: unknown[]) => {
    if (args.length > 0) return (background.connect as (...a: unknown[]) => unknown)(...args);
    return (async () => {
      await pacer.ready();
      const started = performance.now();
      const client = await background.connect();
      // pg-pool gives the client a new release at each checkout, so this wraps only this checkout's.
      const release = client.release.bind(client);
      client.release = (err?: Error | boolean) => {
        pacer.ended(started);
        release(err);
      };
      return client;
    })();
  }) as pg.Pool['connect'];
  return { query, connect };
}

/**
 * The request pool, which hands a statement or a transaction of the background lane (db/lanes.ts) to
 * a small pool of its own: however many chunks or sources a job has in flight, it holds at most
 * BACKGROUND_CONNECTIONS connections and waits for them itself, and requests keep all of theirs
 * (docs/decisions/0034-background-work-off-the-request-path.md). drizzle sees one pg.Pool.
 */
class LanePool extends pg.Pool {
  constructor(
    config: pg.PoolConfig,
    readonly background: pg.Pool,
  ) {
    super(config);
    // pg.Pool's overloads (callback or promise) pass through unchanged to the lane's pool.
    const own = { query: this.query.bind(this), connect: this.connect.bind(this) };
    const bg = pacedPool(background, new BackgroundPacer());
    const lane = () => (currentLane() === 'background' ? bg : own);
    this.query = ((...args: Parameters<pg.Pool['query']>) => lane().query(...args)) as pg.Pool['query'];
    this.connect = ((...args: Parameters<pg.Pool['connect']>) => lane().connect(...args)) as pg.Pool['connect'];
    this.connectUnpaced = () => (currentLane() === 'background' ? background.connect() : own.connect());
  }

  /**
   * A connection of the caller's lane that does not wait for the background lane's rest: for holding a
   * lock while work runs (withTryLock), where the try must happen when it is asked for, not later.
   */
  readonly connectUnpaced: () => Promise<pg.PoolClient>;

  override async end(): Promise<void> {
    await Promise.all([super.end(), this.background.end()]);
  }
}

async function openPostgres(url: string): Promise<Database> {
  // A server that accepts no connection fails the request within seconds (a 503), instead of queueing it forever.
  const config = { ...dhrConnection(url), connectionTimeoutMillis: 5000 };
  // Background work may wait longer for one of its own connections: it is not a listener.
  const pool = new LanePool({ ...config, max: REQUEST_CONNECTIONS }, new pg.Pool({ ...config, max: BACKGROUND_CONNECTIONS, connectionTimeoutMillis: 60_000 }));
  for (const p of [pool, pool.background])
    p.on('error', () => {
      // Idle client errors (server restart) are retried by the pool; never crash the process.
    });
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  // Several instances may start at once: one migrates while the others wait on the advisory lock.
  const migrator = await pool.connect();
  try {
    await migrator.query('SELECT pg_advisory_lock($1)', [ADVISORY_LOCKS.migrations]);
    await migratePg(drizzlePg(migrator, { schema }), { migrationsFolder });
  } finally {
    await migrator.query('SELECT pg_advisory_unlock($1)', [ADVISORY_LOCKS.migrations]).catch(() => undefined);
    migrator.release();
  }

  // One dedicated connection carries every LISTEN of this instance. When it drops (a database restart,
  // a network cut) it is opened again with backoff and every channel is listened to again, so this
  // instance keeps hearing the others' cache invalidations after an outage.
  let listener: Promise<pg.Client> | undefined;
  let closing = false;
  let reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  const handlers = new Map<string, Set<NotifyHandler>>();
  function listenerClient(): Promise<pg.Client> {
    listener ??= connectListener().catch((err: unknown) => {
      listener = undefined;
      throw err;
    });
    return listener;
  }
  async function connectListener(): Promise<pg.Client> {
    const c = new pg.Client({ ...dhrConnection(url), connectionTimeoutMillis: 5000 });
    let dropped = false;
    const onDrop = () => {
      if (dropped) return;
      dropped = true;
      listener = undefined;
      c.end().catch(() => undefined);
      if (!closing) scheduleRelisten(1000);
    };
    c.on('error', onDrop);
    c.on('end', onDrop);
    c.on('notification', (msg) => {
      for (const h of handlers.get(msg.channel) ?? []) h(msg.payload ?? '');
    });
    await c.connect();
    for (const channel of handlers.keys()) await c.query(`LISTEN ${quoteIdent(channel)}`);
    return c;
  }
  function scheduleRelisten(delayMs: number) {
    if (closing || reconnectTimer || handlers.size === 0) return;
    reconnectTimer = setTimeout(() => {
      reconnectTimer = undefined;
      listenerClient().catch(() => scheduleRelisten(Math.min(delayMs * 2, 30_000)));
    }, delayMs);
    reconnectTimer.unref();
  }
  const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

  return {
    db,
    kind: 'postgres',
    async notify(channel, payload) {
      await pool.query('SELECT pg_notify($1, $2)', [channel, payload]);
    },
    async listen(channel, handler) {
      const c = await listenerClient();
      let set = handlers.get(channel);
      if (!set) {
        set = new Set();
        handlers.set(channel, set);
        await c.query(`LISTEN ${quoteIdent(channel)}`);
      }
      set.add(handler);
      return async () => {
        set.delete(handler);
      };
    },
    async ping() {
      await db.execute(sql`SELECT 1`);
    },
    async withTryLock(lock, fn) {
      // Holding a lock is no work to pace: a paced try would happen after the lane's rest, letting a later try win.
      const c = await pool.connectUnpaced();
      let locked = false;
      try {
        const res = await c.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1) AS locked', [ADVISORY_LOCKS[lock]]);
        locked = Boolean(res.rows[0]?.locked);
        if (!locked) return { locked: false };
        return { locked: true, value: await fn() };
      } finally {
        if (locked) await c.query('SELECT pg_advisory_unlock($1)', [ADVISORY_LOCKS[lock]]).catch(() => undefined);
        c.release();
      }
    },
    async close() {
      closing = true;
      clearTimeout(reconnectTimer);
      const c = await listener?.catch(() => undefined);
      await c?.end().catch(() => undefined);
      await pool.end();
    },
  };
}
