import type { ChannelRow } from './channels-repository';
import type { ChannelState } from './now-playing';
import { mountPath, sourcesOf, statusUrlFor } from './icecast-status';

/** What Icecast's status says of one mount: its own listeners, bitrate, format and name. */
export interface MountFigure {
  listeners: number;
  /** Kbit/s, or null when Icecast does not say. */
  bitrate: number | null;
  /** 'mp3', 'aac', 'ogg', 'opus', 'flac', or null. */
  format: string | null;
  /** The stream's name as its source announced it (`server_name`), or null. */
  name: string | null;
}

/** Icecast's `server_type` (the stream's content type) as AzuraCast names formats. */
const FORMATS: Readonly<Record<string, string>> = {
  'audio/mpeg': 'mp3',
  'audio/mp3': 'mp3',
  'audio/aac': 'aac',
  'audio/aacp': 'aac',
  'audio/ogg': 'ogg',
  'application/ogg': 'ogg',
  'audio/opus': 'opus',
  'audio/flac': 'flac',
};

function count(value: unknown): number | null {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  return Number.isFinite(n) && n >= 0 ? Math.floor(n) : null;
}

function label(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim().slice(0, 200) : null;
}

/** Every mount of a status document, by path ('/dhr1-free'); a document that is not Icecast's gives none. */
export function mountFiguresOf(doc: unknown): Map<string, MountFigure> {
  const out = new Map<string, MountFigure>();
  let sources: Record<string, unknown>[];
  try {
    sources = sourcesOf(doc);
  } catch {
    return out;
  }
  for (const s of sources) {
    const path = typeof s.listenurl === 'string' ? mountPath(s.listenurl) : undefined;
    if (!path) continue;
    const type = typeof s.server_type === 'string' ? s.server_type.split(';')[0]?.trim().toLowerCase() : undefined;
    out.set(path, {
      listeners: count(s.listeners) ?? 0,
      bitrate: count(s.audio_bitrate) ?? count(s.bitrate),
      format: (type && FORMATS[type]) ?? null,
      name: label(s.server_name),
    });
  }
  return out;
}

/**
 * The status URL the free mount is read from: the channel's own when the free mount is on the same
 * Icecast, else that Icecast's status-json.xsl; null without a free mount.
 */
export function freeMountStatusUrl(ch: ChannelRow): string | null {
  if (!ch.freeStreamUrl || !URL.canParse(ch.freeStreamUrl) || !URL.canParse(ch.streamUrl)) return null;
  if (new URL(ch.freeStreamUrl).origin === new URL(ch.streamUrl).origin) return statusUrlFor(ch.streamUrl, ch.statusUrl);
  return statusUrlFor(ch.freeStreamUrl, null);
}

/**
 * Per-mount figures from the latest status documents the poller read (docs/decisions/0025): each mount
 * shows its own listeners, and a channel's total is the sum over its mounts (premium and free).
 */
export class MountFigures {
  private readonly byStatusUrl = new Map<string, Map<string, MountFigure>>();

  /** Keeps what a status document says of its mounts (called by the poller with each document it reads). */
  record(statusUrl: string, doc: unknown): void {
    this.byStatusUrl.set(statusUrl, mountFiguresOf(doc));
  }

  /** The free mount's figures, or null (no free mount, not read yet, or no source on it). */
  freeMount(ch: ChannelRow): MountFigure | null {
    const url = freeMountStatusUrl(ch);
    const path = ch.freeStreamUrl ? mountPath(ch.freeStreamUrl) : undefined;
    return (url && path && this.byStatusUrl.get(url)?.get(path)) || null;
  }

  /** The premium mount's figures, or null. */
  premiumMount(ch: ChannelRow): MountFigure | null {
    let url: string;
    try {
      url = statusUrlFor(ch.streamUrl, ch.statusUrl);
    } catch {
      return null;
    }
    const path = mountPath(ch.streamUrl);
    return (path && this.byStatusUrl.get(url)?.get(path)) || null;
  }

  /** Both mounts' figures (each null until read). */
  of(ch: ChannelRow): ChannelMounts {
    return { free: this.freeMount(ch), premium: this.premiumMount(ch) };
  }
}

export interface ChannelMounts {
  free: MountFigure | null;
  premium: MountFigure | null;
}

/**
 * Listeners on the channel's mounts together (AzuraCast's station total and /metrics): 0 off air; the
 * premium mount's count is the now-playing event's (DHR's own title readers left out), else the mount's.
 */
export function stationListeners(state: Pick<ChannelState, 'online' | 'listeners'> | undefined, mounts: ChannelMounts): number {
  if (!state?.online) return 0;
  // The state's figure leaves DHR's own title readers out; the raw mount figure counts them.
  return (state.listeners ?? mounts.premium?.listeners ?? 0) + (mounts.free?.listeners ?? 0);
}
