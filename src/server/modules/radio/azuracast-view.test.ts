import { describe, expect, it } from 'vitest';
import type { ChannelRow } from './channels-repository';
import { azuraTime, toAzuraNowPlaying } from './azuracast-view';
import { mountFiguresOf } from './mount-figures';
import type { ChannelState, PlayedSong } from './now-playing';

const channel: ChannelRow = {
  id: 'dhr1',
  name: 'Premium channel',
  colour: '#000',
  streamUrl: 'https://radio.example/dhr1',
  statusUrl: null,
  bitrateLabel: '320kbps',
  requiredTier: 'dhr1',
  freeStreamUrl: 'https://radio.example/dhr1-free.mp3',
  freeBitrateLabel: '128kbps',
  sortOrder: 1,
};
const state = { channel: 'dhr1', online: true, listeners: 4 } as ChannelState;
const song = (id: number, startedAt: number, title: string): PlayedSong => ({
  id,
  startedAt,
  artist: 'A',
  title,
  album: '',
  text: `A - ${title}`,
  genre: null,
});

describe("AzuraCast's shapes", () => {
  it('formats the time as AzuraCast does', () => {
    expect(azuraTime(new Date('2017-06-16T22:33:17.250Z'))).toEqual({
      timestamp: 1497652397,
      utc_datetime: '2017-06-16 10:33:17',
      utc_date: 'June 16, 2017',
      utc_time: '10:33pm',
      utc_json: '2017-06-16T22:33:17.250000Z',
    });
    expect(azuraTime(new Date('2026-01-05T00:07:09Z')).utc_time).toBe('12:07am');
  });

  it('numbers plays with small integers that differ even within one second, and the same for the same plays', () => {
    const t = Date.UTC(2026, 10, 27, 12, 0, 0);
    const songs = [song(3, t + 400, 'Three'), song(2, t + 100, 'Two'), song(1, t - 60_000, 'One')];
    const src = { channel, stationId: 1, state, songs, figures: { free: null, premium: null }, trackArt: null };
    const doc = toAzuraNowPlaying(src, 'https://dhr.example', t + 1000);
    const ids = [doc.now_playing?.sh_id, ...doc.song_history.map((h) => h.sh_id)];
    expect(new Set(ids).size).toBe(3);
    expect(ids.every((id) => Number.isInteger(id) && (id ?? 0) > 0 && (id ?? 0) < 2 ** 31)).toBe(true);
    expect(ids[0]).toBeGreaterThan(ids[1] ?? Infinity);
    // Another instance that heard the same plays numbers them alike.
    expect(toAzuraNowPlaying({ ...src, songs: [...songs] }, 'https://other.example', t + 2000).now_playing?.sh_id).toBe(ids[0]);
  });

  it("names the station after the free stream, never the premium channel, and gives the format from the file's extension", () => {
    const src = { channel, stationId: 1, state, songs: [], figures: { free: null, premium: null }, trackArt: null };
    const doc = toAzuraNowPlaying(src, 'https://dhr.example', Date.now());
    expect(doc.station.name).toBe('DHR1 free stream');
    expect(doc.station.mounts[0]).toMatchObject({ name: 'DHR1 free stream', format: 'mp3', bitrate: 128, path: '/dhr1-free.mp3' });
    expect(doc.now_playing?.song.art).toBe('https://dhr.example/icons/icon-512.png');
  });

  it("reads each mount's figures from Icecast's status (one source or several)", () => {
    const one = mountFiguresOf({
      icestats: { source: { listenurl: 'http://r:8000/dhr1-free', listeners: '2', bitrate: 128, server_type: 'audio/aacp', server_name: ' Free ' } },
    });
    expect(one.get('/dhr1-free')).toEqual({ listeners: 2, bitrate: 128, format: 'aac', name: 'Free' });
    const two = mountFiguresOf({
      icestats: {
        source: [
          { listenurl: 'http://r/a', listeners: 1 },
          { listenurl: 'http://r/b', audio_bitrate: 320, server_type: 'application/ogg' },
        ],
      },
    });
    expect([...two.keys()]).toEqual(['/a', '/b']);
    expect(two.get('/b')).toEqual({ listeners: 0, bitrate: 320, format: 'ogg', name: null });
    expect(mountFiguresOf('<html>').size).toBe(0);
  });
});
