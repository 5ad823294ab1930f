import type { ReactNode } from 'react';
import { cn } from '../../lib/cn';

export interface SectionHeadingProps {
  /** Small uppercase line above the title. */
  eyebrow?: string;
  title: ReactNode;
  description?: ReactNode;
  align?: 'left' | 'center';
  /** Heading level; h2 by default. */
  as?: 'h1' | 'h2' | 'h3';
  id?: string;
  className?: string;
}

export function SectionHeading({ eyebrow, title, description, align = 'left', as: Tag = 'h2', id, className }: SectionHeadingProps) {
  return (
    <div className={cn('max-w-2xl', align === 'center' && 'mx-auto text-center', className)}>
      {eyebrow && <p className="mb-3 text-xs font-semibold tracking-[0.25em] text-aqua-300 uppercase">{eyebrow}</p>}
      <Tag id={id} className="font-display text-3xl font-bold tracking-tight text-white sm:text-4xl">
        {title}
      </Tag>
      {description && <p className="mt-3 text-base leading-relaxed text-mist-300 sm:text-lg">{description}</p>}
    </div>
  );
}
