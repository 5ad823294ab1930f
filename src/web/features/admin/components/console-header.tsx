import { ArrowLeft } from 'lucide-react';
import type { ReactNode } from 'react';
import { ButtonLink } from '../../../components/ui/button';
import type { StatusMessage } from '../lib/use-status-message';
import { StatusBanner } from './status-banner';

/** The heading of an operator page: eyebrow, title, one line, the way back to the dashboard and the page's own actions. */
export function ConsoleHeader({
  title,
  description,
  detail,
  live = false,
  back = true,
  actions,
}: {
  title: string;
  description: ReactNode;
  /** A line under the description (a count). */
  detail?: ReactNode;
  /** A pulsing dot beside the eyebrow: the page refreshes by itself. */
  live?: boolean;
  back?: boolean;
  actions?: ReactNode;
}) {
  return (
    <header className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
      <div className="min-w-0">
        <p className="mb-2 flex items-center gap-2 text-xs font-semibold tracking-[0.25em] text-aqua-300 uppercase">
          {live && <span className="size-2 animate-pulse rounded-full bg-emerald-400" aria-hidden="true" />}
          Operator console
        </p>
        <h1 className="font-display text-3xl font-bold tracking-tight text-white sm:text-4xl">{title}</h1>
        <p className="mt-2 text-sm text-mist-400 sm:text-base">{description}</p>
        {detail}
      </div>
      {(back || actions) && (
        <div className="flex gap-2 self-start sm:self-auto">
          {back && (
            <ButtonLink to="/admin-dashboard" variant="ghost" size="sm">
              <ArrowLeft className="size-4" aria-hidden="true" />
              Dashboard
            </ButtonLink>
          )}
          {actions}
        </div>
      )}
    </header>
  );
}

/** The page's status line, sticky so the result of a save far down a list is seen. */
export function StickyStatus({ message }: { message: StatusMessage | null }) {
  return (
    <div className="sticky top-20 z-20 rounded-2xl bg-night-900/95 empty:hidden" aria-live="polite">
      <StatusBanner message={message} className="shadow-lg shadow-black/40 backdrop-blur" />
    </div>
  );
}
