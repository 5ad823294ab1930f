/**
 * Gives every waiting request a turn (timers, sockets) before long background work goes on. On
 * PGlite a query answers without passing through the event loop's I/O phase, so a job that awaits
 * query after query would otherwise keep listeners' requests waiting until it ends
 * (docs/decisions/0023-member-grants-and-bulk-runs.md, "Short transactions").
 */
export const yieldToListeners = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** How long a background loop runs before it gives waiting requests a turn. */
export const BACKGROUND_TURN_MS = 4;

/**
 * For a background loop over many items (a CSV's rows, a plan's members): `await takeTurn()` after
 * each item yields to the event loop once the loop has run BACKGROUND_TURN_MS since it last did. A
 * fixed count of items between two turns is too many on a slow or busy machine and too few on a fast one.
 */
export function turnTaker(turnMs = BACKGROUND_TURN_MS): () => Promise<void> {
  let since = performance.now();
  return async () => {
    if (performance.now() - since < turnMs) return;
    await yieldToListeners();
    since = performance.now();
  };
}
