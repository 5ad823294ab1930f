import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { acrCloudSignature, recognizeAcrCloud, recognizeAudd, RecognizerError } from '../../src/server/modules/tracks/recognizers';
import { createTestApp } from '../support/app';

/** Loopback stand-ins answering in the providers' documented shapes (their public API references). */
interface Received {
  path: string;
  fields: Record<string, string>;
  fileBytes: number;
}
let received: Received[] = [];
let reply: { status?: number; body: unknown; delayMs?: number } = { body: {} };

const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    void (async () => {
      const form = await new Request('http://x', {
        method: 'POST',
        headers: { 'content-type': req.headers['content-type'] ?? '' },
        body: Buffer.concat(chunks),
      }).formData();
      const fields: Record<string, string> = {};
      let fileBytes = 0;
      for (const [k, v] of form.entries()) {
        if (typeof v === 'string') fields[k] = v;
        else fileBytes = v.size;
      }
      received.push({ path: req.url ?? '', fields, fileBytes });
      const send = () => {
        res.statusCode = reply.status ?? 200;
        res.setHeader('content-type', 'application/json');
        res.end(typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body));
      };
      if (reply.delayMs) setTimeout(send, reply.delayMs).unref();
      else send();
    })();
  });
});

await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

const sample = Buffer.alloc(20_000, 7);

const auddMatch = {
  status: 'success',
  result: {
    artist: 'Kerri Chandler',
    title: 'Rain',
    album: 'Trax On Da Rocks',
    release_date: '1998-01-01',
    label: 'Shelter Records',
    timecode: '01:12',
    song_link: 'https://lis.tn/Rain',
    apple_music: { artwork: { url: 'https://is1.example/{w}x{h}bb.jpg' }, genreNames: ['Deep House', 'Music'], durationInMillis: 402000 },
    spotify: {
      id: '3xyz',
      duration_ms: 401500,
      external_urls: { spotify: 'https://open.spotify.com/track/3xyz' },
      album: { images: [{ url: 'https://i.scdn.example/album.jpg', width: 640 }] },
      uri: 'spotify:track:3xyz',
    },
  },
};

describe('AudD adapter', () => {
  it('sends the standard request and maps a match', async () => {
    received = [];
    reply = { body: auddMatch };
    const rec = await recognizeAudd(sample, { apiUrl: `${origin}/`, apiToken: 'tok-123' });
    expect(received[0]?.fields).toMatchObject({ api_token: 'tok-123', return: 'apple_music,spotify' });
    expect(received[0]?.fileBytes).toBe(sample.byteLength);
    expect(rec).toEqual({
      title: 'Rain',
      artist: 'Kerri Chandler',
      album: 'Trax On Da Rocks',
      artwork: 'https://i.scdn.example/album.jpg',
      confidence: 100,
      service: 'audd',
      durationS: 402,
      releaseDate: '1998-01-01',
      isrc: null,
      label: 'Shelter Records',
      genre: 'Deep House',
      bpm: null,
      youtubeUrl: null,
      soundcloudUrl: null,
      spotifyUrl: 'https://open.spotify.com/track/3xyz',
    });
  });

  it('uses score as confidence when present', async () => {
    reply = { body: { ...auddMatch, result: { ...auddMatch.result, score: 73, spotify: undefined } } };
    const rec = await recognizeAudd(sample, { apiUrl: `${origin}/`, apiToken: 't' });
    expect(rec).toMatchObject({ confidence: 73, spotifyUrl: null, artwork: 'https://is1.example/300x300bb.jpg', durationS: 402 });
  });

  it('returns null for no match', async () => {
    reply = { body: { status: 'success', result: null } };
    expect(await recognizeAudd(sample, { apiUrl: `${origin}/`, apiToken: 't' })).toBeNull();
  });

  it('throws on an error reply, a non-JSON reply, an HTTP error and a timeout', async () => {
    reply = { body: { status: 'error', error: { error_code: 900, error_message: 'Recognition failed: wrong API token' } } };
    await expect(recognizeAudd(sample, { apiUrl: `${origin}/`, apiToken: 't' })).rejects.toThrow(/900.*wrong API token/);
    reply = { body: '<html>oops' };
    await expect(recognizeAudd(sample, { apiUrl: `${origin}/`, apiToken: 't' })).rejects.toBeInstanceOf(RecognizerError);
    reply = { status: 502, body: {} };
    await expect(recognizeAudd(sample, { apiUrl: `${origin}/`, apiToken: 't' })).rejects.toThrow(/502/);
    reply = { body: auddMatch, delayMs: 2000 };
    await expect(recognizeAudd(sample, { apiUrl: `${origin}/`, apiToken: 't', timeoutMs: 200 })).rejects.toThrow();
  });
});

const acrMatch = {
  status: { msg: 'Success', code: 0, version: '1.0' },
  metadata: {
    timestamp_utc: '2026-11-21 21:00:00',
    music: [
      {
        acrid: 'abc',
        title: 'Can You Feel It',
        artists: [{ name: 'Mr. Fingers' }, { name: 'Larry Heard' }],
        album: { name: 'Amnesia' },
        label: 'Trax',
        release_date: '1986-01-01',
        duration_ms: 312000,
        play_offset_ms: 1000,
        score: 91,
        genres: [{ name: 'House' }],
        external_ids: { isrc: 'X' },
        external_metadata: { spotify: { track: { id: '4abcdefghij12345', name: 'Can You Feel It' } }, youtube: { vid: 'dQw4w9WgXcQ' } },
      },
    ],
  },
};

describe('ACRCloud adapter', () => {
  const opts = () => ({ host: origin, accessKey: 'key-1', accessSecret: 'secret-1' });

  it('signs the identify request and maps a match', async () => {
    received = [];
    reply = { body: acrMatch };
    const now = new Date('2026-11-21T21:00:00Z');
    const rec = await recognizeAcrCloud(sample, opts(), now);
    const got = received[0];
    expect(got?.path).toBe('/v1/identify');
    expect(got?.fields).toMatchObject({ access_key: 'key-1', data_type: 'audio', signature_version: '1', sample_bytes: String(sample.byteLength) });
    expect(got?.fields.timestamp).toBe(String(now.getTime() / 1000));
    // The documented string to sign, recomputed here independently.
    const expected = createHmac('sha1', 'secret-1').update(`POST\n/v1/identify\nkey-1\naudio\n1\n${got?.fields.timestamp}`).digest('base64');
    expect(got?.fields.signature).toBe(expected);
    expect(acrCloudSignature('key-1', 'secret-1', got?.fields.timestamp ?? '')).toBe(expected);
    expect(got?.fileBytes).toBe(sample.byteLength);
    expect(rec).toMatchObject({
      title: 'Can You Feel It',
      artist: 'Mr. Fingers, Larry Heard',
      album: 'Amnesia',
      label: 'Trax',
      releaseDate: '1986-01-01',
      durationS: 312,
      confidence: 91,
      genre: 'House',
      service: 'acrcloud',
      youtubeUrl: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
      spotifyUrl: 'https://open.spotify.com/track/4abcdefghij12345',
      soundcloudUrl: null,
    });
  });

  it('returns null for code 1001 (no result)', async () => {
    reply = { body: { status: { msg: 'No result', code: 1001, version: '1.0' } } };
    expect(await recognizeAcrCloud(sample, opts())).toBeNull();
  });

  it('throws on an error code and on a timeout', async () => {
    reply = { body: { status: { msg: 'Invalid signature', code: 3014, version: '1.0' } } };
    await expect(recognizeAcrCloud(sample, opts())).rejects.toThrow(/3014.*Invalid signature/);
    reply = { body: acrMatch, delayMs: 2000 };
    await expect(recognizeAcrCloud(sample, { ...opts(), timeoutMs: 200 })).rejects.toThrow();
  });
});

describe('track monitor with RECOGNIZER=acrcloud', async () => {
  // Loopback mount: endless bytes for the capture.
  const mount = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'audio/mpeg' });
    const t = setInterval(() => res.write(Buffer.alloc(4096, 0xff)), 5);
    res.on('close', () => clearInterval(t));
  });
  await new Promise<void>((r) => mount.listen(0, '127.0.0.1', r));
  afterAll(async () => {
    mount.closeAllConnections();
    await new Promise((r) => mount.close(r));
  });
  const mountOrigin = `http://127.0.0.1:${(mount.address() as AddressInfo).port}`;
  const app = await createTestApp({
    RECOGNIZER: 'acrcloud',
    // The loopback stand-in above, as a full origin.
    ACRCLOUD_HOST: origin,
    ACRCLOUD_ACCESS_KEY: 'key-2',
    ACRCLOUD_ACCESS_SECRET: 'secret-2',
    DHR1_STREAM_URL: `${mountOrigin}/dhr1`,
  });
  app.modules.trackMonitor.sampleSeconds = 1;

  it('stores the ACRCloud match with its score, YouTube and Spotify links', async () => {
    received = [];
    reply = { body: acrMatch };
    await app.modules.nowPlaying.publish({
      channel: 'dhr1',
      online: true,
      artist: 'DHR',
      title: 'Live Mix',
      album: '',
      current_track: 'DHR - Live Mix',
      listeners: 1,
      bitrate: 128,
    });
    const row = await app.modules.trackMonitor.checkChannel('dhr1');
    expect(received).toHaveLength(1);
    // One second at 128 kbit/s, signed with this app's key.
    expect(received[0]?.fileBytes).toBe(16_000);
    expect(received[0]?.fields.access_key).toBe('key-2');
    expect(received[0]?.fields.signature).toBe(acrCloudSignature('key-2', 'secret-2', received[0]?.fields.timestamp ?? ''));
    expect(row).toMatchObject({
      service: 'acrcloud',
      confidence: 91,
      artist: 'Mr. Fingers, Larry Heard',
      youtubeUrl: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
    });
    // No result: the stream metadata stands in.
    reply = { body: { status: { msg: 'No result', code: 1001, version: '1.0' } } };
    expect(await app.modules.trackMonitor.checkChannel('dhr1')).toMatchObject({ service: 'icecast-metadata', artist: 'DHR', title: 'Live Mix' });
  });
});
