import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { LookupFunction } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import zlib from 'node:zlib';
import { MINUTE_MS, SECOND_MS } from '../../contracts/time';
import { isPrivateAddress } from './private-address';

export { isPrivateAddress };

/**
 * Every HTTP call the server makes goes through this file; no other server file calls the global
 * `fetch` (lint/dhr-rules.js `dhr/outbound-http-only`). One core sends a request and reads the reply:
 * bounded in time through an AbortSignal, the body read as a stream and abandoned as soon as it passes
 * its cap, a User-Agent on every request, and one error type (`FetchError`) that names the host and
 * what failed. Two entry points share it:
 *
 * - `safeFetch`, for addresses someone typed (news feeds and pages): never reaches a private, loopback,
 *   link-local or metadata address unless allowPrivate (tests on loopback). The host name is resolved
 *   once, the addresses are checked, and the socket connects to the checked address itself: a DNS
 *   answer that changes between check and connect (rebinding) cannot slip through. Each redirect is
 *   checked again. docs/decisions/0017-news-ingestion-and-forum.md.
 * - `callService` and `serviceJson`, for the services DHR is configured to talk to (Patreon, Buy Me a
 *   Coffee, AudD, ACRCloud, Icecast): bounded retries with exponential backoff on 429, 5xx, timeouts
 *   and network errors, honouring Retry-After; any other 4xx fails at once.
 */

// ---------------------------------------------------------------- shared core

/** The User-Agent of reads of user-supplied addresses (robots.txt rules are matched against its first word). */
export const USER_AGENT = 'DHRNewsBot/1.0 (+https://deephouseradio; news reader)';
/** The User-Agent of calls to configured services. */
const SERVICE_USER_AGENT = 'DHR/1.0 (+https://deephouseradio)';

type FetchErrorCode = 'blocked' | 'timeout' | 'too_large' | 'redirects' | 'http' | 'network' | 'invalid_url' | 'not_json';

/**
 * An outbound call that was refused or failed. The message says what failed (shown to the operator);
 * `host` names the host it was sent to.
 */
export class FetchError extends Error {
  /** The host the failed request was for ('' when the address did not parse). */
  host = '';
  /** The status text of the reply that failed the call, when there was one. */
  statusText = '';
  /** How long the service asked us to wait (Retry-After), when it did. */
  retryAfterMs: number | undefined;

  constructor(
    message: string,
    readonly code: FetchErrorCode,
    /** The HTTP status that failed the fetch, when there was one. */
    readonly status?: number,
  ) {
    super(message);
  }

  /** Worth another attempt: 429, 5xx, a timeout or a network error. */
  get retryable(): boolean {
    if (this.code === 'timeout' || this.code === 'network') return true;
    return this.code === 'http' && this.status !== undefined && (this.status === 429 || this.status >= 500);
  }
}

function withHost(err: FetchError, url: URL): FetchError {
  if (!err.host) err.host = url.hostname.replace(/^\[|\]$/g, '');
  return err;
}

/** Seconds or an HTTP date → milliseconds; undefined when absent or unreadable. */
function retryAfterMs(header: string | undefined, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const s = header.trim();
  if (/^\d+(\.\d+)?$/.test(s)) return Math.round(Number(s) * 1000);
  const at = Date.parse(s);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** An AbortSignal that fires after `ms` with a FetchError saying so, joined with the caller's own signal. */
function deadline(ms: number, message: string, outer: AbortSignal | undefined): { signal: AbortSignal; clear: () => void } {
  const own = new AbortController();
  const timer = setTimeout(() => own.abort(new FetchError(message, 'timeout')), ms);
  return { signal: outer ? AbortSignal.any([own.signal, outer]) : own.signal, clear: () => clearTimeout(timer) };
}

/** Turns whatever a failed exchange threw into a FetchError; a timeout is reported as itself, not as the torn-down socket. */
function asFetchError(err: unknown, signal: AbortSignal, url: URL): FetchError {
  const reason: unknown = signal.reason;
  if (signal.aborted && reason instanceof FetchError) return withHost(reason, url);
  if (signal.aborted) return withHost(new FetchError('cancelled', 'timeout'), url);
  if (err instanceof FetchError) return withHost(err, url);
  const e = err as NodeJS.ErrnoException;
  return withHost(new FetchError(`unreachable (${e.code ?? e.message})`, 'network'), url);
}

interface Reply {
  status: number;
  statusText: string;
  headers: http.IncomingHttpHeaders;
  /** The (decompressed) body of a 2xx reply; empty for any other status. */
  body: Buffer;
}

interface Exchange {
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: Buffer;
  signal: AbortSignal;
  maxBytes: number;
  /** 'fail': a body over the cap fails the call; 'truncate': the first maxBytes are kept and the download stops. */
  overflow: 'fail' | 'truncate';
  /** Until the TCP (and TLS) connection is up. */
  connectTimeoutMs?: number;
  /** Answers net.connect's lookup (the address already checked). */
  lookup?: LookupFunction;
}

/** One request, one reply: no redirects followed, no retries. Errors are thrown as they come (see asFetchError). */
function exchange(url: URL, x: Exchange): Promise<Reply> {
  return new Promise((resolve, reject) => {
    // The first outcome wins: tearing the socket down after a cap or timeout raises errors of its own.
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(connectTimer);
      fn();
    };
    const fail = (err: Error) => {
      settle(() => reject(err));
      req.destroy();
    };
    const headers: Record<string, string> = { ...x.headers, 'accept-encoding': 'gzip, deflate, br' };
    if (x.body) headers['content-length'] = String(x.body.byteLength);
    const mod = url.protocol === 'https:' ? https : http;
    const req = mod.request(url, { method: x.method, headers, signal: x.signal, agent: false, ...(x.lookup ? { lookup: x.lookup } : {}) });
    const connectTimer =
      x.connectTimeoutMs === undefined
        ? undefined
        : setTimeout(() => fail(new FetchError(`no connection within ${x.connectTimeoutMs} ms`, 'timeout')), x.connectTimeoutMs);
    req.on('socket', (socket) => {
      socket.once(url.protocol === 'https:' ? 'secureConnect' : 'connect', () => clearTimeout(connectTimer));
    });
    req.on('error', (err) => settle(() => reject(err)));
    req.on('response', (res) => {
      clearTimeout(connectTimer);
      const status = res.statusCode ?? 0;
      const done = (body: Buffer) => settle(() => resolve({ status, statusText: res.statusMessage ?? '', headers: res.headers, body }));
      if (status < 200 || status >= 300) {
        res.resume();
        done(Buffer.alloc(0));
        return;
      }
      const declared = Number(res.headers['content-length']);
      if (x.overflow === 'fail' && Number.isFinite(declared) && declared > x.maxBytes) return fail(tooLarge(x.maxBytes));
      readCapped(res, x, done, (err) => {
        settle(() => reject(err));
        req.destroy();
      });
    });
    req.end(x.body);
  });
}

function tooLarge(maxBytes: number): FetchError {
  return new FetchError(`reply larger than ${Math.round(maxBytes / 1024)} KB`, 'too_large');
}

/** Reads the (decompressed) body, stopping as soon as it passes `maxBytes`: a huge or endless reply costs at most that. */
function readCapped(res: http.IncomingMessage, x: Exchange, done: (body: Buffer) => void, fail: (err: Error) => void): void {
  const encoding = String(res.headers['content-encoding'] ?? '')
    .trim()
    .toLowerCase();
  const decoder =
    encoding === 'gzip' || encoding === 'x-gzip'
      ? zlib.createGunzip()
      : encoding === 'deflate'
        ? zlib.createInflate()
        : encoding === 'br'
          ? zlib.createBrotliDecompress()
          : undefined;
  const stream: NodeJS.ReadableStream = decoder ? res.pipe(decoder) : res;
  const chunks: Buffer[] = [];
  let size = 0;
  let over = false;
  stream.on('data', (chunk: Buffer) => {
    if (over) return;
    size += chunk.length;
    if (size >= x.maxBytes && x.overflow === 'truncate') {
      over = true;
      chunks.push(chunk);
      // Settled first: tearing the reply down reports an abort of its own.
      done(Buffer.concat(chunks).subarray(0, x.maxBytes));
      decoder?.destroy();
      res.destroy();
      return;
    }
    if (size > x.maxBytes) {
      over = true;
      decoder?.destroy();
      fail(tooLarge(x.maxBytes));
      return;
    }
    chunks.push(chunk);
  });
  stream.on('end', () => done(Buffer.concat(chunks)));
  stream.on('error', (err: Error) => fail(new FetchError(`unreadable reply (${err.message})`, 'network')));
  res.on('aborted', () => fail(new FetchError('the server closed the connection mid-reply', 'network')));
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** Parses and checks a URL: http or https only, no credentials. */
export function parseFetchUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new FetchError('not a valid address', 'invalid_url');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw withHost(new FetchError(`${url.protocol} addresses are not fetched`, 'invalid_url'), url);
  if (url.username || url.password) throw withHost(new FetchError('addresses with credentials are not fetched', 'invalid_url'), url);
  return url;
}

/** The next address of a redirect reply, checked like the first. */
function redirectTarget(reply: Reply, url: URL, hop: number, maxRedirects: number, seen: Set<string>): URL {
  const location = reply.headers.location;
  if (!location) throw new FetchError(`${reply.status} redirect without a location`, 'http', reply.status);
  if (hop >= maxRedirects) throw new FetchError(`more than ${maxRedirects} redirects`, 'redirects');
  let next: URL;
  try {
    next = parseFetchUrl(new URL(location, url).href);
  } catch (err) {
    throw err instanceof FetchError ? new FetchError(`redirect refused: ${err.message}`, err.code) : err;
  }
  if (seen.has(next.href)) throw new FetchError('redirect loop', 'redirects');
  return next;
}

function httpError(reply: Reply): FetchError {
  const err = new FetchError(`HTTP ${reply.status}${reply.statusText ? ` ${reply.statusText}` : ''}`, 'http', reply.status);
  err.statusText = reply.statusText;
  const ra = retryAfterMs(typeof reply.headers['retry-after'] === 'string' ? reply.headers['retry-after'] : undefined);
  if (ra !== undefined) err.retryAfterMs = ra;
  return err;
}

// ---------------------------------------------------------------- addresses users give

export interface SafeFetchOptions {
  /** Allow private and loopback addresses (NEWS_ALLOW_PRIVATE; tests only). */
  allowPrivate?: boolean;
  /** Until the TCP (and TLS) connection is up. */
  connectTimeoutMs?: number;
  /** The whole exchange, redirects and body included. */
  totalTimeoutMs?: number;
  /** Body bytes after decompression; the download is aborted as soon as it passes this. */
  maxBytes?: number;
  maxRedirects?: number;
  accept?: string;
  /** Conditional GET: the validators of the last 200 reply. */
  etag?: string | null;
  lastModified?: string | null;
  signal?: AbortSignal;
  /** Resolver (tests give one that answers what a rebinding DNS would). */
  lookup?: typeof dns.promises.lookup;
}

export interface SafeFetchResult {
  status: number;
  /** The address that answered, after redirects. */
  url: string;
  notModified: boolean;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  etag: string | null;
  lastModified: string | null;
}

export const SAFE_FETCH_DEFAULTS: Required<Pick<SafeFetchOptions, 'connectTimeoutMs' | 'totalTimeoutMs' | 'maxBytes' | 'maxRedirects'>> = {
  connectTimeoutMs: 5 * SECOND_MS,
  totalTimeoutMs: 15 * SECOND_MS,
  maxBytes: 5 * 1024 * 1024,
  maxRedirects: 5,
};

/** Resolves the host once and returns a lookup that answers only the address that passed the filter. */
async function vettedLookup(url: URL, allowPrivate: boolean, lookup: typeof dns.promises.lookup): Promise<LookupFunction> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const pinned = (address: string, family: number): LookupFunction => {
    // net.connect asks this for the host's address: it gets the address already checked, never a new answer.
    return (_host, options, cb) => {
      if ((options as dns.LookupAllOptions).all) cb(null, [{ address, family }]);
      else cb(null, address, family);
    };
  };
  const literal = net.isIP(host);
  if (literal) {
    if (!allowPrivate && isPrivateAddress(host)) throw new FetchError(`refused: ${host} is a private or reserved address`, 'blocked');
    return pinned(host, literal);
  }
  let answers: dns.LookupAddress[];
  try {
    answers = await lookup(host, { all: true, verbatim: true });
  } catch (err) {
    throw new FetchError(`cannot resolve ${host} (${(err as NodeJS.ErrnoException).code ?? 'DNS error'})`, 'network');
  }
  // Every answer must pass: a name that also points inside is refused rather than raced.
  if (!allowPrivate) {
    const bad = answers.find((a) => isPrivateAddress(a.address));
    if (bad) throw new FetchError(`refused: ${host} resolves to a private or reserved address (${bad.address})`, 'blocked');
  }
  const first = answers[0];
  if (!first) throw new FetchError(`cannot resolve ${host}`, 'network');
  return pinned(first.address, first.family);
}

/**
 * GET `rawUrl` under the limits above. A 304 answers `notModified`; any other non-2xx status, a
 * refused address, a timeout, too many redirects or a body over the cap throws a FetchError.
 */
export async function safeFetch(rawUrl: string, opts: SafeFetchOptions = {}): Promise<SafeFetchResult> {
  const o = { ...SAFE_FETCH_DEFAULTS, ...opts };
  const lookup = opts.lookup ?? dns.promises.lookup;
  const total = deadline(o.totalTimeoutMs, `no complete reply within ${o.totalTimeoutMs} ms`, opts.signal);
  let url: URL | undefined;
  try {
    url = parseFetchUrl(rawUrl);
    const seen = new Set<string>();
    for (let hop = 0; ; hop++) {
      seen.add(url.href);
      const headers: Record<string, string> = { 'user-agent': USER_AGENT, accept: o.accept ?? '*/*' };
      // The validators belong to the address the source names, not to a redirect target.
      if (hop === 0 && o.etag) headers['if-none-match'] = o.etag;
      if (hop === 0 && o.lastModified) headers['if-modified-since'] = o.lastModified;
      const reply = await exchange(url, {
        method: 'GET',
        headers,
        signal: total.signal,
        maxBytes: o.maxBytes,
        overflow: 'fail',
        connectTimeoutMs: o.connectTimeoutMs,
        lookup: await vettedLookup(url, o.allowPrivate ?? false, lookup),
      });
      if (REDIRECTS.has(reply.status)) {
        url = redirectTarget(reply, url, hop, o.maxRedirects, seen);
        continue;
      }
      if (reply.status !== 304 && (reply.status < 200 || reply.status >= 300)) throw httpError(reply);
      const header = (name: string) => (typeof reply.headers[name] === 'string' ? reply.headers[name] : null);
      return {
        status: reply.status,
        url: url.href,
        notModified: reply.status === 304,
        headers: reply.headers,
        body: reply.body,
        etag: header('etag'),
        lastModified: header('last-modified'),
      };
    }
  } catch (err) {
    if (!url) throw err;
    throw asFetchError(err, total.signal, url);
  } finally {
    total.clear();
  }
}

// ---------------------------------------------------------------- configured services

/** How a call to a configured service is bounded. */
export interface ServiceCallOptions {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: URLSearchParams | FormData;
  /** Per attempt: connection, reply and body. */
  timeoutMs?: number;
  /** Extra attempts after the first, on 429, 5xx, timeouts and network errors. */
  retries?: number;
  /** First backoff; doubles each retry. */
  baseDelayMs?: number;
  /** Longest wait honoured from a Retry-After header (longer ones give up at once). */
  maxRetryAfterMs?: number;
  /** Body bytes after decompression. */
  maxBytes?: number;
  /** 'truncate' keeps the first maxBytes and ends the download (reading a sample of an endless stream). */
  overflow?: 'fail' | 'truncate';
  /** Redirects followed (0: a redirect fails the call). */
  maxRedirects?: number;
  /** Aborts the whole call, retries included. */
  signal?: AbortSignal;
}

export const SERVICE_CALL_DEFAULTS = {
  timeoutMs: 15 * SECOND_MS,
  retries: 0,
  baseDelayMs: 500,
  maxRetryAfterMs: MINUTE_MS,
  maxBytes: 20 * 1024 * 1024,
  maxRedirects: 0,
};

async function encodeBody(body: URLSearchParams | FormData | undefined): Promise<{ bytes?: Buffer; type?: string }> {
  if (body === undefined) return {};
  // Request encodes a form exactly as fetch would, multipart boundary included.
  const req = new Request('http://localhost/', { method: 'POST', body });
  return { bytes: Buffer.from(await req.arrayBuffer()), type: req.headers.get('content-type') ?? undefined };
}

/**
 * Calls a configured service and returns its 2xx reply. A non-2xx reply, a timeout, a network error or
 * a body over the cap throws a FetchError; 429, 5xx, timeouts and network errors are retried `retries`
 * times with exponential backoff, or after the Retry-After the service asked for (a longer one than
 * maxRetryAfterMs fails at once).
 */
export async function callService(rawUrl: string, opts: ServiceCallOptions = {}): Promise<Reply & { url: string }> {
  const o = { ...SERVICE_CALL_DEFAULTS, ...opts };
  const start = new URL(rawUrl);
  const { bytes, type } = await encodeBody(opts.body);
  const headers: Record<string, string> = { 'user-agent': SERVICE_USER_AGENT, ...(type ? { 'content-type': type } : {}), ...opts.headers };
  let lastError: FetchError | undefined;
  for (let attempt = 0; attempt <= o.retries; attempt++) {
    if (opts.signal?.aborted) throw asFetchError(undefined, opts.signal, start);
    let waitMs = o.baseDelayMs * 2 ** attempt;
    try {
      return await attemptOnce(start, o, headers, bytes);
    } catch (err) {
      const failure = err as FetchError;
      if (!failure.retryable) throw failure;
      lastError = failure;
      if (failure.retryAfterMs !== undefined) {
        // Waiting longer than we are willing to: give up now rather than hold the caller.
        if (failure.retryAfterMs > o.maxRetryAfterMs) throw failure;
        waitMs = failure.retryAfterMs;
      }
    }
    if (attempt < o.retries) await sleep(waitMs, undefined, opts.signal ? { signal: opts.signal } : {}).catch(() => undefined);
  }
  throw lastError ?? withHost(new FetchError('request failed', 'network'), start);
}

async function attemptOnce(
  start: URL,
  o: typeof SERVICE_CALL_DEFAULTS & ServiceCallOptions,
  headers: Record<string, string>,
  body: Buffer | undefined,
): Promise<Reply & { url: string }> {
  const limit = deadline(o.timeoutMs, `no reply within ${o.timeoutMs} ms`, o.signal);
  let url = start;
  try {
    const seen = new Set<string>();
    for (let hop = 0; ; hop++) {
      seen.add(url.href);
      const reply = await exchange(url, {
        method: o.method ?? 'GET',
        headers,
        ...(body ? { body } : {}),
        signal: limit.signal,
        maxBytes: o.maxBytes,
        overflow: o.overflow ?? 'fail',
      });
      if (REDIRECTS.has(reply.status) && o.maxRedirects > 0) {
        url = redirectTarget(reply, url, hop, o.maxRedirects, seen);
        continue;
      }
      if (reply.status < 200 || reply.status >= 300) throw httpError(reply);
      return { ...reply, url: url.href };
    }
  } catch (err) {
    throw asFetchError(err, limit.signal, url);
  } finally {
    limit.clear();
  }
}

/** `callService` for a JSON reply (sent with `accept: application/json`): the parsed document, or a FetchError 'not_json'. */
export async function serviceJson(url: string, opts: ServiceCallOptions = {}): Promise<unknown> {
  const reply = await callService(url, { ...opts, headers: { accept: 'application/json', ...opts.headers } });
  try {
    return JSON.parse(reply.body.toString('utf8')) as unknown;
  } catch {
    throw withHost(new FetchError('reply is not JSON', 'not_json', reply.status), new URL(reply.url));
  }
}

// ---------------------------------------------------------------- long-lived streams of configured services

/** How a long-lived read of a configured service (an Icecast mount) is bounded. */
export interface ServiceStreamOptions {
  headers?: Record<string, string>;
  /** Until the reply's headers have arrived. */
  headersTimeoutMs?: number;
  /** Longest silence between two chunks of the body before the stream is torn down. */
  idleTimeoutMs?: number;
  /** Ends the stream (at any point: before or after the headers). */
  signal?: AbortSignal;
}

export interface ServiceStream {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The raw body, as it comes; it errors with a FetchError on silence, and ends when the service or `signal` ends it. */
  body: http.IncomingMessage;
}

/**
 * Opens a GET to a configured service whose body does not end (an audio stream read for its in-band
 * titles) and resolves as soon as a 2xx reply's headers arrive; the caller reads the body and ends it
 * by aborting `signal`. No retries and no redirects: the caller reconnects on its own schedule. A
 * non-2xx reply, a timeout before the headers or a network error throws a FetchError.
 */
export function openServiceStream(rawUrl: string, opts: ServiceStreamOptions = {}): Promise<ServiceStream> {
  const url = parseFetchUrl(rawUrl);
  const headersTimeoutMs = opts.headersTimeoutMs ?? 10 * SECOND_MS;
  const idleTimeoutMs = opts.idleTimeoutMs ?? 30 * SECOND_MS;
  const own = new AbortController();
  const signal = opts.signal ? AbortSignal.any([own.signal, opts.signal]) : own.signal;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => own.abort(new FetchError(`no reply within ${headersTimeoutMs} ms`, 'timeout')), headersTimeoutMs);
    const mod = url.protocol === 'https:' ? https : http;
    const req = mod.request(url, { method: 'GET', headers: { 'user-agent': SERVICE_USER_AGENT, ...opts.headers }, signal, agent: false });
    req.on('error', (err) => {
      clearTimeout(timer);
      reject(asFetchError(err, signal, url));
    });
    req.on('response', (res) => {
      clearTimeout(timer);
      const status = res.statusCode ?? 0;
      if (status < 200 || status >= 300) {
        res.resume();
        req.destroy();
        reject(withHost(httpError({ status, statusText: res.statusMessage ?? '', headers: res.headers, body: Buffer.alloc(0) }), url));
        return;
      }
      // Silence means the service or the path to it is gone without saying so.
      res.socket.setTimeout(idleTimeoutMs, () => res.destroy(withHost(new FetchError(`no data for ${idleTimeoutMs} ms`, 'timeout'), url)));
      resolve({ status, headers: res.headers, body: res });
    });
    req.end();
  });
}
