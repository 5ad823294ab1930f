import { Activity } from 'lucide-react';
import { access } from '../../../../contracts/access-policy';
import { PageContainer } from '../../../components/ui/page-container';
import { LoadError } from '../../../components/ui/load-error';
import { PageSpinner } from '../../../components/ui/spinner';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { AccessGate } from '../../auth';
import { playerFallback, useChannels, useNowPlaying } from '../../radio';
import { LiveTrackCard } from '../components/live-track-card';
import { RecentTracksWidget } from '../components/recent-tracks-widget';

/**
 * /birdy: the live track monitor of every channel. What is on air (the streams' own titles) is public;
 * the identifications are track identification, a tier benefit: the same gate as their API routes.
 */
export default function BirdyPage() {
  useDocumentTitle('Live Track Monitor');
  const channelList = useChannels();
  const { data: channels, isPending, isError } = channelList;
  return (
    <PageContainer width="wide" className="py-10 sm:py-14">
      <header className="max-w-3xl">
        <p className="flex items-center gap-2 text-xs font-semibold tracking-[0.25em] text-aqua-300 uppercase">
          <Activity className="size-4" aria-hidden="true" /> Live Track Monitor
        </p>
        <h1 className="mt-3 font-display text-4xl font-bold tracking-tight text-white sm:text-5xl">
          <span className="text-gradient">What&apos;s playing, live</span>
        </h1>
        <p className="mt-3 text-base leading-relaxed text-mist-300 sm:text-lg">
          Both channels, listened to around the clock. Tracks are identified every 2 minutes; the cards below update on their own.
        </p>
      </header>
      {isPending ? (
        <PageSpinner label="Loading channels..." />
      ) : isError ? (
        <LoadError className="mt-10" what="the channels" onRetry={() => void channelList.refetch()} retrying={channelList.isFetching} />
      ) : (
        <>
          <div className="mt-10 grid grid-cols-1 gap-3 lg:grid-cols-2">
            {channels.map((c) => (
              <OnAirLine key={c.id} channel={c.id} name={c.name} accent={c.colour} />
            ))}
          </div>
          <AccessGate policy={access.tier('dhr1')} embedded>
            <div className="mt-5 grid grid-cols-1 gap-6 lg:grid-cols-2">
              {channels.map((c) => (
                <div key={c.id} className="flex flex-col gap-5">
                  <LiveTrackCard channel={c.id} channelName={c.name} accent={c.colour} showMonitorLink={false} />
                  <RecentTracksWidget channel={c.id} channelName={c.name} accent={c.colour} />
                </div>
              ))}
            </div>
          </AccessGate>
        </>
      )}
    </PageContainer>
  );
}

/** The stream's own title line above the card: what Icecast says is on air. */
function OnAirLine({ channel, name, accent }: { channel: string; name: string; accent: string }) {
  const now = useNowPlaying(channel, playerFallback(channel));
  return (
    <div className="flex items-center gap-3 px-1">
      <span className="size-2 shrink-0 animate-pulse rounded-full" style={{ background: accent, boxShadow: `0 0 10px ${accent}` }} aria-hidden="true" />
      <p className="min-w-0 truncate text-sm text-mist-300">
        <span className="font-semibold text-white">{name}</span> · On air:{' '}
        <span className="text-mist-100" data-testid={`on-air-${channel}`}>
          {now.artist} - {now.title}
        </span>
      </p>
    </div>
  );
}
