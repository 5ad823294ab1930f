import type { ShopProduct } from '../../../../contracts/shop';
import { DEFAULT_STORE_URL, demoProductRow, demoProducts } from '../../../../contracts/shop-catalogue';
import { compareFeatured, type ShopCategory, type ShopSort } from '../../../../contracts/shop-values';

export interface CatalogueView {
  search: string;
  category: ShopCategory | 'all';
  sort: ShopSort;
}

/** The shop's search (name, description, tags), category filter and sorts. */
export function filterAndSort(products: readonly ShopProduct[], view: CatalogueView): ShopProduct[] {
  const q = view.search.trim().toLowerCase();
  const matches = products.filter(
    (p) =>
      (view.category === 'all' || p.category === view.category) &&
      (!q || p.name.toLowerCase().includes(q) || p.description.toLowerCase().includes(q) || p.tags.some((t) => t.toLowerCase().includes(q))),
  );
  const by: Record<ShopSort, (a: ShopProduct, b: ShopProduct) => number> = {
    featured: compareFeatured,
    newest: (a, b) => b.createdAt.localeCompare(a.createdAt),
    'price-low': (a, b) => a.price - b.price,
    'price-high': (a, b) => b.price - a.price,
    rating: (a, b) => b.rating - a.rating || b.reviews - a.reviews,
  };
  return [...matches].sort(by[view.sort]);
}

/** The built-in 8-product catalogue, used only when the product call fails by a network error. */
export const FALLBACK_PRODUCTS: ShopProduct[] = demoProducts.map((p) => ({ ...demoProductRow(p, DEFAULT_STORE_URL), isActive: true, createdAt: '' }));
