import type { HTMLAttributes } from 'react';
import { cn } from '../../lib/cn';

export interface CardProps extends HTMLAttributes<HTMLDivElement> {
  /** Adds a soft violet glow, for the card that should stand out. */
  highlight?: boolean;
  /** Inner spacing; 'none' for cards that manage their own (images edge to edge). */
  padding?: 'none' | 'sm' | 'md' | 'lg';
}

const paddings = { none: '', sm: 'p-4', md: 'p-5 sm:p-6', lg: 'p-6 sm:p-8' } as const;

/** The glassy panel every section sits on. */
export function Card({ highlight = false, padding = 'md', className, ...rest }: CardProps) {
  return (
    <div
      className={cn(
        'glass relative rounded-3xl',
        paddings[padding],
        highlight && 'border-deep-400/40 shadow-[0_0_0_1px_rgb(167_139_250/0.25),0_30px_80px_-30px_rgb(124_58_237/0.7)]',
        className,
      )}
      {...rest}
    />
  );
}
