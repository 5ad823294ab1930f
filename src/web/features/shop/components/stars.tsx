import { Star } from 'lucide-react';
import { cn } from '../../../lib/cn';

/** Five stars, filled to the rating (rounded to the nearest half). */
export function Stars({ rating, className }: { rating: number; className?: string }) {
  const r = Math.round(rating * 2) / 2;
  return (
    <span className={cn('inline-flex items-center gap-0.5', className)} role="img" aria-label={`Rated ${rating.toFixed(1)} out of 5`}>
      {[1, 2, 3, 4, 5].map((i) => (
        <span key={i} className="relative inline-block size-3.5">
          <Star className="absolute inset-0 size-3.5 text-mist-500/60" aria-hidden="true" />
          {r >= i - 0.5 && (
            <span className={cn('absolute inset-0 overflow-hidden', r < i && 'w-1/2')}>
              <Star className="size-3.5 fill-amber-300 text-amber-300" aria-hidden="true" />
            </span>
          )}
        </span>
      ))}
    </span>
  );
}
