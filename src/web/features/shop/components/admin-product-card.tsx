import { ExternalLink, Pencil, Trash2 } from 'lucide-react';
import type { ShopProduct } from '../../../../contracts/shop';
import { Badge } from '../../../components/ui/badge';
import { cn } from '../../../lib/cn';
import { formatEuro } from '../../../lib/numbers';

export interface AdminProductCardProps {
  product: ShopProduct;
  storeUrl: string;
  busy: boolean;
  onEdit: () => void;
  onDelete: () => void;
  onToggle: (field: 'isActive' | 'inStock' | 'featured') => void;
}

function Toggle({ label, on, onClick, disabled }: { label: string; on: boolean; onClick: () => void; disabled: boolean }) {
  return (
    <button
      type="button"
      role="switch"
      aria-checked={on}
      onClick={onClick}
      disabled={disabled}
      className={cn(
        'h-8 rounded-full px-3 text-xs font-semibold ring-1 transition disabled:opacity-50',
        on ? 'bg-emerald-500/15 text-emerald-300 ring-emerald-400/30' : 'bg-white/5 text-mist-400 ring-white/10 hover:text-mist-200',
      )}
    >
      {label}
    </button>
  );
}

/** A product in the shop admin grid (image, Featured/Inactive badges, price, category, stock, edit, delete, link). */
export function AdminProductCard({ product: p, storeUrl, busy, onEdit, onDelete, onToggle }: AdminProductCardProps) {
  return (
    <article className={cn('glass flex flex-col overflow-hidden rounded-3xl', !p.isActive && 'opacity-75')} data-testid="admin-product" aria-label={p.name}>
      <div className="relative aspect-[4/3] bg-night-800">
        {p.images[0] && <img src={p.images[0]} alt="" loading="lazy" width={400} height={300} className="size-full object-cover" />}
        <div className="absolute top-3 left-3 flex gap-1.5">
          {p.featured && <Badge tone="gold">Featured</Badge>}
          {!p.isActive && <Badge tone="red">Inactive</Badge>}
        </div>
      </div>
      <div className="flex flex-1 flex-col gap-3 p-4">
        <div className="min-w-0">
          <h2 className="truncate font-semibold text-white">{p.name}</h2>
          <p className="text-xs text-mist-400 capitalize">{p.category}</p>
        </div>
        <div className="flex items-center justify-between gap-2">
          <span className="font-display text-lg font-bold text-white">
            {formatEuro(p.price)}
            {p.originalPrice !== null && <s className="ml-2 text-sm font-normal text-mist-500">{formatEuro(p.originalPrice)}</s>}
          </span>
          <Badge tone={p.inStock ? 'green' : 'red'}>{p.inStock ? 'In Stock' : 'Out of Stock'}</Badge>
        </div>
        <div className="flex flex-wrap gap-1.5">
          <Toggle label="Active" on={p.isActive} onClick={() => onToggle('isActive')} disabled={busy} />
          <Toggle label="In stock" on={p.inStock} onClick={() => onToggle('inStock')} disabled={busy} />
          <Toggle label="Featured" on={p.featured} onClick={() => onToggle('featured')} disabled={busy} />
        </div>
        <div className="mt-auto flex gap-2 border-t border-white/10 pt-3">
          <button
            type="button"
            onClick={onEdit}
            className="inline-flex h-9 flex-1 items-center justify-center gap-1.5 rounded-full bg-white/5 text-sm font-semibold text-mist-100 ring-1 ring-white/10 hover:bg-white/10"
          >
            <Pencil className="size-4" aria-hidden="true" /> Edit
          </button>
          <button
            type="button"
            onClick={onDelete}
            disabled={busy}
            aria-label={`Delete ${p.name}`}
            className="grid size-9 place-items-center rounded-full bg-rose-500/10 text-rose-300 ring-1 ring-rose-400/30 hover:bg-rose-500/20 disabled:opacity-50"
          >
            <Trash2 className="size-4" aria-hidden="true" />
          </button>
          <a
            href={p.redbubbleUrl ?? storeUrl}
            target="_blank"
            rel="noopener noreferrer"
            aria-label={`Open ${p.name} in the store`}
            className="grid size-9 place-items-center rounded-full bg-white/5 text-mist-200 ring-1 ring-white/10 hover:bg-white/10"
          >
            <ExternalLink className="size-4" aria-hidden="true" />
          </a>
        </div>
      </div>
    </article>
  );
}
