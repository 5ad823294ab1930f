import { Music } from 'lucide-react';
import { useState } from 'react';
import { cn } from '../../../lib/cn';
import { safeUrl } from './track-links';

/** Cover art, or a gradient placeholder when there is none or it fails to load. */
export function TrackArtwork({ src, alt, className }: { src: string | null | undefined; alt: string; className?: string }) {
  const [failed, setFailed] = useState(false);
  const url = safeUrl(src);
  if (!url || failed) {
    return (
      <div
        aria-hidden="true"
        className={cn(
          'flex shrink-0 items-center justify-center rounded-xl bg-gradient-to-br from-deep-600/60 via-night-700 to-aqua-500/40 text-white/70',
          className,
        )}
      >
        <Music className="size-1/2 max-h-8 max-w-8" />
      </div>
    );
  }
  return <img src={url} alt={alt} loading="lazy" onError={() => setFailed(true)} className={cn('shrink-0 rounded-xl object-cover', className)} />;
}
