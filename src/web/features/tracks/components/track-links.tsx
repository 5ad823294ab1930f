import { Search } from 'lucide-react';
import { isSearchUrl } from '../../../../contracts/radio-values';
import { cn } from '../../../lib/cn';

const SERVICES = [
  { key: 'youtubeUrl', label: 'YouTube', dot: 'bg-red-500' },
  { key: 'soundcloudUrl', label: 'SoundCloud', dot: 'bg-orange-400' },
  { key: 'spotifyUrl', label: 'Spotify', dot: 'bg-emerald-400' },
] as const;

export interface TrackUrls {
  youtubeUrl?: string | null;
  soundcloudUrl?: string | null;
  spotifyUrl?: string | null;
}

/**
 * Listen buttons, one per service with a direct link to the track (only when a URL exists).
 * Where the server could only offer a search, it shows as a search ('Search YouTube', magnifier,
 * dashed outline), never as a Listen button.
 */
export function TrackLinks({ urls, size = 'sm', className }: { urls: TrackUrls; size?: 'xs' | 'sm'; className?: string }) {
  const links = SERVICES.flatMap((s) => {
    const href = safeUrl(urls[s.key]);
    return href ? [{ ...s, href, search: isSearchUrl(href) }] : [];
  });
  if (links.length === 0) return null;
  return (
    <div className={cn('flex flex-wrap gap-1.5', className)}>
      {links.map((s) => (
        <a
          key={s.key}
          href={s.href}
          target="_blank"
          rel="noopener noreferrer"
          className={cn(
            'inline-flex items-center gap-1.5 rounded-full font-medium transition',
            s.search
              ? 'border border-dashed border-white/25 text-mist-300 hover:border-white/50 hover:text-white'
              : 'bg-white/5 text-mist-100 ring-1 ring-white/10 hover:bg-white/10 hover:text-white',
            size === 'xs' ? 'px-2 py-0.5 text-[0.7rem]' : 'px-3 py-1 text-xs',
          )}
        >
          {s.search ? <Search aria-hidden="true" className="size-3" /> : <span aria-hidden="true" className={cn('size-1.5 rounded-full', s.dot)} />}
          {s.search ? `Search ${s.label}` : s.label}
        </a>
      ))}
    </div>
  );
}

/** Only http(s) links are rendered; anything else from a recogniser is dropped. */
export function safeUrl(url: string | null | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const u = new URL(url);
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.toString() : undefined;
  } catch {
    return undefined;
  }
}
