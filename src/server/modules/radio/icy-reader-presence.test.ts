import { describe, expect, it } from 'vitest';
import { ReaderPresence } from './icy-reader-presence';

/** Two instances whose announcements reach each other (and themselves, as NOTIFY does). */
function pair() {
  const sent: string[] = [];
  const instances: ReaderPresence[] = [];
  const make = () => {
    const p = new ReaderPresence(async (payload) => {
      sent.push(payload);
      for (const other of instances) other.hear(payload);
    });
    instances.push(p);
    return p;
  };
  return { a: make(), b: make(), sent };
}

describe('ReaderPresence', () => {
  it('counts the readers of every instance on a channel, and only on that channel', async () => {
    const { a, b } = pair();
    await a.set('dhr1', true);
    expect(a.readersOn('dhr1', 30_000)).toBe(1);
    expect(b.readersOn('dhr1', 30_000)).toBe(1);
    await b.set('dhr1', true);
    await b.set('dhr2', true);
    expect(a.readersOn('dhr1', 30_000)).toBe(2);
    expect(b.readersOn('dhr1', 30_000)).toBe(2);
    expect(a.readersOn('dhr2', 30_000)).toBe(1);
    expect(a.has('dhr2')).toBe(false);
    await b.set('dhr1', false);
    await b.set('dhr2', false);
    expect(a.readersOn('dhr1', 30_000)).toBe(1);
    expect(a.readersOn('dhr2', 30_000)).toBe(0);
  });

  it('announces only changes, and heartbeats only while it holds a reader', async () => {
    const { a, sent } = pair();
    await a.heartbeat();
    await a.set('dhr1', false);
    expect(sent).toHaveLength(0);
    await a.set('dhr1', true);
    await a.set('dhr1', true);
    expect(sent).toHaveLength(1);
    await a.heartbeat();
    expect(sent).toHaveLength(2);
  });

  it('forgets an instance not heard for maxAgeMs, and ignores a malformed announcement', async () => {
    const { a, b } = pair();
    await a.set('dhr1', true);
    expect(b.readersOn('dhr1', 30_000, Date.now() + 29_000)).toBe(1);
    expect(b.readersOn('dhr1', 30_000, Date.now() + 31_000)).toBe(0);
    b.hear('not json');
    b.hear(JSON.stringify({ i: 'x', c: 'dhr1' }));
    expect(b.readersOn('dhr1', 30_000)).toBe(0);
  });
});
