import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Loopback stand-ins for Patreon API v2 and Buy Me a Coffee API v1, answering in the documented
 * shapes (/work/shared/reference/external-apis.md): several pages, a 401 on a wrong token, scripted
 * failures (e.g. a 500 then success, a 429 with Retry-After) and a slow reply.
 */

export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  authorization: string | undefined;
}

export interface ScriptedFailure {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

interface StubState<T> {
  /** What the platform lists; replace between syncs to simulate changes. */
  items: T[];
  pageSize: number;
  /** Served first, one per request, before normal answers. */
  failures: ScriptedFailure[];
  /** Delay before every answer. */
  delayMs: number;
  token: string;
}

export interface PlatformStub<T> {
  url: string;
  state: StubState<T>;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

async function startStub<T>(
  init: Partial<StubState<T>> & { token: string },
  answer: (req: RecordedRequest, state: StubState<T>, baseUrl: string) => { status: number; body: unknown },
): Promise<PlatformStub<T>> {
  const state: StubState<T> = { items: [], pageSize: 2, failures: [], delayMs: 0, ...init };
  const requests: RecordedRequest[] = [];
  let baseUrl = '';
  const server = http.createServer((req, res) => {
    const u = new URL(req.url ?? '/', baseUrl);
    const rec: RecordedRequest = { method: req.method ?? 'GET', path: u.pathname, query: u.searchParams, authorization: req.headers.authorization };
    requests.push(rec);
    const send = () => {
      if (res.destroyed) return;
      const failure = state.failures.shift();
      if (failure) {
        res.writeHead(failure.status, { 'content-type': 'application/json', ...failure.headers });
        res.end(JSON.stringify(failure.body ?? { error: `status ${failure.status}` }));
        return;
      }
      const { status, body } = answer(rec, state, baseUrl);
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (state.delayMs > 0) setTimeout(send, state.delayMs);
    else send();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: baseUrl,
    state,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// ---------------------------------------------------------------- Patreon

export interface PatreonMemberInput {
  email: string;
  status: 'active_patron' | 'declined_patron' | 'former_patron' | null;
  cents: number;
  fullName?: string;
  lastChargeDate?: string | null;
  nextChargeDate?: string | null;
  id?: string;
}

let memberSeq = 0;

/** A JSON:API member resource as Patreon sends it (list entry or webhook `data`). */
export function patreonMember(m: PatreonMemberInput) {
  memberSeq += 1;
  return {
    type: 'member',
    id: m.id ?? `member-${memberSeq}`,
    attributes: {
      email: m.email,
      full_name: m.fullName ?? 'Pat Ron',
      patron_status: m.status,
      currently_entitled_amount_cents: m.cents,
      next_charge_date: m.nextChargeDate ?? null,
      last_charge_date: m.lastChargeDate ?? null,
      last_charge_status: m.status === 'declined_patron' ? 'Declined' : 'Paid',
      pledge_relationship_start: '2025-01-01T00:00:00.000+00:00',
      will_pay_amount_cents: m.cents,
    },
    relationships: {
      currently_entitled_tiers: { data: m.cents > 0 ? [{ id: 'tier-1', type: 'tier' }] : [] },
      user: { data: { id: `user-${memberSeq}`, type: 'user' } },
    },
  };
}

export type PatreonMemberDoc = ReturnType<typeof patreonMember>;

export async function startPatreonStub(opts: { token: string; campaignId: string; members?: PatreonMemberDoc[]; pageSize?: number }) {
  return startStub<PatreonMemberDoc>({ token: opts.token, items: opts.members ?? [], pageSize: opts.pageSize ?? 2 }, (req, state) => {
    if (req.authorization !== `Bearer ${state.token}`) {
      return { status: 401, body: { errors: [{ code: 1, code_name: 'Unauthorized', detail: 'The server could not verify that you are authorized', status: '401' }] } };
    }
    if (req.path !== `/api/oauth2/v2/campaigns/${opts.campaignId}/members`) {
      return { status: 404, body: { errors: [{ status: '404', detail: 'Not found' }] } };
    }
    const start = Number(req.query.get('page[cursor]') ?? '0');
    const page = state.items.slice(start, start + state.pageSize);
    const next = start + state.pageSize < state.items.length ? String(start + state.pageSize) : null;
    return {
      status: 200,
      body: {
        data: page,
        included: page.map((m) => ({ type: 'user', id: m.relationships.user.data.id, attributes: {} })),
        meta: { pagination: { cursors: { next }, total: state.items.length } },
      },
    };
  });
}

// ---------------------------------------------------------------- Buy Me a Coffee

export interface BmcSubInput {
  email: string;
  price: string;
  num?: number;
  periodEnd?: string;
  cancelled?: boolean;
  cancelledAtPeriodEnd?: boolean;
  cancelledOn?: string | null;
}

let subSeq = 0;

/** A subscription as BMC's API v1 lists it. */
export function bmcSubscription(s: BmcSubInput) {
  subSeq += 1;
  return {
    subscription_id: 1000 + subSeq,
    payer_email: s.email,
    payer_name: 'Bea Coffee',
    subscription_coffee_price: s.price,
    subscription_coffee_num: s.num ?? 1,
    subscription_currency: 'EUR',
    subscription_current_period_start: '2026-11-01 10:00:00',
    subscription_current_period_end: s.periodEnd ?? '2099-12-01 10:00:00',
    subscription_is_cancelled: s.cancelled ? 1 : null,
    subscription_is_cancelled_at_period_end: s.cancelledAtPeriodEnd ? 1 : null,
    subscription_cancelled_on: s.cancelledOn ?? null,
    subscription_created_on: '2026-01-01 10:00:00',
    subscription_duration_type: 'month',
  };
}

export type BmcSubscriptionDoc = ReturnType<typeof bmcSubscription>;

export async function startBmcStub(opts: { token: string; subscriptions?: BmcSubscriptionDoc[]; pageSize?: number }) {
  return startStub<BmcSubscriptionDoc>({ token: opts.token, items: opts.subscriptions ?? [], pageSize: opts.pageSize ?? 2 }, (req, state, baseUrl) => {
    if (req.authorization !== `Bearer ${state.token}`) return { status: 401, body: { error_code: 401, reason: 'Unauthenticated.' } };
    if (req.path !== '/api/v1/subscriptions') return { status: 404, body: { error_code: 404, reason: 'Not found' } };
    const page = Math.max(1, Number(req.query.get('page') ?? '1'));
    const lastPage = Math.max(1, Math.ceil(state.items.length / state.pageSize));
    const data = state.items.slice((page - 1) * state.pageSize, page * state.pageSize);
    const path = `${baseUrl}/api/v1/subscriptions`;
    const pageUrl = (n: number) => `${path}?status=${req.query.get('status') ?? 'all'}&page=${n}`;
    return {
      status: 200,
      body: {
        current_page: page,
        data,
        first_page_url: pageUrl(1),
        from: data.length ? (page - 1) * state.pageSize + 1 : null,
        last_page: lastPage,
        last_page_url: pageUrl(lastPage),
        next_page_url: page < lastPage ? pageUrl(page + 1) : null,
        path,
        per_page: state.pageSize,
        prev_page_url: page > 1 ? pageUrl(page - 1) : null,
        to: data.length ? (page - 1) * state.pageSize + data.length : null,
        total: state.items.length,
      },
    };
  });
}
