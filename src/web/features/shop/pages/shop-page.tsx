import { Search, ShoppingBag, WifiOff } from 'lucide-react';
import { lazy, Suspense, useCallback, useMemo, useState } from 'react';
import type { ShopProduct } from '../../../../contracts/shop';
import { DEFAULT_STORE_URL } from '../../../../contracts/shop-catalogue';
import { SHOP_CATEGORIES, SHOP_SORTS, type ShopCategory, type ShopSort } from '../../../../contracts/shop-values';
import { AdPlaceholder } from '../../../components/ui/ad-placeholder';
import { Button } from '../../../components/ui/button';
import { LoadError } from '../../../components/ui/load-error';
import { PageContainer } from '../../../components/ui/page-container';
import { SectionHeading } from '../../../components/ui/section-heading';
import { cn } from '../../../lib/cn';
import { errorMessage } from '../../../lib/http';
import { useAfterFirstPaint } from '../../../lib/use-after-first-paint';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { ANONYMOUS_PERMISSIONS } from '../../../../contracts/tier-policy';
import { grantedBenefits, usePermissions, useSiteConfig } from '../../auth';
import { useProducts } from '../api/get-products';
import { InfoTiles } from '../components/info-tiles';
import { NewsletterBox } from '../components/newsletter-box';
import { ProductCard } from '../components/product-card';
import { addToCart, cartCount, keepKnown, parseCart, setQuantity } from '../lib/cart';
import { filterAndSort } from '../lib/catalogue';
import { CART_KEY, WISHLIST_KEY } from '../lib/storage-keys';
import { useStoredState } from '../lib/use-stored-state';
import { parseWishlist, toggleWish } from '../lib/wishlist';

const SORT_LABEL: Record<ShopSort, string> = {
  featured: 'Featured',
  newest: 'Newest',
  'price-low': 'Price: Low to High',
  'price-high': 'Price: High to Low',
  rating: 'Top Rated',
};
const CATEGORY_LABEL: Record<ShopCategory | 'all', string> = {
  all: 'All',
  clothing: 'Clothing',
  accessories: 'Accessories',
  vinyl: 'Vinyl',
  digital: 'Digital',
  bundles: 'Bundles',
};

// The cart is a dialog (Radix) nobody sees until they open it: it loads once the page has painted.
const CartPanel = lazy(() => import('../components/cart-panel').then((m) => ({ default: m.CartPanel })));

/** Opens an external store page in a new tab, without giving it a handle on this one. */
function openStore(url: string) {
  window.open(url, '_blank', 'noopener,noreferrer');
}

/** /shop: the merch catalogue; buying continues on the print-on-demand store. */
export default function ShopPage() {
  useDocumentTitle('Shop');
  const products = useProducts();
  const site = useSiteConfig();
  const storeUrl = site.data?.shopStoreUrl ?? DEFAULT_STORE_URL;
  const [search, setSearch] = useState('');
  const [category, setCategory] = useState<ShopCategory | 'all'>('all');
  const [sort, setSort] = useState<ShopSort>('featured');
  const [cartOpen, setCartOpen] = useState(false);
  const [storedCart, updateCart] = useStoredState(CART_KEY, parseCart);
  const [wishlist, updateWishlist] = useStoredState(WISHLIST_KEY, parseWishlist);
  const belowTheFold = useAfterFirstPaint();
  // Ad-free listening is a tier benefit (the tier table's adFree): paying members see no advert.
  const showAds = !grantedBenefits(usePermissions().data ?? ANONYMOUS_PERMISSIONS).adFree;

  const list = useMemo(() => products.data?.products ?? [], [products.data]);
  const byId = useMemo(() => new Map(list.map((p) => [p.id, p])), [list]);
  const productOf = useCallback((id: string): ShopProduct | undefined => byId.get(id), [byId]);
  // Lines of products no longer sold are not shown or counted (they stay stored until the list is known).
  const cart = useMemo(() => (products.data ? keepKnown(storedCart, (id) => byId.has(id)) : storedCart), [products.data, storedCart, byId]);
  const shown = useMemo(() => filterAndSort(list, { search, category, sort }), [list, search, category, sort]);
  const count = cartCount(cart);

  return (
    <PageContainer width="wide" className="flex flex-col gap-8 py-10 sm:gap-10 sm:py-14">
      <div className="flex flex-col gap-6 sm:flex-row sm:items-end sm:justify-between">
        <SectionHeading
          as="h1"
          eyebrow="DHR Shop"
          title="Wear the deep"
          description="Clothing, accessories, vinyl and digital goods from Deep House Radio, printed to order."
        />
        <Button variant="secondary" onClick={() => setCartOpen(true)} className="relative self-start sm:self-auto">
          {/* The name is what the button shows ("Cart 2"), then "items" for a screen reader. */}
          <ShoppingBag className="size-4" aria-hidden="true" /> Cart
          <span
            className="grid min-w-6 place-items-center rounded-full bg-aqua-400 px-1.5 text-xs font-bold text-night-950 tabular-nums"
            data-testid="cart-count"
          >
            {count}
          </span>
          <span className="sr-only">{count === 1 ? 'item' : 'items'}</span>
        </Button>
      </div>

      <CatalogueControls search={search} onSearch={setSearch} sort={sort} onSort={setSort} category={category} onCategory={setCategory} />

      {products.data?.fallback && (
        <p role="status" className="flex items-center gap-2 rounded-2xl border border-amber-400/30 bg-amber-500/10 px-4 py-3 text-sm text-amber-100">
          <WifiOff className="size-4 shrink-0" aria-hidden="true" /> You seem to be offline: showing our classic catalogue.
        </p>
      )}

      {products.isError ? (
        <LoadError
          what="the shop"
          detail={errorMessage(products.error, '') || undefined}
          onRetry={() => void products.refetch()}
          retrying={products.isFetching}
          className="p-10"
        />
      ) : products.isPending ? (
        <ProductSkeletons />
      ) : shown.length === 0 ? (
        <p className="glass rounded-3xl p-10 text-center text-mist-300">No products match your search.</p>
      ) : (
        <ul className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4" aria-label="Products">
          {shown.map((p, i) => (
            <li key={p.id} className="flex">
              <ProductCard
                product={p}
                priority={i < 2}
                wished={wishlist.includes(p.id)}
                onWish={() => updateWishlist((w) => toggleWish(w, p.id))}
                onAdd={() => {
                  updateCart((c) => addToCart(c, p.id));
                  setCartOpen(true);
                }}
                onBuy={() => openStore(p.redbubbleUrl ?? storeUrl)}
              />
            </li>
          ))}
        </ul>
      )}

      {belowTheFold && (
        // Rendered after the first paint, and laid out only near the screen (`below-fold`); the
        // padding gives the tiles' shadows room inside its paint containment.
        <div className="below-fold -my-4 flex flex-col gap-8 py-4 [contain-intrinsic-size:auto_734px] sm:-my-5 sm:gap-10 sm:py-5 lg:[contain-intrinsic-size:auto_442px]">
          <InfoTiles />
          {showAds && <AdPlaceholder />}
          <NewsletterBox />
        </div>
      )}

      {(belowTheFold || cartOpen) && (
        // No fallback: the closed dialog shows nothing, and an opened one appears when its code is in.
        <Suspense fallback={null}>
          <CartPanel
            open={cartOpen}
            onOpenChange={setCartOpen}
            cart={cart}
            productOf={productOf}
            onQuantity={(id, q) => updateCart((c) => setQuantity(c, id, q))}
            onCheckout={() => openStore(storeUrl)}
          />
        </Suspense>
      )}
    </PageContainer>
  );
}

/** Search, sort and the category buttons. */
function CatalogueControls({
  search,
  onSearch,
  sort,
  onSort,
  category,
  onCategory,
}: {
  search: string;
  onSearch: (value: string) => void;
  sort: ShopSort;
  onSort: (value: ShopSort) => void;
  category: ShopCategory | 'all';
  onCategory: (value: ShopCategory | 'all') => void;
}) {
  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-col gap-3 sm:flex-row">
        <label className="relative min-w-0 flex-1">
          <span className="sr-only">Search products</span>
          <Search className="pointer-events-none absolute top-1/2 left-4 size-4 -translate-y-1/2 text-mist-500" aria-hidden="true" />
          <input
            type="search"
            value={search}
            onChange={(e) => onSearch(e.target.value)}
            maxLength={100}
            placeholder="Search tees, vinyl, sample packs..."
            className="h-12 w-full rounded-full border border-white/10 bg-night-900/70 pr-4 pl-11 text-base text-white placeholder:text-mist-500 focus:border-aqua-400/60 focus:ring-2 focus:ring-aqua-400/20 focus:outline-none"
          />
        </label>
        <label className="flex items-center gap-2 text-sm text-mist-300">
          <span className="shrink-0">Sort by</span>
          <select
            value={sort}
            onChange={(e) => onSort(e.target.value as ShopSort)}
            className="h-12 min-w-0 flex-1 rounded-full border border-white/10 bg-night-900/70 px-4 text-sm text-white focus:border-aqua-400/60 focus:outline-none sm:flex-none"
          >
            {SHOP_SORTS.map((s) => (
              <option key={s} value={s} className="bg-night-850">
                {SORT_LABEL[s]}
              </option>
            ))}
          </select>
        </label>
      </div>
      <div role="group" aria-label="Category" className="-mx-4 flex gap-2 overflow-x-auto px-4 pb-1 sm:mx-0 sm:flex-wrap sm:px-0">
        {(['all', ...SHOP_CATEGORIES] as const).map((c) => (
          <button
            key={c}
            type="button"
            aria-pressed={category === c}
            onClick={() => onCategory(c)}
            className={cn(
              'h-9 shrink-0 rounded-full px-4 text-sm font-semibold transition',
              category === c ? 'bg-white text-night-950' : 'bg-white/5 text-mist-300 ring-1 ring-white/10 hover:bg-white/10 hover:text-white',
            )}
          >
            {CATEGORY_LABEL[c]}
          </button>
        ))}
      </div>
    </div>
  );
}

/** The grid's shape while the catalogue loads. */
function ProductSkeletons() {
  return (
    <ul className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4" aria-busy="true" aria-label="Loading products">
      {Array.from({ length: 8 }, (_, i) => (
        <li key={i} className="glass overflow-hidden rounded-3xl">
          <div className="aspect-square animate-pulse bg-white/5" />
          <div className="flex flex-col gap-3 p-5">
            <div className="h-3 w-16 animate-pulse rounded bg-white/10" />
            <div className="h-5 w-3/4 animate-pulse rounded bg-white/10" />
            <div className="h-9 animate-pulse rounded-full bg-white/5" />
          </div>
        </li>
      ))}
    </ul>
  );
}
