import { ArrowLeft, Radio } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Card } from '../../../components/ui/card';

/** The frame of every account page: back link home, a glowing brand mark, title, card. */
export function AuthShell({ title, subtitle, children, footer }: { title: string; subtitle?: ReactNode; children: ReactNode; footer?: ReactNode }) {
  return (
    <section className="relative mx-auto w-full max-w-md px-4 pt-8 pb-16 sm:pt-12">
      <div aria-hidden className="pointer-events-none absolute inset-x-0 top-10 -z-10 mx-auto h-64 w-64 rounded-full bg-deep-600/25 blur-3xl" />
      <Link to="/" className="inline-flex items-center gap-2 text-sm text-mist-300 transition hover:text-white">
        <ArrowLeft className="size-4" aria-hidden /> Back to home
      </Link>
      <div className="mt-8 mb-6 text-center">
        <div className="mx-auto mb-4 flex size-14 items-center justify-center rounded-2xl bg-gradient-to-br from-deep-500/40 to-aqua-500/30 text-white shadow-[0_10px_40px_-12px_rgb(124_58_237/0.9)]">
          <Radio className="size-7" aria-hidden />
        </div>
        <h1 className="font-display text-3xl font-bold tracking-tight text-white">{title}</h1>
        {subtitle && <p className="mt-2 text-sm leading-relaxed text-mist-300">{subtitle}</p>}
      </div>
      <Card padding="lg" className="animate-fade-up">
        {children}
      </Card>
      {footer && <div className="mt-6 space-y-2 text-center text-sm text-mist-300">{footer}</div>}
    </section>
  );
}
