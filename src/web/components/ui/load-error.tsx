import { RotateCw } from 'lucide-react';
import { cn } from '../../lib/cn';
import { Button } from './button';

/**
 * A read that failed: "Couldn't load {what}" with Retry, never the list's empty-state text (an
 * empty list and an unreadable one are different news to an operator or a listener).
 */
export function LoadError({ what, onRetry, retrying = false, className }: { what: string; onRetry: () => void; retrying?: boolean; className?: string }) {
  return (
    <div role="alert" className={cn('glass flex flex-wrap items-center justify-center gap-3 rounded-3xl p-6 text-center text-rose-200', className)}>
      <span>Couldn't load {what}.</span>
      <Button size="sm" variant="secondary" onClick={onRetry} disabled={retrying}>
        <RotateCw className={cn('size-4', retrying && 'animate-spin')} aria-hidden /> Retry
      </Button>
    </div>
  );
}
