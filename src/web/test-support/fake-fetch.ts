/**
 * The API at the network boundary: `fetch` answers from the routes a test gives ('GET /api/channels'),
 * with bodies in the contracts' shapes; a request no route answers fails the test.
 */
import type { z } from 'zod';
import { vi } from 'vitest';
import type { errorEnvelopeSchema } from '../../contracts/errors';

export interface FakeRequest {
  method: string;
  url: URL;
  headers: Headers;
  /** The JSON body, parsed. */
  body: unknown;
  signal: AbortSignal | undefined;
}

type Route = (req: FakeRequest) => Response | Promise<Response>;

/** Requests no route answered; test-support/setup.ts fails the test on any. */
const unanswered: string[] = [];

export function takeUnanswered(): string[] {
  return unanswered.splice(0);
}

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json; charset=utf-8', ...headers } });
}

/** A refusal in the error envelope every route answers with (src/contracts/errors.ts). */
export function refusal(status: number, code: string, message: string, extra: Record<string, unknown> = {}): Response {
  const envelope: z.infer<typeof errorEnvelopeSchema> = { error: { code, message }, message };
  return json({ ...envelope, ...extra }, status);
}

/**
 * Stubs `fetch` for this test. Routes are 'METHOD /path' (the query string is ignored); `calls` lists
 * every request made, `route()` adds or replaces one later.
 */
export function stubFetch(routes: Record<string, Route>) {
  const table = new Map(Object.entries(routes));
  const calls: FakeRequest[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url, location.href);
    const method = (init.method ?? 'GET').toUpperCase();
    const req: FakeRequest = {
      method,
      url,
      headers: new Headers(init.headers),
      body: typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : init.body,
      signal: init.signal ?? undefined,
    };
    calls.push(req);
    const route = table.get(`${method} ${url.origin === location.origin ? url.pathname : url.origin + url.pathname}`);
    if (!route) {
      unanswered.push(`${method} ${url.href}`);
      throw new TypeError('Failed to fetch');
    }
    return route(req);
  });
  vi.stubGlobal('fetch', fetch);
  return {
    calls,
    route: (key: string, route: Route) => void table.set(key, route),
    /** The requests made to 'METHOD /path'. */
    callsTo: (key: string) => calls.filter((c) => `${c.method} ${c.url.pathname}` === key),
  };
}
