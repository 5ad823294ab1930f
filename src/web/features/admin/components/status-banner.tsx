import { CheckCircle2, XCircle } from 'lucide-react';
import { cn } from '../../../lib/cn';
import type { StatusMessage } from '../lib/use-status-message';

/** The page's status line: green for success, red for errors; announced to screen readers. */
export function StatusBanner({ message, className }: { message: StatusMessage | null; className?: string }) {
  if (!message) return null;
  const ok = message.kind === 'success';
  const Icon = ok ? CheckCircle2 : XCircle;
  return (
    <div
      role={ok ? 'status' : 'alert'}
      className={cn(
        'flex items-start gap-3 rounded-2xl border px-4 py-3 text-sm',
        ok ? 'border-emerald-400/30 bg-emerald-500/10 text-emerald-200' : 'border-rose-400/30 bg-rose-500/10 text-rose-200',
        className,
      )}
    >
      <Icon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
      <span className="min-w-0 break-words">{message.text}</span>
    </div>
  );
}
