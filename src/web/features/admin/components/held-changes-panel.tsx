import { ShieldAlert } from 'lucide-react';
import { useState } from 'react';
import { tierLabel } from '../../../../contracts/tier-table';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { LoadError } from '../../../components/ui/load-error';
import { Spinner } from '../../../components/ui/spinner';
import { formatDate } from '../../../lib/dates';
import { errorMessage } from '../../../lib/http';
import { formatNumber } from '../../../lib/numbers';
import { useDecideHeld, useHeldChanges } from '../api/held-changes';
import { STATUS_LABEL } from './options';

/**
 * "N supporters held for review": a scheduled sync that would have ended many subscriptions at once
 * applied everything else and kept these back. The admin confirms them (they apply, paid time kept)
 * or dismisses them (members keep what they have).
 */
export function HeldChangesPanel({ count }: { count: number }) {
  const held = useHeldChanges(count > 0);
  const decide = useDecideHeld();
  const [asking, setAsking] = useState<'confirm' | 'dismiss' | null>(null);
  if (count <= 0) return null;
  const items = held.data?.items ?? [];
  return (
    <Card className="flex flex-col gap-4 border-amber-400/30" data-testid="held-changes">
      <header className="flex items-start gap-3">
        <ShieldAlert className="mt-0.5 size-5 shrink-0 text-amber-300" aria-hidden="true" />
        <div className="min-w-0">
          <h2 className="text-lg font-semibold text-white">{formatNumber(count)} supporters held for review</h2>
          <p className="text-sm text-mist-300">
            A scheduled sync would have ended these subscriptions all at once, so it kept them back. Confirm to apply them (members who paid ahead keep access
            to their paid-through date) or dismiss to leave the members as they are.
          </p>
        </div>
      </header>
      {held.isPending ? (
        <Spinner label="Loading held changes..." />
      ) : held.isError ? (
        <LoadError what="the held changes" onRetry={() => void held.refetch()} retrying={held.isFetching} compact />
      ) : (
        <ul className="flex max-h-56 flex-col divide-y divide-white/5 overflow-y-auto text-sm" aria-label="Held changes">
          {items.map((h) => (
            <li key={h.id} className="flex flex-col gap-0.5 py-2">
              <span className="font-semibold break-all text-white">{h.email}</span>
              <span className="text-xs text-mist-400">
                {tierLabel(h.from.tier)} {STATUS_LABEL[h.from.status]} → {STATUS_LABEL[h.to.status]}
                {h.to.expiry ? ` until ${formatDate(h.to.expiry)}` : ''} · {h.reason}
              </span>
            </li>
          ))}
        </ul>
      )}
      {decide.isError && (
        <p role="alert" className="text-sm text-rose-300">
          {errorMessage(decide.error, 'The decision could not be saved. Please try again.')}
        </p>
      )}
      {asking ? (
        <div className="flex flex-col gap-3 rounded-2xl border border-white/10 bg-white/[0.03] p-4 sm:flex-row sm:items-center sm:justify-between">
          <p className="text-sm text-mist-100">
            {asking === 'confirm'
              ? `End the subscriptions of ${formatNumber(count)} supporters now?`
              : `Dismiss the held changes of ${formatNumber(count)} supporters? They keep their access until the next sync decides again.`}
          </p>
          <div className="flex shrink-0 gap-2">
            <Button variant="ghost" size="sm" onClick={() => setAsking(null)}>
              Cancel
            </Button>
            <Button
              variant={asking === 'confirm' ? 'danger' : 'secondary'}
              size="sm"
              disabled={decide.isPending}
              onClick={() => decide.mutate(asking, { onSettled: () => setAsking(null) })}
            >
              {asking === 'confirm' ? 'Yes, apply' : 'Yes, dismiss'}
            </Button>
          </div>
        </div>
      ) : (
        <div className="flex flex-wrap gap-2">
          <Button variant="danger" size="sm" onClick={() => setAsking('confirm')}>
            Confirm all
          </Button>
          <Button variant="secondary" size="sm" onClick={() => setAsking('dismiss')}>
            Dismiss all
          </Button>
        </div>
      )}
    </Card>
  );
}
