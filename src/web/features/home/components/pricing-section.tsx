import { Check, Coffee, Heart } from 'lucide-react';
import { TIER_TABLE } from '../../../../contracts/tier-table';
import { Badge } from '../../../components/ui/badge';
import { ButtonLink } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { PageContainer } from '../../../components/ui/page-container';
import { SectionHeading } from '../../../components/ui/section-heading';
import { Spinner } from '../../../components/ui/spinner';
import { useSiteConfig } from '../../auth';
import { tierPrice } from '../../../lib/tier-prices';

const PLANS = [
  { tier: 'dhr1', tagline: 'The premium channel', accent: 'from-aqua-400 to-sky-500' },
  { tier: 'dhr2', tagline: 'Both live channels', accent: 'from-deep-400 to-aqua-400' },
  { tier: 'vip', tagline: 'Everything, plus the mix library', accent: 'from-amber-300 via-fuchsia-400 to-deep-500' },
] as const;

export function PricingSection() {
  return (
    <section aria-labelledby="pricing-heading">
      <PageContainer width="wide">
        <SectionHeading
          id="pricing-heading"
          align="center"
          eyebrow="Membership"
          title="Keep The Music Playing"
          description="DHR is funded by its listeners. Pick a tier, subscribe on Patreon or Buy Me a Coffee, then sign in with the same email."
        />
        <div className="mt-12 grid gap-5 md:grid-cols-3">
          {PLANS.map(({ tier, tagline, accent }) => (
            <Card key={tier} highlight={tier === 'vip'} padding="lg" className="flex flex-col">
              <div className={`absolute inset-x-8 top-0 h-px bg-gradient-to-r ${accent}`} aria-hidden="true" />
              <div className="flex items-center justify-between gap-3">
                <h3 className="font-display text-xl font-bold tracking-wide text-white">{TIER_TABLE[tier].label}</h3>
                {tier === 'vip' && <Badge tone="gold">All access</Badge>}
              </div>
              <p className="mt-1 text-sm text-mist-400">{tagline}</p>
              <p className="mt-6 flex items-baseline gap-1.5">
                <span className="font-display text-5xl font-extrabold tracking-tight text-white">{tierPrice(tier)}</span>
                <span className="text-sm text-mist-400">/ month</span>
              </p>
              <ul className="mt-6 space-y-3 text-sm text-mist-200">
                {TIER_TABLE[tier].benefits.map((b) => (
                  <li key={b} className="flex gap-3">
                    <Check className="mt-0.5 size-4 shrink-0 text-aqua-300" aria-hidden="true" />
                    <span>{b}</span>
                  </li>
                ))}
              </ul>
            </Card>
          ))}
        </div>
        <SubscribeLinks />
      </PageContainer>
    </section>
  );
}

/** The two subscribe links (PATREON_PAGE_URL and BMC_PAGE_URL, told by the server). */
function SubscribeLinks() {
  const { data, isPending, isError } = useSiteConfig();
  if (isPending) {
    return (
      <div className="mt-10 flex justify-center">
        <Spinner label="Loading subscribe links..." />
      </div>
    );
  }
  if (isError) {
    return <p className="mt-10 text-center text-sm text-mist-400">The subscribe links could not be loaded. Please reload the page.</p>;
  }
  return (
    <div className="mt-10 flex flex-col items-center gap-3 sm:flex-row sm:justify-center">
      <ButtonLink href={data.patreonPageUrl} size="lg" className="w-full sm:w-auto">
        <Heart className="size-5" aria-hidden="true" /> Subscribe on Patreon
      </ButtonLink>
      <ButtonLink href={data.bmcPageUrl} variant="secondary" size="lg" className="w-full sm:w-auto">
        <Coffee className="size-5 text-amber-300" aria-hidden="true" /> Support on Buy Me a Coffee
      </ButtonLink>
    </div>
  );
}
