import { ArrowRight, HeartHandshake } from 'lucide-react';
import { Link } from 'react-router';
import { cn } from '../../../lib/cn';
import { formatNumber } from '../../../lib/numbers';

/** The dashboard's line about paying supporters who match no account, leading to the reconciliation page. */
export function UnmatchedCallout({ count, loading, platformsConfigured }: { count: number; loading: boolean; platformsConfigured?: boolean }) {
  const attention = !loading && count > 0;
  return (
    <Link
      to="/admin/supporters"
      data-testid="unmatched-callout"
      className={cn(
        'group glass flex items-center gap-4 rounded-3xl p-4 transition hover:-translate-y-0.5 hover:bg-white/[0.06] sm:p-5',
        attention && 'border-amber-300/30',
      )}
    >
      <span
        className={cn(
          'grid size-11 shrink-0 place-items-center rounded-2xl ring-1 ring-white/10',
          attention ? 'bg-amber-400/15 text-amber-200' : 'bg-gradient-to-br from-deep-600/40 to-aqua-500/25 text-white',
        )}
      >
        <HeartHandshake className="size-5" aria-hidden="true" />
      </span>
      <span className="min-w-0 flex-1">
        <span className="block font-semibold text-white">
          {loading
            ? 'Checking paying supporters...'
            : count > 0
              ? `${formatNumber(count)} paying supporter${count === 1 ? '' : 's'} match${count === 1 ? 'es' : ''} no account`
              : platformsConfigured === false
                ? 'No payment platform is configured'
                : 'Every paying supporter matches an account'}
        </span>
        <span className="mt-1 block text-sm leading-snug text-mist-400">
          {platformsConfigured === false
            ? 'DHR cannot know of payers without an account until Patreon or Buy Me a Coffee is set up.'
            : 'Link them to members or invite them, and see what each sync and webhook did.'}
        </span>
      </span>
      <span className="hidden items-center gap-1 text-sm font-semibold text-aqua-300 sm:flex">
        {count > 0 ? 'Reconcile' : 'Sync log'} <ArrowRight className="size-4 transition group-hover:translate-x-0.5" aria-hidden="true" />
      </span>
    </Link>
  );
}
