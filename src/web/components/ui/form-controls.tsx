import { type InputHTMLAttributes, type ReactNode, type Ref, type SelectHTMLAttributes, type TextareaHTMLAttributes, useId } from 'react';
import { cn } from '../../lib/cn';

/**
 * The form kit every feature uses: each control has a visible label tied to it, its hint and its
 * error text are linked by aria-describedby (the error also marks the control aria-invalid), and the
 * focus ring is the site's aqua one.
 */

const control =
  'h-11 w-full min-w-0 rounded-xl border border-white/10 bg-night-900/70 px-3.5 text-sm text-mist-100 ' +
  'placeholder:text-mist-500 transition focus:border-aqua-400/60 focus:bg-night-900 focus:outline-none ' +
  'focus:ring-2 focus:ring-aqua-400/20 disabled:opacity-60';

/** The account pages' larger field (sign-in, reset, set-password). */
const largeControl =
  'h-12 w-full rounded-xl border border-white/10 bg-night-900/70 px-4 text-base text-white placeholder:text-mist-500 ' +
  'transition focus:border-aqua-400/60 focus:bg-night-900 focus:ring-2 focus:ring-aqua-400/20 focus:outline-none disabled:opacity-60';

const labelClass = 'text-xs font-medium tracking-wide text-mist-300';
const largeLabelClass = 'text-sm font-medium text-mist-200';

interface FieldProps {
  label: string;
  hint?: ReactNode;
  /** Shown under the control in the alert colour; marks the control invalid. */
  error?: ReactNode;
  className?: string;
}

/** The ids of the hint and error lines under a control, and the described-by list that names them (every control of the kit uses it). */
export function useDescription(hint: ReactNode, error: ReactNode, describedBy?: string) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const ids = [describedBy, hintId, errorId].filter(Boolean).join(' ');
  return { id, hintId, errorId, describedBy: ids || undefined };
}

export function Description({ hint, hintId, error, errorId }: { hint: ReactNode; hintId?: string; error: ReactNode; errorId?: string }) {
  return (
    <>
      {hint && (
        <p id={hintId} className="text-xs text-mist-500">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="text-xs text-rose-300">
          {error}
        </p>
      )}
    </>
  );
}

/** A labelled text/number/date input; `size="lg"` is the account pages' larger field. */
export function TextField({
  label,
  hint,
  error,
  className,
  size = 'md',
  ...input
}: FieldProps & Omit<InputHTMLAttributes<HTMLInputElement>, 'size'> & { size?: 'md' | 'lg'; ref?: Ref<HTMLInputElement> }) {
  const d = useDescription(hint, error, input['aria-describedby']);
  return (
    <div className={cn(size === 'lg' ? 'flex flex-col gap-1.5' : 'flex min-w-0 flex-col gap-1.5', className)}>
      <label htmlFor={d.id} className={size === 'lg' ? largeLabelClass : labelClass}>
        {label}
      </label>
      <input
        id={d.id}
        className={size === 'lg' ? largeControl : cn(control, '[color-scheme:dark]')}
        {...input}
        aria-describedby={d.describedBy}
        aria-invalid={error ? true : input['aria-invalid']}
      />
      <Description hint={hint} hintId={d.hintId} error={error} errorId={d.errorId} />
    </div>
  );
}

/** A labelled multi-line field. */
export function TextAreaField({ label, hint, error, className, ...area }: FieldProps & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const d = useDescription(hint, error, area['aria-describedby']);
  return (
    <div className={cn('flex min-w-0 flex-col gap-1.5', className)}>
      <label htmlFor={d.id} className={labelClass}>
        {label}
      </label>
      <textarea
        id={d.id}
        className="min-h-28 w-full min-w-0 rounded-xl border border-white/10 bg-night-900/70 px-3.5 py-3 text-sm text-mist-100 placeholder:text-mist-500 transition focus:border-aqua-400/60 focus:bg-night-900 focus:ring-2 focus:ring-aqua-400/20 focus:outline-none disabled:opacity-60"
        {...area}
        aria-describedby={d.describedBy}
        aria-invalid={error ? true : area['aria-invalid']}
      />
      <Description hint={hint} hintId={d.hintId} error={error} errorId={d.errorId} />
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
  error,
  className,
  options,
  ...select
}: FieldProps & SelectHTMLAttributes<HTMLSelectElement> & { options: readonly Option[] }) {
  const d = useDescription(hint, error, select['aria-describedby']);
  return (
    <div className={cn('flex min-w-0 flex-col gap-1.5', className)}>
      <label htmlFor={d.id} className={labelClass}>
        {label}
      </label>
      <select
        id={d.id}
        className={cn(control, 'appearance-none bg-[length:1rem] pr-9')}
        style={chevron}
        {...select}
        aria-describedby={d.describedBy}
        aria-invalid={error ? true : select['aria-invalid']}
      >
        {options.map((o) => (
          <option key={o.value} value={o.value} className="bg-night-850">
            {o.label}
          </option>
        ))}
      </select>
      <Description hint={hint} hintId={d.hintId} error={error} errorId={d.errorId} />
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
