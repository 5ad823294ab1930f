import { LogoMark } from '../../../components/ui/logo';
import { cn } from '../../../lib/cn';

/** The art of what is playing: the station's record in the channel's colour (the stream carries no cover). */
export function ChannelArt({ accent, spinning = false, className }: { accent: string; spinning?: boolean; className?: string }) {
  return (
    <span
      aria-hidden="true"
      data-testid="now-playing-art"
      className={cn('relative flex shrink-0 items-center justify-center overflow-hidden rounded-2xl ring-1 ring-white/10', className)}
      style={{ background: `radial-gradient(circle at 30% 25%, ${accent}cc, #0b0a1a 70%)` }}
    >
      <LogoMark className={cn('size-[78%] drop-shadow-[0_6px_18px_rgb(0_0_0/0.55)]', spinning && 'motion-safe:animate-[spin_8s_linear_infinite]')} />
    </span>
  );
}
