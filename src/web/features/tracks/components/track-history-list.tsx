import type { TrackIdentification } from '../../../../contracts/radio';
import { cn } from '../../../lib/cn';
import { formatDateTime, formatDuration } from '../../../lib/dates';
import { CONFIDENCE_TEXT, confidenceTone, formatConfidence } from '../lib/confidence';
import { TrackArtwork } from './track-artwork';
import { TrackLinks } from './track-links';

const SERVICE_LABEL: Record<string, string> = { audd: 'AudD', acrcloud: 'ACRCloud', 'icecast-metadata': 'Stream metadata' };

/** The scrolling history list. */
export function TrackHistoryList({ tracks }: { tracks: TrackIdentification[] }) {
  if (tracks.length === 0) return <p className="px-5 py-10 text-center text-sm text-mist-400">No tracks identified yet</p>;
  return (
    <ul className="max-h-[36rem] divide-y divide-white/5 overflow-y-auto" data-testid="track-history-list">
      {tracks.map((t) => (
        <li key={t.id} className="flex gap-4 px-4 py-4 sm:px-6">
          <TrackArtwork src={t.artwork} alt={`${t.title} cover`} className="size-14 sm:size-16" />
          <div className="min-w-0 flex-1">
            <div className="flex flex-col gap-1 sm:flex-row sm:items-start sm:justify-between sm:gap-4">
              <div className="min-w-0">
                <p className="truncate font-semibold text-white" title={t.title}>
                  {t.title}
                </p>
                <p className="truncate text-sm text-mist-300">
                  {t.artist}
                  {t.album && <span className="text-mist-500"> · {t.album}</span>}
                </p>
              </div>
              <div className="flex shrink-0 flex-wrap items-center gap-x-3 gap-y-1 text-xs text-mist-400 sm:justify-end sm:text-right">
                <time dateTime={t.identifiedAt}>{formatDateTime(t.identifiedAt)}</time>
                {t.duration !== null && <span className="tabular-nums">{formatDuration(t.duration)}</span>}
                <span className={cn('font-semibold tabular-nums', CONFIDENCE_TEXT[confidenceTone(t.confidence)])}>{formatConfidence(t.confidence)}</span>
                <span className="rounded-full bg-white/5 px-2 py-0.5 ring-1 ring-white/10">{SERVICE_LABEL[t.service] ?? t.service}</span>
                <span className="rounded-full bg-white/5 px-2 py-0.5 uppercase ring-1 ring-white/10">{t.channel}</span>
              </div>
            </div>
            <TrackLinks urls={t} size="xs" className="mt-2" />
          </div>
        </li>
      ))}
    </ul>
  );
}

export function StatTile({ label, value, hint }: { label: string; value: React.ReactNode; hint?: string }) {
  return (
    <div className="glass rounded-2xl p-4 sm:p-5">
      <p className="text-xs font-semibold tracking-[0.18em] text-mist-400 uppercase">{label}</p>
      <p className="mt-2 text-2xl font-bold text-white tabular-nums sm:text-3xl">{value}</p>
      {hint && <p className="mt-1 text-xs text-mist-500">{hint}</p>}
    </div>
  );
}
