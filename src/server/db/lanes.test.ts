import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { answerListener } from '../lib/event-loop';
import { BackgroundPacer } from './lanes';

/** A listener's request, answered at once: the station counts as listened to for the next second. */
function listenerCame(): void {
  const res = Object.assign(new EventEmitter(), { headersSent: true, writableEnded: true, destroyed: false });
  answerListener(res as unknown as ServerResponse, () => res.emit('finish'));
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('BackgroundPacer', () => {
  it('rests after each unit in proportion to it, so the lane holds the database about half the time', async () => {
    const pacer = new BackgroundPacer(0.5);
    const started = performance.now();
    let busy = 0;
    for (let i = 0; i < 10; i++) {
      listenerCame();
      await pacer.run(async () => {
        const t = performance.now();
        await sleep(20);
        busy += performance.now() - t;
      });
    }
    const elapsed = performance.now() - started;
    // Ten units of 20 ms: 200 ms busy, and nine rests of at least as long between them.
    expect(elapsed).toBeGreaterThanOrEqual(busy + 9 * 19);
    expect(busy / elapsed).toBeLessThan(0.56);
  });

  it('shares its rest between units started together, and caps a rest after a long unit', async () => {
    const pacer = new BackgroundPacer(0.5, 50);
    listenerCame();
    await pacer.run(() => sleep(200));
    const afterLong = performance.now();
    await pacer.run(() => sleep(1));
    const waited = performance.now() - afterLong;
    expect(waited).toBeGreaterThanOrEqual(45);
    expect(waited).toBeLessThan(150);
    // Two units in flight together: the next waits for the later one's rest.
    listenerCame();
    await Promise.all([pacer.run(() => sleep(10)), pacer.run(() => sleep(30))]);
    const t = performance.now();
    await pacer.ready();
    expect(performance.now() - t).toBeGreaterThanOrEqual(20);
  });

  it('does not rest when nobody has listened for a second: there is no one to leave the cores to', async () => {
    const pacer = new BackgroundPacer(0.5);
    await sleep(1100);
    const started = performance.now();
    for (let i = 0; i < 5; i++) await pacer.run(() => sleep(20));
    expect(performance.now() - started).toBeLessThan(5 * 20 + 60);
  });
});
