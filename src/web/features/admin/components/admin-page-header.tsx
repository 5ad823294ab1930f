import { ArrowLeft } from 'lucide-react';
import type { ReactNode } from 'react';
import { ButtonLink } from '../../../components/ui/button';
import { LoadError } from '../../../components/ui/load-error';
import { errorMessage } from '../../../lib/http';
import { Spinner } from '../../../components/ui/spinner';
import type { StatusMessage } from '../lib/use-status-message';
import { StatusBanner } from './status-banner';

/**
 * The title block of the operator pages: eyebrow, title, one line of description, a way back, and
 * optionally a line under the description (a count), a pulsing dot for pages that refresh by themselves,
 * and the page's own actions beside the way back.
 */
export function AdminPageHeader({
  title,
  description,
  backTo,
  backLabel,
  detail,
  live = false,
  actions,
}: {
  title: string;
  description: string;
  backTo?: string;
  backLabel?: string;
  detail?: ReactNode;
  live?: boolean;
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
      {(backTo || actions) && (
        <div className="flex gap-2 self-start flex-wrap sm:self-auto">
          {backTo && (
            <ButtonLink to={backTo} variant="ghost" size="sm">
              <ArrowLeft className="size-4" aria-hidden="true" />
              {backLabel}
            </ButtonLink>
          )}
          {actions}
        </div>
      )}
    </header>
  );
}

/** The page's status line, sticky so the result of an action far down a list is seen. */
export function StickyStatus({ message }: { message: StatusMessage | null }) {
  return (
    <div className="sticky top-20 z-20 rounded-2xl bg-night-900/95 empty:hidden" aria-live="polite">
      <StatusBanner message={message} className="shadow-lg shadow-black/40 backdrop-blur" />
    </div>
  );
}

/** A list's read, as a query gives it. */
export interface ListRead {
  isPending: boolean;
  isError: boolean;
  isFetching: boolean;
  error: Error | null;
  refetch: () => Promise<unknown>;
}

/**
 * A list's loading, failed and empty states; the list itself (children) once there are rows. A failed
 * read says "Couldn't load {what}" with Retry (and, with `showReason`, the server's reason), never the empty text.
 */
export function ListStates({
  read,
  what,
  showReason = false,
  empty,
  loadingLabel,
  emptyText,
  children,
}: {
  read: ListRead;
  what: string;
  showReason?: boolean;
  empty: boolean;
  loadingLabel: string;
  emptyText: string;
  children: ReactNode;
}) {
  if (read.isPending) return <Spinner label={loadingLabel} showLabel className="py-8" />;
  if (read.isError) {
    const reason = showReason && read.error ? errorMessage(read.error, read.error.message) : undefined;
    return <LoadError what={what} detail={reason} onRetry={() => void read.refetch()} retrying={read.isFetching} compact className="py-6" />;
  }
  if (empty) return <p className="rounded-2xl border border-white/5 bg-white/[0.02] px-4 py-10 text-center text-sm break-words text-mist-400">{emptyText}</p>;
  return <>{children}</>;
}
