import { createHash } from 'node:crypto';
import type { AzuraStation, AzuraStationNowPlaying, AzuraTime } from '../../../contracts/nowplaying';
import { RADIO_TIME_ZONE } from '../../../contracts/time';
import type { ChannelRow } from './channels-repository';
import { stationListeners, type ChannelMounts, type MountFigure } from './mount-figures';
import type { ChannelState, PlayedSong } from './now-playing';

/** What the AzuraCast-shaped documents of one channel are made from (docs/decisions/0025). */
export interface StationSource {
  channel: ChannelRow;
  /** 1-based position in the channel list (AzuraCast station ids are numbers). */
  stationId: number;
  state: ChannelState | undefined;
  songs: readonly PlayedSong[];
  /** Each mount's own figures from Icecast's status, when the poller has read them. */
  figures: ChannelMounts;
  /** The identified track's artwork while it plays, else null. */
  trackArt: string | null;
}

/** Where a station's own picture is served: the radio's logo. */
export const STATION_ART_PATH = '/icons/icon-512.png';

/** `sh_id` counts seconds from here to the play's start: a small integer (AzuraCast's is a row id). */
const SH_ID_EPOCH_S = Date.UTC(2026, 0, 1) / 1000;

/** Where the playlists of a channel's free mount are served. */
export function playlistPath(channelId: string, kind: 'pls' | 'm3u'): string {
  return `/api/nowplaying/${encodeURIComponent(channelId)}/playlist.${kind}`;
}

/** The free mount's format from its file extension, when Icecast's status has not said. */
function formatOf(url: URL): string | null {
  const ext = /\.(mp3|aac|ogg|opus|flac)$/i.exec(url.pathname)?.[1];
  return ext ? ext.toLowerCase() : null;
}

/** The channel's public mount, or null (none, or not a URL: operator data). */
function freeMountUrl(channel: ChannelRow): URL | null {
  if (!channel.freeStreamUrl || !URL.canParse(channel.freeStreamUrl)) return null;
  return new URL(channel.freeStreamUrl);
}

/** Whether AzuraCast would list the station: DHR lists a channel that has a free mount. */
export function isPublicStation(channel: ChannelRow): boolean {
  return freeMountUrl(channel) !== null;
}

/**
 * The free stream's name: what its source announces to Icecast, else "<CHANNEL> free stream". Never the
 * channel's own (premium) name: the station a directory lists is the free stream.
 */
export function freeStreamName(channel: ChannelRow, free: MountFigure | null): string {
  return free?.name ?? `${channel.id.toUpperCase()} free stream`;
}

function listeners(n: number) {
  return { total: n, unique: n, current: n };
}

type Song = AzuraStationNowPlaying['song_history'][number];

/**
 * Each play's `sh_id`: seconds from SH_ID_EPOCH_S to its start, the same on every instance that heard
 * it; a play that starts in the same second as the one before it takes the next number.
 */
function shIds(songs: readonly PlayedSong[]): Map<PlayedSong, number> {
  const ids = new Map<PlayedSong, number>();
  let previous = 0;
  for (const s of [...songs].reverse()) {
    previous = Math.max(1, Math.floor(s.startedAt / 1000) - SH_ID_EPOCH_S, previous + 1);
    ids.set(s, previous);
  }
  return ids;
}

function historyEntry(s: PlayedSong, shId: number, art: string): Song {
  return {
    sh_id: shId,
    played_at: Math.floor(s.startedAt / 1000),
    duration: 0,
    playlist: '',
    streamer: '',
    is_request: false,
    song: {
      // AzuraCast identifies a song by a hash of its text; any stable hash serves the widgets that compare ids.
      id: createHash('md5').update(s.text).digest('hex'),
      text: s.text,
      artist: s.artist,
      title: s.title,
      album: s.album,
      genre: s.genre ?? '',
      isrc: '',
      lyrics: '',
      art,
      custom_fields: [],
    },
  };
}

/** The station part (GET /api/stations, /api/station/{id}, and `station` of now playing). */
export function toAzuraStation(src: StationSource, publicUrl: string): AzuraStation {
  const { channel, figures } = src;
  const freeMount = freeMountUrl(channel);
  const name = freeMount ? freeStreamName(channel, figures.free) : channel.name;
  const freeListeners = src.state?.online ? (figures.free?.listeners ?? 0) : 0;
  const mounts = freeMount
    ? [
        {
          id: 1,
          name,
          url: freeMount.href,
          bitrate: figures.free?.bitrate ?? (Number.parseInt(channel.freeBitrateLabel ?? '', 10) || null),
          format: figures.free?.format ?? formatOf(freeMount),
          listeners: listeners(freeListeners),
          path: freeMount.pathname,
          is_default: true,
        },
      ]
    : [];
  return {
    id: src.stationId,
    name,
    shortcode: channel.id,
    description: `${name}: deep house, live on Deep House Radio`,
    frontend: 'icecast',
    backend: 'none',
    timezone: RADIO_TIME_ZONE,
    listen_url: freeMount?.href ?? null,
    url: publicUrl,
    public_player_url: `${publicUrl}/player/${encodeURIComponent(channel.id)}`,
    playlist_pls_url: freeMount ? `${publicUrl}${playlistPath(channel.id, 'pls')}` : '',
    playlist_m3u_url: freeMount ? `${publicUrl}${playlistPath(channel.id, 'm3u')}` : '',
    is_public: freeMount !== null,
    requests_enabled: false,
    mounts,
    remotes: [],
    hls_enabled: false,
    hls_is_default: false,
    hls_url: null,
    hls_listeners: 0,
  };
}

/**
 * One channel in AzuraCast's now-playing shape. Only the free mount is a listen URL; a channel without
 * one lists no mount and no listen URL, so its premium mount never leaves DHR.
 */
export function toAzuraNowPlaying(src: StationSource, publicUrl: string, nowMs: number): AzuraStationNowPlaying {
  const { state, songs } = src;
  const stationArt = `${publicUrl}${STATION_ART_PATH}`;
  const station = toAzuraStation(src, publicUrl);
  const online = state?.online ?? false;
  const current = online ? songs[0] : undefined;
  // Widgets read now_playing.song without checking: a channel off air (or without metadata yet) says so as its song.
  const playing = current ?? {
    id: 0,
    startedAt: nowMs,
    artist: '',
    title: online ? station.name : `${station.name} is off air`,
    album: '',
    genre: null,
    text: '',
  };
  const ids = shIds(songs);
  const idOf = (s: PlayedSong) => ids.get(s) ?? Math.max(1, Math.floor(s.startedAt / 1000) - SH_ID_EPOCH_S);
  const nowPlaying = historyEntry({ ...playing, text: playing.text || playing.title }, idOf(playing), (current && src.trackArt) || stationArt);
  return {
    station,
    listeners: listeners(stationListeners(state, src.figures)),
    live: { is_live: false, streamer_name: '', broadcast_start: null, art: null },
    now_playing: { ...nowPlaying, elapsed: current ? Math.max(0, Math.floor((nowMs - current.startedAt) / 1000)) : 0, remaining: 0 },
    playing_next: null,
    song_history: (current ? songs.slice(1) : songs).slice(0, 10).map((s) => historyEntry(s, idOf(s), stationArt)),
    is_online: online,
    cache: 'hit',
  };
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** GET /api/time: the time in UTC, formatted as AzuraCast formats it. */
export function azuraTime(now: Date): AzuraTime {
  const pad = (n: number) => String(n).padStart(2, '0');
  const hour12 = now.getUTCHours() % 12 || 12;
  return {
    timestamp: Math.floor(now.getTime() / 1000),
    utc_datetime: `${now.getUTCFullYear()}-${pad(now.getUTCMonth() + 1)}-${pad(now.getUTCDate())} ${hour12}:${pad(now.getUTCMinutes())}:${pad(now.getUTCSeconds())}`,
    utc_date: `${MONTHS[now.getUTCMonth()] ?? ''} ${now.getUTCDate()}, ${now.getUTCFullYear()}`,
    utc_time: `${hour12}:${pad(now.getUTCMinutes())}${now.getUTCHours() < 12 ? 'am' : 'pm'}`,
    utc_json: now.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z'),
  };
}

/** What directories and players read about the station (config.ts STATION_*). */
export interface PlaylistListing {
  genre: string;
  country: string;
  language: string;
}

/** A value as one line inside a playlist (operator and source data), without the quotes of an M3U attribute. */
function playlistText(s: string): string {
  return s.replace(/[\r\n"]+/g, ' ').trim();
}

/**
 * The free mount as a .pls or .m3u playlist, or null when the channel has no free mount. The title says
 * the genre, bitrate and codec (what players show); the .m3u also carries the genre (#EXTGENRE) and the
 * country and language as the attributes IPTV-style lists use. Players ignore the lines they do not know.
 */
export function freeMountPlaylist(channel: ChannelRow, free: MountFigure | null, kind: 'pls' | 'm3u', listing: PlaylistListing): string | null {
  const url = freeMountUrl(channel);
  if (!url) return null;
  const name = playlistText(freeStreamName(channel, free));
  const bitrate = free?.bitrate ?? (Number.parseInt(channel.freeBitrateLabel ?? '', 10) || null);
  const codec = free?.format ?? formatOf(url);
  const about = [listing.genre, bitrate ? `${bitrate} kbps` : '', codec ? codec.toUpperCase() : ''].filter(Boolean).join(', ');
  const title = playlistText(about ? `${name} (${about})` : name);
  if (kind === 'pls') return `[playlist]\nNumberOfEntries=1\nFile1=${url.href}\nTitle1=${title}\nLength1=-1\nVersion=2\n`;
  const genre = playlistText(listing.genre);
  const attributes = `tvg-name="${name}" tvg-country="${playlistText(listing.country)}" tvg-language="${playlistText(listing.language)}" group-title="${genre}"`;
  return `#EXTM3U\n#PLAYLIST:${name}\n#EXTGENRE:${genre}\n#EXTINF:-1 ${attributes},${title}\n${url.href}\n`;
}
