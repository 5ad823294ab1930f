import { RadioTower } from 'lucide-react';
import { useDocumentTitle } from '../../lib/use-document-title';
import { ButtonLink } from './button';

/** What /player/:channel shows for a channel that has no pop-out player. */
export function InvalidPlayer({ channel }: { channel?: string }) {
  useDocumentTitle('Invalid Player');
  return (
    <div className="flex min-h-[60dvh] items-center justify-center px-4 py-12">
      <div className="glass w-full max-w-sm rounded-3xl p-8 text-center">
        <div className="mx-auto mb-5 flex size-14 items-center justify-center rounded-2xl bg-rose-500/10 text-rose-300 ring-1 ring-rose-400/20">
          <RadioTower className="size-7" aria-hidden="true" />
        </div>
        <h1 className="text-2xl font-bold text-white">Invalid Player</h1>
        <p className="mt-3 text-sm leading-relaxed text-mist-300">
          {channel ? (
            <>
              There is no player for the channel <span className="font-semibold text-mist-100">“{channel}”</span>.{' '}
            </>
          ) : null}
          Please use the Pop Out button on a channel’s player to open this window.
        </p>
        <ButtonLink to="/" variant="secondary" size="sm" className="mt-6">
          Back to Deep House Radio
        </ButtonLink>
      </div>
    </div>
  );
}
