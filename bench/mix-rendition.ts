// Making a VIP mix's listening copy (ADR 0015): a 60-minute 320 kbit/s MP3 made by ffmpeg from a
// noise source goes through the rendition worker as an upload's would (master read from local media
// storage, ffmpeg to 128 kbit/s, copy stored). Records the seconds of work per hour of audio and the
// peak RSS of the job: ffmpeg's (sampled from /proc) and the app process's growth.
// Run alone: `npx tsx bench/mix-rendition.ts`; `npm run bench` calls benchMixRendition().
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { openDatabase } from '../src/server/db/client';
import { vipMixes } from '../src/server/db/schema';
import { LocalMediaStorage } from '../src/server/lib/storage/local-storage';
import { RenditionWorker } from '../src/server/modules/mixes/rendition-service';
import { rssMb, tempDir, whenRunAlone } from './lib';

const AUDIO_S = Number(process.env.BENCH_RENDITION_SECONDS ?? 3600);
const MIX_ID = 'mix-bench-hour';

export interface MixRenditionEntry {
  name: string;
  audioMinutes: number;
  masterMb: number;
  renditionMb: number;
  workSeconds: number;
  secondsPerAudioHour: number;
  ffmpegPeakRssMb: number;
  appRssGrowthMb: number;
}

const round1 = (n: number) => Math.round(n * 10) / 10;

/** Peak resident memory of this process's ffmpeg children, sampled every 100 ms while `work` runs. */
async function withChildPeak<T>(work: () => Promise<T>): Promise<{ result: T; peakMb: number }> {
  let peakKb = 0;
  const sample = () => {
    for (const pid of fs.readFileSync(`/proc/${process.pid}/task/${process.pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean)) {
      try {
        const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
        if (!/^Name:\s+ffmpeg/m.test(status)) continue;
        peakKb = Math.max(peakKb, Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0));
      } catch {
        // ended between the listing and the read
      }
    }
  };
  const timer = setInterval(sample, 100);
  try {
    return { result: await work(), peakMb: peakKb / 1024 };
  } finally {
    clearInterval(timer);
  }
}

export async function benchMixRendition(): Promise<MixRenditionEntry> {
  const dir = tempDir('dhr-bench-rendition-');
  const media = path.join(dir, 'media');
  const masterKey = `mixes/${MIX_ID}.mp3`;
  const masterFile = path.join(media, ...masterKey.split('/'));
  fs.mkdirSync(path.dirname(masterFile), { recursive: true });
  // Noise under a tone: the encoder works as hard as on music.
  execFileSync('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-y'],
    ...['-f', 'lavfi', '-i', `anoisesrc=d=${AUDIO_S}:c=pink:a=0.2`, '-f', 'lavfi', '-i', `sine=frequency=220:duration=${AUDIO_S}`],
    ...['-filter_complex', 'amix=inputs=2', '-ac', '2', '-ar', '44100', '-c:a', 'libmp3lame', '-b:a', '320k', masterFile],
  ]);
  const database = await openDatabase({ pgliteDir: path.join(dir, 'db') });
  try {
    const { db } = database;
    const masterBytes = fs.statSync(masterFile).size;
    await db.insert(vipMixes).values({
      id: MIX_ID,
      title: 'Bench Hour',
      artist: 'Noise',
      genre: 'minimal',
      duration: AUDIO_S,
      fileSize: masterBytes,
      bitrateKbps: 320,
      s3Url: masterKey,
    });
    const storage = new LocalMediaStorage(media);
    const log = { info: () => undefined, warn: (obj: object, msg: string) => console.warn(msg, obj) };
    const worker = new RenditionWorker({ db, storage, ffmpeg: 'ffmpeg', announceChange: async () => undefined, log });
    const rssBefore = rssMb(process.pid);
    const started = performance.now();
    const { result: handled, peakMb } = await withChildPeak(() => worker.drain());
    const workSeconds = (performance.now() - started) / 1000;
    const [row] = await db.select().from(vipMixes).where(eq(vipMixes.id, MIX_ID));
    if (handled !== 1 || row?.renditionState !== 'ready') throw new Error(`rendition did not finish: ${row?.renditionState} ${row?.renditionError}`);
    return {
      name: 'vip mix listening copy (60 min 320 kbit/s MP3 → 128 kbit/s)',
      audioMinutes: round1(AUDIO_S / 60),
      masterMb: round1(masterBytes / (1024 * 1024)),
      renditionMb: round1((row.renditionSize ?? 0) / (1024 * 1024)),
      workSeconds: round1(workSeconds),
      secondsPerAudioHour: round1((workSeconds * 3600) / AUDIO_S),
      ffmpegPeakRssMb: round1(peakMb),
      appRssGrowthMb: round1(rssMb(process.pid) - rssBefore),
    };
  } finally {
    await database.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

whenRunAlone(import.meta.url, benchMixRendition);
