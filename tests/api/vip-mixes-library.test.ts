import { execFileSync } from 'node:child_process';
import { openAsBlob } from 'node:fs';
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { IMAGE_MESSAGES } from '../../src/contracts/images';
import { MIX_MESSAGES, MIX_RESUMABLE_PATH } from '../../src/contracts/mixes';
import { vipMixes } from '../../src/server/db/schema';
import { EMBEDDED_ARTWORK_MAX_BYTES } from '../../src/server/modules/mixes/mix-upload-service';
import { createTestApp, memberWithRole } from '../support/app';
import { startTestS3 } from '../support/s3';

/** Tagged audio made by ffmpeg: 20 s of a tone at 128 kbit/s with title, artist and genre tags, and a copy with cover art. */
const work = await fs.mkdtemp(path.join(os.tmpdir(), 'dhr-library-'));
afterAll(() => fs.rm(work, { recursive: true, force: true }));
const run = (args: string[]) => execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args]);
const tagged = path.join(work, 'tagged.mp3');
run([
  '-f',
  'lavfi',
  '-i',
  'sine=frequency=330:duration=20',
  '-c:a',
  'libmp3lame',
  '-b:a',
  '128k',
  '-metadata',
  'title=Night Tagged',
  '-metadata',
  'artist=Tag Artist',
  '-metadata',
  'genre=Deep House',
  '-id3v2_version',
  '3',
  tagged,
]);
const cover = path.join(work, 'cover.png');
run(['-f', 'lavfi', '-i', 'testsrc=size=64x64:duration=1', '-frames:v', '1', cover]);
const withCover = path.join(work, 'cover.mp3');
run([
  '-i',
  tagged,
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
const untagged = path.join(work, 'plain.wav');
run(['-f', 'lavfi', '-i', 'sine=duration=2', untagged]);

const MIX = 'mix-midnight-drift';

describe('VIP library admin', async () => {
  const app = await createTestApp({ DATA_DIR: await fs.mkdtemp(path.join(work, 'data-')) });
  const db = app.database.db;
  const [vip, admin] = await Promise.all([memberWithRole(app, 'vip'), memberWithRole(app, 'admin')]);
  const rowOf = async (id: string) => (await db.select().from(vipMixes).where(eq(vipMixes.id, id)))[0];
  const patch = (id: string, payload: unknown, cookie = admin.cookie) =>
    app.inject({ method: 'PATCH', url: `/api/admin/vip-mixes/${id}`, headers: { cookie }, payload: payload as object });
  const memberList = async (url = '/api/vip-mixes') => (await app.inject({ url })).json() as { id: string; title: string }[];

  it('edits each field, and /vip shows the edit at once', async () => {
    expect((await memberList()).find((m) => m.id === MIX)?.title).toBe('Midnight Drift');
    const edits = { title: 'Midnight Drift (Edit)', artist: 'Lena V.', genre: 'minimal', description: 'Re-cut.', duration: 3600 };
    for (const [field, value] of Object.entries(edits)) {
      const res = await patch(MIX, { [field]: value });
      expect(res.statusCode, field).toBe(200);
      expect(res.json()[field]).toBe(value);
    }
    expect(await rowOf(MIX)).toMatchObject(edits);
    expect((await memberList()).find((m) => m.id === MIX)).toMatchObject(edits);
    expect((await memberList('/api/vip/mixes')).find((m) => m.id === MIX)).toMatchObject(edits);
  });

  it('refuses bad input with a 4xx and changes nothing; non-admins get 403', async () => {
    const before = await rowOf(MIX);
    for (const body of [
      { title: '' },
      { genre: 'polka' },
      { duration: 0 },
      { duration: 1.5 },
      { duration: 10 ** 9 },
      { hidden: 'yes' },
      { title: 'x'.repeat(201) },
    ]) {
      const res = await patch(MIX, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error.code).toBe('validation_error');
    }
    expect((await patch(MIX, { title: 'Hijack' }, vip.cookie)).statusCode).toBe(403);
    expect((await app.inject({ method: 'PATCH', url: `/api/admin/vip-mixes/${MIX}`, payload: { title: 'Hijack' } })).statusCode).toBe(401);
    expect((await patch('mix-nope', { title: 'Nobody' })).statusCode).toBe(404);
    expect(await rowOf(MIX)).toEqual(before);
  });

  it('replaces the artwork with a re-encoded image, and refuses what is no image', async () => {
    const put = async (file: string, name: string, cookie = admin.cookie) => {
      const body = new FormData();
      body.set('artwork', await openAsBlob(file), name);
      const req = new Request('http://x/', { method: 'PUT', body });
      return app.inject({
        method: 'PUT',
        url: `/api/admin/vip-mixes/${MIX}/artwork`,
        headers: { cookie, 'content-type': req.headers.get('content-type') ?? '' },
        payload: Buffer.from(await req.arrayBuffer()),
      });
    };
    const before = await rowOf(MIX);
    const bad = await put(untagged, 'cover.png');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toBe(IMAGE_MESSAGES.invalid);
    expect((await put(cover, 'cover.png', vip.cookie)).statusCode).toBe(403);
    expect((await rowOf(MIX))?.artworkUrl).toBe(before?.artworkUrl);

    const res = await put(cover, 'cover.png');
    expect(res.statusCode).toBe(200);
    const url = res.json().artworkUrl as string;
    expect(url).toMatch(/^\/media\/images\/[a-f0-9]{64}\.webp$/);
    expect(url).not.toBe(before?.artworkUrl);
    const image = await app.inject({ url });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/webp');
    expect((await memberList()).find((m) => m.id === MIX)).toMatchObject({ artworkUrl: url });
  });

  it('hides a mix from every member list and media route; admins still see it, marked', async () => {
    const { streamUrl } = (await app.inject({ url: `/api/stream/${MIX}`, headers: { cookie: vip.cookie } })).json();
    expect((await app.inject({ url: streamUrl, headers: { cookie: vip.cookie, range: 'bytes=0-9' } })).statusCode).toBe(206);
    const grant = await app.inject({ method: 'POST', url: `/api/download/${MIX}`, headers: { cookie: vip.cookie }, payload: { userId: vip.user.id } });
    expect(grant.statusCode).toBe(200);

    const res = await patch(MIX, { hidden: true });
    expect(res.json()).toMatchObject({ id: MIX, hidden: true });
    expect((await memberList()).map((m) => m.id)).not.toContain(MIX);
    expect((await memberList('/api/vip/mixes')).map((m) => m.id)).not.toContain(MIX);
    const adminList = (await app.inject({ url: '/api/admin/vip-mixes', headers: { cookie: admin.cookie } })).json();
    expect(adminList.find((m: { id: string }) => m.id === MIX)).toMatchObject({ hidden: true });
    expect(adminList.filter((m: { hidden: boolean }) => !m.hidden).length).toBe((await memberList()).length);

    // Links handed out before it was hidden stop working too.
    for (const url of [streamUrl, grant.json().downloadUrl, `/api/stream/${MIX}`, `/api/file/${MIX}?userId=${vip.user.id}`]) {
      const r = await app.inject({ url, headers: { cookie: vip.cookie } });
      expect(r.statusCode, url).toBe(404);
      expect(r.json().error.message).toBe(MIX_MESSAGES.mixNotFound);
    }
    const again = await app.inject({ method: 'POST', url: `/api/download/${MIX}`, headers: { cookie: vip.cookie }, payload: { userId: vip.user.id } });
    expect(again.statusCode).toBe(404);

    await patch(MIX, { hidden: false });
    expect((await memberList()).map((m) => m.id)).toContain(MIX);
    expect((await app.inject({ url: `/api/stream/${MIX}`, headers: { cookie: vip.cookie } })).statusCode).toBe(200);
  });

  describe('tag preview', () => {
    const preview = async (file: string, name: string, opts: { bytes?: number; size?: boolean; cookie?: string } = {}) => {
      const all = await fs.readFile(file);
      const body = new FormData();
      if (opts.size !== false) body.set('size', String(all.length));
      body.set('file', new Blob([all.subarray(0, opts.bytes ?? 1024 * 1024)]), name);
      const req = new Request('http://x/', { method: 'POST', body });
      return app.inject({
        method: 'POST',
        url: '/api/admin/vip-mixes/preview',
        headers: { cookie: opts.cookie ?? admin.cookie, 'content-type': req.headers.get('content-type') ?? '' },
        payload: Buffer.from(await req.arrayBuffer()),
      });
    };

    it("reads title, artist, genre, duration and bitrate from a file's first bytes", async () => {
      const res = await preview(tagged, 'tagged.mp3', { bytes: 64 * 1024 });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ title: 'Night Tagged', artist: 'Tag Artist', genre: 'Deep House', durationS: 20, bitrateKbps: 128, artwork: false });
    });

    it('says when the file carries artwork, and gives nulls where tags are absent', async () => {
      expect((await preview(withCover, 'cover.mp3')).json()).toMatchObject({ title: 'Night Tagged', artwork: true });
      const plain = await preview(untagged, 'plain.wav');
      expect(plain.json()).toMatchObject({ title: null, artist: null, genre: null, artwork: false });
    });

    it('refuses a file that is not audio (415), too much (413) and non-admins', async () => {
      const res = await preview(cover, 'cover.png');
      expect(res.statusCode).toBe(415);
      expect(res.json().error.message).toBe(MIX_MESSAGES.notAudio);
      const big = path.join(work, 'big.bin');
      await fs.writeFile(big, Buffer.alloc(3 * 1024 * 1024, 1));
      expect((await preview(big, 'big.mp3', { bytes: 3 * 1024 * 1024 })).statusCode).toBe(413);
      expect((await preview(tagged, 'tagged.mp3', { cookie: vip.cookie })).statusCode).toBe(403);
    });
  });
});

/** tus upload metadata: `key base64(value)` pairs. */
const metadata = (fields: Record<string, string>) =>
  Object.entries(fields)
    .map(([k, v]) => (v ? `${k} ${Buffer.from(v).toString('base64')}` : k))
    .join(',');

function resumableSuite(name: string, env: () => Promise<Record<string, string>>) {
  describe(`resumable mix upload (${name})`, async () => {
    const dataDir = await fs.mkdtemp(path.join(work, 'data-'));
    const app = await createTestApp({ DATA_DIR: dataDir, ...(await env()) });
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    const [admin, dhr1] = await Promise.all([memberWithRole(app, 'admin'), memberWithRole(app, 'dhr1')]);
    const bytes = await fs.readFile(withCover);
    const tus = { 'tus-resumable': '1.0.0', origin: base };
    const fields = { title: 'Resumed Mix', artist: 'Flaky Network', genre: 'progressive', description: '', filename: 'resumed.mp3' };
    const create = (cookie = admin.cookie, meta = fields, length = bytes.length) =>
      fetch(`${base}${MIX_RESUMABLE_PATH}`, {
        method: 'POST',
        headers: { ...tus, cookie, 'upload-length': String(length), 'upload-metadata': metadata(meta) },
      });
    const send = (url: string, offset: number, chunk: Buffer) =>
      fetch(`${base}${url}`, {
        method: 'PATCH',
        headers: { ...tus, cookie: admin.cookie, 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
        body: new Uint8Array(chunk),
      });
    const staged = async () => (await fs.readdir(path.join(dataDir, 'mix-uploads'))).filter((f) => !f.endsWith('.json'));

    it('uploads part, drops, asks the offset and finishes: the mix is made like a small upload', async () => {
      const created = await create();
      expect(created.status).toBe(201);
      const url = created.headers.get('location') ?? '';
      expect(url).toMatch(new RegExp(`^${MIX_RESUMABLE_PATH}/[a-f0-9]{32}$`));

      const first = 20_000;
      expect((await send(url, 0, bytes.subarray(0, first))).status).toBe(204);
      // The connection drops part-way through the next chunk.
      await new Promise<void>((resolve) => {
        const req = http.request(`${base}${url}`, {
          method: 'PATCH',
          headers: {
            ...tus,
            cookie: admin.cookie,
            'upload-offset': String(first),
            'content-type': 'application/offset+octet-stream',
            'content-length': String(bytes.length - first),
          },
        });
        req.on('error', () => resolve());
        req.write(bytes.subarray(first, first + 10_000), () => setTimeout(() => (req.destroy(), resolve()), 100));
      });
      await new Promise((r) => setTimeout(r, 200));
      const head = await fetch(`${base}${url}`, { method: 'HEAD', headers: { ...tus, cookie: admin.cookie } });
      expect(head.status).toBe(200);
      const offset = Number(head.headers.get('upload-offset'));
      expect(offset).toBeGreaterThanOrEqual(first);
      expect(offset).toBeLessThanOrEqual(first + 10_000);
      expect(head.headers.get('upload-length')).toBe(String(bytes.length));
      // A chunk sent from the wrong place is refused.
      expect((await send(url, 0, bytes.subarray(0, 10))).status).toBe(409);

      const done = await send(url, offset, bytes.subarray(offset));
      expect(done.status).toBe(200);
      const mix = await done.json();
      expect(mix).toMatchObject({
        title: 'Resumed Mix',
        artist: 'Flaky Network',
        genre: 'progressive',
        duration: 20,
        bitrateKbps: 128,
        fileSize: bytes.length,
        s3Url: `mixes/${mix.id}.mp3`,
        hidden: false,
      });
      expect(mix.artworkUrl).toMatch(/^\/media\/images\/[a-f0-9]{64}\.webp$/);
      const stored = await app.mediaStorage.open(mix.s3Url);
      const chunks: Buffer[] = [];
      for await (const c of stored) chunks.push(Buffer.from(c as Buffer));
      expect(Buffer.concat(chunks).equals(bytes)).toBe(true);
      expect((await app.inject({ url: '/api/vip-mixes' })).json().map((m: { id: string }) => m.id)).toContain(mix.id);
      expect(await staged()).toEqual([]);
    });

    it("names the upload with the proxy's X-DHR-Upload-Id when it is an id and free, else with a random one", async () => {
      const id = 'ab'.repeat(16);
      const named = (header: string) =>
        fetch(`${base}${MIX_RESUMABLE_PATH}`, {
          method: 'POST',
          headers: { ...tus, cookie: admin.cookie, 'upload-length': String(bytes.length), 'upload-metadata': metadata(fields), 'x-dhr-upload-id': header },
        });
      const first = await named(id);
      expect(first.status).toBe(201);
      expect(first.headers.get('location')).toBe(`${MIX_RESUMABLE_PATH}/${id}`);
      for (const header of [id, '../etc', 'AB'.repeat(15)]) {
        const other = await named(header);
        expect(other.status, header).toBe(201);
        expect(other.headers.get('location'), header).toMatch(new RegExp(`^${MIX_RESUMABLE_PATH}/(?!${id})[a-f0-9]{32}$`));
        await fetch(`${base}${other.headers.get('location') ?? ''}`, { method: 'DELETE', headers: { ...tus, cookie: admin.cookie } });
      }
      await fetch(`${base}${MIX_RESUMABLE_PATH}/${id}`, { method: 'DELETE', headers: { ...tus, cookie: admin.cookie } });
      expect(await staged()).toEqual([]);
    });

    it('refuses non-admins before reading, bad fields, a file over the cap and a file that is not audio, storing nothing', async () => {
      const before = { mixes: (await app.inject({ url: '/api/vip-mixes' })).json().length, usage: await app.mediaStorage.usage('mixes/') };
      expect((await create(dhr1.cookie)).status).toBe(403);
      const badField = await create(admin.cookie, { ...fields, title: '' });
      expect(badField.status).toBe(400);
      expect((await badField.json()).error.message).toContain("Invalid field 'title'");
      expect((await create(admin.cookie, fields, 1024 ** 3 + 1)).status).toBe(413);

      const text = Buffer.from('this is not audio at all '.repeat(100));
      const created = await create(admin.cookie, fields, text.length);
      const res = await send(created.headers.get('location') ?? '', 0, text);
      expect(res.status).toBe(415);
      expect((await res.json()).error.message).toBe(MIX_MESSAGES.notAudio);
      expect(await staged()).toEqual([]);
      expect((await app.inject({ url: '/api/vip-mixes' })).json().length).toBe(before.mixes);
      expect(await app.mediaStorage.usage('mixes/')).toEqual(before.usage);
    });

    it('ignores embedded artwork over 10 MB with a warning: the mix is made without artwork', async () => {
      // tagged.mp3 without its own ID3 tag, behind an ID3v2.3 tag whose APIC picture is 10 MB + 1.
      const audio = await fs.readFile(tagged);
      const tagSize = (b: Buffer) => ((b[6]! & 127) << 21) | ((b[7]! & 127) << 14) | ((b[8]! & 127) << 7) | (b[9]! & 127);
      const frames = audio.subarray(10 + tagSize(audio));
      const picture = Buffer.concat([Buffer.from('\x89PNG\r\n\x1a\n', 'latin1'), Buffer.alloc(EMBEDDED_ARTWORK_MAX_BYTES + 1 - 8, 7)]);
      const apicBody = Buffer.concat([Buffer.from([0]), Buffer.from('image/png\0', 'latin1'), Buffer.from([3, 0]), picture]);
      const frameHeader = Buffer.alloc(10);
      frameHeader.write('APIC', 0, 'latin1');
      frameHeader.writeUInt32BE(apicBody.length, 4);
      const body = Buffer.concat([frameHeader, apicBody]);
      const syncsafe = (n: number) => Buffer.from([(n >> 21) & 127, (n >> 14) & 127, (n >> 7) & 127, n & 127]);
      const huge = Buffer.concat([Buffer.from('ID3\x03\x00\x00', 'latin1'), syncsafe(body.length), body, frames]);
      const warn = vi.spyOn(app.log, 'warn');
      const created = await create(admin.cookie, { ...fields, filename: 'huge-cover.mp3' }, huge.length);
      const url = created.headers.get('location') ?? '';
      const done = await send(url, 0, huge);
      expect(done.status).toBe(200);
      const mix = await done.json();
      expect(mix.artworkUrl).toBeNull();
      expect(warn.mock.calls.some(([m]) => String(m).includes('embedded artwork') && String(m).includes('ignored'))).toBe(true);
      warn.mockRestore();
    });

    it('takes the upload id from the path only, never from the query string', async () => {
      const a = (await create(admin.cookie, fields, bytes.length)).headers.get('location') ?? '';
      const b = (await create(admin.cookie, fields, bytes.length - 1)).headers.get('location') ?? '';
      const idB = b.split('/').pop() ?? '';
      const head = await fetch(`${base}${a}?id=/${idB}`, { method: 'HEAD', headers: { ...tus, cookie: admin.cookie } });
      expect(head.status).toBe(200);
      expect(head.headers.get('upload-length')).toBe(String(bytes.length));
      // A DELETE of A naming B in its query ends A, and B stays.
      expect((await fetch(`${base}${a}?x=/${idB}`, { method: 'DELETE', headers: { ...tus, cookie: admin.cookie } })).status).toBe(204);
      expect((await fetch(`${base}${b}`, { method: 'HEAD', headers: { ...tus, cookie: admin.cookie } })).status).toBe(200);
      expect((await fetch(`${base}${a}`, { method: 'HEAD', headers: { ...tus, cookie: admin.cookie } })).status).toBe(404);
      await fetch(`${base}${b}`, { method: 'DELETE', headers: { ...tus, cookie: admin.cookie } });
    });

    it('cancels: DELETE drops the staged bytes', async () => {
      const created = await create();
      const url = created.headers.get('location') ?? '';
      await send(url, 0, bytes.subarray(0, 5000));
      expect(await staged()).toHaveLength(1);
      const del = await fetch(`${base}${url}`, { method: 'DELETE', headers: { ...tus, cookie: admin.cookie } });
      expect(del.status).toBe(204);
      expect(await staged()).toEqual([]);
      expect((await fetch(`${base}${url}`, { method: 'HEAD', headers: { ...tus, cookie: admin.cookie } })).status).toBe(404);
    });
  });
}

resumableSuite('local folder', async () => ({}));
const s3 = await startTestS3();
afterAll(() => s3.stop());
resumableSuite('S3 bucket', async () => s3.env);
