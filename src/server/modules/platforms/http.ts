import { FetchError, SERVICE_CALL_DEFAULTS, serviceJson } from '../../lib/outbound-http';

/** How a platform client talks HTTP: bounded time per request, bounded retries. */
export interface FetchOptions {
  /** Per request. */
  timeoutMs?: number;
  /** Extra attempts after the first, on 429, 5xx, timeouts and network errors. */
  retries?: number;
  /** First backoff; doubles each retry. */
  baseDelayMs?: number;
  /** Longest wait honoured from a Retry-After header (longer ones give up). */
  maxRetryAfterMs?: number;
  /** Pages followed at most (a platform that never ends its pagination is cut off). */
  maxPages?: number;
  /** Aborts the whole call (the app is closing). */
  signal?: AbortSignal;
}

export const DEFAULT_FETCH_OPTIONS: Required<Omit<FetchOptions, 'signal'>> = {
  timeoutMs: SERVICE_CALL_DEFAULTS.timeoutMs,
  retries: 3,
  baseDelayMs: SERVICE_CALL_DEFAULTS.baseDelayMs,
  maxRetryAfterMs: SERVICE_CALL_DEFAULTS.maxRetryAfterMs,
  maxPages: 2_000,
};

/** A platform call that failed; the message names the platform and says what to check. */
export class PlatformError extends Error {
  constructor(
    readonly platformLabel: string,
    message: string,
    readonly status: number | null = null,
    /** Worth another attempt (429, 5xx, timeout, network). */
    readonly retryable = false,
  ) {
    super(`${platformLabel}: ${message}`);
  }
}

/**
 * A failed call in the platform's words: a 401/403 names the credential to check (`tokenName`), a
 * 429/5xx says how long the platform asked us to wait, a reply that cannot be used says so.
 */
function toPlatformError(platformLabel: string, err: FetchError, tokenName: string): PlatformError {
  const status = err.status ?? null;
  if (err.code === 'http' && (status === 401 || status === 403)) {
    return new PlatformError(platformLabel, `${status} ${err.statusText || 'Unauthorized'} (check ${tokenName})`, status);
  }
  if (err.code === 'http' && status !== null) {
    const statusLine = `${status} ${err.statusText}`.trim();
    if (err.retryable && err.retryAfterMs !== undefined) {
      return new PlatformError(platformLabel, `${statusLine} (asked to retry after ${Math.ceil(err.retryAfterMs / 1000)} s)`, status, true);
    }
    return new PlatformError(platformLabel, statusLine, status, err.retryable);
  }
  if (err.code === 'too_large') return new PlatformError(platformLabel, 'reply too large', status);
  if (err.code === 'not_json') return new PlatformError(platformLabel, 'reply is not JSON', status);
  return new PlatformError(platformLabel, err.message, status, err.retryable);
}

/**
 * GET a JSON document with a bearer token. Retries 429 and 5xx (honouring Retry-After), timeouts and
 * network errors with exponential backoff; a 4xx other than 429 fails at once. `tokenName` is the
 * env var to name in a 401/403 message.
 */
export async function getJson(platformLabel: string, url: string, token: string, tokenName: string, opts: FetchOptions = {}): Promise<unknown> {
  const o = { ...DEFAULT_FETCH_OPTIONS, ...opts };
  const cancelled = () => new PlatformError(platformLabel, 'cancelled (server closing)');
  if (opts.signal?.aborted) throw cancelled();
  try {
    return await serviceJson(url, {
      headers: { authorization: `Bearer ${token}` },
      timeoutMs: o.timeoutMs,
      retries: o.retries,
      baseDelayMs: o.baseDelayMs,
      maxRetryAfterMs: o.maxRetryAfterMs,
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
  } catch (err) {
    if (opts.signal?.aborted) throw cancelled();
    if (err instanceof FetchError) throw toPlatformError(platformLabel, err, tokenName);
    throw err;
  }
}
