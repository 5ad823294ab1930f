import type { LiveMetadata } from '../../../../contracts/radio';

/**
 * What the listener hears right now, per channel, read from the stream's own ICY metadata at the
 * moment the audio reaches it. While a player on this page plays a channel with in-band titles,
 * that title wins over the pushed/polled one, which runs ahead of the audio by the buffer
 * (docs/decisions/0029-one-now-playing-and-icy-timing.md).
 */
class HeardTitles {
  private readonly titles = new Map<string, LiveMetadata>();
  private readonly listeners = new Set<() => void>();

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  get(channel: string): LiveMetadata | undefined {
    return this.titles.get(channel);
  }

  /** A title heard now on `channel`; null when the player stops (the server's title takes over). */
  set(channel: string, meta: LiveMetadata | null): void {
    const before = this.titles.get(channel);
    if (meta === null) {
      if (!before) return;
      this.titles.delete(channel);
    } else {
      if (before && before.artist === meta.artist && before.title === meta.title) return;
      this.titles.set(channel, meta);
    }
    for (const l of this.listeners) l();
  }
}

export const heardTitles = new HeardTitles();

/**
 * "Artist - Title" as a station sends it; a line without " - " keeps the channel's name as the artist,
 * like the server's reader of Icecast's status.
 */
export function splitStreamTitle(line: string, fallbackArtist: string): { artist: string; title: string } | null {
  const text = line.trim();
  if (!text) return null;
  const at = text.indexOf(' - ');
  if (at < 0) return { artist: fallbackArtist, title: text };
  const artist = text.slice(0, at).trim();
  const title = text.slice(at + 3).trim();
  return artist && title ? { artist, title } : { artist: fallbackArtist, title: artist || title };
}
