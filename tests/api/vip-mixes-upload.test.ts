import { execFileSync } from 'node:child_process';
import { openAsBlob } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { IMAGE_MESSAGES } from '../../src/contracts/images';
import { MIX_MESSAGES } from '../../src/contracts/mixes';
import { createTestApp, memberWithRole } from '../support/app';
import { startTestS3 } from '../support/s3';

/** Real audio made by ffmpeg: 3 s of a 440 Hz tone in each format the library takes. */
const work = await fs.mkdtemp(path.join(os.tmpdir(), 'dhr-upload-'));
afterAll(() => fs.rm(work, { recursive: true, force: true }));
function ffmpeg(args: string[], out: string): string {
  const file = path.join(work, out);
  execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=3', ...args, file]);
  return file;
}
const files = {
  mp3: ffmpeg(['-c:a', 'libmp3lame', '-b:a', '128k'], 'tone.mp3'),
  m4a: ffmpeg(['-c:a', 'aac', '-b:a', '96k'], 'tone.m4a'),
  flac: ffmpeg(['-c:a', 'flac'], 'tone.flac'),
  wav: ffmpeg([], 'tone.wav'),
};
// An MP3 with a cover picture embedded (ffmpeg draws a 64×64 test image).
const cover = path.join(work, 'cover.png');
execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=64x64:duration=1', '-frames:v', '1', cover]);
const withCover = path.join(work, 'cover.mp3');
execFileSync('ffmpeg', [
  '-hide_banner',
  '-loglevel',
  'error',
  '-y',
  '-i',
  files.mp3,
  '-i',
  cover,
  '-map',
  '0:a',
  '-map',
  '1:v',
  '-c:a',
  'copy',
  '-c:v',
  'png',
  '-disposition:v',
  'attached_pic',
  '-id3v2_version',
  '3',
  withCover,
]);

interface Fields {
  title?: string;
  artist?: string;
  genre?: string;
  description?: string;
}

async function form(file: { path: string; name: string } | null, fields: Fields, artwork?: string): Promise<FormData> {
  const body = new FormData();
  for (const [k, v] of Object.entries(fields)) body.set(k, v);
  if (file) body.set('file', await openAsBlob(file.path), file.name);
  if (artwork) body.set('artwork', await openAsBlob(artwork), path.basename(artwork));
  return body;
}

const details = { title: 'Test Tone', artist: 'Sine Wave', genre: 'minimal', description: 'Three seconds of A.' };

/** The upload path against a listening app (real multipart over HTTP), on one storage driver. */
function uploadSuite(name: string, env: () => Promise<Record<string, string>>) {
  describe(`mix upload (${name})`, async () => {
    const dataDir = await fs.mkdtemp(path.join(work, 'data-'));
    const app = await createTestApp({ DATA_DIR: dataDir, MIX_MAX_MB: '1', ...(await env()) });
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    const admin = await memberWithRole(app, 'admin');
    const dhr1 = await memberWithRole(app, 'dhr1');
    const upload = (body: FormData, cookie = admin.cookie) => fetch(`${base}/api/admin/vip-mixes`, { method: 'POST', body, headers: { cookie, origin: base } });
    const mixCount = async () => (await app.inject({ url: '/api/vip-mixes' })).json().length;

    for (const [ext, file] of Object.entries(files)) {
      it(`takes ${ext.toUpperCase()}, reads its duration, and plays it back`, async () => {
        const res = await upload(await form({ path: file, name: `tone.${ext}` }, details));
        const mix = await res.json();
        expect(res.status, JSON.stringify(mix)).toBe(201);
        expect(mix).toMatchObject({ ...details, hasAudio: true, s3Url: `mixes/${mix.id}.${ext}`, fileSize: (await fs.stat(file)).size });
        expect(mix.duration).toBe(3);
        if (ext === 'mp3') expect(mix.bitrateKbps).toBe(128);
        // DHR1 waits for the listening copy, then plays it (an MP3 whatever the master is).
        expect(mix.rendition).toEqual({ state: 'queued', percent: 0, error: null });
        expect((await app.inject({ url: `/api/stream/${mix.id}`, headers: { cookie: dhr1.cookie } })).statusCode).toBe(409);
        await app.modules.mixes.renditions.drain();
        const { streamUrl } = (await app.inject({ url: `/api/stream/${mix.id}`, headers: { cookie: dhr1.cookie } })).json();
        const played = await fetch(`${base}${streamUrl}`, { headers: { range: 'bytes=0-99', cookie: dhr1.cookie } });
        expect(played.status).toBe(206);
        expect(played.headers.get('content-type')).toBe('audio/mpeg');
        const copy = await app.mediaStorage.open(`renditions/${mix.id}.mp3`, { start: 0, end: 99 });
        const chunks: Buffer[] = [];
        for await (const c of copy) chunks.push(c as Buffer);
        expect(Buffer.from(await played.arrayBuffer())).toEqual(Buffer.concat(chunks));
      });
    }

    it('keeps embedded artwork as a re-encoded image', async () => {
      const res = await upload(await form({ path: withCover, name: 'cover.mp3' }, details));
      const mix = await res.json();
      expect(mix.artworkUrl).toMatch(/^\/media\/images\/[a-f0-9]{64}\.webp$/);
      const image = await fetch(`${base}${mix.artworkUrl}`);
      expect(image.status).toBe(200);
      expect(image.headers.get('content-type')).toBe('image/webp');
    });

    it('takes uploaded artwork over the embedded one, and refuses artwork that is no image', async () => {
      const res = await upload(await form({ path: files.mp3, name: 'tone.mp3' }, details, cover));
      expect((await res.json()).artworkUrl).toMatch(/^\/media\/images\/[a-f0-9]{64}\.webp$/);
      const before = await mixCount();
      const bad = await upload(await form({ path: files.mp3, name: 'tone.mp3' }, details, files.wav));
      expect(bad.status).toBe(400);
      expect((await bad.json()).error.message).toBe(IMAGE_MESSAGES.invalid);
      expect(await mixCount()).toBe(before);
    });

    it('refuses what is not audio, a name that lies, an oversize file and missing fields, storing nothing', async () => {
      const before = { mixes: await mixCount(), usage: await app.mediaStorage.usage('mixes/') };
      const text = path.join(work, 'notes.mp3');
      await fs.writeFile(text, 'this is not audio at all '.repeat(100));
      const big = path.join(work, 'big.wav');
      execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'sine=duration=16', '-ar', '48000', big]);
      const cases: [FormData, number, string][] = [
        [await form({ path: text, name: 'notes.mp3' }, details), 415, MIX_MESSAGES.notAudio],
        [await form({ path: files.wav, name: 'tone.mp3' }, details), 400, MIX_MESSAGES.nameMismatch],
        [await form({ path: files.flac, name: 'tone.exe' }, details), 400, MIX_MESSAGES.nameMismatch],
        [await form({ path: big, name: 'big.wav' }, details), 413, 'The file is larger than the limit of 1 MB'],
        [await form({ path: files.mp3, name: 'tone.mp3' }, { ...details, title: '' }), 400, "Invalid field 'title': Title is required"],
        [await form({ path: files.mp3, name: 'tone.mp3' }, { ...details, genre: 'polka' }), 400, "Invalid field 'genre'"],
        [await form(null, details), 400, MIX_MESSAGES.fileRequired],
      ];
      for (const [body, status, message] of cases) {
        const res = await upload(body);
        const json = await res.json();
        expect(res.status, message).toBe(status);
        expect(json.error.message).toContain(message);
      }
      expect(await mixCount()).toBe(before.mixes);
      expect(await app.mediaStorage.usage('mixes/')).toEqual(before.usage);
      const notMultipart = await fetch(`${base}/api/admin/vip-mixes`, {
        method: 'POST',
        body: '{}',
        headers: { cookie: admin.cookie, 'content-type': 'application/json', origin: base },
      });
      expect(notMultipart.status).toBe(415);
    });

    it('is for admins only', async () => {
      const res = await upload(await form({ path: files.mp3, name: 'tone.mp3' }, details), dhr1.cookie);
      expect(res.status).toBe(403);
    });
  });
}

uploadSuite('local folder', async () => ({}));

const s3 = await startTestS3();
afterAll(() => s3.stop());
uploadSuite('S3 bucket', async () => s3.env);

describe('mixes on S3', async () => {
  const app = await createTestApp({ DATA_DIR: await fs.mkdtemp(path.join(work, 's3-')), ...s3.env, S3_BUCKET: 'dhr-media' });
  const vip = await memberWithRole(app, 'vip');
  const admin = await memberWithRole(app, 'admin');

  it('serves stream and download bytes itself, never a presigned bucket URL (that would work without the session)', async () => {
    // No listening copy yet: a VIP streams the master.
    const { streamUrl } = (await app.inject({ url: '/api/stream/mix-forest-floor', headers: { cookie: vip.cookie } })).json();
    const audio = await app.inject({ url: streamUrl, headers: { cookie: vip.cookie, range: 'bytes=0-3' } });
    expect(audio.statusCode).toBe(206);
    expect(audio.headers.location).toBeUndefined();
    expect(audio.body).toBe('RIFF');
    expect((await app.inject({ url: streamUrl })).statusCode).toBe(403);

    const grant = await app.inject({
      method: 'POST',
      url: '/api/download/mix-forest-floor',
      headers: { cookie: vip.cookie },
      payload: { userId: vip.user.id },
    });
    const file = await app.inject({ url: grant.json().downloadUrl, headers: { cookie: vip.cookie } });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-disposition']).toContain('attachment; filename="Mika Aalto - Forest Floor.wav"');
    expect(file.rawPayload.subarray(0, 4).toString()).toBe('RIFF');
  });

  it('reports the bucket in the storage status', async () => {
    const st = (await app.inject({ url: '/api/admin/storage-status', headers: { cookie: admin.cookie } })).json();
    expect(st).toMatchObject({ mode: 's3', location: `dhr-media at ${s3.endpoint}`, localPath: null, reachable: true });
    expect(st.fileCount).toBeGreaterThanOrEqual(6);
  });
});
