import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalMediaStorage } from '../../src/server/lib/storage/local-storage';
import { createTestApp } from '../support/app';
import { storageContract } from '../support/media-storage-contract';

const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'dhr-media-'));
afterAll(() => fs.rm(dataDir, { recursive: true, force: true }));

describe('local media storage', () => {
  const storage = new LocalMediaStorage(path.join(dataDir, 'contract'));
  storageContract(() => storage);

  it('leaves no temporary file behind after a refused upload', async () => {
    await expect(storage.put('mixes/refused.wav', Readable.from([Buffer.alloc(50)]), { contentType: 'audio/wav', maxBytes: 10 })).rejects.toThrow();
    expect(await fs.readdir(path.join(dataDir, 'contract', '.incoming'))).toEqual([]);
  });

  it('reports an unwritable folder as unreachable', async () => {
    const file = path.join(dataDir, 'not-a-folder');
    await fs.writeFile(file, 'x');
    const broken = new LocalMediaStorage(path.join(file, 'media'));
    expect((await broken.reachable()).ok).toBe(false);
  });
});

describe('GET /media/images/:name', async () => {
  const app = await createTestApp({ DATA_DIR: dataDir });
  const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
  const name = `${createHash('sha256').update(png).digest('hex')}.png`;
  await app.mediaStorage.put(`images/${name}`, Readable.from([png]), { contentType: 'image/png', maxBytes: 1024 });

  it('is the configured local storage under DATA_DIR/media', () => {
    expect(app.mediaStorage.driver).toBe('local');
    expect(app.mediaStorage.location).toBe(path.join(dataDir, 'media'));
  });

  it('serves a stored image with its type and immutable caching', async () => {
    const res = await app.inject({ method: 'GET', url: `/media/images/${name}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['content-length']).toBe(String(png.length));
    expect(res.rawPayload).toEqual(png);
    const again = await app.inject({ method: 'GET', url: `/media/images/${name}`, headers: { 'if-none-match': String(res.headers.etag) } });
    expect(again.statusCode).toBe(304);
  });

  it('answers 404 for an unknown image and 400 for a name that is not a hash and an image extension', async () => {
    const missing = await app.inject({ method: 'GET', url: `/media/images/${'a'.repeat(64)}.png` });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error.code).toBe('not_found');
    for (const bad of ['..%2F..%2Fdb.png', 'abc.png', `${'a'.repeat(64)}.svg`, `${'A'.repeat(64)}.png`, `${'a'.repeat(64)}.png.exe`, `${'a'.repeat(64)}`]) {
      const res = await app.inject({ method: 'GET', url: `/media/images/${bad}` });
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().error.code).toBe('validation_error');
    }
  });

  it('serves nothing outside the images prefix', async () => {
    await app.mediaStorage.put(`mixes/${'b'.repeat(64)}.png`, Readable.from([png]), { contentType: 'image/png', maxBytes: 1024 });
    const res = await app.inject({ method: 'GET', url: `/media/images/${'b'.repeat(64)}.png` });
    expect(res.statusCode).toBe(404);
  });
});
