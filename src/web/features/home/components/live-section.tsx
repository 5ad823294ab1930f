import { Activity, ChevronRight, Lock } from 'lucide-react';
import { Link } from 'react-router';
import type { Tier } from '../../../../contracts/tiers';
import { PageContainer } from '../../../components/ui/page-container';
import { hasTierAccess, usePermissions } from '../../auth';
import { HomeChat } from '../../chat';
import { HomeLivePlayer, useChannels, useHomeNowPlaying } from '../../radio';

/**
 * The home page's first screen: the free live player (Play, the channel, what is playing and its
 * art, volume, Cast, Sleep Timer, Pop Out) with the way on to the members' channels, before the
 * slogan and the figures. It is also the 'Enter The Deep' scroll target (#player).
 */
export function LiveSection() {
  const now = useHomeNowPlaying();
  return (
    <section id="player" tabIndex={-1} aria-labelledby="player-heading" className="scroll-mt-20 pt-5 outline-none sm:pt-10">
      <PageContainer width="wide">
        <div className="flex flex-wrap items-baseline justify-between gap-x-6 gap-y-1">
          <h2 id="player-heading" className="flex items-center gap-2.5 font-display text-xl font-bold tracking-tight text-white sm:text-3xl">
            <span className="relative flex size-2.5" aria-hidden="true">
              <span className="absolute inline-flex size-full animate-ping rounded-full bg-rose-400 opacity-75" />
              <span className="relative inline-flex size-2.5 rounded-full bg-rose-500" />
            </span>
            Live Stream
          </h2>
          <p className="text-sm text-mist-400">Free for everyone, no registration needed.</p>
        </div>
        <p className="sr-only" aria-live="polite">
          Now playing: <span data-testid="home-now-playing">{now.isLive ? `${now.artist} - ${now.title}` : `${now.title}: ${now.artist}`}</span>
        </p>
        <div className="mt-4 grid grid-cols-1 gap-5 sm:mt-6 lg:grid-cols-[1.6fr_1fr]">
          <HomeLivePlayer />
          <ChannelLinks />
        </div>
        <div className="mt-5">
          <HomeChat />
        </div>
      </PageContainer>
    </section>
  );
}

function ChannelLinks() {
  const { data: channels } = useChannels();
  const { data: permissions } = usePermissions();
  const open = (tier: Tier) => tier === 'free' || (permissions !== undefined && hasTierAccess(permissions, tier));
  return (
    <div className="glass flex flex-col rounded-3xl p-5 sm:p-6">
      <h3 className="text-sm font-semibold tracking-[0.2em] text-mist-400 uppercase">Go deeper</h3>
      <ul className="mt-4 grid gap-2">
        {/* Two rows' room while the list loads: the page below it does not move when it arrives. */}
        {!channels && [0, 1].map((i) => <li key={i} aria-hidden="true" className="h-16 rounded-2xl bg-white/[0.03] ring-1 ring-white/5" />)}
        {(channels ?? []).map((c) => (
          <li key={c.id}>
            <Link
              to={`/${c.id}`}
              className="group flex items-center gap-3 rounded-2xl bg-white/[0.03] px-4 py-3 ring-1 ring-white/5 transition hover:bg-white/[0.07] hover:ring-white/15"
            >
              <span className="size-2.5 shrink-0 rounded-full" style={{ background: c.colour, boxShadow: `0 0 10px ${c.colour}` }} aria-hidden="true" />
              <span className="min-w-0 flex-1">
                <span className="block font-semibold text-white">{c.name}</span>
                <span className="block text-xs text-mist-400">
                  {c.bitrateLabel} · {c.requiredTier.toUpperCase()} members
                </span>
              </span>
              {open(c.requiredTier) ? (
                <ChevronRight className="size-4 text-mist-300 transition group-hover:translate-x-0.5 group-hover:text-white" aria-hidden="true" />
              ) : (
                <Lock className="size-4 text-mist-500" aria-label="Members only" />
              )}
            </Link>
          </li>
        ))}
      </ul>
      <Link to="/birdy" className="mt-auto inline-flex items-center gap-1.5 pt-5 text-sm font-medium text-aqua-300 hover:text-aqua-400">
        <Activity className="size-4" aria-hidden="true" /> View Live Monitor
      </Link>
    </div>
  );
}
