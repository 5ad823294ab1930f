import { ExternalLink, Heart, ShoppingCart, Sparkles } from 'lucide-react';
import type { ShopProduct } from '../../../../contracts/shop';
import { Button } from '../../../components/ui/button';
import { cn } from '../../../lib/cn';
import { formatEuro } from '../../../lib/numbers';
import { Stars } from './stars';

export interface ProductCardProps {
  product: ShopProduct;
  wished: boolean;
  onWish: () => void;
  onAdd: () => void;
  /** Opens the product's store page in a new tab. */
  onBuy: () => void;
  /** A card at the top of the grid: its image loads at once, ahead of others (it is the page's largest paint). */
  priority?: boolean;
}

/** A product of the shop grid (SALE badge, featured star, wishlist heart, stars, prices). */
export function ProductCard({ product: p, wished, onWish, onAdd, onBuy, priority = false }: ProductCardProps) {
  const onSale = p.originalPrice !== null && p.originalPrice > p.price;
  return (
    <article
      className="glass group flex min-w-0 flex-col overflow-hidden rounded-3xl transition hover:border-white/20"
      data-testid="product-card"
      aria-label={p.name}
    >
      <div className="relative aspect-[4/3] overflow-hidden bg-night-800 sm:aspect-square">
        {p.images[0] ? (
          <img
            src={p.images[0]}
            alt=""
            loading={priority ? 'eager' : 'lazy'}
            fetchPriority={priority ? 'high' : 'auto'}
            decoding="async"
            width={480}
            height={480}
            className="size-full object-cover transition duration-500 group-hover:scale-[1.03]"
          />
        ) : (
          <div className="grid size-full place-items-center text-mist-400">No image</div>
        )}
        <div className="absolute top-3 left-3 flex flex-wrap gap-1.5">
          {onSale && <span className="rounded-full bg-rose-600 px-2.5 py-1 text-[0.7rem] font-bold tracking-wider text-white shadow">SALE</span>}
          {p.featured && (
            <span className="inline-flex items-center gap-1 rounded-full bg-amber-300/90 px-2.5 py-1 text-[0.7rem] font-bold text-night-950 shadow">
              <Sparkles className="size-3" aria-hidden="true" /> Featured
            </span>
          )}
        </div>
        <button
          type="button"
          onClick={onWish}
          aria-pressed={wished}
          aria-label={wished ? `Remove ${p.name} from wishlist` : `Add ${p.name} to wishlist`}
          className="absolute top-3 right-3 grid size-10 place-items-center rounded-full bg-night-950/60 text-white backdrop-blur transition hover:bg-night-950/80"
        >
          <Heart className={cn('size-5 transition', wished ? 'fill-rose-500 text-rose-500' : 'text-white')} aria-hidden="true" />
        </button>
        {!p.inStock && (
          <span className="absolute inset-x-0 bottom-0 bg-night-950/80 py-2 text-center text-xs font-semibold tracking-[0.2em] text-mist-200 uppercase backdrop-blur">
            Out of Stock
          </span>
        )}
      </div>
      <div className="flex flex-1 flex-col gap-3 p-4 sm:p-5">
        <div className="min-w-0">
          <p className="text-[0.7rem] font-semibold tracking-[0.18em] text-aqua-300 uppercase">{p.category}</p>
          <h2 className="mt-1 font-display text-base leading-snug font-semibold text-white sm:text-lg">{p.name}</h2>
          <p className="mt-1 line-clamp-2 text-sm text-mist-400">{p.description}</p>
        </div>
        <div className="flex items-center gap-2 text-xs text-mist-400">
          <Stars rating={p.rating} />
          <span>({p.reviews})</span>
        </div>
        <div className="mt-auto flex items-baseline gap-2">
          <span className="font-display text-xl font-bold text-white">{formatEuro(p.price)}</span>
          {onSale && p.originalPrice !== null && <s className="text-sm text-mist-400">{formatEuro(p.originalPrice)}</s>}
        </div>
        <div className="grid grid-cols-1 gap-2">
          <Button size="sm" onClick={onAdd} disabled={!p.inStock}>
            <ShoppingCart className="size-4" aria-hidden="true" /> Add to Cart
          </Button>
          <Button size="sm" variant="secondary" onClick={onBuy} disabled={!p.inStock}>
            <ExternalLink className="size-4" aria-hidden="true" /> Shop on Redbubble
          </Button>
        </div>
      </div>
    </article>
  );
}
