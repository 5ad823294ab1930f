/** Mood presets of the live track card's particle background. */
export type Mood = 'energetic' | 'chill' | 'deep' | 'dark' | 'uplifting' | 'ambient';

export interface MoodPreset {
  colors: string[];
  particleCount: number;
  /** Pixels per frame at 60 fps. */
  speed: number;
  opacity: number;
  /** Glow radius in pixels. */
  blur: number;
  /** Whether particles breathe in size. */
  pulse: boolean;
}

export const MOOD_PRESETS: Record<Mood, MoodPreset> = {
  energetic: { colors: ['#f472b6', '#a855f7', '#22d3ee'], particleCount: 150, speed: 1.6, opacity: 0.75, blur: 8, pulse: true },
  chill: { colors: ['#67e8f9', '#818cf8', '#a5b4fc'], particleCount: 80, speed: 0.45, opacity: 0.55, blur: 12, pulse: false },
  deep: { colors: ['#6366f1', '#8b5cf6', '#0ea5e9'], particleCount: 100, speed: 0.7, opacity: 0.6, blur: 10, pulse: true },
  dark: { colors: ['#4c1d95', '#312e81', '#64748b'], particleCount: 60, speed: 0.5, opacity: 0.5, blur: 14, pulse: false },
  uplifting: { colors: ['#facc15', '#22d3ee', '#c084fc'], particleCount: 120, speed: 1.1, opacity: 0.65, blur: 9, pulse: true },
  ambient: { colors: ['#a78bfa', '#67e8f9'], particleCount: 40, speed: 0.3, opacity: 0.45, blur: 16, pulse: false },
};

/** The rule: bpm above 128 is energetic, then keywords of the genre (and title), else ambient. */
export function moodForTrack(track: { bpm?: number | null; genre?: string | null; title?: string | null } | null | undefined): Mood {
  if (!track) return 'ambient';
  if (typeof track.bpm === 'number' && track.bpm > 128) return 'energetic';
  const text = `${track.genre ?? ''} ${track.title ?? ''}`.toLowerCase();
  if (/chill|relax|ambient/.test(text)) return 'chill';
  if (/deep/.test(text)) return 'deep';
  if (/dark|minimal/.test(text)) return 'dark';
  if (/uplifting|progressive|house/.test(text)) return 'uplifting';
  if (/techno/.test(text)) return 'energetic';
  return 'ambient';
}
