import { type TextareaHTMLAttributes, useId } from 'react';
import { cn } from '../../../lib/cn';

/** A labelled multi-line field in the forms' style. */
export function TextAreaField({ label, hint, className, ...area }: { label: string; hint?: string; className?: string } & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const id = useId();
  return (
    <div className={cn('flex min-w-0 flex-col gap-1.5', className)}>
      <label htmlFor={id} className="text-xs font-medium tracking-wide text-mist-300">
        {label}
      </label>
      <textarea
        id={id}
        className="min-h-28 w-full min-w-0 rounded-xl border border-white/10 bg-night-900/70 px-3.5 py-3 text-sm text-mist-100 placeholder:text-mist-500 transition focus:border-aqua-400/60 focus:bg-night-900 focus:ring-2 focus:ring-aqua-400/20 focus:outline-none disabled:opacity-60"
        {...area}
      />
      {hint && <p className="text-xs text-mist-500">{hint}</p>}
    </div>
  );
}
