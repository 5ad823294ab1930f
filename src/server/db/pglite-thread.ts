import { AsyncResource } from 'node:async_hooks';
import { Worker } from 'node:worker_threads';
import { listenersBeingAnswered, whileHoldingTheDatabase } from '../lib/event-loop';
import { BackgroundPacer, currentLane } from './lanes';

/** A result as PGlite gives it (drizzle's PGlite session reads `rows`, `fields` and `affectedRows`). */
export interface ThreadResult {
  rows: unknown[];
  fields: { name: string; dataTypeID: number }[];
  affectedRows?: number;
}

interface QueryOptions {
  rowMode?: 'array' | 'object';
}

/** What drizzle's PGlite driver calls: PGlite's query and transaction, and a transaction's query. */
export interface ThreadTransaction {
  query(sql: string, params?: unknown[], options?: QueryOptions): Promise<ThreadResult>;
  exec(sql: string): Promise<unknown>;
}

type Reply = { id: number; result?: unknown; error?: Record<string, string> } | { op: 'notify'; channel: string; payload: string };

/** An error of the database thread, with the fields the server's error handling reads (code, constraint…). */
function threadError(fields: Record<string, string>): Error {
  return Object.assign(new Error(fields.message), fields);
}

/**
 * How long waiting background work gives way to foreground statements before it goes anyway: under
 * a constant stream of requests a job still writes at least one unit (a statement or a transaction)
 * this often.
 */
export const BACKGROUND_MAX_WAIT_MS = 100;

/** How soon background work giving way looks again whether requests are still being answered. */
const LOOK_AGAIN_MS = 2;

/** Postgres refuses a NOTIFY payload of this many bytes or more. */
const NOTIFY_PAYLOAD_LIMIT = 8000;

/**
 * PGlite on a worker thread of its own (src/server/db/pglite-worker.mjs), spoken to with PGlite's own
 * interface so drizzle's PGlite driver and the migrator use it unchanged. Statements queue in the
 * database as they would on one Postgres session; the server's thread only waits for their answers
 * (docs/decisions/0034-background-work-off-the-request-path.md).
 *
 * Two lanes (db/lanes.ts). Foreground statements and transactions are sent at once, in call order.
 * Background ones wait here, in call order, and go one unit at a time (a statement, or a whole
 * transaction from BEGIN to COMMIT), only when no foreground unit is in the database: a request
 * waits for at most the one background unit already running, never for a job's queue. A background
 * unit that has given way for BACKGROUND_MAX_WAIT_MS goes anyway, and the lane rests between its units
 * (BackgroundPacer). Statements inside an open transaction belong to it and are sent at once.
 */
export class PgliteThread implements ThreadTransaction {
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private readonly handlers = new Map<string, Set<(payload: string) => void>>();
  private seq = 0;
  private txSeq = 0;
  private closed = false;
  /** Foreground units (statements and transactions) sent and not yet answered. */
  private foreground = 0;
  /** Rests the background lane between its units (db/lanes.ts BACKGROUND_SHARE). */
  private readonly pacer = new BackgroundPacer();
  /** A background unit is in the database. */
  private backgroundRunning = false;
  /** Background units waiting for their turn, in call order. */
  private readonly backgroundQueue: (() => void)[] = [];
  /** Since when the next background unit has been giving way to foreground ones. */
  private givingWaySince: number | undefined;
  private givingWayTimer: ReturnType<typeof setTimeout> | undefined;
  /** A decision on the next background unit is due at the end of this turn of the event loop. */
  private deciding = false;

  private constructor(private readonly worker: Worker) {
    worker.on('message', (msg: Reply) => {
      if ('op' in msg) {
        this.deliver(msg.channel, msg.payload);
        return;
      }
      const waiter = this.pending.get(msg.id);
      if (!waiter) return;
      this.pending.delete(msg.id);
      if (msg.error) waiter.reject(threadError(msg.error));
      else waiter.resolve(msg.result);
    });
    worker.on('error', (err) => this.failAll(err instanceof Error ? err : new Error(`PGlite thread failed: ${String(err)}`)));
    worker.on('exit', () => this.failAll(new Error('PGlite is closed')));
  }

  /** Starts the database thread on `dir` (in memory when undefined) and waits until it is ready. */
  static async start(dir: string | undefined, startParams: string[]): Promise<PgliteThread> {
    const worker = new Worker(new URL('./pglite-worker.mjs', import.meta.url), {
      workerData: { dir, startParams },
      // PGlite's memory is its WebAssembly heap; the thread's own JavaScript needs a small young generation.
      resourceLimits: { maxYoungGenerationSizeMb: 4 },
    });
    await new Promise<void>((resolve, reject) => {
      const onMessage = (msg: { op?: string; error?: Record<string, string> }) => {
        if (msg.op === 'ready') resolve();
        if (msg.op === 'failed') reject(threadError(msg.error ?? { message: 'PGlite did not start' }));
        if (msg.op === 'ready' || msg.op === 'failed') worker.off('message', onMessage);
      };
      worker.on('message', onMessage);
      worker.once('error', reject);
    });
    return new PgliteThread(worker);
  }

  private failAll(err: Error): void {
    this.closed = true;
    for (const waiter of this.pending.values()) waiter.reject(err);
    this.pending.clear();
    // Waiting background work goes now, and is refused at once.
    this.nextBackground();
  }

  private call<T>(msg: Record<string, unknown>): Promise<T> {
    if (this.closed) return Promise.reject(new Error('PGlite is closed'));
    const id = (this.seq += 1);
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.worker.postMessage({ ...msg, id });
    });
  }

  /** Runs one unit of work (a statement outside a transaction, or a whole transaction) in the caller's lane. */
  private async unit<T>(work: () => Promise<T>): Promise<T> {
    if (currentLane() === 'foreground') {
      this.foreground += 1;
      try {
        return await work();
      } finally {
        this.foreground -= 1;
        this.nextBackground();
      }
    }
    await this.pacer.ready();
    await new Promise<void>((go) => {
      this.backgroundQueue.push(go);
      this.nextBackground();
    });
    const started = performance.now();
    try {
      return await work();
    } finally {
      this.pacer.ended(started);
      this.backgroundRunning = false;
      this.nextBackground();
    }
  }

  /**
   * Lets the next background unit go when the database has no foreground work, or it has given way
   * long enough. Decided after the current turn of the event loop: a request whose statement has just
   * been answered sends its next one first (its code runs before setImmediate), so a job does not
   * slip in between two statements of one request.
   */
  private nextBackground(): void {
    if (this.backgroundRunning || this.backgroundQueue.length === 0 || this.deciding) return;
    this.deciding = true;
    setImmediate(() => {
      this.deciding = false;
      this.decideBackground();
    });
  }

  private decideBackground(): void {
    if (this.backgroundRunning || this.backgroundQueue.length === 0) return;
    const now = performance.now();
    // A request between two of its statements (its handler, its reply) is still being answered: a
    // unit that started now would be waited for by its next statement.
    const requestsBusy = this.foreground > 0 || listenersBeingAnswered();
    if (requestsBusy && !this.closed) {
      this.givingWaySince ??= now;
      const left = this.givingWaySince + BACKGROUND_MAX_WAIT_MS - now;
      if (left > 0) {
        // A statement's end calls nextBackground; a request's reply does not, so look again soon.
        this.givingWayTimer ??= setTimeout(
          () => {
            this.givingWayTimer = undefined;
            this.decideBackground();
          },
          Math.min(left, LOOK_AGAIN_MS),
        );
        return;
      }
    }
    clearTimeout(this.givingWayTimer);
    this.givingWayTimer = undefined;
    this.givingWaySince = undefined;
    this.backgroundRunning = true;
    (this.backgroundQueue.shift() as () => void)();
  }

  query(sql: string, params: unknown[] = [], options: QueryOptions = {}, tx?: number): Promise<ThreadResult> {
    const send = () => this.call<ThreadResult>({ op: 'query', sql, params, rowMode: options.rowMode, tx });
    return tx === undefined ? this.unit(send) : send();
  }

  exec(sql: string, tx?: number): Promise<unknown> {
    const send = () => this.call({ op: 'exec', sql, tx });
    return tx === undefined ? this.unit(send) : send();
  }

  /** Runs `fn` in a transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: ThreadTransaction) => Promise<T>): Promise<T> {
    return this.unit(() => this.runTransaction(fn));
  }

  private async runTransaction<T>(fn: (tx: ThreadTransaction) => Promise<T>): Promise<T> {
    const tx = (this.txSeq += 1);
    await this.call({ op: 'begin', tx });
    let result: T;
    try {
      // The transaction holds PGlite's one session: its code gives no turns away (lib/event-loop.ts).
      result = await whileHoldingTheDatabase(() =>
        fn({ query: (sql, params, options) => this.query(sql, params, options, tx), exec: (sql) => this.exec(sql, tx) }),
      );
    } catch (err) {
      await this.call({ op: 'rollback', tx }).catch(() => undefined);
      throw err;
    }
    await this.call({ op: 'commit', tx });
    return result;
  }

  /**
   * Delivery in the context the thread was started in, as a NOTIFY from the database arrives: a
   * handler never inherits the notifier's lane (a job's) or its transaction.
   */
  private readonly deliverAsTheDatabase = AsyncResource.bind((channel: string, payload: string) => this.deliver(channel, payload));

  private deliver(channel: string, payload: string): void {
    for (const h of this.handlers.get(channel) ?? []) h(payload);
  }

  /**
   * NOTIFY from this process, heard by this process's listeners without a trip through the database.
   * PGlite belongs to one process (db.lock), so no other instance could hear it; through the
   * database it was a statement of its own (about 5 ms of the database's thread per chat post) and,
   * like any statement, could wait behind a background unit. Delivered after the current turn, as
   * the database would; a payload Postgres would refuse is refused the same way. NOTIFYs that
   * triggers send still come from the database (listen below).
   */
  notify(channel: string, payload: string): void {
    if (this.closed) throw new Error('PGlite is closed');
    if (Buffer.byteLength(payload) >= NOTIFY_PAYLOAD_LIMIT) throw new Error('payload string too long');
    setImmediate(() => this.deliverAsTheDatabase(channel, payload));
  }

  async listen(channel: string, handler: (payload: string) => void): Promise<() => void> {
    let set = this.handlers.get(channel);
    if (!set) {
      set = new Set();
      this.handlers.set(channel, set);
      await this.call({ op: 'listen', channel });
    }
    set.add(handler);
    return () => {
      set.delete(handler);
    };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    try {
      await this.call({ op: 'close' });
    } catch {
      // PGlite's WebAssembly may throw a non-error while it shuts down: the thread is ended either way.
    } finally {
      this.closed = true;
      await this.worker.terminate();
      this.nextBackground();
    }
  }
}
