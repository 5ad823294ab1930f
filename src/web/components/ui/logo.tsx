import { useId } from 'react';
import { cn } from '../../lib/cn';

/** The DHR mark: a record whose groove carries a sine wave. */
export function LogoMark({ className }: { className?: string }) {
  const id = useId();
  return (
    <svg viewBox="0 0 64 64" className={className} aria-hidden="true">
      <defs>
        <linearGradient id={`${id}-ring`} x1="8" y1="8" x2="56" y2="56" gradientUnits="userSpaceOnUse">
          <stop offset="0" stopColor="#a78bfa" />
          <stop offset="0.55" stopColor="#7c3aed" />
          <stop offset="1" stopColor="#22d3ee" />
        </linearGradient>
        <radialGradient id={`${id}-disc`} cx="0.5" cy="0.45" r="0.6">
          <stop offset="0" stopColor="#1d1a38" />
          <stop offset="1" stopColor="#07070f" />
        </radialGradient>
      </defs>
      <circle cx="32" cy="32" r="29" fill={`url(#${id}-disc)`} />
      <circle cx="32" cy="32" r="27.5" fill="none" stroke={`url(#${id}-ring)`} strokeWidth="3" />
      <circle cx="32" cy="32" r="20" fill="none" stroke="#ffffff" strokeOpacity="0.08" strokeWidth="1.2" />
      <circle cx="32" cy="32" r="14" fill="none" stroke="#ffffff" strokeOpacity="0.08" strokeWidth="1.2" />
      <path
        d="M11 32c3.5 0 3.5-9 7-9s3.5 18 7 18 3.5-14 7-14 3.5 10 7 10 3.5-16 7-16 3.5 11 7 11"
        fill="none"
        stroke={`url(#${id}-ring)`}
        strokeWidth="3.2"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

/** Mark plus wordmark; `compact` drops the strapline, 'responsive' drops it on phones only. */
export function Logo({ className, compact = false }: { className?: string; compact?: boolean | 'responsive' }) {
  return (
    <span className={cn('inline-flex items-center gap-2.5', className)}>
      <LogoMark className="size-9 shrink-0 drop-shadow-[0_0_12px_rgb(124_58_237/0.45)]" />
      <span className="flex flex-col leading-none">
        <span className="font-display text-lg font-extrabold tracking-[0.12em] text-white">DHR</span>
        {compact !== true && (
          <span
            className={cn(
              'mt-0.5 text-[0.62rem] font-medium tracking-[0.22em] whitespace-nowrap text-mist-400 uppercase',
              compact === 'responsive' && 'hidden sm:block',
            )}
          >
            Deep House Radio
          </span>
        )}
      </span>
    </span>
  );
}
