import { RotateCw } from 'lucide-react';
import { cn } from '../../lib/cn';
import { Button } from './button';

/**
 * A read that failed: "Couldn't load {what}" with Retry, never the list's empty-state text (an
 * empty list and an unreadable one are different news to an operator or a listener). `compact`
 * fits a small panel inside a card; `detail` keeps a specific message (the server's reason).
 */
export function LoadError({
  what,
  onRetry,
  retrying = false,
  compact = false,
  detail,
  className,
}: {
  what: string;
  onRetry: () => void;
  retrying?: boolean;
  compact?: boolean;
  /** A line under the message: the spec's or the server's words for this failure. */
  detail?: string;
  className?: string;
}) {
  return (
    <div
      role="alert"
      className={cn(
        'flex flex-wrap items-center justify-center text-center text-rose-200',
        compact ? 'gap-2 rounded-xl bg-rose-500/5 p-3 text-sm' : 'glass gap-3 rounded-3xl p-6',
        className,
      )}
    >
      <span className="flex flex-col">
        <span>Couldn't load {what}.</span>
        {detail && <span className="text-xs break-words text-rose-300/80">{detail}</span>}
      </span>
      <Button size="sm" variant="secondary" onClick={onRetry} disabled={retrying}>
        <RotateCw className={cn('size-4', retrying && 'animate-spin')} aria-hidden /> Retry
      </Button>
    </div>
  );
}
