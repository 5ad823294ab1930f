import { AlertCircle, CheckCircle2, Info } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from '../../../lib/cn';

const styles = {
  error: { box: 'border-rose-500/40 bg-rose-500/10 text-rose-100', Icon: AlertCircle, icon: 'text-rose-300' },
  success: { box: 'border-emerald-500/40 bg-emerald-500/10 text-emerald-100', Icon: CheckCircle2, icon: 'text-emerald-300' },
  info: { box: 'border-aqua-400/30 bg-aqua-500/10 text-aqua-100', Icon: Info, icon: 'text-aqua-300' },
} as const;

/** The red error box and its green and cyan siblings. */
export function MessageBox({ kind, children }: { kind: keyof typeof styles; children: ReactNode }) {
  const s = styles[kind];
  return (
    <div role={kind === 'error' ? 'alert' : 'status'} className={cn('flex items-start gap-3 rounded-xl border px-4 py-3 text-sm', s.box)}>
      <s.Icon className={cn('mt-0.5 size-4 shrink-0', s.icon)} aria-hidden />
      <div className="min-w-0 leading-relaxed">{children}</div>
    </div>
  );
}
