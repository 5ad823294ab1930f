/** Reading Icecast 2.4's status-json.xsl (as Icecast documents it). Pure parsing plus one bounded fetch. */

import { callService, FetchError } from '../../lib/outbound-http';

export interface MountStatus {
  /** Raw "Artist - Title" line, '' when the source sends none. */
  raw: string;
  artist: string;
  title: string;
  listeners: number | null;
  /** Kbit/s. */
  bitrate: number | null;
  genre: string | null;
}

/** Longest title kept; Icecast metadata is free text from the source client. */
export const MAX_TITLE_TEXT = 300;
/** A status document larger than this is not Icecast's. */
const MAX_STATUS_BYTES = 2 * 1024 * 1024;

function text(value: unknown): string {
  if (typeof value === 'string') return value.trim().slice(0, MAX_TITLE_TEXT);
  if (typeof value === 'number') return String(value);
  return '';
}

function num(value: unknown): number | null {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  return Number.isFinite(n) && n >= 0 ? n : null;
}

/** Splits "Artist - Title" at the first " - "; a line without one is all title. */
export function splitTitle(raw: string): { artist: string; title: string } {
  const line = raw.trim();
  const at = line.indexOf(' - ');
  if (at <= 0) return { artist: '', title: line };
  return { artist: line.slice(0, at).trim(), title: line.slice(at + 3).trim() };
}

/** The path part of a URL ('/dhr1'), or undefined when it does not parse. */
export function mountPath(url: string): string | undefined {
  try {
    return new URL(url).pathname.replace(/\/+$/, '') || '/';
  } catch {
    return undefined;
  }
}

/** `icestats.source` is an object for one mount, an array for several, absent for none. */
export function sourcesOf(doc: unknown): Record<string, unknown>[] {
  if (typeof doc !== 'object' || doc === null) throw new Error('status is not a JSON object');
  const icestats = (doc as { icestats?: unknown }).icestats;
  if (typeof icestats !== 'object' || icestats === null) throw new Error('status has no icestats');
  const source = (icestats as { source?: unknown }).source;
  const list = Array.isArray(source) ? source : source === undefined ? [] : [source];
  return list.filter((s): s is Record<string, unknown> => typeof s === 'object' && s !== null);
}

/**
 * Finds the mount whose listenurl has the given path. Returns null when the mount is absent
 * (no source connected); throws when the document is not an Icecast status at all.
 */
export function findMount(doc: unknown, path: string): MountStatus | null {
  const source = sourcesOf(doc).find((s) => typeof s.listenurl === 'string' && mountPath(s.listenurl) === path);
  if (!source) return null;
  const raw = text(source.title);
  let { artist, title } = splitTitle(raw);
  // Some sources send artist and title separately (Icecast then shows both fields).
  const separateArtist = text(source.artist);
  if (separateArtist && !artist) artist = separateArtist;
  if (!raw && separateArtist) title = '';
  return {
    raw: raw || (separateArtist ? separateArtist : ''),
    artist,
    title,
    listeners: num(source.listeners),
    bitrate: num(source.audio_bitrate) ?? num(source.bitrate),
    genre: text(source.genre) || null,
  };
}

/** Fetches and parses a status document; throws on network error, timeout, non-2xx or non-JSON. */
export async function fetchStatus(url: string, timeoutMs: number): Promise<unknown> {
  let body: Buffer;
  try {
    ({ body } = await callService(url, { headers: { accept: 'application/json' }, timeoutMs, maxBytes: MAX_STATUS_BYTES, maxRedirects: 5 }));
  } catch (err) {
    if (!(err instanceof FetchError)) throw err;
    if (err.code === 'http') throw new Error(`status ${err.status ?? '?'} from ${url}`, { cause: err });
    if (err.code === 'too_large') throw new Error('status document too large', { cause: err });
    throw new Error(`status from ${url}: ${err.message}`, { cause: err });
  }
  // Icecast 2.4.0-2.4.2 emit invalid JSON for a mount without title ("title": - ); not parseable means unusable.
  return JSON.parse(body.toString('utf8')) as unknown;
}

/** The status URL of a channel: its own, else its stream's origin + /status-json.xsl. */
export function statusUrlFor(streamUrl: string, statusUrl: string | null | undefined): string {
  if (statusUrl) return statusUrl;
  return `${new URL(streamUrl).origin}/status-json.xsl`;
}
