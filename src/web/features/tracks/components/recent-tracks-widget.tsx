import { ChevronDown, ExternalLink, ListMusic, Lock, Sparkles } from 'lucide-react';
import { useId, useState } from 'react';
import type { Recommendation, TrackIdentification } from '../../../../contracts/radio';
import { LoadError } from '../../../components/ui/load-error';
import { Spinner } from '../../../components/ui/spinner';
import { cn } from '../../../lib/cn';
import { formatTime, relativeTime } from '../../../lib/dates';
import { hasTierAccess, usePermissions } from '../../auth';
import { ANONYMOUS_PERMISSIONS } from '../../../../contracts/tier-policy';
import { useRecentTracks } from '../api/get-recent-tracks';
import { useRecommendations } from '../api/get-recommendations';
import { CONFIDENCE_TEXT, confidenceTone, formatConfidence } from '../lib/confidence';
import { latestPreview } from '../lib/preview';
import { TrackArtwork } from './track-artwork';
import { TrackLinks } from './track-links';
import { tierLabel } from '../../../../contracts/tier-table';

export interface RecentTracksWidgetProps {
  channel: string;
  channelName: string;
  accent?: string;
  defaultOpen?: boolean;
  className?: string;
}

/** The Recent Tracks widget, one per channel. */
export function RecentTracksWidget({ channel, channelName, accent = '#8b5cf6', defaultOpen = true, className }: RecentTracksWidgetProps) {
  const [open, setOpen] = useState(defaultOpen);
  const recent = useRecentTracks(channel);
  const { data: tracks, isPending, isError } = recent;
  const bodyId = useId();
  const newest = tracks?.[0];
  // A list that could not be read has no count (it is not empty).
  const count = isError && tracks === undefined ? '–' : String(tracks?.length ?? 0);

  return (
    <section className={cn('glass rounded-3xl', className)} aria-label={`${channelName} recent tracks`} data-testid={`recent-tracks-${channel}`}>
      <button
        type="button"
        onClick={() => setOpen((o) => !o)}
        aria-expanded={open}
        aria-controls={bodyId}
        className="flex w-full items-center gap-3 rounded-3xl px-5 py-4 text-left transition hover:bg-white/[0.03] sm:px-6"
      >
        <span className="flex size-9 shrink-0 items-center justify-center rounded-xl ring-1 ring-white/10" style={{ background: `${accent}22`, color: accent }}>
          <ListMusic className="size-5" aria-hidden="true" />
        </span>
        <span className="min-w-0 flex-1">
          <span className="flex items-center gap-2">
            <span className="font-semibold text-white">Recent Tracks</span>
            <span className="rounded-full bg-white/10 px-2 py-0.5 text-xs font-semibold text-mist-200 tabular-nums" aria-label={`${count} tracks`}>
              {count}
            </span>
          </span>
          <span className="block truncate text-xs text-mist-400">
            {!open && newest ? (
              <>
                Latest: <span className="text-mist-200">{latestPreview(newest.title)}</span>
              </>
            ) : (
              channelName
            )}
          </span>
        </span>
        <ChevronDown className={cn('size-5 shrink-0 text-mist-400 transition-transform', open && 'rotate-180')} aria-hidden="true" />
      </button>

      {open && (
        <div id={bodyId} className="border-t border-white/5 px-5 pt-3 pb-5 sm:px-6">
          {isPending ? (
            <Spinner label="Loading tracks..." showLabel className="py-4" />
          ) : isError && tracks === undefined ? (
            // The spec's words under the shared "Couldn't load" line; never 'No tracks identified yet'.
            <LoadError
              what="the recent tracks"
              detail="Failed to fetch recent tracks"
              onRetry={() => void recent.refetch()}
              retrying={recent.isFetching}
              compact
              className="my-2"
            />
          ) : tracks === undefined || tracks.length === 0 ? (
            <p className="py-4 text-sm text-mist-400">No tracks identified yet</p>
          ) : (
            <ul className="-mx-2 max-h-[24rem] divide-y divide-white/5 overflow-y-auto pr-1">
              {tracks.map((t) => (
                <RecentTrackRow key={t.id} track={t} />
              ))}
            </ul>
          )}
          {newest && <SimilarTracks channel={channel} track={newest} />}
          <TrackHistoryLink />
        </div>
      )}
    </section>
  );
}

/** The full track history is a VIP page: members without VIP are told so before they follow the link. */
function TrackHistoryLink() {
  const { data } = usePermissions();
  const vip = hasTierAccess(data ?? ANONYMOUS_PERMISSIONS, 'vip');
  return (
    <a
      href="/track-history"
      target="_blank"
      rel="noopener"
      className="mt-4 inline-flex min-h-11 items-center gap-1.5 text-sm font-medium text-aqua-300 hover:text-aqua-400"
    >
      {vip ? (
        <>
          View Full Track History <ExternalLink className="size-3.5" aria-hidden="true" />
        </>
      ) : (
        <>
          <Lock className="size-3.5" aria-hidden="true" /> Full track history — {tierLabel('vip')}
        </>
      )}
    </a>
  );
}

function RecentTrackRow({ track }: { track: TrackIdentification }) {
  const tone = confidenceTone(track.confidence);
  return (
    <li className="flex gap-3 px-2 py-3">
      <TrackArtwork src={track.artwork} alt={`${track.title} cover`} className="size-12" />
      <div className="min-w-0 flex-1">
        <div className="flex items-baseline justify-between gap-3">
          <p className="truncate text-sm font-semibold text-white" title={track.title}>
            {track.title}
          </p>
          <span className={cn('shrink-0 text-xs font-semibold tabular-nums', CONFIDENCE_TEXT[tone])}>{formatConfidence(track.confidence)}</span>
        </div>
        <div className="flex items-baseline justify-between gap-3">
          <p className="truncate text-xs text-mist-300" title={track.artist}>
            {track.artist}
          </p>
          <time dateTime={track.identifiedAt} title={relativeTime(track.identifiedAt)} className="shrink-0 text-xs text-mist-500 tabular-nums">
            {formatTime(track.identifiedAt)}
          </time>
        </div>
        <TrackLinks urls={track} size="xs" className="mt-2" />
      </div>
    </li>
  );
}

/** 'Find Similar Tracks' for the newest track; recommendations are a DHR1 feature. */
function SimilarTracks({ channel, track }: { channel: string; track: TrackIdentification }) {
  const { data: permissions } = usePermissions();
  const similar = useRecommendations();
  const [shown, setShown] = useState<{ forId: string; list: Recommendation[] } | null>(null);

  if (!permissions?.canAccessDHR1) {
    return (
      <p className="mt-4 flex items-center gap-2 text-xs text-mist-500">
        <Sparkles className="size-3.5" aria-hidden="true" /> Similar-track suggestions come with {tierLabel('dhr1')} and above.
      </p>
    );
  }

  const find = () => {
    similar.mutate({ artist: track.artist, title: track.title, channel }, { onSuccess: (list) => setShown({ forId: track.id, list }) });
  };

  return (
    <div className="mt-4">
      <button
        type="button"
        onClick={find}
        disabled={similar.isPending}
        className="inline-flex h-9 items-center gap-2 rounded-full bg-deep-500/15 px-4 text-sm font-medium text-deep-300 ring-1 ring-deep-400/30 transition hover:bg-deep-500/25 disabled:opacity-60"
      >
        <Sparkles className="size-4" aria-hidden="true" /> {similar.isPending ? 'Finding...' : 'Find Similar Tracks'}
      </button>
      {shown && (
        <div className="mt-3" data-testid="recommendations">
          {shown.list.length === 0 ? (
            <p className="text-xs text-mist-400">Nothing similar in the station's history yet.</p>
          ) : (
            <ul className="grid gap-2">
              {shown.list.map((r) => (
                <li
                  key={`${r.artist}-${r.title}`}
                  className="flex flex-wrap items-center justify-between gap-2 rounded-2xl bg-white/[0.03] px-3 py-2 ring-1 ring-white/5"
                >
                  <span className="min-w-0">
                    <span className="block truncate text-sm font-medium text-white">{r.title}</span>
                    <span className="block truncate text-xs text-mist-400">{r.artist}</span>
                  </span>
                  <TrackLinks urls={{ youtubeUrl: r.youtubeUrl, soundcloudUrl: r.soundcloudUrl }} size="xs" />
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}
