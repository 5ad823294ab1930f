import type { ReactNode } from 'react';
import { tierLabel } from '../../../contracts/tier-table';
import { parseTier } from '../../../contracts/tiers';
import { cn } from '../../lib/cn';

export type BadgeTone = 'violet' | 'cyan' | 'green' | 'yellow' | 'red' | 'neutral' | 'gold';

const tones: Record<BadgeTone, string> = {
  violet: 'bg-deep-500/15 text-deep-300 ring-deep-400/30',
  cyan: 'bg-aqua-500/15 text-aqua-300 ring-aqua-400/30',
  green: 'bg-emerald-500/15 text-emerald-300 ring-emerald-400/30',
  yellow: 'bg-amber-500/15 text-amber-300 ring-amber-400/30',
  red: 'bg-rose-500/15 text-rose-300 ring-rose-400/30',
  neutral: 'bg-white/5 text-mist-300 ring-white/10',
  gold: 'bg-gradient-to-r from-amber-400/20 to-fuchsia-500/20 text-amber-200 ring-amber-300/30',
};

export function Badge({ tone = 'neutral', className, children }: { tone?: BadgeTone; className?: string; children: ReactNode }) {
  return (
    <span
      className={cn(
        'inline-flex items-center gap-1 rounded-full px-2.5 py-0.5 text-xs font-semibold tracking-wide whitespace-nowrap ring-1 ring-inset',
        tones[tone],
        className,
      )}
    >
      {children}
    </span>
  );
}

const tierTones = { free: 'neutral', dhr1: 'cyan', dhr2: 'violet', vip: 'gold' } as const;

/** A member's tier (free, dhr1, dhr2, vip; anything else shows as Free); a lapsed one says '(Expired)'. */
export function TierBadge({ tier, expired = false, className }: { tier: string | null | undefined; expired?: boolean; className?: string }) {
  const t = parseTier(tier) ?? 'free';
  const lapsed = expired && t !== 'free';
  return (
    <Badge tone={lapsed ? 'red' : tierTones[t]} className={className}>
      {tierLabel(t)}
      {lapsed && ' (Expired)'}
    </Badge>
  );
}
