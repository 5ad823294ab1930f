import { createHash } from 'node:crypto';
import type { AzuraStationNowPlaying } from '../../../contracts/nowplaying';
import type { ChannelRow } from './channels-repository';
import type { ChannelState, PlayedSong } from './now-playing';

/** What the AzuraCast-shaped document of one channel is made from. */
export interface StationSource {
  channel: ChannelRow;
  /** 1-based position in the channel list (AzuraCast station ids are numbers). */
  stationId: number;
  state: ChannelState | undefined;
  songs: readonly PlayedSong[];
}

/** Where the playlists of a channel's free mount are served. */
export function playlistPath(channelId: string, kind: 'pls' | 'm3u'): string {
  return `/api/nowplaying/${encodeURIComponent(channelId)}/playlist.${kind}`;
}

/** The free mount's format from its file extension (Icecast mounts are usually named so). */
function formatOf(url: URL): string | null {
  const ext = /\.(mp3|aac|ogg|opus|flac)$/i.exec(url.pathname)?.[1];
  return ext ? ext.toLowerCase() : null;
}

function songOf(s: Pick<PlayedSong, 'artist' | 'title' | 'album' | 'text' | 'genre'>): AzuraStationNowPlaying['song_history'][number]['song'] {
  return {
    // AzuraCast identifies a song by a hash of its text; any stable hash serves the widgets that compare ids.
    id: createHash('md5').update(s.text).digest('hex'),
    text: s.text,
    artist: s.artist,
    title: s.title,
    album: s.album,
    genre: s.genre ?? '',
    isrc: '',
    lyrics: '',
    art: '',
    custom_fields: [],
  };
}

function historyEntry(s: PlayedSong): AzuraStationNowPlaying['song_history'][number] {
  return { sh_id: s.id, played_at: Math.floor(s.startedAt / 1000), duration: 0, playlist: '', streamer: '', is_request: false, song: songOf(s) };
}

/** The channel's public mount, or null (none, or not a URL: operator data). */
function freeMountUrl(channel: ChannelRow): URL | null {
  if (!channel.freeStreamUrl || !URL.canParse(channel.freeStreamUrl)) return null;
  return new URL(channel.freeStreamUrl);
}

/** "DHR1 Premium, free stream (128kbps)": what a directory lists for the mount. */
function freeMountName(channel: ChannelRow): string {
  return `${channel.name}, free stream${channel.freeBitrateLabel ? ` (${channel.freeBitrateLabel})` : ''}`;
}

function placeholderSong(text: string, nowMs: number): PlayedSong {
  return { id: 0, startedAt: nowMs, artist: '', title: text, album: '', text, genre: null };
}

/**
 * One channel in AzuraCast's now-playing shape. Only the free mount is a listen URL; a channel without
 * one lists no mount and empty listen/playlist URLs, so its premium mount never leaves DHR.
 */
export function toAzuraNowPlaying(src: StationSource, publicUrl: string, nowMs: number): AzuraStationNowPlaying {
  const { channel, state, songs } = src;
  const freeMount = freeMountUrl(channel);
  const count = state?.online ? (state.listeners ?? 0) : 0;
  const listeners = { total: count, unique: count, current: count };
  const online = state?.online ?? false;
  const current = online ? songs[0] : undefined;
  const mounts = freeMount
    ? [
        {
          id: 1,
          name: freeMountName(channel),
          url: freeMount.href,
          bitrate: Number.parseInt(channel.freeBitrateLabel ?? '', 10) || null,
          format: formatOf(freeMount),
          // Icecast reports listeners of the channel's programme as a whole; they are not split by mount here.
          listeners,
          path: freeMount.pathname,
          is_default: true,
        },
      ]
    : [];
  return {
    station: {
      id: src.stationId,
      name: channel.name,
      shortcode: channel.id,
      description: `${channel.name}: deep house, live on Deep House Radio`,
      frontend: 'icecast',
      backend: 'none',
      listen_url: freeMount?.href ?? '',
      url: publicUrl,
      public_player_url: `${publicUrl}/player/${encodeURIComponent(channel.id)}`,
      playlist_pls_url: freeMount ? `${publicUrl}${playlistPath(channel.id, 'pls')}` : '',
      playlist_m3u_url: freeMount ? `${publicUrl}${playlistPath(channel.id, 'm3u')}` : '',
      is_public: freeMount !== null,
      mounts,
      remotes: [],
      hls_enabled: false,
      hls_url: null,
    },
    listeners,
    live: { is_live: false, streamer_name: '', broadcast_start: null, art: null },
    // Widgets read now_playing.song without checking: a channel off air (or without metadata yet) says so as its song.
    now_playing: current
      ? { ...historyEntry(current), elapsed: Math.max(0, Math.floor((nowMs - current.startedAt) / 1000)), remaining: 0 }
      : {
          ...historyEntry(placeholderSong(online ? channel.name : `${channel.name} is off air`, nowMs)),
          elapsed: 0,
          remaining: 0,
        },
    playing_next: null,
    song_history: (current ? songs.slice(1) : songs).slice(0, 10).map(historyEntry),
    is_online: online,
    cache: 'memory',
  };
}

/** The free mount as a .pls or .m3u playlist, or null when the channel has no free mount. */
export function freeMountPlaylist(channel: ChannelRow, kind: 'pls' | 'm3u'): string | null {
  const url = freeMountUrl(channel)?.href;
  if (!url) return null;
  // Channel names are operator data: keep them to one line inside the playlist.
  const title = freeMountName(channel).replace(/[\r\n]+/g, ' ');
  return kind === 'pls' ? `[playlist]\nNumberOfEntries=1\nFile1=${url}\nTitle1=${title}\nLength1=-1\nVersion=2\n` : `#EXTM3U\n#EXTINF:-1,${title}\n${url}\n`;
}
