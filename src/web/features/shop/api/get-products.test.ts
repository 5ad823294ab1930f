import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../lib/http';
import { FALLBACK_PRODUCTS } from '../lib/catalogue';
import { getProducts } from './get-products';

afterEach(() => vi.unstubAllGlobals());

describe('getProducts', () => {
  it('uses the built-in 8-product catalogue on a network error', async () => {
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')));
    const result = await getProducts();
    expect(result.fallback).toBe(true);
    expect(result.products).toBe(FALLBACK_PRODUCTS);
    expect(result.products).toHaveLength(8);
  });

  it('does not fall back on a non-OK answer', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn().mockResolvedValue(new Response('{"error":{"code":"x","message":"down"}}', { status: 503, statusText: 'Service Unavailable' })),
    );
    await expect(getProducts()).rejects.toBeInstanceOf(ApiError);
  });

  it('rejects a reply that is not a list instead of showing an empty shop', async () => {
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(new Response('{"products":[]}', { status: 200 })));
    await expect(getProducts()).rejects.toThrow('The products reply is not a list');
  });

  it('normalises what the server sends and keeps only active products', async () => {
    const body = JSON.stringify([
      { id: 'a', name: 'A', price: '10.50', tags: '["x"]', isActive: true },
      { id: 'b', name: 'B', price: 5, isActive: false },
      { id: 'c', price: 1 },
    ]);
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(new Response(body, { status: 200 })));
    const result = await getProducts();
    expect(result.fallback).toBe(false);
    expect(result.products.map((p) => [p.id, p.price, p.tags])).toEqual([['a', 10.5, ['x']]]);
  });
});
