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

/** Listen buttons, one per service that has a URL (spec §2: only when a URL exists). */
export function TrackLinks({ urls, size = 'sm', prefix, className }: { urls: TrackUrls; size?: 'xs' | 'sm'; prefix?: string; className?: string }) {
  const present = SERVICES.filter((s) => safeUrl(urls[s.key]));
  if (present.length === 0) return null;
  return (
    <div className={cn('flex flex-wrap gap-1.5', className)}>
      {present.map((s) => (
        <a
          key={s.key}
          href={safeUrl(urls[s.key])}
          target="_blank"
          rel="noopener noreferrer"
          className={cn(
            'inline-flex items-center gap-1.5 rounded-full bg-white/5 font-medium text-mist-100 ring-1 ring-white/10 transition hover:bg-white/10 hover:text-white',
            size === 'xs' ? 'px-2 py-0.5 text-[0.7rem]' : 'px-3 py-1 text-xs',
          )}
        >
          <span aria-hidden="true" className={cn('size-1.5 rounded-full', s.dot)} />
          {prefix ? `${prefix} ${s.label}` : s.label}
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
