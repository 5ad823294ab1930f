import { Activity, Disc3, Radar } from 'lucide-react';
import { Link } from 'react-router';
import type { DerivedTrackInfo } from '../../../../contracts/derived-track';
import type { CurrentTrack } from '../../../../contracts/radio';
import { METADATA_SERVICE } from '../../../../contracts/radio-values';
import { Spinner } from '../../../components/ui/spinner';
import { cn } from '../../../lib/cn';
import { formatTime, relativeTime } from '../../../lib/dates';
import { playerFallback, useNowPlaying } from '../../radio';
import { useCurrentTrack } from '../api/get-current-track';
import { useRecentTracks } from '../api/get-recent-tracks';
import { useDerivedTrack } from '../hooks/use-derived-track';
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

const norm = (s: string) => s.trim().toLowerCase();

/**
 * Whether the monitor's identification is about what is on air now: the same artist and title, or made
 * since this title started (a track recognised inside a mix). An older identification is history, not now.
 */
function describesNow(track: CurrentTrack, now: { artist: string; title: string; updatedAt: string | null }): boolean {
  if (norm(track.artist) === norm(now.artist) && norm(track.title) === norm(now.title)) return true;
  return now.updatedAt !== null && Date.parse(track.timestamp) >= Date.parse(now.updatedAt);
}

/**
 * The live track card for one channel. What is on air comes from the channel's one now-playing source
 * (the same as the player's); the track monitor adds artwork, links and confidence when its
 * identification is about that track.
 */
export function LiveTrackCard({ channel, channelName, accent = '#8b5cf6', showMonitorLink = true, besideRecentList = false, className }: LiveTrackCardProps) {
  const now = useNowPlaying(channel, playerFallback(channel));
  const { data, isPending, isError } = useCurrentTrack(channel);
  // The Recent Tracks widget's own query (same key): no second request.
  const lastIdentified = useRecentTracks(channel, 20, besideRecentList).data?.[0];
  const track = data?.track ?? null;
  const current = track !== null && now.isLive && describesNow(track, now);
  const identified = current && isIdentified(track);
  const derived = useDerivedTrack(now.isLive ? now : null);
  const onAir = now.isLive ? `${now.artist} - ${now.title}` : undefined;
  const mood = moodForTrack(identified ? track : derived);

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
          <h2 className="truncate text-sm font-semibold tracking-[0.18em] text-mist-200 uppercase">{channelName}</h2>
        </div>
        {identified && (
          <span className="rounded-full bg-white/5 px-2.5 py-0.5 text-[0.7rem] font-medium text-mist-300 capitalize ring-1 ring-white/10">{mood}</span>
        )}
      </header>

      <div className="mt-5 min-h-28">
        {isPending && !now.isLive ? (
          <Spinner label="Loading track..." showLabel />
        ) : isError ? (
          <Unidentified icon={<Radar className="size-5" />} text="Track monitor unavailable. Trying again shortly." />
        ) : identified ? (
          <IdentifiedTrack track={track} />
        ) : data && !data.isActive ? (
          <Unidentified icon={<Activity className="size-5" />} text="Monitor stopped" detail={onAir && `On air: ${onAir}`} />
        ) : channel === 'dhr2' && (track === null || track.service === METADATA_SERVICE) && onAir ? (
          <Unidentified
            icon={<Disc3 className="size-5 animate-spin [animation-duration:6s]" />}
            text={`A continuous mix is playing on ${tierLabel('dhr2')}`}
            detail={onAir}
          />
        ) : lastIdentified && !onAir ? (
          // Between identified tracks with no title on air: the card names the list's newest one, so card
          // and list agree. With a title on air the card names that one only: one track is on air.
          <Unidentified
            icon={<Radar className="size-5 animate-pulse" />}
            text="Listening for the next track..."
            detail={onAir && `On air: ${onAir}`}
            note={`Last identified at ${formatTime(lastIdentified.identifiedAt)}: ${lastIdentified.artist} - ${lastIdentified.title}`}
          />
        ) : (
          <Unidentified icon={<Radar className="size-5 animate-pulse" />} text="Listening for individual tracks..." detail={onAir && `On air: ${onAir}`} />
        )}
      </div>

      {derived && <DerivedInfo info={derived} identified={identified ? track : null} />}

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

/** The client's guesses about the track on air; an identification's own genre and bpm win. */
function DerivedInfo({ info, identified }: { info: DerivedTrackInfo; identified: CurrentTrack | null }) {
  const genre = identified?.genre ?? info.genre;
  const bpm = identified?.bpm ?? info.bpm;
  const guessed = !(identified?.bpm != null || info.bpmStated);
  return (
    <dl className="mt-4 grid grid-cols-3 gap-2 text-center" data-testid="derived-track">
      <div className="rounded-xl bg-white/5 px-2 py-1.5 ring-1 ring-white/10">
        <dt className="text-[0.65rem] tracking-wider text-mist-400 uppercase">Genre</dt>
        <dd className="truncate text-sm font-semibold text-mist-100" data-testid="derived-genre">
          {genre}
        </dd>
      </div>
      <div className="rounded-xl bg-white/5 px-2 py-1.5 ring-1 ring-white/10">
        <dt className="text-[0.65rem] tracking-wider text-mist-400 uppercase">BPM</dt>
        <dd className="text-sm font-semibold text-mist-100" data-testid="derived-bpm" title={guessed ? 'Estimated from the title' : undefined}>
          {guessed ? '~' : ''}
          {Math.round(bpm)}
        </dd>
      </div>
      <div className="rounded-xl bg-white/5 px-2 py-1.5 ring-1 ring-white/10">
        <dt className="text-[0.65rem] tracking-wider text-mist-400 uppercase">Energy</dt>
        <dd className="text-sm font-semibold text-mist-100" data-testid="derived-energy">
          {info.energy}%
        </dd>
      </div>
    </dl>
  );
}

function Unidentified({ icon, text, detail, note }: { icon: React.ReactNode; text: string; detail?: string | undefined; note?: string }) {
  return (
    <div className="flex items-start gap-3 text-mist-300">
      <span className="mt-0.5 flex size-9 shrink-0 items-center justify-center rounded-full bg-white/5 text-aqua-300 ring-1 ring-white/10" aria-hidden="true">
        {icon}
      </span>
      <div className="min-w-0">
        <p className="font-medium text-mist-100">{text}</p>
        {detail && (
          <p className="mt-0.5 truncate text-sm text-mist-400" data-testid="live-track-on-air" title={detail}>
            {detail}
          </p>
        )}
        {note && (
          <p className="mt-0.5 truncate text-xs text-mist-400" title={note}>
            {note}
          </p>
        )}
      </div>
    </div>
  );
}
