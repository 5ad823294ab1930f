import { AsyncLocalStorage } from 'node:async_hooks';
import type { ServerResponse } from 'node:http';

/**
 * Gives every waiting request a turn (timers, sockets) before long background work goes on. On
 * PGlite a query answers without passing through the event loop's I/O phase, so a job that awaits
 * query after query would otherwise keep listeners' requests waiting until it ends
 * (docs/decisions/0023-member-grants-and-bulk-runs.md, "Short transactions").
 */
export const yieldToListeners = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * How long a background loop runs before it gives waiting requests a turn: a request that arrives
 * mid-turn waits for the rest of it, so a turn is kept well below what a listener's quick request
 * takes (2 to 4 ms at p99 on loopback). 4 ms put a listener's p99 during the analytics rebuilds at
 * about twice idle; 2 ms and 1 ms both left it between 1.4 and 2.4 times (ADR 0034, item 7). A turn
 * costs one setImmediate, tens of microseconds.
 */
export const BACKGROUND_TURN_MS = 1;

/**
 * The share of the time background work may keep the database or the server's thread busy while the
 * station is being listened to: after a background unit of t ms (a statement or a transaction,
 * db/lanes.ts) or a background loop's turn of t ms, the work rests t × (1 / share − 1) ms. On a small
 * machine the database's processes, the server's thread and a job's own work share two cores; a job
 * that never rests leaves every request competing for one. Jobs take up to twice as long; listeners
 * notice them less (npm run bench -- isolation, and -- analytics for the rollups). With nobody
 * listening, nothing rests (docs/decisions/0037-background-work-rests-while-listened-to.md).
 */
export const BACKGROUND_SHARE = 0.5;
/** The station counts as listened to while a listener's request arrived this recently. */
export const LISTENED_TO_WITHIN_MS = 1000;
/** The longest rest of a background loop after one turn. */
const MAX_REST_MS = 20;

/**
 * For a background loop over many items (a CSV's rows, a plan's members): `await takeTurn()` after
 * each item yields to the event loop once the loop has run BACKGROUND_TURN_MS since it last did, and
 * waits while listeners' requests are being answered (at most LISTENER_WAIT_MAX_MS). A
 * fixed count of items between two turns is too many on a slow or busy machine and too few on a fast one.
 */
export function turnTaker(turnMs = BACKGROUND_TURN_MS): () => Promise<void> {
  let since = performance.now();
  return async () => {
    const ran = performance.now() - since;
    if (ran < turnMs || holdingTheDatabase()) return;
    // While listeners come, the loop rests as long as it ran (BACKGROUND_SHARE): a request then finds
    // the server's thread and a core free, not only a turn between two of ours.
    if (listenedToWithin(LISTENED_TO_WITHIN_MS)) await new Promise((resolve) => setTimeout(resolve, Math.min(MAX_REST_MS, ran * (1 / BACKGROUND_SHARE - 1))));
    else await yieldToListeners();
    // A request that came in during the turn is answered before the next: its handler, its queries
    // and its reply each need the event loop, and one turn between two of ours is not enough.
    await listenersAnswered();
    since = performance.now();
  };
}

// ---------------------------------------------------------------- listeners being answered

/**
 * Listeners' requests this process is answering: from the request's arrival until its headers go out
 * (a live stream or an event stream sends them at once, so it stops counting then). Background work
 * waits for them between two of its steps: a request that arrives while a job runs waits at most
 * one step (BACKGROUND_TURN_MS of the job's code, or one of its statements), not the job's next turns.
 */
const answering = new Set<ServerResponse>();
const requestOf = new AsyncLocalStorage<ServerResponse>();
let wakeWaiters: (() => void)[] = [];

/** Longest a background step waits for listeners: under a steady stream of them a job still goes on. */
export const LISTENER_WAIT_MAX_MS = 100;
/** How often a waiter looks again at requests whose headers may have gone out without an event. */
const RECHECK_MS = 5;

function someoneWaits(): boolean {
  for (const res of answering) if (res.headersSent || res.writableEnded || res.destroyed) answering.delete(res);
  return answering.size > 0;
}

let lastListenerAt = -Infinity;

/** A listener's request arrived within the last `ms` milliseconds: the station is being listened to. */
export function listenedToWithin(ms: number): boolean {
  return performance.now() - lastListenerAt < ms;
}

/** A listener's request is being answered now (background work should not start a unit). */
export function listenersBeingAnswered(): boolean {
  return someoneWaits();
}

function done(res: ServerResponse): void {
  answering.delete(res);
  if (someoneWaits()) return;
  const waiters = wakeWaiters;
  wakeWaiters = [];
  for (const wake of waiters) wake();
}

/**
 * Counts a listener's request as being answered, and runs the rest of its handling (`next`) in its
 * context, so that work it hands to the background lane (runInBackground) stops it counting: a job a
 * request waits for must not wait for that request.
 */
export function answerListener(res: ServerResponse, next: () => void): void {
  lastListenerAt = performance.now();
  answering.add(res);
  const end = () => done(res);
  res.once('finish', end);
  res.once('close', end);
  requestOf.run(res, next);
}

/** The calling request (if a listener's) no longer counts: it now waits for background work itself. */
export function stopCountingCurrentRequest(): void {
  const res = requestOf.getStore();
  if (res) done(res);
}

// ---------------------------------------------------------------- code that holds the database

const holding = new AsyncLocalStorage<true>();

/**
 * Runs `fn` as code that holds the embedded database's one session (a PGlite transaction, from
 * BEGIN to COMMIT): every listener's statement waits for it to end, whatever the event loop does.
 * There a loop takes no turns and nothing waits for listeners: a turn would only keep the session
 * longer, and waiting for listeners would wait for requests that wait for it (up to
 * LISTENER_WAIT_MAX_MS each time).
 */
export function whileHoldingTheDatabase<T>(fn: () => Promise<T>): Promise<T> {
  return holding.run(true, fn);
}

function holdingTheDatabase(): boolean {
  return holding.getStore() === true;
}

/** Resolves when no listener's request is being answered, or after `maxMs`. */
export async function listenersAnswered(maxMs = LISTENER_WAIT_MAX_MS): Promise<void> {
  if (holdingTheDatabase()) return;
  // A listener's own request never waits for itself (nor for others: it is not background work).
  const own = requestOf.getStore();
  if (own && answering.has(own)) return;
  const deadline = performance.now() + maxMs;
  while (someoneWaits()) {
    const left = deadline - performance.now();
    if (left <= 0) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, Math.min(RECHECK_MS, left));
      wakeWaiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}
