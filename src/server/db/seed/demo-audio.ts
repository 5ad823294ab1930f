/**
 * Short deep-house loops synthesised in code, so the demo mixes play on a fresh install without
 * shipping audio or needing an encoder: kick on every beat, an off-beat hat, a bass line and a
 * slow pad chord, as 16-bit mono WAV. Each demo mix gets its own key and tempo.
 */

export const DEMO_AUDIO_SAMPLE_RATE = 16_000;
export const DEMO_AUDIO_SECONDS = 24;

export interface LoopVoice {
  /** Beats per minute. */
  bpm: number;
  /** Root note of the bass and pad, in Hz. */
  rootHz: number;
}

/** The voice of the n-th demo mix. */
export function demoVoice(n: number): LoopVoice {
  const roots = [55, 61.74, 49, 58.27, 46.25, 65.41];
  return { bpm: 118 + (n % 6) * 2, rootHz: roots[n % roots.length] ?? 55 };
}

/** A deterministic pseudo-random sequence (hats must sound the same on every install). */
function noise(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return ((x >>> 0) / 0xffffffff) * 2 - 1;
  };
}

/** The loop as a WAV file (RIFF, PCM 16-bit, mono). */
export function demoLoopWav(voice: LoopVoice, seconds = DEMO_AUDIO_SECONDS, rate = DEMO_AUDIO_SAMPLE_RATE): Buffer {
  const frames = Math.round(seconds * rate);
  const samples = new Float32Array(frames);
  const beat = 60 / voice.bpm;
  const rand = noise(Math.round(voice.rootHz * 100));
  // Minor chord for the pad: root, minor third, fifth, an octave up.
  const pad = [2, 2 * 1.189, 2 * 1.498].map((m) => voice.rootHz * m);
  // Bass pattern over a bar of 8 eighths: 1 = note on the root, 0.75 = a fourth below the octave.
  const bassSteps = [0, 1, 0, 1, 0, 1, 0.75, 1];
  let peak = 0;
  for (let i = 0; i < frames; i++) {
    const t = i / rate;
    const inBeat = t % beat;
    // Kick: a falling sine with a fast decay.
    const kickFreq = 45 + 90 * Math.exp(-inBeat * 30);
    const kick = Math.sin(2 * Math.PI * kickFreq * inBeat) * Math.exp(-inBeat * 9);
    // Hat: noise on the off-beat.
    const off = (t + beat / 2) % beat;
    const hat = rand() * Math.exp(-off * 60) * 0.18;
    // Bass: eighth notes with a pluck envelope.
    const eighth = beat / 2;
    const step = Math.floor(t / eighth) % bassSteps.length;
    const level = bassSteps[step] ?? 0;
    const inEighth = t % eighth;
    const bassHz = level === 0.75 ? voice.rootHz * 0.75 * 2 : voice.rootHz;
    const bassPhase = 2 * Math.PI * bassHz * t;
    const bass = level > 0 ? (Math.sin(bassPhase) + 0.4 * Math.sin(2 * bassPhase) + 0.15 * Math.sin(3 * bassPhase)) * Math.exp(-inEighth * 6) * 0.35 : 0;
    // Pad: a chord breathing with a slow swell.
    const swell = 0.5 + 0.5 * Math.sin(2 * Math.PI * t * 0.125);
    let chord = 0;
    for (const f of pad) chord += Math.sin(2 * Math.PI * f * t) + 0.3 * Math.sin(2 * Math.PI * f * 2.003 * t);
    const value = kick * 0.8 + hat + bass + chord * 0.05 * swell;
    samples[i] = value;
    peak = Math.max(peak, Math.abs(value));
  }
  // Fade in and out, then scale to 80% of full level.
  const fade = Math.round(rate * 0.5);
  const gain = peak > 0 ? 0.8 / peak : 0;
  const data = Buffer.alloc(frames * 2);
  for (let i = 0; i < frames; i++) {
    const edge = Math.min(1, i / fade, (frames - 1 - i) / fade);
    data.writeInt16LE(Math.round((samples[i] ?? 0) * gain * edge * 32767), i * 2);
  }
  return Buffer.concat([wavHeader(data.length, rate), data]);
}

function wavHeader(dataBytes: number, rate: number): Buffer {
  const h = Buffer.alloc(44);
  h.write('RIFF', 0, 'ascii');
  h.writeUInt32LE(36 + dataBytes, 4);
  h.write('WAVE', 8, 'ascii');
  h.write('fmt ', 12, 'ascii');
  h.writeUInt32LE(16, 16); // fmt chunk size
  h.writeUInt16LE(1, 20); // PCM
  h.writeUInt16LE(1, 22); // mono
  h.writeUInt32LE(rate, 24);
  h.writeUInt32LE(rate * 2, 28); // bytes per second
  h.writeUInt16LE(2, 32); // block align
  h.writeUInt16LE(16, 34); // bits per sample
  h.write('data', 36, 'ascii');
  h.writeUInt32LE(dataBytes, 40);
  return h;
}
