import { type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes, useId } from 'react';
import { cn } from '../../../lib/cn';

const control =
  'h-11 w-full min-w-0 rounded-xl border border-white/10 bg-night-900/70 px-3.5 text-sm text-mist-100 ' +
  'placeholder:text-mist-500 transition focus:border-aqua-400/60 focus:bg-night-900 focus:outline-none ' +
  'focus:ring-2 focus:ring-aqua-400/20 disabled:opacity-60';

interface FieldProps {
  label: string;
  hint?: ReactNode;
  className?: string;
}

/** A labelled text/number/date input. */
export function TextField({ label, hint, className, ...input }: FieldProps & InputHTMLAttributes<HTMLInputElement>) {
  const id = useId();
  return (
    <div className={cn('flex min-w-0 flex-col gap-1.5', className)}>
      <label htmlFor={id} className="text-xs font-medium tracking-wide text-mist-300">
        {label}
      </label>
      <input id={id} className={cn(control, '[color-scheme:dark]')} {...input} />
      {hint && <p className="text-xs text-mist-500">{hint}</p>}
    </div>
  );
}

export interface Option {
  value: string;
  label: string;
}

/** A labelled select. */
export function SelectField({
  label,
  hint,
  className,
  options,
  ...select
}: FieldProps & SelectHTMLAttributes<HTMLSelectElement> & { options: readonly Option[] }) {
  const id = useId();
  return (
    <div className={cn('flex min-w-0 flex-col gap-1.5', className)}>
      <label htmlFor={id} className="text-xs font-medium tracking-wide text-mist-300">
        {label}
      </label>
      <select id={id} className={cn(control, 'appearance-none bg-[length:1rem] pr-9')} style={chevron} {...select}>
        {options.map((o) => (
          <option key={o.value} value={o.value} className="bg-night-850">
            {o.label}
          </option>
        ))}
      </select>
      {hint && <p className="text-xs text-mist-500">{hint}</p>}
    </div>
  );
}

// A small chevron drawn in CSS so the native arrow (hidden by appearance-none) is replaced in the site's colours.
const chevron = {
  backgroundImage:
    "url(\"data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24' fill='none' stroke='%238b87ab' stroke-width='2'%3E%3Cpath d='m6 9 6 6 6-6'/%3E%3C/svg%3E\")",
  backgroundRepeat: 'no-repeat',
  backgroundPosition: 'right 0.75rem center',
};

/** A checkbox with its label beside it. */
export function CheckboxField({ label, className, ...input }: { label: string; className?: string } & InputHTMLAttributes<HTMLInputElement>) {
  const id = useId();
  return (
    <label htmlFor={id} className={cn('inline-flex min-h-11 cursor-pointer items-center gap-3 text-sm text-mist-200', className)}>
      <input id={id} type="checkbox" className="size-4 rounded accent-violet-500" {...input} />
      {label}
    </label>
  );
}
