import { ArrowUpRight, AudioLines, Crown, Disc3, Lock, MessagesSquare, Radio, ShoppingBag, Upload } from 'lucide-react';
import type { ComponentType, SVGProps } from 'react';
import { Link } from 'react-router';
import { ANONYMOUS_PERMISSIONS } from '../../../../contracts/tier-policy';
import { Badge } from '../../../components/ui/badge';
import { buttonClasses } from '../../../components/ui/button';
import { PageContainer } from '../../../components/ui/page-container';
import { SectionHeading } from '../../../components/ui/section-heading';
import { cn } from '../../../lib/cn';
import { usePermissions } from '../../auth';
import { tierLabel, tierList, tiersWith } from '../../../../contracts/tier-table';

interface Feature {
  title: string;
  text: string;
  to: string;
  Icon: ComponentType<SVGProps<SVGSVGElement>>;
  tint: string;
}

const FEATURES: Feature[] = [
  { title: tierLabel('dhr1'), text: 'The premium channel in 320kbps, ad-free.', to: '/dhr1', Icon: Radio, tint: 'text-aqua-300 bg-aqua-500/10' },
  {
    title: tierLabel('dhr2'),
    text: `The exclusive second channel for ${tierList(
      tiersWith((row) => row.channels.includes('dhr2')),
      'and',
    )} members.`,
    to: '/dhr2',
    Icon: Disc3,
    tint: 'text-deep-300 bg-deep-500/15',
  },
  { title: tierLabel('vip'), text: 'Over 1TB of exclusive mixes to play and download.', to: '/vip', Icon: Crown, tint: 'text-amber-300 bg-amber-400/10' },
  { title: 'Forum', text: 'News, events, releases and talk with fellow heads.', to: '/forum', Icon: MessagesSquare, tint: 'text-sky-300 bg-sky-500/10' },
  { title: 'DJ Submissions', text: 'Send us your mix and get featured on air.', to: '/upload', Icon: Upload, tint: 'text-fuchsia-300 bg-fuchsia-500/10' },
  { title: 'Shop', text: 'Tees, hoodies, vinyl and sample packs.', to: '/shop', Icon: ShoppingBag, tint: 'text-emerald-300 bg-emerald-500/10' },
];

const cardClass = 'glass group relative flex flex-col rounded-3xl p-6 transition duration-300';

export function FeatureGrid() {
  const { data } = usePermissions();
  const p = data ?? ANONYMOUS_PERMISSIONS;
  const unlocked = p.canAccessDHR1 || p.canAccessDHR2 || p.canAccessVIP;
  return (
    <section aria-labelledby="features-heading">
      <PageContainer width="wide">
        <SectionHeading
          id="features-heading"
          eyebrow="Explore"
          title="Everything On DHR"
          description="Two live channels, a mix library, a community and a shop, all in one place."
        />
        <div className="mt-10 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          <TrackIdentifierCard unlocked={unlocked} />
          {FEATURES.map((f) => (
            <Link
              key={f.to}
              to={f.to}
              className={cn(cardClass, 'flex-row items-start gap-4 p-5 hover:-translate-y-0.5 hover:border-white/20 sm:flex-col sm:gap-0 sm:p-6')}
            >
              <span className={cn('flex size-11 shrink-0 items-center justify-center rounded-xl', f.tint)}>
                <f.Icon className="size-5" aria-hidden="true" />
              </span>
              <div className="min-w-0 pr-6 sm:pr-0">
                <h3 className="text-lg font-semibold text-white sm:mt-5">{f.title}</h3>
                <p className="mt-1 text-sm leading-relaxed text-mist-400 sm:mt-1.5">{f.text}</p>
              </div>
              <ArrowUpRight className="absolute top-5 right-5 size-4 text-mist-500 transition group-hover:text-white sm:top-6 sm:right-6" aria-hidden="true" />
            </Link>
          ))}
        </div>
      </PageContainer>
    </section>
  );
}

/** Locked with 'Subscription Required' unless the server grants DHR1, DHR2 or VIP access. */
function TrackIdentifierCard({ unlocked }: { unlocked: boolean }) {
  return (
    <div
      data-testid="track-identifier-card"
      className={cn(cardClass, 'overflow-hidden sm:col-span-2', 'bg-gradient-to-br from-deep-600/20 via-transparent to-aqua-500/10')}
    >
      <div className="flex items-start justify-between gap-4">
        <span className="flex size-11 items-center justify-center rounded-xl bg-gradient-to-br from-deep-500/30 to-aqua-500/30 text-white">
          <AudioLines className="size-5" aria-hidden="true" />
        </span>
        {!unlocked && (
          <Badge tone="yellow">
            <Lock className="size-3" aria-hidden="true" /> Subscription Required
          </Badge>
        )}
      </div>
      <h3 className="mt-5 text-lg font-semibold text-white">Track Identifier</h3>
      <p className="mt-1.5 max-w-md text-sm leading-relaxed text-mist-400">
        Know what is playing the moment it plays: the current track, the ones before it, and similar tracks to discover, with links to YouTube, SoundCloud and
        Spotify.
      </p>
      <div className="mt-auto pt-6">
        {unlocked ? (
          <Link to="/track-ident" className={buttonClasses('secondary', 'sm')}>
            Open Track Identifier <ArrowUpRight className="size-4" aria-hidden="true" />
          </Link>
        ) : (
          <Link to="/auth" className={buttonClasses('primary', 'sm')}>
            Subscribe
          </Link>
        )}
      </div>
    </div>
  );
}
