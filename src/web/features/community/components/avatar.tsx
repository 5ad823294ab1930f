import { cn } from '../../../lib/cn';

const sizes = { sm: 'size-9 text-sm', md: 'size-14 text-xl', lg: 'size-24 text-3xl' } as const;

/** A member's picture, or their initial on the station's gradient. */
export function Avatar({ name, imageUrl, size = 'md', className }: { name: string; imageUrl?: string | null; size?: keyof typeof sizes; className?: string }) {
  const base = cn('shrink-0 rounded-full ring-2 ring-night-900', sizes[size], className);
  if (imageUrl) return <img src={imageUrl} alt="" className={cn(base, 'object-cover')} />;
  return (
    <span aria-hidden="true" className={cn(base, 'flex items-center justify-center bg-gradient-to-br from-deep-500 to-aqua-500 font-bold text-white')}>
      {name.charAt(0).toUpperCase() || '?'}
    </span>
  );
}
