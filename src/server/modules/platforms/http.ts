import { setTimeout as sleep } from 'node:timers/promises';
import { MINUTE_MS } from '../../../contracts/time';

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
  timeoutMs: 15_000,
  retries: 3,
  baseDelayMs: 500,
  maxRetryAfterMs: MINUTE_MS,
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

const MAX_BODY_BYTES = 20 * 1024 * 1024;

/** Seconds or an HTTP date → milliseconds; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const s = header.trim();
  if (/^\d+(\.\d+)?$/.test(s)) return Math.round(Number(s) * 1000);
  const at = Date.parse(s);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/**
 * GET a JSON document with a bearer token. Retries 429 and 5xx (honouring Retry-After), timeouts and
 * network errors with exponential backoff; a 4xx other than 429 fails at once. `tokenName` is the
 * env var to name in a 401/403 message.
 */
export async function getJson(platformLabel: string, url: string, token: string, tokenName: string, opts: FetchOptions = {}): Promise<unknown> {
  const o = { ...DEFAULT_FETCH_OPTIONS, ...opts };
  const cancelled = () => new PlatformError(platformLabel, 'cancelled (server closing)');
  let lastError: PlatformError | undefined;
  for (let attempt = 0; attempt <= o.retries; attempt++) {
    if (opts.signal?.aborted) throw cancelled();
    let waitMs = o.baseDelayMs * 2 ** attempt;
    try {
      return await getOnce(platformLabel, url, token, tokenName, o.timeoutMs, opts.signal);
    } catch (err) {
      if (opts.signal?.aborted) throw cancelled();
      if (!(err instanceof PlatformError) || !err.retryable) throw err;
      lastError = err;
      if (err instanceof RetryAfterError) {
        // Waiting longer than we are willing to: give up now rather than hold the sync.
        if (err.retryAfterMs > o.maxRetryAfterMs) throw err;
        waitMs = err.retryAfterMs;
      }
    }
    if (attempt < o.retries) await sleep(waitMs, undefined, opts.signal ? { signal: opts.signal } : {}).catch(() => undefined);
  }
  throw lastError ?? new PlatformError(platformLabel, 'request failed');
}

class RetryAfterError extends PlatformError {
  constructor(
    platformLabel: string,
    message: string,
    status: number,
    readonly retryAfterMs: number,
  ) {
    super(platformLabel, message, status, true);
  }
}

/** One attempt; throws a PlatformError that says whether another attempt may help. */
async function getOnce(
  platformLabel: string,
  url: string,
  token: string,
  tokenName: string,
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<unknown> {
  let res: Response;
  let text: string;
  try {
    const timeout = AbortSignal.timeout(timeoutMs);
    res = await fetch(url, {
      headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
      signal: signal ? AbortSignal.any([timeout, signal]) : timeout,
      redirect: 'error',
    });
    if (!res.ok) {
      await res.body?.cancel().catch(() => undefined);
    }
    text = res.ok ? await res.text() : '';
  } catch (err) {
    const e = err as Error & { cause?: { code?: unknown; message?: unknown } };
    if (e.name === 'TimeoutError' || e.name === 'AbortError') {
      throw new PlatformError(platformLabel, `no reply within ${timeoutMs} ms`, null, true);
    }
    // fetch says only "fetch failed"; the cause says why (ECONNREFUSED, ENOTFOUND, ...).
    const cause = typeof e.cause?.code === 'string' ? e.cause.code : typeof e.cause?.message === 'string' ? e.cause.message : e.message;
    throw new PlatformError(platformLabel, `unreachable (${cause})`, null, true);
  }
  const statusLine = `${res.status} ${res.statusText}`.trim();
  if (res.status === 401 || res.status === 403) {
    throw new PlatformError(platformLabel, `${res.status} ${res.statusText || 'Unauthorized'} (check ${tokenName})`, res.status);
  }
  if (res.status === 429 || res.status >= 500) {
    const ra = retryAfterMs(res.headers.get('retry-after'));
    if (ra !== undefined) throw new RetryAfterError(platformLabel, `${statusLine} (asked to retry after ${Math.ceil(ra / 1000)} s)`, res.status, ra);
    throw new PlatformError(platformLabel, statusLine, res.status, true);
  }
  if (!res.ok) throw new PlatformError(platformLabel, statusLine, res.status);
  if (text.length > MAX_BODY_BYTES) throw new PlatformError(platformLabel, 'reply too large', res.status);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new PlatformError(platformLabel, 'reply is not JSON', res.status);
  }
}
