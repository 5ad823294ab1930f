import { Pause, Play } from 'lucide-react';
import { cn } from '../../../lib/cn';

/**
 * The round Play/Pause button of the player card and the bar. While connecting it waits with
 * aria-disabled, not disabled: a disabled button would drop keyboard focus to the page.
 */
export function PlayButton({ busy, stoppable, onPress, large = false }: { busy: boolean; stoppable: boolean; onPress: () => void; large?: boolean }) {
  const icon = large ? 'size-7 sm:size-8' : 'size-5';
  return (
    <button
      type="button"
      onClick={() => busy || onPress()}
      aria-disabled={busy}
      aria-label={stoppable ? 'Pause' : 'Play'}
      className={cn(
        'flex shrink-0 items-center justify-center rounded-full bg-gradient-to-br from-deep-500 via-violet-500 to-aqua-500 text-white shadow-[0_12px_40px_-10px_rgb(124_58_237/0.9)] transition hover:brightness-110 active:scale-95 aria-disabled:cursor-wait aria-disabled:opacity-70',
        large ? 'size-16 sm:size-20' : 'size-11',
      )}
    >
      {busy ? (
        <span
          className={cn('animate-spin rounded-full border-white/30 border-t-white', large ? 'size-7 border-[3px]' : 'size-5 border-2')}
          aria-hidden="true"
        />
      ) : stoppable ? (
        <Pause className={cn('fill-current', icon)} aria-hidden="true" />
      ) : (
        <Play className={cn('ml-0.5 fill-current', icon)} aria-hidden="true" />
      )}
    </button>
  );
}
