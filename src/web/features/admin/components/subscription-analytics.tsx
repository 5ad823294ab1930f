import { PieChart } from 'lucide-react';
import { Link } from 'react-router';
import { membersLink } from '../lib/member-filters';
import type { AdminStats } from '../../../../contracts/admin';
import { tierLabel } from '../../../../contracts/tier-table';
import { TIERS, type Tier } from '../../../../contracts/tiers';
import { Card } from '../../../components/ui/card';
import { cn } from '../../../lib/cn';
import { formatNumber } from '../../../lib/numbers';
import { tierBand } from '../../../lib/tier-prices';

/** The bar's colours per tier. */
const BAR: Record<Tier, string> = {
  vip: 'from-amber-300 to-fuchsia-500',
  dhr2: 'from-deep-500 to-violet-400',
  dhr1: 'from-aqua-500 to-aqua-300',
  free: 'from-mist-500 to-mist-400',
};

/** The dashboard's bands, highest first: the tier and the monthly pledge that buys it (the tier table's). */
const BANDS = [...TIERS].reverse().map((tier) => ({ tier, label: tierLabel(tier), band: tierBand(tier), bar: BAR[tier] }));

function tierCount(stats: AdminStats, tier: Tier): number {
  return { vip: stats.vipUsers, dhr2: stats.dhr2Users, dhr1: stats.dhr1Users, free: stats.freeUsers }[tier];
}

/** Tier distribution and subscription statuses, from GET /api/admin/stats. */
export function SubscriptionAnalytics({ stats, loading }: { stats: AdminStats; loading: boolean }) {
  const total = Math.max(
    1,
    BANDS.reduce((n, b) => n + tierCount(stats, b.tier), 0),
  );
  // Every member in exactly one of these (tier-policy's memberBucket): they add up to the total.
  const statuses = [
    { label: 'Active', bucket: 'active', value: stats.buckets.active, dot: 'bg-emerald-400', testId: 'bucket-active' },
    {
      label: 'Cancelled w/ Access',
      bucket: 'cancelledWithAccess',
      value: stats.buckets.cancelledWithAccess,
      dot: 'bg-amber-400',
      testId: 'bucket-cancelled-with-access',
    },
    { label: 'Expired', bucket: 'expired', value: stats.buckets.expired, dot: 'bg-rose-400', testId: 'bucket-expired' },
    { label: 'Free / never paid', bucket: 'free', value: stats.buckets.free, dot: 'bg-mist-400', testId: 'bucket-free' },
  ] as const;
  return (
    <Card className="flex min-w-0 flex-col gap-6" aria-busy={loading}>
      <header className="flex items-center gap-3">
        <PieChart className="size-5 text-deep-300" aria-hidden="true" />
        <h2 className="text-lg font-semibold text-white">Subscription Analytics</h2>
      </header>

      <section aria-labelledby="tier-distribution">
        <h3 id="tier-distribution" className="mb-3 text-xs font-semibold tracking-[0.16em] text-mist-400 uppercase">
          Tier distribution
        </h3>
        <ul className="flex flex-col gap-3">
          {BANDS.map((b) => {
            const count = tierCount(stats, b.tier);
            return (
              <li key={b.tier} className="flex flex-col gap-1.5">
                <div className="flex items-baseline justify-between gap-3 text-sm">
                  <span className="text-mist-200">
                    <span className="font-semibold text-white">{b.label}</span> <span className="text-mist-400">{b.band}</span>
                  </span>
                  <span className="text-right tabular-nums">
                    <Link
                      to={membersLink({ effectiveTier: b.tier })}
                      className="font-semibold text-white hover:text-aqua-200"
                      data-testid={`tier-count-${b.tier}`}
                    >
                      {formatNumber(count)}
                    </Link>
                    {b.tier !== 'free' ? (
                      <Link to={membersLink({ pledgeBand: b.tier })} className="ml-2 text-xs text-mist-500 hover:text-aqua-200">
                        {formatNumber(stats.pledgeBands[b.tier])} pledging {b.band}
                      </Link>
                    ) : (
                      <Link to={membersLink({ access: 'expired' })} className="ml-2 text-xs text-mist-500 hover:text-aqua-200">
                        incl. {formatNumber(stats.buckets.expired)} expired
                      </Link>
                    )}
                  </span>
                </div>
                <div className="h-2 overflow-hidden rounded-full bg-white/5">
                  <div
                    className={cn('h-full rounded-full bg-gradient-to-r transition-[width] duration-500', b.bar)}
                    style={{ width: `${(count / total) * 100}%` }}
                  />
                </div>
              </li>
            );
          })}
        </ul>
      </section>

      <section aria-labelledby="status-counts">
        <h3 id="status-counts" className="mb-3 text-xs font-semibold tracking-[0.16em] text-mist-400 uppercase">
          Subscription status
        </h3>
        <dl className="grid grid-cols-2 gap-2 sm:grid-cols-4 sm:gap-3 lg:grid-cols-2 xl:grid-cols-4">
          {statuses.map((s) => (
            <div key={s.label} className="min-w-0 rounded-2xl border border-white/5 bg-white/[0.03] px-3 py-3">
              <dt className="flex items-center gap-1.5 text-[0.7rem] leading-tight text-mist-400 sm:text-xs">
                <span className={cn('size-1.5 shrink-0 rounded-full', s.dot)} aria-hidden="true" />
                {s.label}
              </dt>
              <dd className="mt-1 text-xl font-bold text-white tabular-nums">
                <Link to={membersLink({ access: s.bucket })} className="hover:text-aqua-200" data-testid={s.testId}>
                  {formatNumber(s.value)}
                </Link>
              </dd>
            </div>
          ))}
        </dl>
      </section>
    </Card>
  );
}
