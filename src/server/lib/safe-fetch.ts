import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { LookupFunction } from 'node:net';
import zlib from 'node:zlib';
import { SECOND_MS } from '../../contracts/time';
import { isPrivateAddress } from './private-address';

export { isPrivateAddress };

/**
 * The one way DHR fetches an address someone typed (news feeds and pages): every request is bounded
 * in time, size and redirects, and never reaches a private, loopback, link-local or metadata address
 * unless NEWS_ALLOW_PRIVATE=true (tests on loopback). The host name is resolved once, the addresses
 * are checked, and the socket connects to the checked address itself: a DNS answer that changes
 * between check and connect (rebinding) cannot slip through. Each redirect is checked again.
 * docs/decisions/0017-news-ingestion-and-forum.md.
 */

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

export const USER_AGENT = 'DHRNewsBot/1.0 (+https://deephouseradio; news reader)';

/** A fetch that was refused or failed; the message is shown to the operator on the sources page. */
export class FetchError extends Error {
  constructor(
    message: string,
    readonly code: 'blocked' | 'timeout' | 'too_large' | 'redirects' | 'http' | 'network' | 'invalid_url',
    /** The HTTP status that failed the fetch, when there was one. */
    readonly status?: number,
  ) {
    super(message);
  }
}

// ---------------------------------------------------------------- fetch

/** Parses and checks a URL: http or https only, no credentials. */
export function parseFetchUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new FetchError('not a valid address', 'invalid_url');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new FetchError(`${url.protocol} addresses are not fetched`, 'invalid_url');
  if (url.username || url.password) throw new FetchError('addresses with credentials are not fetched', 'invalid_url');
  return url;
}

/** Resolves the host once and returns an address that passed the filter (the socket connects to it). */
async function vettedAddress(url: URL, allowPrivate: boolean, lookup: typeof dns.promises.lookup): Promise<{ address: string; family: number }> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const literal = net.isIP(host);
  if (literal) {
    if (!allowPrivate && isPrivateAddress(host)) throw new FetchError(`refused: ${host} is a private or reserved address`, 'blocked');
    return { address: host, family: literal };
  }
  let answers: dns.LookupAddress[];
  try {
    answers = await lookup(host, { all: true, verbatim: true });
  } catch (err) {
    throw new FetchError(`cannot resolve ${host} (${(err as NodeJS.ErrnoException).code ?? 'DNS error'})`, 'network');
  }
  if (answers.length === 0) throw new FetchError(`cannot resolve ${host}`, 'network');
  // Every answer must pass: a name that also points inside is refused rather than raced.
  if (!allowPrivate) {
    const bad = answers.find((a) => isPrivateAddress(a.address));
    if (bad) throw new FetchError(`refused: ${host} resolves to a private or reserved address (${bad.address})`, 'blocked');
  }
  const first = answers[0];
  if (!first) throw new FetchError(`cannot resolve ${host}`, 'network');
  return { address: first.address, family: first.family };
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * GET `rawUrl` under the limits above. A 304 answers `notModified`; any other non-2xx status, a
 * refused address, a timeout, too many redirects or a body over the cap throws a FetchError.
 */
export async function safeFetch(rawUrl: string, opts: SafeFetchOptions = {}): Promise<SafeFetchResult> {
  const o = { ...SAFE_FETCH_DEFAULTS, ...opts };
  const lookup = opts.lookup ?? dns.promises.lookup;
  const total = new AbortController();
  const totalTimer = setTimeout(() => total.abort(new FetchError(`no complete reply within ${o.totalTimeoutMs} ms`, 'timeout')), o.totalTimeoutMs);
  const signal = opts.signal ? AbortSignal.any([total.signal, opts.signal]) : total.signal;
  try {
    let url = parseFetchUrl(rawUrl);
    const seen = new Set<string>();
    for (let hop = 0; ; hop++) {
      seen.add(url.href);
      const res = await requestOnce(url, o, lookup, signal, hop === 0);
      if (REDIRECTS.has(res.status)) {
        const location = res.headers.location;
        if (!location) throw new FetchError(`${res.status} redirect without a location`, 'http', res.status);
        if (hop >= o.maxRedirects) throw new FetchError(`more than ${o.maxRedirects} redirects`, 'redirects');
        let next: URL;
        try {
          next = parseFetchUrl(new URL(location, url).href);
        } catch (err) {
          throw err instanceof FetchError ? new FetchError(`redirect refused: ${err.message}`, err.code) : err;
        }
        if (seen.has(next.href)) throw new FetchError('redirect loop', 'redirects');
        url = next;
        continue;
      }
      return { ...res, url: url.href };
    }
  } catch (err) {
    // A timeout shows up as whatever the torn-down socket said: report the timeout itself.
    const reason: unknown = signal.reason;
    if (signal.aborted && reason instanceof FetchError) throw reason;
    if (signal.aborted) throw new FetchError('cancelled', 'timeout');
    if (err instanceof FetchError) throw err;
    const e = err as NodeJS.ErrnoException;
    throw new FetchError(`unreachable (${e.code ?? e.message})`, 'network');
  } finally {
    clearTimeout(totalTimer);
  }
}

type Limits = typeof SAFE_FETCH_DEFAULTS & SafeFetchOptions;

async function requestOnce(
  url: URL,
  o: Limits,
  lookup: typeof dns.promises.lookup,
  signal: AbortSignal,
  conditional: boolean,
): Promise<Omit<SafeFetchResult, 'url'>> {
  const target = await vettedAddress(url, o.allowPrivate ?? false, lookup);
  // net.connect asks this for the host's address: it gets the address already checked, never a new answer.
  const pinned: LookupFunction = (_host, options, cb) => {
    if ((options as dns.LookupAllOptions).all) cb(null, [{ address: target.address, family: target.family }]);
    else cb(null, target.address, target.family);
  };
  const headers: Record<string, string> = {
    'user-agent': USER_AGENT,
    accept: o.accept ?? '*/*',
    'accept-encoding': 'gzip, deflate, br',
  };
  // The validators belong to the address the source names, not to a redirect target.
  if (conditional && o.etag) headers['if-none-match'] = o.etag;
  if (conditional && o.lastModified) headers['if-modified-since'] = o.lastModified;

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
    const mod = url.protocol === 'https:' ? https : http;
    const req = mod.request(url, { method: 'GET', headers, lookup: pinned, signal, agent: false });
    const connectTimer = setTimeout(() => fail(new FetchError(`no connection within ${o.connectTimeoutMs} ms`, 'timeout')), o.connectTimeoutMs);
    req.on('socket', (socket) => {
      socket.once(url.protocol === 'https:' ? 'secureConnect' : 'connect', () => clearTimeout(connectTimer));
    });
    req.on('error', (err) => settle(() => reject(err)));
    req.on('response', (res) => {
      clearTimeout(connectTimer);
      const status = res.statusCode ?? 0;
      const done = (body: Buffer) =>
        settle(() =>
          resolve({
            status,
            notModified: status === 304,
            headers: res.headers,
            body,
            etag: typeof res.headers.etag === 'string' ? res.headers.etag : null,
            lastModified: typeof res.headers['last-modified'] === 'string' ? res.headers['last-modified'] : null,
          }),
        );
      if (REDIRECTS.has(status) || status === 304) {
        res.resume();
        done(Buffer.alloc(0));
        return;
      }
      if (status < 200 || status >= 300) {
        res.resume();
        settle(() => reject(new FetchError(`HTTP ${status}${res.statusMessage ? ` ${res.statusMessage}` : ''}`, 'http', status)));
        return;
      }
      const declared = Number(res.headers['content-length']);
      if (Number.isFinite(declared) && declared > o.maxBytes) return fail(tooLarge(o.maxBytes));
      readCapped(res, o.maxBytes, done, fail);
    });
    req.end();
  });
}

function tooLarge(maxBytes: number): FetchError {
  return new FetchError(`reply larger than ${Math.round(maxBytes / 1024)} KB`, 'too_large');
}

/** Reads the (decompressed) body, giving up as soon as it passes `maxBytes`: a huge or endless reply costs at most that. */
function readCapped(res: http.IncomingMessage, maxBytes: number, done: (body: Buffer) => void, fail: (err: Error) => void): void {
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
    if (size > maxBytes) {
      over = true;
      decoder?.destroy();
      fail(tooLarge(maxBytes));
      return;
    }
    chunks.push(chunk);
  });
  stream.on('end', () => done(Buffer.concat(chunks)));
  stream.on('error', (err: Error) => fail(new FetchError(`unreadable reply (${err.message})`, 'network')));
  res.on('aborted', () => fail(new FetchError('the server closed the connection mid-reply', 'network')));
}
