import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { answerListener, listenersAnswered, stopCountingCurrentRequest, turnTaker, whileHoldingTheDatabase } from './event-loop';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** What answerListener reads of a response: its end events and whether its headers went out. */
class FakeResponse extends EventEmitter {
  headersSent = false;
  writableEnded = false;
  destroyed = false;
  answer(): void {
    this.headersSent = true;
    this.writableEnded = true;
    this.emit('finish');
  }
}

/** Starts counting a listener's request; `inside` runs in its context (as its handler would). */
function arrive(inside: () => void = () => {}): FakeResponse {
  const res = new FakeResponse();
  answerListener(res as unknown as ServerResponse, inside);
  return res;
}

/** Resolves with the milliseconds `p` took. */
async function timed(p: Promise<unknown>): Promise<number> {
  const t = performance.now();
  await p;
  return performance.now() - t;
}

describe('background work and listeners being answered', () => {
  it('waits while a listener is being answered, and goes on as soon as the answer is sent', async () => {
    const res = arrive();
    let done = false;
    const waiting = listenersAnswered(1_000).then(() => (done = true));
    await sleep(30);
    expect(done).toBe(false);
    const t = performance.now();
    res.answer();
    await waiting;
    expect(performance.now() - t).toBeLessThan(50);
  });

  it('goes on after at most maxMs under a request that is never answered, and at once when nobody waits', async () => {
    const res = arrive();
    const capped = await timed(listenersAnswered(60));
    expect(capped).toBeGreaterThanOrEqual(55);
    expect(capped).toBeLessThan(400);
    res.emit('close');
    expect(await timed(listenersAnswered(1_000))).toBeLessThan(20);
  });

  it('counts a response whose headers went out without an event as answered', async () => {
    const res = arrive();
    // An event stream sends its headers and stays open: it no longer holds jobs back.
    setTimeout(() => (res.headersSent = true), 20);
    expect(await timed(listenersAnswered(1_000))).toBeLessThan(200);
    res.emit('close');
  });

  it("never makes a listener's own request wait, and a request that hands work to a job stops counting", async () => {
    let own: Promise<number> | undefined;
    const first = arrive(() => {
      own = timed(listenersAnswered(1_000));
    });
    // Another listener is being answered too: the request's own code still does not wait.
    const second = arrive();
    expect(await own).toBeLessThan(20);
    // The second hands its work to the background and waits for it: it counts no more.
    second.emit('close');
    const third = arrive(() => {
      stopCountingCurrentRequest();
    });
    first.answer();
    expect(await timed(listenersAnswered(1_000))).toBeLessThan(50);
    third.answer();
  });

  it('gives the event loop a turn once a loop has run its turn, and waits there for listeners', async () => {
    const takeTurn = turnTaker(5);
    // A loop of quick items lets a timer run only once it has run its turn (within a turn or two).
    const started = performance.now();
    let timerAt = 0;
    setTimeout(() => (timerAt = performance.now() - started), 0);
    while (!timerAt && performance.now() - started < 500) await takeTurn();
    expect(timerAt).toBeGreaterThanOrEqual(4.5);
    expect(timerAt).toBeLessThan(100);
    // At its next turn, a listener being answered holds it until the answer goes out.
    const res = arrive();
    setTimeout(() => res.answer(), 40);
    const spin = performance.now() + 6;
    while (performance.now() < spin) {
      /* a turn's worth of work */
    }
    expect(await timed(takeTurn())).toBeGreaterThanOrEqual(30);
  });

  it('takes no turns and waits for no listener while holding the database, and waits again outside', async () => {
    const res = arrive();
    let turnsGiven = 0;
    setImmediate(() => (turnsGiven += 1));
    const held = await timed(
      whileHoldingTheDatabase(async () => {
        const takeTurn = turnTaker(0);
        await takeTurn();
        await listenersAnswered();
      }),
    );
    // A listener's statement waits for the transaction: waiting for that listener here would wait ~100 ms.
    expect(held).toBeLessThan(20);
    expect(turnsGiven).toBe(0);
    setTimeout(() => res.answer(), 40);
    expect(await timed(listenersAnswered())).toBeGreaterThanOrEqual(30);
  });
});
