/**
 * Derived track info: the client's guesses about the track on air from its words alone (genre by
 * keyword in title and artist, a BPM and an energy within the genre's range). An explicit "124 bpm" in
 * the text is used as it is. Guesses are stable for one track (picked by a hash of artist and title,
 * not at random), so the card does not flicker when it refreshes.
 */

export interface DerivedTrackInfo {
  title: string;
  artist: string;
  album: string;
  genre: string;
  bpm: number;
  /** 0-100. */
  energy: number;
  /** Whether the BPM was read from the text rather than guessed. */
  bpmStated: boolean;
}

interface GenreRule {
  genre: string;
  keywords: RegExp;
  bpm: readonly [number, number];
  energy: readonly [number, number];
}

/** First match wins: the narrower styles before the broad "deep". */
export const GENRE_RULES: readonly GenreRule[] = [
  { genre: 'Minimal', keywords: /\bminimal\b/, bpm: [110, 119], energy: [20, 49] },
  { genre: 'Ambient', keywords: /\b(ambient|chill(out)?|downtempo)\b/, bpm: [110, 119], energy: [20, 49] },
  { genre: 'Tech House', keywords: /\btech(no)?\b|\btech[- ]house\b/, bpm: [128, 135], energy: [80, 99] },
  { genre: 'Progressive House', keywords: /\bprogressive\b/, bpm: [125, 134], energy: [60, 84] },
  { genre: 'Deep House', keywords: /\bdeep\b/, bpm: [120, 127], energy: [50, 79] },
];

/** No keyword: the station's everyday house. */
export const DEFAULT_GENRE_RULE: GenreRule = { genre: 'House', keywords: /$^/, bpm: [120, 131], energy: [50, 79] };

const STATED_BPM = /\b(\d{2,3})\s?bpm\b/i;

/** An explicit "NN bpm" in the text, within what a dance track can be. */
export function statedBpm(text: string): number | null {
  const m = STATED_BPM.exec(text);
  if (!m) return null;
  const n = Number(m[1]);
  return n >= 40 && n <= 220 ? n : null;
}

/** FNV-1a: a small stable hash, so one track always gets the same guess. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

function pick([lo, hi]: readonly [number, number], seed: number): number {
  return lo + (seed % (hi - lo + 1));
}

export function genreRuleFor(title: string, artist: string): GenreRule {
  const text = `${title} ${artist}`.toLowerCase();
  return GENRE_RULES.find((r) => r.keywords.test(text)) ?? DEFAULT_GENRE_RULE;
}

export function deriveTrackInfo(track: { title: string; artist: string; album?: string | null }): DerivedTrackInfo {
  const { title, artist } = track;
  const album = track.album ?? '';
  const rule = genreRuleFor(title, artist);
  const key = `${artist.trim().toLowerCase()}|${title.trim().toLowerCase()}`;
  const stated = statedBpm(`${title} ${artist} ${album}`);
  return {
    title,
    artist,
    album,
    genre: rule.genre,
    bpm: stated ?? pick(rule.bpm, hash(`bpm:${key}`)),
    energy: pick(rule.energy, hash(`energy:${key}`)),
    bpmStated: stated !== null,
  };
}
