import { Headphones, MessagesSquare } from 'lucide-react';
import { ButtonLink } from '../../../components/ui/button';
import { PageContainer } from '../../../components/ui/page-container';
import { tierLabel } from '../../../../contracts/tier-table';

export function ReadyCta() {
  return (
    <section aria-labelledby="ready-heading">
      <PageContainer width="wide">
        <div className="relative overflow-hidden rounded-[2rem] border border-white/10 bg-gradient-to-br from-deep-700/50 via-night-850 to-aqua-500/20 px-6 py-14 text-center sm:px-12 sm:py-20">
          <div
            aria-hidden="true"
            className="pointer-events-none absolute -top-24 left-1/2 h-64 w-[40rem] -translate-x-1/2 rounded-full bg-deep-500/25 blur-3xl"
          />
          <h2 id="ready-heading" className="relative font-display text-3xl font-extrabold tracking-tight text-white sm:text-5xl">
            Ready To Go Deep?
          </h2>
          <p className="relative mx-auto mt-4 max-w-xl text-base leading-relaxed text-mist-200 sm:text-lg">
            Switch to the premium stream, or come and talk music with the rest of the DHR family.
          </p>
          <div className="relative mt-9 flex flex-col justify-center gap-3 sm:flex-row">
            <ButtonLink to="/dhr1" size="lg">
              <Headphones className="size-5" aria-hidden="true" /> Listen to {tierLabel('dhr1')}
            </ButtonLink>
            <ButtonLink to="/forum" variant="secondary" size="lg">
              <MessagesSquare className="size-5" aria-hidden="true" /> Join the Forum
            </ButtonLink>
          </div>
        </div>
      </PageContainer>
    </section>
  );
}
