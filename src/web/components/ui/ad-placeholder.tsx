import { Link } from 'react-router';
import { lowestTierWith, tierLabel } from '../../../contracts/tier-table';
import { cn } from '../../lib/cn';
import { tierPrice } from '../../lib/tier-prices';

/** The cheapest tier without adverts (the tier table's adFree). */
const AD_FREE = lowestTierWith((t) => t.adFree);

/**
 * The 728x90 leaderboard slot; scales down on phones, keeping its 728:90 shape. No advertiser fills it
 * yet, so it carries the station's own: the tier that removes it, never an empty frame.
 */
export function AdPlaceholder({ className, label = 'Advertisement' }: { className?: string; label?: string }) {
  return (
    // A page with two slots names them apart (landmarks need unique names).
    <aside aria-label={label} className={cn('mx-auto w-full max-w-[728px]', className)}>
      <Link
        to="/auth"
        className="flex aspect-[728/90] w-full items-center justify-center gap-3 rounded-xl bg-gradient-to-r from-deep-600/25 to-aqua-500/15 px-4 text-center text-xs text-mist-200 ring-1 ring-white/10 hover:text-white sm:text-sm"
      >
        Ad-free listening with {tierLabel(AD_FREE)}, from {tierPrice(AD_FREE)} a month <span className="font-semibold text-aqua-300">Upgrade</span>
      </Link>
    </aside>
  );
}
