import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/client';
import { isDatabaseUnavailable } from '../db/unavailable';

/**
 * Public reads kept in memory (docs/conventions.md "Public reads: caching and NOTIFY"): a module
 * loads a list once, every visitor is answered from memory, and a change announced on any instance
 * drops it everywhere. Two pieces:
 *
 * - `ChangeNotices`: a NOTIFY channel. `announce()` runs the handlers here at once, then tells every
 *   other instance, whose handlers run when the notification arrives.
 * - `CachedRead`: one value per key (or a single value), loaded once however many ask at the same
 *   time, and never kept when a drop came while it was loading.
 */

/** What ChangeNotices needs of the app (a Fastify instance has it). */
export type NoticesHost = Pick<FastifyInstance, 'addHook' | 'log'> & { database: Pick<Database, 'listen' | 'notify'> };

/**
 * A NOTIFY channel on which a module says its data changed. Listens when the app is ready and stops
 * when it closes; handlers added any time before a notification hear it.
 */
export class ChangeNotices {
  private readonly handlers: ((payload: string) => void)[] = [];

  constructor(
    private readonly host: NoticesHost,
    readonly channel: string,
  ) {
    let unlisten: (() => Promise<void>) | undefined;
    host.addHook('onReady', async () => {
      unlisten = await host.database.listen(channel, (payload) => this.run(payload));
    });
    host.addHook('preClose', async () => unlisten?.());
  }

  /** `handler` runs for every change announced here or on another instance (the payload as announced). */
  onChange(handler: (payload: string) => void): this {
    this.handlers.push(handler);
    return this;
  }

  /**
   * The data changed: handlers run here now (the writer's next read sees the change), then every other
   * instance is told. A NOTIFY that fails is logged, not thrown: the write itself succeeded.
   */
  async announce(payload = 'changed'): Promise<void> {
    this.run(payload);
    await this.host.database
      .notify(this.channel, payload)
      .catch((err: unknown) => this.host.log.warn({ err, channel: this.channel }, 'could not announce a change'));
  }

  private run(payload: string): void {
    for (const handler of this.handlers) handler(payload);
  }
}

export interface CachedReadOptions<K, V> {
  /** Reads the value of `key` from the database. */
  load: (key: K) => Promise<V>;
  /** Notices whose every change drops all keys (for one key only, use `onChange` and `drop(key)`). */
  droppedBy?: readonly ChangeNotices[];
  /** How long a value is fresh; without it a value is kept until dropped. */
  maxAgeMs?: number;
  /** Keys kept at most. */
  maxKeys?: number;
  /**
   * With `maxKeys` kept: drop the key stored longest ago for the new one (the default), or keep the new
   * one out of memory, so that reads of many rare keys cannot push out the ones every client asks for.
   */
  whenFull?: 'dropOldest' | 'keepOut';
  /** Whether a loaded value is kept (e.g. not a row that was not found); it is returned either way. */
  keepIf?: (value: V) => boolean;
  /**
   * When a reload fails because the database is away, answer with the last value loaded, fresh or not
   * (a value dropped by a change is gone, and then the failure stands).
   */
  lastValueWhileDatabaseAway?: boolean;
}

interface Held<V> {
  value: V;
  at: number;
}

/**
 * A value loaded from the database once and kept in memory, per key (`K` is `void` for a single value).
 *
 * - Concurrent reads of a key share one load.
 * - `drop` forgets the value and any load in flight: a load that began before the drop still answers
 *   the reads that were waiting for it, but its value (perhaps read before the change) is not kept, and
 *   a read after the drop starts a new load.
 * - A failed load keeps nothing: the next read loads again.
 */
export class CachedRead<K = void, V = unknown> {
  private readonly held = new Map<K, Held<V>>();
  private readonly loading = new Map<K, Promise<V>>();

  constructor(private readonly opts: CachedReadOptions<K, V>) {
    for (const notices of opts.droppedBy ?? []) notices.onChange(() => this.drop());
  }

  /** The value of `key` if it is in memory and fresh now (what a route's `fromMemory` answers from). */
  peek(key: K): V | undefined {
    const held = this.held.get(key);
    return held && this.isFresh(held) ? held.value : undefined;
  }

  /** The value of `key`: from memory when fresh, else from the load in flight or a new one. */
  get(key: K): Promise<V> {
    const held = this.held.get(key);
    if (held && this.isFresh(held)) return Promise.resolve(held.value);
    return this.loading.get(key) ?? this.startLoad(key);
  }

  /** Starts loading `key` in the background when nothing is held or loading (a page hint, a start-up read). */
  warm(key: K): void {
    const held = this.held.get(key);
    if ((held && this.isFresh(held)) || this.loading.has(key)) return;
    this.startLoad(key).catch(() => undefined);
  }

  /** Forgets `key`, or every key when none is given, with any load of it in flight. */
  drop(key?: K): void {
    if (key === undefined) {
      this.held.clear();
      this.loading.clear();
    } else {
      this.held.delete(key);
      this.loading.delete(key);
    }
  }

  private startLoad(key: K): Promise<V> {
    // The executor runs now: the load starts in this call, and a synchronous throw becomes a rejection.
    const load: Promise<V> = new Promise<V>((resolve) => resolve(this.opts.load(key))).then(
      (value) => {
        // Still the current load of `key` only if no drop came since it began.
        if (this.loading.get(key) === load) {
          this.loading.delete(key);
          if (this.opts.keepIf?.(value) ?? true) this.keep(key, value);
        }
        return value;
      },
      (err: unknown) => {
        if (this.loading.get(key) === load) this.loading.delete(key);
        const last = this.held.get(key);
        if (last && this.opts.lastValueWhileDatabaseAway && isDatabaseUnavailable(err)) return last.value;
        throw err;
      },
    );
    this.loading.set(key, load);
    return load;
  }

  private keep(key: K, value: V): void {
    this.held.delete(key);
    const { maxKeys } = this.opts;
    if (maxKeys !== undefined && this.held.size >= maxKeys) {
      if (this.opts.whenFull === 'keepOut') return;
      const oldest = this.held.keys().next();
      if (!oldest.done) this.held.delete(oldest.value);
    }
    this.held.set(key, { value, at: Date.now() });
  }

  private isFresh(held: Held<V>): boolean {
    return this.opts.maxAgeMs === undefined || Date.now() - held.at < this.opts.maxAgeMs;
  }
}
