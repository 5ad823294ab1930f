import { afterEach, describe, expect, it, vi } from 'vitest';
import { ANONYMOUS_PERMISSIONS } from '../../../../contracts/tier-policy';
import { ApiError } from '../../../lib/http';
import { getPermissions } from '../api/get-permissions';
import { authRetry, authRetryDelay } from './auth-retry';

describe('auth read retries', () => {
  it('never retries 401, 403 or 429', () => {
    for (const status of [401, 403, 429]) expect(authRetry(0, new ApiError(status, 'x', undefined, undefined))).toBe(false);
  });

  it('retries other failures up to 2 times', () => {
    const err = new ApiError(503, 'Service Unavailable', undefined, undefined);
    expect(authRetry(0, err)).toBe(true);
    expect(authRetry(1, err)).toBe(true);
    expect(authRetry(2, err)).toBe(false);
    expect(authRetry(0, new TypeError('Failed to fetch'))).toBe(true);
  });

  it('waits 1 s, doubling, capped at 30 s', () => {
    expect([0, 1, 2, 3, 4, 5, 6].map(authRetryDelay)).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000]);
  });
});

describe('anonymous answers', () => {
  afterEach(() => vi.unstubAllGlobals());

  const reply = (status: number, body: unknown = { error: { code: 'x', message: 'x' }, message: 'x' }) =>
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })),
    );

  it('reads 401 and 429 as signed out, 429 with a warning', async () => {
    reply(401);
    expect(await getPermissions()).toEqual(ANONYMOUS_PERMISSIONS);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    reply(429);
    expect(await getPermissions()).toEqual(ANONYMOUS_PERMISSIONS);
    expect(warn).toHaveBeenCalledTimes(1);
    warn.mockRestore();
  });

  it('passes other failures on as errors with the status line', async () => {
    reply(500);
    await expect(getPermissions()).rejects.toThrow('500: ');
    await expect(getPermissions()).rejects.toBeInstanceOf(ApiError);
  });

  it('returns the permission flags on success', async () => {
    reply(200, { ...ANONYMOUS_PERMISSIONS, authenticated: true });
    expect((await getPermissions()).authenticated).toBe(true);
  });
});
