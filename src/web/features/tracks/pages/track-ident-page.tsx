import { Radar, Sparkles } from 'lucide-react';
import { useState } from 'react';
import { access } from '../../../../contracts/access-policy';
import { PageContainer } from '../../../components/ui/page-container';
import { LoadError } from '../../../components/ui/load-error';
import { Spinner } from '../../../components/ui/spinner';
import { cn } from '../../../lib/cn';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { AccessGate, hasTierAccess, usePermissions } from '../../auth';
import { useChannels } from '../../radio';
import { useCurrentTrack } from '../api/get-current-track';
import { useRecentTracks } from '../api/get-recent-tracks';
import { useSuggestions } from '../api/get-suggestions';
import { LiveTrackCard } from '../components/live-track-card';
import { RecentTracksWidget } from '../components/recent-tracks-widget';
import { TrackLinks } from '../components/track-links';
import { isIdentified } from '../lib/confidence';

/** /track-ident: current track, recent tracks and suggestions, for DHR1 and above. */
export default function TrackIdentPage() {
  useDocumentTitle('Track Identifier');
  return (
    <AccessGate policy={access.tier('dhr1')}>
      <TrackIdent />
    </AccessGate>
  );
}

function TrackIdent() {
  const { data: permissions } = usePermissions();
  const channelList = useChannels();
  const channels = channelList.data;
  // Members see the channels they may listen to.
  const visible = (channels ?? []).filter((c) => permissions !== undefined && hasTierAccess(permissions, c.requiredTier));
  const [picked, setPicked] = useState<string | null>(null);
  const active = visible.find((c) => c.id === picked) ?? visible[0];

  return (
    <PageContainer className="py-10 sm:py-14">
      <header className="max-w-3xl">
        <p className="flex items-center gap-2 text-xs font-semibold tracking-[0.25em] text-aqua-300 uppercase">
          <Radar className="size-4" aria-hidden="true" /> Track Identifier
        </p>
        <h1 className="mt-3 font-display text-4xl font-bold tracking-tight text-white sm:text-5xl">
          <span className="text-gradient">Name that track</span>
        </h1>
        <p className="mt-3 text-base leading-relaxed text-mist-300 sm:text-lg">What is playing now, what played before it, and where to go next.</p>
      </header>

      {visible.length > 1 && (
        <div role="tablist" aria-label="Channel" className="mt-8 inline-flex rounded-full bg-white/5 p-1 ring-1 ring-white/10">
          {visible.map((c) => (
            <button
              key={c.id}
              type="button"
              role="tab"
              aria-selected={active?.id === c.id}
              onClick={() => setPicked(c.id)}
              className={cn(
                'rounded-full px-4 py-1.5 text-sm font-semibold transition',
                active?.id === c.id ? 'bg-white/15 text-white' : 'text-mist-300 hover:text-white',
              )}
            >
              {c.name}
            </button>
          ))}
        </div>
      )}

      {!active && channelList.isError ? (
        <LoadError className="mt-10" what="the channels" onRetry={() => void channelList.refetch()} retrying={channelList.isFetching} />
      ) : !active ? (
        <div className="mt-10">
          <Spinner label="Loading channels..." showLabel />
        </div>
      ) : (
        <div className="mt-6 grid grid-cols-1 gap-5 lg:grid-cols-[minmax(0,1.2fr)_minmax(0,1fr)]">
          <div className="flex flex-col gap-5">
            <LiveTrackCard channel={active.id} channelName={active.name} accent={active.colour} besideRecentList />
            <Suggestions channel={active.id} />
          </div>
          <RecentTracksWidget key={active.id} channel={active.id} channelName={active.name} accent={active.colour} />
        </div>
      )}
    </PageContainer>
  );
}

/** Suggestions for the identified track on air, else for the newest identified one. */
function Suggestions({ channel }: { channel: string }) {
  const current = useCurrentTrack(channel);
  const recent = useRecentTracks(channel);
  const onAir = current.data?.track && isIdentified(current.data.track) ? current.data.track : null;
  const basis = onAir ?? recent.data?.find((t) => isIdentified(t)) ?? null;
  const seed = basis ? { artist: basis.artist, title: basis.title } : null;
  const { data, isFetching } = useSuggestions(channel, seed);

  return (
    <section aria-labelledby="suggestions-heading" className="glass rounded-3xl p-5 sm:p-6">
      <h2 id="suggestions-heading" className="flex items-center gap-2 font-semibold text-white">
        <Sparkles className="size-5 text-deep-300" aria-hidden="true" /> Suggestions
      </h2>
      {!seed ? (
        <p className="mt-3 text-sm text-mist-400">Suggestions appear once a track has been identified.</p>
      ) : (
        <>
          <p className="mt-1 text-sm text-mist-400">
            Because you heard{' '}
            <span className="text-mist-200">
              {seed.artist} - {seed.title}
            </span>
          </p>
          {isFetching && !data ? (
            <Spinner label="Finding similar tracks..." showLabel className="mt-4" />
          ) : !data || data.length === 0 ? (
            <p className="mt-4 text-sm text-mist-400">Nothing similar in the station&apos;s history yet.</p>
          ) : (
            <ul className="mt-4 grid gap-2">
              {data.map((r) => (
                <li
                  key={`${r.artist}-${r.title}`}
                  className="flex flex-wrap items-center justify-between gap-2 rounded-2xl bg-white/[0.03] px-4 py-3 ring-1 ring-white/5"
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
        </>
      )}
    </section>
  );
}
