import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Loopback stand-ins for Patreon API v2 and Buy Me a Coffee API v1, answering in the documented
 * shapes (their public API references): several pages, a 401 on a wrong token, scripted
 * failures (e.g. a 500 then success, a 429 with Retry-After) and a slow reply.
 */

export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  authorization: string | undefined;
  /** The raw request body ('' for GET). */
  body: string;
  /** When it arrived (Date.now()). */
  at: number;
}

/** An answer: JSON by default; `headers` may redirect (Location) or set another content type (then `body` is sent as is). */
interface StubAnswer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
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
  answer: (req: RecordedRequest, state: StubState<T>, baseUrl: string) => StubAnswer,
): Promise<PlatformStub<T>> {
  const state: StubState<T> = { items: [], pageSize: 2, failures: [], delayMs: 0, ...init };
  const requests: RecordedRequest[] = [];
  let baseUrl = '';
  const handle = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const u = new URL(req.url ?? '/', baseUrl);
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const rec: RecordedRequest = {
      method: req.method ?? 'GET',
      path: u.pathname,
      query: u.searchParams,
      authorization: req.headers.authorization,
      body,
      at: Date.now(),
    };
    requests.push(rec);
    const send = () => {
      if (res.destroyed) return;
      const failure = state.failures.shift();
      if (failure) {
        res.writeHead(failure.status, { 'content-type': 'application/json', ...failure.headers });
        res.end(JSON.stringify(failure.body ?? { error: `status ${failure.status}` }));
        return;
      }
      const answered = answer(rec, state, baseUrl);
      const asIs = answered.headers?.['content-type'] !== undefined || answered.headers?.location !== undefined;
      res.writeHead(answered.status, { 'content-type': 'application/json', ...answered.headers });
      res.end(asIs ? String(answered.body ?? '') : JSON.stringify(answered.body));
    };
    if (state.delayMs > 0) setTimeout(send, state.delayMs);
    else send();
  };
  const server = http.createServer((req, res) => void handle(req, res));
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
  /** The Patreon user behind the membership (relationships.user). */
  userId?: string;
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
      user: { data: { id: m.userId ?? `user-${memberSeq}`, type: 'user' } },
    },
  };
}

export type PatreonMemberDoc = ReturnType<typeof patreonMember>;

/** A Patreon user as Connect Patreon sees them: the identity and their memberships. */
export interface PatreonOAuthUser {
  id: string;
  email: string;
  fullName?: string;
  memberships: { id?: string; campaignId: string; status: PatreonMemberInput['status']; cents: number; nextChargeDate?: string | null }[];
}

export interface PatreonOAuthState {
  clientId: string;
  clientSecret: string;
  /** Who consents on the authorize page; null: the member presses Deny. */
  consentUser: PatreonOAuthUser | null;
  /** Codes and tokens handed out (single-use codes). */
  codes: Map<string, { user: PatreonOAuthUser; redirectUri: string }>;
  tokens: Map<string, PatreonOAuthUser>;
}

const PATREON_ERROR = (status: number, detail: string) => ({
  status,
  body: { errors: [{ code: status, code_name: 'Error', detail, status: String(status) }] },
});

/**
 * Patreon's OAuth endpoints as documented: the authorize page (here it consents at once and
 * redirects back with code and state), the token exchange (a form POST) and the identity with
 * memberships included.
 */
function patreonOAuthAnswer(req: RecordedRequest, oauth: PatreonOAuthState): StubAnswer | null {
  if (req.path === '/oauth2/authorize') {
    const q = req.query;
    const redirectUri = q.get('redirect_uri') ?? '';
    if (q.get('response_type') !== 'code' || q.get('client_id') !== oauth.clientId || !redirectUri) return PATREON_ERROR(400, 'invalid authorize request');
    if (q.get('scope') !== 'identity identity[email] identity.memberships') return PATREON_ERROR(400, 'unexpected scope');
    const back = new URL(redirectUri);
    if (!oauth.consentUser) back.searchParams.set('error', 'access_denied');
    else {
      const code = `code-${randomUUID()}`;
      oauth.codes.set(code, { user: oauth.consentUser, redirectUri });
      back.searchParams.set('code', code);
    }
    back.searchParams.set('state', q.get('state') ?? '');
    return { status: 302, body: '', headers: { location: back.toString() } };
  }
  if (req.path === '/api/oauth2/token' && req.method === 'POST') {
    const form = new URLSearchParams(req.body);
    const grant = oauth.codes.get(form.get('code') ?? '');
    if (
      form.get('grant_type') !== 'authorization_code' ||
      form.get('client_id') !== oauth.clientId ||
      form.get('client_secret') !== oauth.clientSecret ||
      !grant ||
      grant.redirectUri !== form.get('redirect_uri')
    ) {
      return { status: 401, body: { error: 'invalid_grant' } };
    }
    oauth.codes.delete(form.get('code') ?? '');
    const accessToken = `token-${randomUUID()}`;
    oauth.tokens.set(accessToken, grant.user);
    return {
      status: 200,
      body: {
        access_token: accessToken,
        refresh_token: `refresh-${randomUUID()}`,
        expires_in: 2678400,
        scope: 'identity identity[email] identity.memberships',
        token_type: 'Bearer',
      },
    };
  }
  if (req.path === '/api/oauth2/v2/identity') {
    const user = oauth.tokens.get((req.authorization ?? '').replace(/^Bearer /, ''));
    if (!user) return PATREON_ERROR(401, 'The server could not verify that you are authorized');
    const members = user.memberships.map((m, i) => ({
      type: 'member',
      id: m.id ?? `${user.id}-member-${i}`,
      attributes: { patron_status: m.status, currently_entitled_amount_cents: m.cents, next_charge_date: m.nextChargeDate ?? null },
      relationships: { campaign: { data: { type: 'campaign', id: m.campaignId } } },
    }));
    return {
      status: 200,
      body: {
        data: {
          type: 'user',
          id: user.id,
          attributes: { email: user.email, full_name: user.fullName ?? 'Pat Ron', is_email_verified: true },
          relationships: { memberships: { data: members.map((m) => ({ type: 'member', id: m.id })) } },
        },
        included: [...members, ...[...new Set(user.memberships.map((m) => m.campaignId))].map((id) => ({ type: 'campaign', id, attributes: {} }))],
      },
    };
  }
  return null;
}

export async function startPatreonStub(opts: {
  token: string;
  campaignId: string;
  members?: PatreonMemberDoc[];
  pageSize?: number;
  oauth?: { clientId: string; clientSecret: string };
}) {
  const oauth: PatreonOAuthState = {
    clientId: opts.oauth?.clientId ?? 'client-id',
    clientSecret: opts.oauth?.clientSecret ?? 'client-secret',
    consentUser: null,
    codes: new Map(),
    tokens: new Map(),
  };
  const stub = await startStub<PatreonMemberDoc>({ token: opts.token, items: opts.members ?? [], pageSize: opts.pageSize ?? 2 }, (req, state) => {
    const oauthAnswer = patreonOAuthAnswer(req, oauth);
    if (oauthAnswer) return oauthAnswer;
    if (req.authorization !== `Bearer ${state.token}`) {
      return {
        status: 401,
        body: { errors: [{ code: 1, code_name: 'Unauthorized', detail: 'The server could not verify that you are authorized', status: '401' }] },
      };
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
  return { ...stub, oauth };
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
