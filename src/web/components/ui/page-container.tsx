import type { HTMLAttributes } from 'react';
import { cn } from '../../lib/cn';

const widths = { narrow: 'max-w-3xl', default: 'max-w-6xl', wide: 'max-w-7xl' } as const;

export interface PageContainerProps extends HTMLAttributes<HTMLDivElement> {
  width?: keyof typeof widths;
}

/** Centres page content with the site's side padding. */
export function PageContainer({ width = 'default', className, ...rest }: PageContainerProps) {
  return <div className={cn('mx-auto w-full px-4 sm:px-6 lg:px-8', widths[width], className)} {...rest} />;
}
