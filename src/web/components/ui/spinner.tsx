import { cn } from '../../lib/cn';

/** A spinning ring with an accessible label (shown as text when `showLabel`). */
export function Spinner({ label = 'Loading...', showLabel = false, className }: { label?: string; showLabel?: boolean; className?: string }) {
  return (
    <span role="status" className={cn('inline-flex items-center gap-3 text-sm text-mist-300', className)}>
      <span aria-hidden="true" className="size-5 animate-spin rounded-full border-2 border-white/15 border-t-aqua-400 border-r-deep-400" />
      {showLabel ? <span>{label}</span> : <span className="sr-only">{label}</span>}
    </span>
  );
}

/** A spinner centred in a page-height block, for pages and sections that are loading. */
export function PageSpinner({ label = 'Loading...' }: { label?: string }) {
  return (
    <div className="flex min-h-[40vh] items-center justify-center">
      <Spinner label={label} showLabel />
    </div>
  );
}
