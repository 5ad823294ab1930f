import { Download, History, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { PageContainer } from '../../../components/ui/page-container';
import { LoadError } from '../../../components/ui/load-error';
import { Spinner } from '../../../components/ui/spinner';
import { formatDate } from '../../../lib/dates';
import { errorMessage } from '../../../lib/http';
import { useClearTrackHistory } from '../api/clear-track-history';
import { useTrackHistory, type TrackHistoryScope } from '../api/get-track-history';
import { downloadTracksCsv } from '../lib/track-csv';
import { StatTile, TrackHistoryList } from './track-history-list';
import { formatNumber } from '../../../lib/numbers';
import { tierLabel } from '../../../../contracts/tier-table';

/** The track history: admin (stats, export, clear) or VIP (stat cards, export). */
export function TrackHistoryView({ scope }: { scope: TrackHistoryScope }) {
  const history = useTrackHistory(scope);
  const { data, isPending, isError } = history;
  const [confirming, setConfirming] = useState(false);
  const clear = useClearTrackHistory();
  const stats = data?.stats;

  const range =
    stats?.firstAt && stats.lastAt
      ? formatDate(stats.firstAt) === formatDate(stats.lastAt)
        ? formatDate(stats.lastAt)
        : `${formatDate(stats.firstAt)} – ${formatDate(stats.lastAt)}`
      : '—';

  return (
    <PageContainer className="py-10 sm:py-14">
      <header className="flex flex-col gap-5 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <p className="flex items-center gap-2 text-xs font-semibold tracking-[0.25em] text-aqua-300 uppercase">
            <History className="size-4" aria-hidden="true" /> {scope === 'admin' ? 'Admin' : tierLabel('vip')}
          </p>
          <h1 className="mt-3 font-display text-4xl font-bold tracking-tight text-white">Track History</h1>
          <p className="mt-2 text-mist-300">Every track identified on air, newest first.</p>
        </div>
        <div className="flex flex-wrap gap-3">
          <Button variant="secondary" onClick={() => data && downloadTracksCsv(data.tracks)} disabled={!data || data.tracks.length === 0}>
            <Download className="size-4" aria-hidden="true" /> Export CSV
          </Button>
          {scope === 'admin' && (
            <Button variant="danger" onClick={() => setConfirming(true)} disabled={!data || data.stats.total === 0}>
              <Trash2 className="size-4" aria-hidden="true" /> Clear History
            </Button>
          )}
        </div>
      </header>

      {stats && (
        <div className="mt-8 grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
          {scope === 'admin' ? (
            <>
              <StatTile label="Total tracks" value={formatNumber(stats.total)} />
              <StatTile label="Unique artists" value={formatNumber(stats.uniqueArtists)} />
              <div className="col-span-2">
                <StatTile label="Date range" value={<span className="text-lg sm:text-xl">{range}</span>} />
              </div>
            </>
          ) : (
            <>
              <StatTile label="Total" value={formatNumber(stats.total)} />
              <StatTile label="High Confidence (80%+)" value={formatNumber(stats.highConfidence)} />
              <StatTile label="Unique Artists" value={formatNumber(stats.uniqueArtists)} />
              <StatTile label="With Links" value={formatNumber(stats.withLinks)} />
            </>
          )}
        </div>
      )}

      {clear.isError && (
        <p className="mt-6 rounded-2xl bg-rose-500/10 px-4 py-3 text-sm text-rose-200 ring-1 ring-rose-400/30" role="alert">
          {errorMessage(clear.error, 'Failed to clear track history')}
        </p>
      )}

      <section className="glass mt-6 overflow-hidden rounded-3xl" aria-label="Identified tracks">
        {isPending ? (
          <div className="px-6 py-10">
            <Spinner label="Loading track history..." showLabel />
          </div>
        ) : isError && data === undefined ? (
          <LoadError
            what="the track history"
            detail="Failed to fetch track history"
            onRetry={() => void history.refetch()}
            retrying={history.isFetching}
            className="m-4"
          />
        ) : data === undefined ? null : (
          <TrackHistoryList tracks={data.tracks} />
        )}
      </section>
      <p className="mt-4 text-center text-xs text-mist-500">Track identification monitoring runs every 2 minutes.</p>

      <Dialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Clear track history?"
        description="This deletes every identified track of both channels. It cannot be undone."
        size="sm"
        footer={
          <>
            <Button variant="ghost" onClick={() => setConfirming(false)}>
              Cancel
            </Button>
            <Button variant="danger" disabled={clear.isPending} onClick={() => clear.mutate(undefined, { onSettled: () => setConfirming(false) })}>
              <Trash2 className="size-4" aria-hidden="true" /> {clear.isPending ? 'Clearing...' : 'Clear History'}
            </Button>
          </>
        }
      />
    </PageContainer>
  );
}
