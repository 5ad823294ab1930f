/**
 * Gives every waiting request a turn (timers, sockets) before long background work goes on. On
 * PGlite a query answers without passing through the event loop's I/O phase, so a job that awaits
 * query after query would otherwise keep listeners' requests waiting until it ends
 * (docs/decisions/0023-member-grants-and-bulk-runs.md, "Short transactions").
 */
export const yieldToListeners = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
