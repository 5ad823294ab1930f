import { Crown, Headphones } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Button, ButtonLink } from '../../../components/ui/button';
import { PageContainer } from '../../../components/ui/page-container';

/** The three hero lines, one every 12 seconds. */
export const SLOGANS = ['Deep House, Around The Clock', 'Where Every Beat Goes Deeper', 'Your Late-Night Soundtrack, Live'] as const;
export const SLOGAN_INTERVAL_MS = 12_000;

function scrollToPlayer() {
  const target = document.getElementById('player');
  if (!target) return;
  const smooth = !window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  target.scrollIntoView({ behavior: smooth ? 'smooth' : 'auto', block: 'start' });
  // Move keyboard focus along with the view.
  target.focus({ preventScroll: true });
}

export function HeroSection() {
  const [index, setIndex] = useState(0);
  useEffect(() => {
    const timer = window.setInterval(() => setIndex((i) => (i + 1) % SLOGANS.length), SLOGAN_INTERVAL_MS);
    return () => window.clearInterval(timer);
  }, []);

  return (
    <section aria-labelledby="hero-title" className="relative overflow-hidden">
      {/* Ambient light behind the hero. */}
      <div aria-hidden="true" className="pointer-events-none absolute inset-0 -z-10">
        <div className="absolute -top-40 left-1/2 h-[36rem] w-[56rem] -translate-x-1/2 rounded-full bg-deep-600/20 blur-3xl" />
        <div className="absolute top-40 -right-20 h-72 w-72 animate-slow-pulse rounded-full bg-aqua-500/15 blur-3xl" />
      </div>
      <PageContainer width="wide" className="pt-6 pb-12 sm:pt-10 lg:pt-12 lg:pb-16">
        <div className="animate-fade-up">
          <h1 id="hero-title" className="font-display text-4xl leading-[1.05] font-extrabold tracking-tight text-white sm:text-6xl lg:text-6xl">
            <span className="sr-only">Deep House Radio: </span>
            <span key={index} data-testid="hero-slogan" className="block min-h-[2.1em] animate-fade-up text-gradient pb-1">
              {SLOGANS[index]}
            </span>
          </h1>
          <p className="mt-6 max-w-xl text-lg leading-relaxed text-mist-300">
            Hand-picked deep house on two live channels. Listen free at 128kbps, or go deeper with 320kbps streams, track identification and the VIP mix
            library.
          </p>
          <div className="mt-9 flex flex-wrap gap-3">
            <Button size="lg" onClick={scrollToPlayer} className="w-full sm:w-auto">
              <Headphones className="size-5" aria-hidden="true" /> Enter The Deep
            </Button>
            <ButtonLink to="/vip" variant="secondary" size="lg" className="w-full sm:w-auto">
              <Crown className="size-5 text-amber-300" aria-hidden="true" /> VIP Mixes
            </ButtonLink>
          </div>
        </div>
      </PageContainer>
    </section>
  );
}
