import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Card } from '../../../components/ui/card';
import { formatNumber } from '../../../lib/numbers';

/** One headline figure of the dashboard with a line of detail under it. */
export function StatCard({
  label,
  value,
  detail,
  icon: Icon,
  loading,
  to,
}: {
  /** User Management listing the members this figure counts. */
  to?: string;
  label: string;
  value: number;
  detail: ReactNode;
  icon: LucideIcon;
  loading: boolean;
}) {
  return (
    <Card padding="sm" className="flex min-w-0 flex-col gap-3 sm:p-5">
      <div className="flex items-center justify-between gap-2">
        <p className="text-[0.7rem] leading-tight font-semibold tracking-[0.14em] text-mist-400 uppercase sm:text-xs sm:tracking-[0.16em]">{label}</p>
        <span className="hidden size-9 shrink-0 place-items-center sm:grid rounded-xl bg-gradient-to-br from-deep-600/30 to-aqua-500/20 text-aqua-300 ring-1 ring-white/10">
          <Icon className="size-4" aria-hidden="true" />
        </span>
      </div>
      <p
        className="font-display text-3xl font-bold tracking-tight text-white tabular-nums sm:text-4xl"
        aria-busy={loading}
        data-testid={`stat-${label.toLowerCase().replace(/[^a-z]+/g, '-')}`}
      >
        {loading ? (
          <span className="inline-block h-9 w-16 animate-pulse rounded-lg bg-white/10" />
        ) : to ? (
          <Link
            to={to}
            className="tap-target rounded-lg hover:text-aqua-200 focus-visible:outline-2 focus-visible:outline-aqua-300"
            aria-label={`${formatNumber(value)} ${label}: list them`}
          >
            {formatNumber(value)}
          </Link>
        ) : (
          formatNumber(value)
        )}
      </p>
      <p className="text-xs leading-relaxed text-mist-400 sm:text-sm">{detail}</p>
    </Card>
  );
}
