import { describe, expect, it } from 'vitest';
import type { TrackIdentification } from '../../../../contracts/radio';
import { confidenceTone, isIdentified } from './confidence';
import { MOOD_PRESETS, moodForTrack } from './mood';
import { latestPreview } from './preview';
import { isSearchUrl, searchUrls } from '../../../../contracts/radio-values';
import { TRACK_CSV_HEADER, trackCsvFileName, tracksToCsv } from './track-csv';

describe('identified tracks and confidence', () => {
  it('identifies only recognised tracks at 80% or more', () => {
    expect(isIdentified({ service: 'audd', confidence: 80 })).toBe(true);
    expect(isIdentified({ service: 'acrcloud', confidence: 79 })).toBe(false);
    expect(isIdentified({ service: 'icecast-metadata', confidence: 100 })).toBe(false);
  });
  it('colours green 80+, yellow 50-79, red below 50', () => {
    expect([confidenceTone(80), confidenceTone(79), confidenceTone(50), confidenceTone(49)]).toEqual(['green', 'yellow', 'yellow', 'red']);
  });
});

describe('mood from the track and particle counts', () => {
  it('follows the rules in order', () => {
    expect(moodForTrack({ bpm: 129, genre: 'chill' })).toBe('energetic');
    expect(moodForTrack({ bpm: 128, genre: 'Chillout' })).toBe('chill');
    expect(moodForTrack({ genre: 'Deep House' })).toBe('deep');
    expect(moodForTrack({ genre: 'Minimal' })).toBe('dark');
    expect(moodForTrack({ genre: 'Progressive' })).toBe('uplifting');
    expect(moodForTrack({ genre: 'Tech House' })).toBe('uplifting');
    expect(moodForTrack({ genre: 'Techno' })).toBe('energetic');
    expect(moodForTrack({ genre: 'Jazz' })).toBe('ambient');
    expect(moodForTrack(null)).toBe('ambient');
  });
  it('uses the spec counts', () => {
    const counts = Object.fromEntries(Object.entries(MOOD_PRESETS).map(([m, p]) => [m, p.particleCount]));
    expect(counts).toEqual({ energetic: 150, chill: 80, deep: 100, dark: 60, uplifting: 120, ambient: 40 });
  });
});

describe('Latest: preview', () => {
  it('cuts titles to 20 characters', () => {
    expect(latestPreview('Space Station')).toBe('Space Station');
    expect(latestPreview('12345678901234567890')).toBe('12345678901234567890');
    expect(latestPreview('Can You Feel It (Original Mix)')).toBe('Can You Feel It (Ori...');
  });
});

describe('CSV export', () => {
  const track: TrackIdentification = {
    id: '1',
    channel: 'dhr1',
    title: 'Say "Yes"',
    artist: '=HYPERLINK("x")',
    album: null,
    artwork: null,
    confidence: 96.4,
    service: 'audd',
    duration: 412,
    releaseDate: '1994-01-01',
    label: null,
    genre: null,
    bpm: null,
    identifiedAt: '2026-11-21T21:05:00.000Z',
    youtubeUrl: 'https://youtube.example/a',
    soundcloudUrl: null,
    spotifyUrl: 'https://spotify.example/b',
  };
  it('writes the spec columns, quoted, without formulas', () => {
    const [header, row] = tracksToCsv([track]).split('\r\n');
    expect(header).toBe(TRACK_CSV_HEADER.map((h) => `"${h}"`).join(','));
    expect(row).toBe(
      '"2026-11-21T21:05:00.000Z","Say ""Yes""","\'=HYPERLINK(""x"")","","96","audd","6:52","1994-01-01","https://youtube.example/a","","https://spotify.example/b"',
    );
  });
  it('leaves out the search links the server fills in: only links to the track are exported', () => {
    const search = searchUrls('Kerri Chandler', 'Rain');
    const row = tracksToCsv([
      { ...track, youtubeUrl: 'https://www.youtube.com/watch?v=abc123', soundcloudUrl: search.soundcloudUrl, spotifyUrl: search.spotifyUrl },
    ]).split('\r\n')[1];
    expect(row).toMatch(/,"https:\/\/www\.youtube\.com\/watch\?v=abc123","",""$/);
    expect(isSearchUrl(search.youtubeUrl)).toBe(true);
    expect(isSearchUrl('https://www.youtube.com/watch?v=abc123')).toBe(false);
  });
  it('names the file with the Dublin date', () => {
    expect(trackCsvFileName(new Date('2026-06-30T23:30:00Z'))).toBe('dhr-track-history-2026-07-01.csv');
  });
});
