/**
 * Whether an error means "the database cannot be reached right now" (server down, restarting,
 * refusing connections, connection lost) rather than "this query is wrong". Such errors answer 503
 * with Retry-After: the client should come back, nothing is wrong with its request.
 */

/** Socket-level failures of the pg driver reaching the server. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/** SQLSTATEs: 57P01 admin_shutdown, 57P02 crash_shutdown, 57P03 cannot_connect_now, 53300 too_many_connections; class 08 is connection_exception. */
const SQLSTATE_UNAVAILABLE = new Set(['57P01', '57P02', '57P03', '53300']);

/** Messages of pg's pool/client and of PGlite when the connection is gone (they carry no code). */
const MESSAGES = [
  'Connection terminated',
  'Client has encountered a connection error',
  'timeout exceeded when trying to connect',
  'Cannot use a pool after calling end',
  'PGlite is closed',
];

function oneIsUnavailable(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || SQLSTATE_UNAVAILABLE.has(code) || /^08[0-9A-Z]{3}$/.test(code))) return true;
  const message = (err as { message?: unknown }).message;
  return typeof message === 'string' && MESSAGES.some((m) => message.includes(m));
}

export function isDatabaseUnavailable(err: unknown): boolean {
  // Drizzle wraps driver errors (`cause`); Node reports several refused addresses as one AggregateError.
  const seen = new Set<unknown>();
  const queue: unknown[] = [err];
  while (queue.length) {
    const e = queue.shift();
    if (e === undefined || e === null || seen.has(e)) continue;
    seen.add(e);
    if (oneIsUnavailable(e)) return true;
    if (typeof e === 'object') {
      queue.push((e as { cause?: unknown }).cause);
      const inner = (e as { errors?: unknown }).errors;
      if (Array.isArray(inner)) queue.push(...inner);
    }
  }
  return false;
}
