import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ShopProduct } from '../../../../contracts/shop';
import { apiGet } from '../../../lib/http';
import { FALLBACK_PRODUCTS } from '../lib/catalogue';
import { normalizeProduct } from '../lib/normalize-product';
import { shopKeys } from './keys';

export interface ProductsResult {
  products: ShopProduct[];
  /** The server could not be reached: the built-in catalogue is shown. */
  fallback: boolean;
}

/**
 * GET /api/shop/products. Only a network error (fetch rejects: offline, DNS, connection refused) falls
 * back to the built-in catalogue; a non-OK answer is an error like any other.
 */
export async function getProducts(signal?: AbortSignal): Promise<ProductsResult> {
  let raw: unknown;
  try {
    raw = await apiGet<unknown>('/api/shop/products', { signal });
  } catch (err) {
    if (err instanceof TypeError && !signal?.aborted) return { products: FALLBACK_PRODUCTS, fallback: true };
    throw err;
  }
  // A reply that is not a list is a failed read, never an empty shop.
  if (!Array.isArray(raw)) throw new Error('The products reply is not a list');
  return { products: raw.map(normalizeProduct).filter((p): p is ShopProduct => p !== null && p.isActive), fallback: false };
}

export const productsQueryOptions = () => queryOptions({ queryKey: shopKeys.products, queryFn: ({ signal }) => getProducts(signal) });

export const useProducts = () => useQuery(productsQueryOptions());
