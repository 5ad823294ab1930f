import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../lib/http';
import { permissionsQueryOptions } from './get-permissions';

const MIN = 60 * 1000;
const unavailable = new ApiError(503, 'Service Unavailable', undefined, undefined);

describe('permissions cache settings', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('premium pages: fresh for 5 minutes, never retried', () => {
    const o = permissionsQueryOptions('premium');
    expect(o.staleTime).toBe(5 * MIN);
    expect(o.retry).toBe(false);
  });

  it('other pages: fresh for 10 minutes, retried up to 2 times', () => {
    for (const o of [permissionsQueryOptions(), permissionsQueryOptions('standard')]) {
      expect(o.staleTime).toBe(10 * MIN);
      const retry = o.retry as (n: number, e: unknown) => boolean;
      expect([0, 1, 2].map((n) => retry(n, unavailable))).toEqual([true, true, false]);
    }
  });

  it('a premium read that fails asks the server once; the same key is shared with the other pages', async () => {
    const fetch = vi.fn(async () => new Response('{}', { status: 503, statusText: 'Service Unavailable' }));
    vi.stubGlobal('fetch', fetch);
    const qc = new QueryClient();
    await expect(qc.fetchQuery(permissionsQueryOptions('premium'))).rejects.toBeInstanceOf(ApiError);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(permissionsQueryOptions('premium').queryKey).toEqual(permissionsQueryOptions().queryKey);
  });
});
