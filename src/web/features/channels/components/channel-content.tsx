import { AudioLines, Cast, Crown, Headphones, Moon, Radar, Radio, ShieldCheck, Sparkles, Users, Zap } from 'lucide-react';
import { type ReactNode, useMemo } from 'react';
import type { Channel } from '../../../../contracts/channels';
import { Badge } from '../../../components/ui/badge';
import { PageContainer } from '../../../components/ui/page-container';
import { TierBenefits, UPGRADE_APPLIES_AT_ONCE, UpgradeOptions, usePermissions } from '../../auth';
import { ChannelChat } from '../../chat';
import { LivePlayer, playerFallback, premiumSource, useNowPlaying } from '../../radio';
import { LiveTrackCard, RecentTracksWidget } from '../../tracks';
import { tierLabel, tierList, tiersWith } from '../../../../contracts/tier-table';

/** The tiers that hear the dhr2 channel, as prose: 'DHR2 and VIP'. */
const DHR2_LISTENERS = tierList(
  tiersWith((row) => row.channels.includes('dhr2')),
  'and',
);

interface Feature {
  icon: ReactNode;
  title: string;
  text: string;
}

const ICON = 'size-5';

/** What each channel page lists; only what the station actually does. */
interface ChannelCopy {
  tagline: string;
  features: Feature[];
}

const FEATURES: Partial<Record<string, ChannelCopy>> = {
  dhr1: {
    tagline: 'The premium channel: deep, warm and uninterrupted, at full quality and with every track identified.',
    features: [
      { icon: <AudioLines className={ICON} />, title: '320kbps Stream', text: 'The premium mount at full studio quality, straight from our Icecast server.' },
      { icon: <Radar className={ICON} />, title: 'Track Identification', text: 'Every few minutes the monitor names what is playing, with its confidence.' },
      {
        icon: <Sparkles className={ICON} />,
        title: 'Listen Again, Find Similar',
        text: 'YouTube, SoundCloud and Spotify links for identified tracks, and suggestions from what DHR played around them.',
      },
      { icon: <ShieldCheck className={ICON} />, title: 'Ad-Free', text: 'No ad slots on the pages while you are a member.' },
      { icon: <Users className={ICON} />, title: 'Comments', text: 'Join the conversation under news, forum threads and on the home page.' },
      {
        icon: <Cast className={ICON} />,
        title: 'Cast, Pop Out, Sleep',
        text: 'Send the stream to a speaker, keep it in its own window, or set a sleep timer.',
      },
    ],
  },
  dhr2: {
    tagline: `The exclusive second channel: longer mixes and deeper cuts for ${DHR2_LISTENERS} members.`,
    features: [
      { icon: <Radio className={ICON} />, title: 'Exclusive Channel', text: `A second live channel with its own programme, only for ${DHR2_LISTENERS}.` },
      {
        icon: <Zap className={ICON} />,
        title: 'Enhanced Quality',
        text: `The ${tierLabel('dhr2')} mount at 320kbps, alongside everything in ${tierLabel('dhr1')}.`,
      },
      { icon: <Radar className={ICON} />, title: 'Live Track Monitor', text: 'Continuous mixes are shown as such; identified tracks come with links.' },
      {
        icon: <Users className={ICON} />,
        title: 'Community',
        text: 'Comment on news, forum threads and the home page, with the Supporter badge on your profile.',
      },
      { icon: <Headphones className={ICON} />, title: 'Both Channels', text: 'DHR1 Premium is yours too: switch whenever you like.' },
      {
        icon: <Moon className={ICON} />,
        title: 'Cast, Pop Out, Sleep',
        text: 'Send the stream to a speaker, keep it in its own window, or set a sleep timer.',
      },
    ],
  },
};

/** A channel added by the operator without copy of its own. */
const GENERIC_COPY: ChannelCopy = {
  tagline: "A members' channel of Deep House Radio, streaming around the clock.",
  features: [],
};

/** A members' channel page once its gate has let the member in: the player, the tracks, what the tier gives. */
export default function ChannelContent({ channel: info }: { channel: Channel }) {
  const channel = info.id;
  const now = useNowPlaying(channel, playerFallback(channel));
  const name = info.name;
  const accent = info.colour;
  const { tagline, features } = FEATURES[channel] ?? GENERIC_COPY;
  const source = useMemo(() => premiumSource(channel), [channel]);

  return (
    <PageContainer className="py-6 sm:py-10">
      <header className="max-w-3xl">
        <div className="flex flex-wrap items-center gap-2">
          <Badge tone={channel === 'dhr1' ? 'cyan' : 'violet'}>{channel.toUpperCase()}</Badge>
          {info.bitrateLabel && <Badge>{info.bitrateLabel}</Badge>}
          {now.listeners !== null && now.listeners > 0 && <Badge tone="green">{now.listeners} listening</Badge>}
        </div>
        <h1 className="mt-3 font-display text-3xl font-bold tracking-tight text-white sm:text-5xl">
          <span className="text-gradient">{name}</span>
        </h1>
        <p className="mt-2 text-sm leading-relaxed text-mist-300 sm:text-lg">{tagline}</p>
      </header>

      <div className="mt-6 grid grid-cols-1 gap-5 lg:grid-cols-[minmax(0,1.15fr)_minmax(0,1fr)]">
        <LivePlayer player={channel} channel={channel} source={source} name={name} quality={info.bitrateLabel} accent={accent} />
        <LiveTrackCard channel={channel} channelName={name} accent={accent} besideRecentList />
      </div>
      <ChannelChat channel={channel} title={name} className="mt-5 h-[28rem]" />
      <RecentTracksWidget channel={channel} channelName={name} accent={accent} className="mt-5" />

      <section aria-labelledby="channel-features" className="mt-14">
        <h2 id="channel-features" className="text-2xl font-bold text-white sm:text-3xl">
          What your membership plays
        </h2>
        <p className="mt-2 text-mist-300">Two live channels, DHR1 Premium and DHR2 Exclusive, streaming around the clock.</p>
        <ul className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {features.map((f) => (
            <li key={f.title} className="glass rounded-2xl p-5">
              <span
                className="flex size-10 items-center justify-center rounded-xl bg-white/5 ring-1 ring-white/10"
                style={{ color: accent }}
                aria-hidden="true"
              >
                {f.icon}
              </span>
              <h3 className="mt-4 font-semibold text-white">{f.title}</h3>
              <p className="mt-1 text-sm leading-relaxed text-mist-300">{f.text}</p>
            </li>
          ))}
        </ul>
      </section>

      <UpgradeBlock />
    </PageContainer>
  );
}

/** Shown to members who lack a higher tier: DHR2 for DHR1 members, VIP for both. */
function UpgradeBlock() {
  const { data: permissions } = usePermissions();
  if (!permissions || permissions.isAdmin || permissions.canAccessVIP) return null;
  const next = permissions.canAccessDHR2 ? ('vip' as const) : ('dhr2' as const);
  return (
    <section aria-labelledby="upgrade-heading" className="glass relative mt-14 overflow-hidden rounded-3xl p-6 sm:p-10">
      <div aria-hidden="true" className="pointer-events-none absolute inset-0 bg-gradient-to-br from-deep-600/25 via-transparent to-aqua-500/15" />
      <div className="relative grid gap-6 md:grid-cols-[1.4fr_1fr] md:items-center">
        <div>
          <p className="flex items-center gap-2 text-xs font-semibold tracking-[0.25em] text-amber-200 uppercase">
            <Crown className="size-4" aria-hidden="true" /> Go further
          </p>
          <h2 id="upgrade-heading" className="mt-3 text-2xl font-bold text-white sm:text-3xl">
            Upgrade to {next.toUpperCase()}
          </h2>
          <TierBenefits tier={next} className="mt-4 text-sm text-mist-200" />
        </div>
        <div className="flex flex-col gap-3">
          <UpgradeOptions stacked />
          <p className="text-xs text-mist-400">{UPGRADE_APPLIES_AT_ONCE}</p>
        </div>
      </div>
    </section>
  );
}
