import type { TrackIdentification } from '../../../../contracts/radio';
import { isSearchUrl } from '../../../../contracts/radio-values';
import { dublinDay, formatDuration } from '../../../lib/dates';

/** The export columns, in order. */
export const TRACK_CSV_HEADER = [
  'Identified At',
  'Title',
  'Artist',
  'Album',
  'Confidence',
  'Service',
  'Duration',
  'Release Date',
  'YouTube URL',
  'SoundCloud URL',
  'Spotify URL',
];

/** Quotes every cell; a leading = + - @ gets a ' so spreadsheets do not run it as a formula. */
function cell(value: string | number | null | undefined): string {
  let s = value === null || value === undefined ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return `"${s.replace(/"/g, '""')}"`;
}

/** The URL columns hold links to the track only: a search the server filled in is left out. */
function directLink(url: string | null): string | null {
  return url && !isSearchUrl(url) ? url : null;
}

export function tracksToCsv(tracks: TrackIdentification[]): string {
  const rows = tracks.map((t) =>
    [
      t.identifiedAt,
      t.title,
      t.artist,
      t.album,
      Math.round(t.confidence),
      t.service,
      formatDuration(t.duration),
      t.releaseDate,
      directLink(t.youtubeUrl),
      directLink(t.soundcloudUrl),
      directLink(t.spotifyUrl),
    ]
      .map(cell)
      .join(','),
  );
  return [TRACK_CSV_HEADER.map(cell).join(','), ...rows].join('\r\n') + '\r\n';
}

/** e.g. dhr-track-history-2026-11-21.csv (the Dublin day). */
export function trackCsvFileName(now: Date = new Date()): string {
  return `dhr-track-history-${dublinDay(now)}.csv`;
}

export function downloadTracksCsv(tracks: TrackIdentification[]): void {
  const blob = new Blob(['\uFEFF', tracksToCsv(tracks)], { type: 'text/csv;charset=utf-8' });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = trackCsvFileName();
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
