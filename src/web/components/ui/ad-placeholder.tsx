import { cn } from '../../lib/cn';

/** The 728x90 leaderboard slot; scales down on phones, keeping its 728:90 shape. */
export function AdPlaceholder({ className }: { className?: string }) {
  return (
    <aside aria-label="Advertisement" className={cn('mx-auto w-full max-w-[728px]', className)}>
      <div className="flex aspect-[728/90] w-full flex-col items-center justify-center rounded-xl border border-dashed border-white/10 bg-white/[0.02] text-center">
        <span className="text-[0.65rem] font-semibold tracking-[0.3em] text-mist-500 uppercase">Advertisement</span>
        <span className="mt-1 hidden text-xs text-mist-500/70 sm:block">728 × 90</span>
      </div>
    </aside>
  );
}
