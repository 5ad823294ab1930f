import { describe, expect, it } from 'vitest';
import { deriveTrackInfo, statedBpm } from './derived-track';

const between = (n: number, lo: number, hi: number) => n >= lo && n <= hi;

/** Many titles per style, so a range that is wrong at either end shows up. */
function titles(word: string): { title: string; artist: string }[] {
  return Array.from({ length: 200 }, (_, i) => ({ title: `Track ${i} (${word} Mix)`, artist: `Artist ${i * 7}` }));
}

describe('derived track info', () => {
  it.each([
    ['minimal', 'Minimal', [110, 119], [20, 49]],
    ['ambient', 'Ambient', [110, 119], [20, 49]],
    ['chill', 'Ambient', [110, 119], [20, 49]],
    ['deep', 'Deep House', [120, 127], [50, 79]],
    ['progressive', 'Progressive House', [125, 134], [60, 84]],
    ['tech', 'Tech House', [128, 135], [80, 99]],
    ['techno', 'Tech House', [128, 135], [80, 99]],
    ['vocal', 'House', [120, 131], [50, 79]],
  ] as const)('"%s" in the title: genre %s, bpm %j, energy %j', (word, genre, bpm, energy) => {
    const seen = new Set<number>();
    for (const t of titles(word)) {
      const info = deriveTrackInfo(t);
      expect(info.genre).toBe(genre);
      expect(between(info.bpm, bpm[0], bpm[1]), `bpm ${info.bpm}`).toBe(true);
      expect(between(info.energy, energy[0], energy[1]), `energy ${info.energy}`).toBe(true);
      expect(info.bpmStated).toBe(false);
      seen.add(info.bpm);
    }
    // The guesses use the whole range, both ends included.
    expect(seen.has(bpm[0]) && seen.has(bpm[1])).toBe(true);
  });

  it('reads the genre keyword in the artist too, case-insensitively', () => {
    expect(deriveTrackInfo({ title: 'Rain', artist: 'DEEP Collective' }).genre).toBe('Deep House');
    expect(deriveTrackInfo({ title: 'Rain', artist: 'Kerri Chandler' }).genre).toBe('House');
  });

  it('uses an explicit "NN bpm" instead of the guess', () => {
    const info = deriveTrackInfo({ title: 'Night Drive (Deep Mix) 118 BPM', artist: 'Someone' });
    expect(info).toMatchObject({ genre: 'Deep House', bpm: 118, bpmStated: true });
    expect(deriveTrackInfo({ title: 'Tool', artist: 'X', album: 'Tools 124bpm' }).bpm).toBe(124);
    expect(statedBpm('Room 101 bpmx')).toBeNull();
    expect(statedBpm('999 bpm')).toBeNull();
  });

  it('gives one track the same guess every time (refreshes do not flicker)', () => {
    const a = deriveTrackInfo({ title: 'Rain', artist: 'Kerri Chandler', album: '' });
    const b = deriveTrackInfo({ title: 'Rain', artist: 'Kerri Chandler', album: '' });
    expect(b).toEqual(a);
    expect(a).toMatchObject({ title: 'Rain', artist: 'Kerri Chandler', album: '' });
  });
});
