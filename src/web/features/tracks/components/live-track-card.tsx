import { Activity, Disc3, Radar } from 'lucide-react';
import { Link } from 'react-router';
import type { CurrentTrack } from '../../../../contracts/radio';
import { METADATA_SERVICE } from '../../../../contracts/radio-values';
import { Spinner } from '../../../components/ui/spinner';
import { cn } from '../../../lib/cn';
import { formatTime, relativeTime } from '../../../lib/dates';
import { useCurrentTrack } from '../api/get-current-track';
import { useRecentTracks } from '../api/get-recent-tracks';
import { CONFIDENCE_TEXT, confidenceTone, formatConfidence, isIdentified } from '../lib/confidence';
import { moodForTrack } from '../lib/mood';
import { MoodParticles } from './mood-particles';
import { TrackArtwork } from './track-artwork';
import { TrackLinks } from './track-links';
import { tierLabel } from '../../../../contracts/tier-table';

export interface LiveTrackCardProps {
  channel: string;
  /** e.g. 'DHR1 Premium'. */
  channelName: string;
  accent?: string;
  /** Hidden on the live monitor page itself. */
  showMonitorLink?: boolean;
  /** The page shows the channel's Recent Tracks beside the card: between tracks the card names the newest of them. */
  besideRecentList?: boolean;
  className?: string;
}

/** The live track card for one channel. */
export function LiveTrackCard({ channel, channelName, accent = '#8b5cf6', showMonitorLink = true, besideRecentList = false, className }: LiveTrackCardProps) {
  const { data, isPending, isError } = useCurrentTrack(channel);
  // The Recent Tracks widget's own query (same key): no second request.
  const lastIdentified = useRecentTracks(channel, 20, besideRecentList).data?.[0];
  const track = data?.track ?? null;
  const identified = track !== null && isIdentified(track);
  const mood = moodForTrack(identified ? track : null);

  return (
    <section
      aria-label={`${channelName} live track`}
      className={cn('glass relative isolate overflow-hidden rounded-3xl p-5 sm:p-6', className)}
      data-testid={`live-track-${channel}`}
    >
      <div
        aria-hidden="true"
        className="absolute inset-0 -z-10 opacity-40"
        style={{ background: `radial-gradient(120% 80% at 100% 0%, ${accent}33, transparent 60%)` }}
      />
      <MoodParticles mood={mood} className="-z-10" />
      <header className="flex items-center justify-between gap-3">
        <div className="flex min-w-0 items-center gap-2">
          <span className="size-2.5 shrink-0 rounded-full" style={{ background: accent, boxShadow: `0 0 12px ${accent}` }} />
          <h3 className="truncate text-sm font-semibold tracking-[0.18em] text-mist-200 uppercase">{channelName}</h3>
        </div>
        {identified && (
          <span className="rounded-full bg-white/5 px-2.5 py-0.5 text-[0.7rem] font-medium text-mist-300 capitalize ring-1 ring-white/10">{mood}</span>
        )}
      </header>

      <div className="mt-5 min-h-28">
        {isPending ? (
          <Spinner label="Loading track..." showLabel />
        ) : isError ? (
          <Unidentified icon={<Radar className="size-5" />} text="Track monitor unavailable. Trying again shortly." />
        ) : identified ? (
          <IdentifiedTrack track={track} />
        ) : !data.isActive ? (
          <Unidentified icon={<Activity className="size-5" />} text="Monitor stopped" />
        ) : track && track.service === METADATA_SERVICE && channel === 'dhr2' ? (
          <Unidentified
            icon={<Disc3 className="size-5 animate-spin [animation-duration:6s]" />}
            text={`A continuous mix is playing on ${tierLabel('dhr2')}`}
            detail={`${track.artist} - ${track.title}`}
          />
        ) : lastIdentified ? (
          // Between identified tracks: the card names the list's newest one, so card and list agree.
          <Unidentified
            icon={<Radar className="size-5 animate-pulse" />}
            text="Listening for the next track..."
            detail={`Last identified at ${formatTime(lastIdentified.identifiedAt)}: ${lastIdentified.artist} - ${lastIdentified.title}`}
          />
        ) : (
          <Unidentified
            icon={<Radar className="size-5 animate-pulse" />}
            text="Listening for individual tracks..."
            detail={track ? `On air: ${track.artist} - ${track.title}` : undefined}
          />
        )}
      </div>

      {showMonitorLink && (
        <footer className="mt-5 border-t border-white/5 pt-4">
          <Link to="/birdy" className="inline-flex items-center gap-1.5 text-sm font-medium text-aqua-300 hover:text-aqua-400">
            <Activity className="size-4" aria-hidden="true" /> View Live Monitor
          </Link>
        </footer>
      )}
    </section>
  );
}

function IdentifiedTrack({ track }: { track: CurrentTrack }) {
  const tone = confidenceTone(track.confidence);
  return (
    <div className="flex gap-4">
      <TrackArtwork src={track.artwork} alt={`${track.title} cover`} className="size-20 shadow-lg shadow-black/40 sm:size-24" />
      <div className="min-w-0 flex-1">
        <p className="truncate text-lg font-bold text-white" title={track.title} data-testid="live-track-title">
          {track.title}
        </p>
        <p className="truncate text-sm text-mist-300" title={track.artist}>
          {track.artist}
        </p>
        <p className="mt-1.5 flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-mist-400">
          <time dateTime={track.timestamp} title={relativeTime(track.timestamp)}>
            {formatTime(track.timestamp)}
          </time>
          <span className={cn('font-semibold', CONFIDENCE_TEXT[tone])}>{formatConfidence(track.confidence)} match</span>
        </p>
        <TrackLinks urls={track} className="mt-3" />
      </div>
    </div>
  );
}

function Unidentified({ icon, text, detail }: { icon: React.ReactNode; text: string; detail?: string }) {
  return (
    <div className="flex items-start gap-3 text-mist-300">
      <span className="mt-0.5 flex size-9 shrink-0 items-center justify-center rounded-full bg-white/5 text-aqua-300 ring-1 ring-white/10" aria-hidden="true">
        {icon}
      </span>
      <div className="min-w-0">
        <p className="font-medium text-mist-100">{text}</p>
        {detail && <p className="mt-0.5 truncate text-sm text-mist-400">{detail}</p>}
      </div>
    </div>
  );
}
