import { Worker } from 'node:worker_threads';

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
 * PGlite on a worker thread of its own (src/server/db/pglite-worker.mjs), spoken to with PGlite's own
 * interface so drizzle's PGlite driver and the migrator use it unchanged. Statements queue in the
 * database as they would on one Postgres session; the server's thread only waits for their answers
 * (docs/decisions/0034-background-work-off-the-request-path.md).
 */
export class PgliteThread implements ThreadTransaction {
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private readonly handlers = new Map<string, Set<(payload: string) => void>>();
  private seq = 0;
  private txSeq = 0;
  private closed = false;

  private constructor(private readonly worker: Worker) {
    worker.on('message', (msg: Reply) => {
      if ('op' in msg) {
        for (const h of this.handlers.get(msg.channel) ?? []) h(msg.payload);
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
  }

  private call<T>(msg: Record<string, unknown>): Promise<T> {
    if (this.closed) return Promise.reject(new Error('PGlite is closed'));
    const id = (this.seq += 1);
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.worker.postMessage({ ...msg, id });
    });
  }

  query(sql: string, params: unknown[] = [], options: QueryOptions = {}, tx?: number): Promise<ThreadResult> {
    return this.call({ op: 'query', sql, params, rowMode: options.rowMode, tx });
  }

  exec(sql: string, tx?: number): Promise<unknown> {
    return this.call({ op: 'exec', sql, tx });
  }

  /** Runs `fn` in a transaction: committed when it resolves, rolled back when it throws. */
  async transaction<T>(fn: (tx: ThreadTransaction) => Promise<T>): Promise<T> {
    const tx = (this.txSeq += 1);
    await this.call({ op: 'begin', tx });
    let result: T;
    try {
      result = await fn({ query: (sql, params, options) => this.query(sql, params, options, tx), exec: (sql) => this.exec(sql, tx) });
    } catch (err) {
      await this.call({ op: 'rollback', tx }).catch(() => undefined);
      throw err;
    }
    await this.call({ op: 'commit', tx });
    return result;
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
    }
  }
}
