import { Readable } from 'node:stream';
import { expect, it } from 'vitest';
import { MediaNotFoundError, MediaTooLargeError, type MediaStorage } from '../../src/server/lib/storage/media-storage';

/** Bytes 0..n-1 with a recognisable pattern. */
export function patternBytes(n: number): Buffer {
  const b = Buffer.alloc(n);
  for (let i = 0; i < n; i++) b[i] = (i * 31 + 7) & 0xff;
  return b;
}

/** Yields `total` bytes of the pattern in chunks, never holding them all. */
export function patternStream(total: number, chunk = 64 * 1024): Readable {
  let sent = 0;
  return new Readable({
    read() {
      if (sent >= total) return this.push(null);
      const n = Math.min(chunk, total - sent);
      const b = Buffer.alloc(n);
      for (let i = 0; i < n; i++) b[i] = ((sent + i) * 31 + 7) & 0xff;
      sent += n;
      this.push(b);
    },
  });
}

export async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const c of stream) parts.push(Buffer.isBuffer(c) ? c : Buffer.from(c));
  return Buffer.concat(parts);
}

/** The behaviour every MediaStorage driver must have; each driver's test file runs it against a real backend. */
export function storageContract(storage: () => MediaStorage) {
  it('stores a stream and reads it back whole and by byte range', async () => {
    const s = storage();
    const size = 300_000;
    const stored = await s.put('mixes/contract-a.mp3', patternStream(size), { contentType: 'audio/mpeg', maxBytes: size });
    expect(stored).toMatchObject({ key: 'mixes/contract-a.mp3', size, contentType: 'audio/mpeg' });
    expect(await readAll(await s.open('mixes/contract-a.mp3'))).toEqual(patternBytes(size));
    const part = await readAll(await s.open('mixes/contract-a.mp3', { start: 1000, end: 1999 }));
    expect(part).toEqual(patternBytes(size).subarray(1000, 2000));
    const last = await readAll(await s.open('mixes/contract-a.mp3', { start: size - 1, end: size - 1 }));
    expect(last).toEqual(patternBytes(size).subarray(size - 1));
    expect(await s.stat('mixes/contract-a.mp3')).toMatchObject({ size, contentType: 'audio/mpeg' });
  });

  it('refuses a stream over the size cap and stores nothing', async () => {
    const s = storage();
    const before = await s.usage();
    await expect(s.put('mixes/too-big.mp3', patternStream(200_001), { contentType: 'audio/mpeg', maxBytes: 200_000 })).rejects.toBeInstanceOf(
      MediaTooLargeError,
    );
    expect(await s.stat('mixes/too-big.mp3')).toBeNull();
    expect(await s.usage()).toEqual(before);
  });

  it('replaces an object whole, deletes it, and counts usage by prefix', async () => {
    const s = storage();
    await s.put('images/0123456789abcdef.png', Readable.from([Buffer.from('first version')]), { contentType: 'image/png', maxBytes: 1000 });
    await s.put('images/0123456789abcdef.png', Readable.from([Buffer.from('second')]), { contentType: 'image/png', maxBytes: 1000 });
    expect((await readAll(await s.open('images/0123456789abcdef.png'))).toString()).toBe('second');
    expect(await s.usage('images/')).toEqual({ bytes: 6, objects: 1 });
    await s.delete('images/0123456789abcdef.png');
    await s.delete('images/0123456789abcdef.png');
    expect(await s.stat('images/0123456789abcdef.png')).toBeNull();
    expect(await s.usage('images/')).toEqual({ bytes: 0, objects: 0 });
    await expect(s.open('images/0123456789abcdef.png')).rejects.toBeInstanceOf(MediaNotFoundError);
  });

  it('refuses keys that could escape or that name no media type, and a type that is not the key’s', async () => {
    const s = storage();
    for (const key of ['../x.mp3', 'mixes/../../x.mp3', '/abs.mp3', 'mixes/.hidden.mp3', 'mixes/x.svg', 'mixes/x', 'a\\b.mp3', '']) {
      await expect(s.put(key, Readable.from([Buffer.from('x')]), { contentType: 'audio/mpeg', maxBytes: 10 }), key).rejects.toThrow(/Invalid media key/);
      await expect(s.stat(key), key).rejects.toThrow(/Invalid media key/);
    }
    await expect(s.put('mixes/x.mp3', Readable.from([Buffer.from('x')]), { contentType: 'text/html', maxBytes: 10 })).rejects.toThrow(/Invalid media key/);
  });

  it('says it is reachable', async () => {
    expect(await storage().reachable()).toEqual({ ok: true, error: null });
  });
}
