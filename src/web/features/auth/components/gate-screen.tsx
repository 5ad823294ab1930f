import type { ReactNode } from 'react';
import { Card } from '../../../components/ui/card';
import { cn } from '../../../lib/cn';

const tones = {
  violet: 'from-deep-500/30 to-indigo-500/20 text-deep-300',
  cyan: 'from-aqua-400/30 to-indigo-500/20 text-aqua-300',
  rose: 'from-rose-500/30 to-fuchsia-500/20 text-rose-200',
} as const;

/** The centred glass card every gate and guard screen uses. */
export function GateScreen({
  icon,
  title,
  children,
  tone = 'violet',
  wide = false,
  embedded = false,
}: {
  icon: ReactNode;
  title: string;
  children: ReactNode;
  tone?: keyof typeof tones;
  wide?: boolean;
  /** Inside a page that has its own heading: an h2, and no screen-tall box. */
  embedded?: boolean;
}) {
  const Heading = embedded ? 'h2' : 'h1';
  return (
    <section
      className={cn('mx-auto flex w-full items-center px-4', embedded ? 'py-8' : 'min-h-[calc(100dvh-4rem)] py-12 sm:py-16', wide ? 'max-w-2xl' : 'max-w-xl')}
    >
      <Card padding="lg" className="w-full animate-fade-up text-center">
        <div className={cn('mx-auto mb-5 flex size-14 items-center justify-center rounded-2xl bg-gradient-to-br', tones[tone])}>{icon}</div>
        <Heading className="font-display text-2xl font-bold tracking-tight text-white sm:text-3xl">{title}</Heading>
        <div className="mt-4 space-y-5 text-sm leading-relaxed text-mist-300 sm:text-base">{children}</div>
      </Card>
    </section>
  );
}
