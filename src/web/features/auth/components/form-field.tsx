import { type InputHTMLAttributes, useId } from 'react';
import { cn } from '../../../lib/cn';

/** A labelled input in the account pages' style. */
export function FormField({ label, className, ...input }: { label: string } & InputHTMLAttributes<HTMLInputElement>) {
  const id = useId();
  return (
    <div className={cn('flex flex-col gap-1.5', className)}>
      <label htmlFor={id} className="text-sm font-medium text-mist-200">
        {label}
      </label>
      <input
        id={id}
        className={cn(
          'h-12 w-full rounded-xl border border-white/10 bg-night-900/70 px-4 text-base text-white placeholder:text-mist-500',
          'transition focus:border-aqua-400/60 focus:bg-night-900 focus:ring-2 focus:ring-aqua-400/20 focus:outline-none disabled:opacity-60',
        )}
        {...input}
      />
    </div>
  );
}
