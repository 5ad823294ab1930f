import type { InputHTMLAttributes, ReactNode } from 'react';
import { cn } from '../../lib/cn';
import { Description, useDescription } from './form-controls';

/** How far an upload has gone, as a bar (role progressbar); `value` is 0..1, or null while the size is unknown. */
export function UploadProgress({ value, label = 'Upload progress', className }: { value: number | null; label?: string; className?: string }) {
  const percent = value === null ? undefined : Math.round(Math.min(1, Math.max(0, value)) * 100);
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
      className={cn('h-1.5 w-full overflow-hidden rounded-full bg-white/10', className)}
    >
      <div
        className={cn('h-full rounded-full bg-aqua-400 transition-[width]', percent === undefined && 'w-1/3 animate-pulse')}
        style={percent === undefined ? undefined : { width: `${percent}%` }}
      />
    </div>
  );
}

interface FilePickerProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'className'> {
  label: ReactNode;
  hint?: ReactNode;
  error?: ReactNode;
  /** While an upload of the chosen file runs: 0..1, or null when its size is unknown. Undefined: no bar. */
  progress?: number | null;
  /** 'field': the label above the browser's file input; 'button': a pill button holding the label (the input is visually hidden). */
  appearance?: 'field' | 'button';
  /** Shown before the label in the button appearance. */
  icon?: ReactNode;
  className?: string;
}

/**
 * A file input with its label, hint and error linked for assistive technology, and an upload
 * progress bar under it while `progress` is set. The focus ring follows keyboard focus of the input.
 */
export function FilePicker({ label, hint, error, progress, appearance = 'field', icon, className, ...input }: FilePickerProps) {
  const { id, hintId, errorId, describedBy } = useDescription(hint, error, input['aria-describedby']);
  const field = (
    <input
      id={id}
      type="file"
      {...input}
      aria-describedby={describedBy}
      aria-invalid={error ? true : input['aria-invalid']}
      className={
        appearance === 'button'
          ? 'peer sr-only'
          : 'mt-1 block w-full rounded-lg text-sm text-mist-200 focus-visible:ring-2 focus-visible:ring-aqua-400/40 focus-visible:outline-none'
      }
    />
  );
  const bar = progress !== undefined && <UploadProgress value={progress} className="mt-2" />;
  const notes = <Description hint={hint} hintId={hintId} error={error} errorId={errorId} />;
  if (appearance === 'button') {
    return (
      <>
        <label
          htmlFor={id}
          className={cn(
            'inline-flex h-11 cursor-pointer items-center justify-center gap-2 rounded-full bg-white/5 px-5 text-sm font-semibold text-mist-100 ring-1 ring-white/10 hover:bg-white/10',
            'has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-aqua-400/60',
            className,
          )}
        >
          {icon}
          {label}
          {field}
        </label>
        {bar}
        {notes}
      </>
    );
  }
  return (
    <div className={cn('flex min-w-0 flex-col', className)}>
      <label className="text-sm text-mist-300">
        {label}
        {field}
      </label>
      {bar}
      {notes}
    </div>
  );
}
