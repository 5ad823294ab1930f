import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../lib/http';
import { EMPTY_STATS, getAdminStats } from './get-admin-stats';
import { getTodayDownloads } from './get-download-stats';
import { getUsers, INVALID_JSON, NOT_AN_ARRAY, type UsersFilter } from './get-users';

const filter: UsersFilter = { search: '  Quinn ', tier: 'dhr2', status: '', limit: 50, offset: 100 };

const user = {
  id: 'u1',
  email: 'a@example.test',
  username: 'a',
  firstName: null,
  lastName: null,
  subscriptionTier: 'dhr2',
  subscriptionStatus: 'active',
  subscriptionExpiry: null,
  subscriptionSource: 'admin',
  isAdmin: false,
  createdAt: '2026-01-01T00:00:00.000Z',
  lastLoginAt: null,
  pledgeAmount: 500,
};

function reply(body: string, init: ResponseInit = {}) {
  const fetchMock = vi.fn(async (_input: RequestInfo | URL, _init?: RequestInit) => new Response(body, init));
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('getUsers', () => {
  it('sends the filters as query parameters and reads the counts from the headers', async () => {
    const fetchMock = reply(JSON.stringify([user]), { headers: { 'x-total-count': '51', 'x-unfiltered-count': '900' } });
    const page = await getUsers(filter);
    expect(page).toEqual({ users: [user], matching: 51, matchingCapped: false, total: 900 });
    const url = new URL(String(fetchMock.mock.calls[0]?.[0]), 'http://x');
    expect(url.pathname).toBe('/api/admin/users');
    expect(Object.fromEntries(url.searchParams)).toEqual({ search: 'Quinn', tier: 'dhr2', limit: '50', offset: '100' });
  });

  it('reads a capped match count as "at least"', async () => {
    reply(JSON.stringify([user]), { headers: { 'x-total-count': '1000', 'x-total-count-capped': 'true', 'x-unfiltered-count': '100000' } });
    expect(await getUsers(filter)).toEqual({ users: [user], matching: 1000, matchingCapped: true, total: 100000 });
  });

  it("says 'Users endpoint returned invalid JSON' for a body that is not JSON", async () => {
    reply('<html>oops</html>', { status: 200 });
    await expect(getUsers(filter)).rejects.toThrow(INVALID_JSON);
  });

  it("says 'Users endpoint did not return an array' for other JSON", async () => {
    reply(JSON.stringify({ users: [] }));
    await expect(getUsers(filter)).rejects.toThrow(NOT_AN_ARRAY);
  });

  it("keeps the server's message on errors", async () => {
    reply(JSON.stringify({ error: { code: 'forbidden', message: 'Admin privileges required' }, message: 'Admin privileges required' }), {
      status: 403,
      statusText: 'Forbidden',
    });
    const err: unknown = await getUsers(filter).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(403);
    expect((err as ApiError).serverMessage).toBe('Admin privileges required');
  });
});

describe('dashboard figures', () => {
  it('become 0 and are only logged (warn) when the stats call fails', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    reply('Internal Server Error', { status: 500, statusText: 'Internal Server Error' });
    await expect(getAdminStats()).resolves.toEqual(EMPTY_STATS);
    reply('not json', { status: 200 });
    await expect(getTodayDownloads()).resolves.toBe(0);
    reply(JSON.stringify({ error: 'no table' }));
    await expect(getTodayDownloads()).resolves.toBe(0);
    expect(warn).toHaveBeenCalledTimes(3);
  });

  it('pass the figures through when the reply is right', async () => {
    reply(JSON.stringify({ today: 7 }));
    await expect(getTodayDownloads()).resolves.toBe(7);
  });
});
