import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openDatabase, type Database, type NotifyHandler } from '../db/client';
import { CachedRead, ChangeNotices } from './cached-read';

/** A promise settled from outside, to hold a load open while the test acts. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** A loader whose calls the test answers one by one. */
function heldLoads<K, V>() {
  const calls: { key: K; answer: ReturnType<typeof deferred<V>> }[] = [];
  const load = (key: K) => {
    const answer = deferred<V>();
    calls.push({ key, answer });
    return answer.promise;
  };
  return { calls, load };
}

/** NOTIFY between instances without a database: every listener of a channel hears every notification, its sender's too. */
function fakeBus(): Pick<Database, 'listen' | 'notify'> {
  const handlers = new Map<string, Set<NotifyHandler>>();
  return {
    async listen(channel, handler) {
      const set = handlers.get(channel) ?? new Set();
      handlers.set(channel, set);
      set.add(handler);
      return async () => {
        set.delete(handler);
      };
    },
    async notify(channel, payload) {
      // Delivered later, as a database delivers it.
      setTimeout(() => {
        for (const h of handlers.get(channel) ?? []) h(payload);
      }, 1);
    },
  };
}

const apps: FastifyInstance[] = [];
afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(apps.splice(0).map((a) => a.close()));
});

/** An instance of the app, as far as notices need one. */
async function instance(database: Pick<Database, 'listen' | 'notify'>): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  app.decorate('database', database as Database);
  apps.push(app);
  return app;
}

const unavailable = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

describe('CachedRead', () => {
  it('loads once for reads that arrive together, then answers from memory', async () => {
    const { calls, load } = heldLoads<void, string>();
    const cache = new CachedRead<void, string>({ load });
    const reads = [cache.get(), cache.get(), cache.get()];
    expect(calls).toHaveLength(1);
    expect(cache.peek()).toBeUndefined();
    calls[0]?.answer.resolve('list');
    expect(await Promise.all(reads)).toEqual(['list', 'list', 'list']);
    expect(cache.peek()).toBe('list');
    expect(await cache.get()).toBe('list');
    expect(calls).toHaveLength(1);
  });

  it('never keeps a load that began before a drop, and does not share it with reads after the drop', async () => {
    const { calls, load } = heldLoads<void, string>();
    const cache = new CachedRead<void, string>({ load });
    const before = cache.get();
    cache.drop();
    const after = cache.get();
    expect(calls).toHaveLength(2);

    // The old load finishes last-but-one: its callers get it, memory does not.
    calls[0]?.answer.resolve('old');
    expect(await before).toBe('old');
    expect(cache.peek()).toBeUndefined();
    calls[1]?.answer.resolve('new');
    expect(await after).toBe('new');
    expect(cache.peek()).toBe('new');

    // The same when nobody reads again before the old load ends.
    cache.drop();
    const stale = cache.get();
    cache.drop();
    calls[2]?.answer.resolve('stale');
    await stale;
    expect(cache.peek()).toBeUndefined();
  });

  it('keeps nothing from a failed load; the next read loads again', async () => {
    const { calls, load } = heldLoads<void, string>();
    const cache = new CachedRead<void, string>({ load });
    const first = [cache.get(), cache.get()];
    calls[0]?.answer.reject(new Error('boom'));
    for (const read of first) await expect(read).rejects.toThrow('boom');
    expect(cache.peek()).toBeUndefined();
    const again = cache.get();
    expect(calls).toHaveLength(2);
    calls[1]?.answer.resolve('list');
    expect(await again).toBe('list');
    expect(cache.peek()).toBe('list');
  });

  it('per key: loads, drops and bounds each key on its own', async () => {
    const loads: string[] = [];
    const cache = new CachedRead<string, string | undefined>({
      load: async (key) => {
        loads.push(key);
        return key === 'missing' ? undefined : `value of ${key}`;
      },
      maxKeys: 2,
      keepIf: (value) => value !== undefined,
    });
    expect(await cache.get('a')).toBe('value of a');
    expect(await cache.get('b')).toBe('value of b');
    cache.drop('a');
    expect(cache.peek('a')).toBeUndefined();
    expect(cache.peek('b')).toBe('value of b');
    // A third key pushes out the one kept longest ago.
    await cache.get('c');
    await cache.get('a');
    expect(cache.peek('b')).toBeUndefined();
    expect([cache.peek('c'), cache.peek('a')]).toEqual(['value of c', 'value of a']);
    // A value keepIf refuses is answered but not kept.
    expect(await cache.get('missing')).toBeUndefined();
    await cache.get('missing');
    expect(loads.filter((k) => k === 'missing')).toHaveLength(2);
  });

  it('loads again once a value is older than maxAgeMs', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    let n = 0;
    const cache = new CachedRead<void, number>({ load: async () => ++n, maxAgeMs: 1000 });
    expect(await cache.get()).toBe(1);
    vi.setSystemTime(Date.now() + 999);
    expect(cache.peek()).toBe(1);
    vi.setSystemTime(Date.now() + 1);
    expect(cache.peek()).toBeUndefined();
    expect(await cache.get()).toBe(2);
  });

  it('answers with the last value while the database is away, when asked to, and only then', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    let failure: Error | undefined;
    const load = async () => {
      if (failure) throw failure;
      return 'list';
    };
    const lenient = new CachedRead<void, string>({ load, maxAgeMs: 1000, lastValueWhileDatabaseAway: true });
    const strict = new CachedRead<void, string>({ load, maxAgeMs: 1000 });
    await lenient.get();
    await strict.get();
    vi.setSystemTime(Date.now() + 5000);

    failure = unavailable();
    expect(await lenient.get()).toBe('list');
    expect(lenient.peek()).toBeUndefined(); // still stale: memory answers only fresh values
    await expect(strict.get()).rejects.toThrow('ECONNREFUSED');
    // Not for a query that is wrong, nor once a change dropped the value.
    failure = new Error('syntax error');
    await expect(lenient.get()).rejects.toThrow('syntax error');
    failure = unavailable();
    lenient.drop();
    await expect(lenient.get()).rejects.toThrow('ECONNREFUSED');
  });
});

describe('ChangeNotices', () => {
  it('drops the cache on this instance at once and on every other instance by NOTIFY; stops listening on close', async () => {
    const bus = fakeBus();
    const [a, b] = [await instance(bus), await instance(bus)];
    const loads = { a: 0, b: 0 };
    const noticesA = new ChangeNotices(a, 'things_changed');
    const noticesB = new ChangeNotices(b, 'things_changed');
    const cacheA = new CachedRead<void, number>({ load: async () => ++loads.a, droppedBy: [noticesA] });
    const cacheB = new CachedRead<void, number>({ load: async () => ++loads.b, droppedBy: [noticesB] });
    await Promise.all([a.ready(), b.ready()]);
    await cacheA.get();
    await cacheB.get();

    await noticesA.announce();
    expect(cacheA.peek()).toBeUndefined();
    await vi.waitFor(() => expect(cacheB.peek()).toBeUndefined());
    expect(await cacheB.get()).toBe(2);

    // A notification that arrives while the other instance loads: that load is not kept.
    const held = deferred<number>();
    const slow = new CachedRead<void, number>({ load: () => held.promise, droppedBy: [noticesB] });
    const read = slow.get();
    await noticesA.announce();
    await vi.waitFor(() => expect(cacheB.peek()).toBeUndefined());
    held.resolve(1);
    expect(await read).toBe(1);
    expect(slow.peek()).toBeUndefined();

    await b.close();
    await cacheB.get();
    await noticesA.announce();
    await new Promise((r) => setTimeout(r, 20));
    expect(cacheB.peek()).toBe(3);
  });

  it('passes the payload, so a notice can drop one key', async () => {
    const bus = fakeBus();
    const [a, b] = [await instance(bus), await instance(bus)];
    const noticesA = new ChangeNotices(a, 'lists_changed');
    const lists = new CachedRead<string, string>({ load: async (id) => `list ${id}` });
    new ChangeNotices(b, 'lists_changed').onChange((id) => lists.drop(id));
    await Promise.all([a.ready(), b.ready()]);
    await lists.get('one');
    await lists.get('two');
    await noticesA.announce('one');
    await vi.waitFor(() => expect(lists.peek('one')).toBeUndefined());
    expect(lists.peek('two')).toBe('list two');
  });

  it('logs a NOTIFY that fails instead of failing the write that announced it', async () => {
    const app = await instance({ listen: async () => async () => undefined, notify: async () => Promise.reject(unavailable()) });
    const warn = vi.spyOn(app.log, 'warn');
    const notices = new ChangeNotices(app, 'things_changed');
    const cache = new CachedRead<void, string>({ load: async () => 'x', droppedBy: [notices] });
    await app.ready();
    await cache.get();
    await notices.announce();
    expect(cache.peek()).toBeUndefined();
    expect(warn).toHaveBeenCalledOnce();
  });

  it('works over the real database NOTIFY (PGlite)', { timeout: 60_000 }, async () => {
    const database = await openDatabase({});
    try {
      const [a, b] = [await instance(database), await instance(database)];
      const noticesA = new ChangeNotices(a, 'cached_read_test');
      let loads = 0;
      const cacheB = new CachedRead<void, number>({ load: async () => ++loads, droppedBy: [new ChangeNotices(b, 'cached_read_test')] });
      await Promise.all([a.ready(), b.ready()]);
      await cacheB.get();
      await noticesA.announce();
      await vi.waitFor(() => expect(cacheB.peek()).toBeUndefined());
      expect(await cacheB.get()).toBe(2);
    } finally {
      await Promise.all(apps.splice(0).map((x) => x.close()));
      await database.close();
    }
  });
});
