import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { S3MediaStorage } from '../../src/server/lib/storage/s3-storage';
import { createMediaStorage } from '../../src/server/lib/storage/storage-plugin';
import { loadConfig } from '../../src/server/config';
import { patternBytes, patternStream, readAll, storageContract } from '../support/media-storage-contract';
import { startTestS3 } from '../support/s3';

const s3 = await startTestS3();
afterAll(() => s3.stop());

describe('S3 media storage (against a real s3rver)', () => {
  const storage = createMediaStorage(loadConfig(s3.env));
  storageContract(() => storage);

  it('is chosen when S3_BUCKET is set and names its bucket', () => {
    expect(storage).toBeInstanceOf(S3MediaStorage);
    expect(storage.driver).toBe('s3');
    expect(storage.location).toBe(`${s3.bucket} at ${s3.endpoint}`);
  });

  it('streams a file larger than one part as a multipart upload', async () => {
    const size = 8 * 1024 * 1024 + 300_001;
    const stored = await storage.put('mixes/multipart.flac', patternStream(size), { contentType: 'audio/flac', maxBytes: size });
    expect(stored.size).toBe(size);
    const tail = await readAll(await storage.open('mixes/multipart.flac', { start: size - 10, end: size - 1 }));
    expect(tail).toEqual(patternBytes(size).subarray(size - 10));
  });

  it('refuses an oversize multipart upload and leaves no object', async () => {
    const max = 9 * 1024 * 1024;
    await expect(storage.put('mixes/too-big-multi.mp3', patternStream(max + 1), { contentType: 'audio/mpeg', maxBytes: max })).rejects.toThrow(/larger than/);
    expect(await storage.stat('mixes/too-big-multi.mp3')).toBeNull();
  });

  it('signs a GET URL that serves the bytes, with ranges and the download name, and stops working once expired', async () => {
    await storage.put('mixes/signed.mp3', Readable.from([patternBytes(5000)]), { contentType: 'audio/mpeg', maxBytes: 10_000 });
    const url = await storage.presignedGetUrl('mixes/signed.mp3', { expiresInS: 60, downloadName: 'Midnight Drift – Lena Vos.mp3' });
    expect(url).toMatch(/X-Amz-Signature=/);
    const whole = await fetch(url ?? '');
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toBe('audio/mpeg');
    expect(whole.headers.get('content-disposition')).toContain('attachment; filename="Midnight Drift _ Lena Vos.mp3"');
    expect(Buffer.from(await whole.arrayBuffer())).toEqual(patternBytes(5000));
    const part = await fetch(url ?? '', { headers: { range: 'bytes=100-199' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe('bytes 100-199/5000');

    // s3rver does not verify V4 signature bytes (its docs say so); expiry it does check.
    const expiring = await storage.presignedGetUrl('mixes/signed.mp3', { expiresInS: 1 });
    await new Promise((r) => setTimeout(r, 2100));
    expect((await fetch(expiring ?? '')).status).toBe(403);
  });

  it('reports a bucket that does not exist as unreachable', async () => {
    const missing = createMediaStorage(loadConfig({ ...s3.env, S3_BUCKET: 'no-such-bucket' }));
    expect((await missing.reachable()).ok).toBe(false);
  });
});

describe('S3 configuration', () => {
  it('needs a bucket when an endpoint or keys are set, and both keys or neither', () => {
    expect(() => loadConfig({ S3_ENDPOINT: 'http://127.0.0.1:9000' })).toThrow(/S3_BUCKET/);
    expect(() => loadConfig({ S3_BUCKET: 'media', S3_ACCESS_KEY_ID: 'key' })).toThrow(/S3_SECRET_ACCESS_KEY/);
    expect(createMediaStorage(loadConfig({ DATA_DIR: '/tmp/x' })).driver).toBe('local');
  });
});
