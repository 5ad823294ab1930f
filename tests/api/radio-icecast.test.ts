import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../support/app';
import { startIcecast } from '../../scripts/lib/icecast';
import { hasIcecast, ICECAST_INSTALL_HINT, radioEnv, startTestRadio } from '../support/icecast';

if (!hasIcecast) console.warn(`Skipping the real Icecast tests: ${ICECAST_INSTALL_HINT}`);

/** Polls `probe` until it returns true (Icecast applies a title change a moment after the admin call). */
async function eventually(what: string, probe: () => Promise<boolean>, ms = 8000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.skipIf(!hasIcecast)('against a real icecast2 fed by ffmpeg', async () => {
  // One mount first: status-json.xsl then has `source` as an object.
  const radio = await startTestRadio(['dhr1'], { dhr1: 'Kerri Chandler - Rain' });

  /** Loopback AudD that records the sample it gets and never matches (the monitor then uses the stream title). */
  const samples: Buffer[] = [];
  const audd = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const form = await new Request('http://x', {
          method: 'POST',
          headers: { 'content-type': req.headers['content-type'] ?? '' },
          body: Buffer.concat(chunks),
        }).formData();
        const file = form.get('file');
        if (file && typeof file !== 'string') samples.push(Buffer.from(await file.arrayBuffer()));
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ status: 'success', result: null }));
      })();
    });
  });
  await new Promise<void>((r) => audd.listen(0, '127.0.0.1', r));
  afterAll(async () => {
    audd.closeAllConnections();
    await new Promise((r) => audd.close(r));
  });

  const app = await createTestApp({
    ...radioEnv(radio),
    RECOGNIZER: 'audd',
    AUDD_API_URL: `http://127.0.0.1:${(audd.address() as AddressInfo).port}/`,
    AUDD_API_TOKEN: 'local',
  });
  const metadata = async (channel: string) => app.inject({ method: 'GET', url: `/api/live-metadata/${channel}` });

  it('reads one mount (object shape) and follows a title change', async () => {
    await eventually('the first title', async () => {
      await app.modules.nowPlaying.pollOnce();
      const res = await metadata('dhr1');
      return res.statusCode === 200 && res.json<{ title: string }>().title === 'Rain';
    });
    expect((await metadata('dhr1')).json()).toMatchObject({ artist: 'Kerri Chandler', title: 'Rain', current_track: 'Kerri Chandler - Rain' });
    expect((await metadata('dhr2')).statusCode).toBe(503);

    await radio.setTitle('dhr1', 'Moodymann - Shades Of Jae');
    await eventually('the new title', async () => {
      await app.modules.nowPlaying.pollOnce();
      return (await metadata('dhr1')).json<{ title: string }>().title === 'Shades Of Jae';
    });
  });

  it('pushes an Icecast title change to SSE clients with the poller running', async () => {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const port = (app.server.address() as AddressInfo).port;
    const seen: string[] = [];
    const req = http.get(`http://127.0.0.1:${port}/api/live/events`, { agent: false }, (res) => {
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => seen.push(chunk));
    });
    try {
      app.modules.nowPlaying.start(200);
      await radio.setTitle('dhr1', 'Larry Heard - Can You Feel It');
      await eventually('the SSE event', async () => seen.join('').includes('"title":"Can You Feel It"'));
      expect(seen.join('')).toContain('event: now-playing');
    } finally {
      req.destroy();
    }
  });

  it('reads two mounts (array shape)', async () => {
    await radio.startFeed('dhr2');
    await radio.setTitle('dhr2', 'Ron Trent - Altered States');
    await eventually('dhr2 on air', async () => {
      await app.modules.nowPlaying.pollOnce();
      const res = await metadata('dhr2');
      return res.statusCode === 200 && res.json<{ title: string }>().title === 'Altered States';
    });
    const status = (await radio.status()) as { icestats: { source: unknown } };
    expect(Array.isArray(status.icestats.source)).toBe(true);
    expect((await metadata('dhr1')).json()).toMatchObject({ artist: 'Larry Heard' });
  });

  it('the monitor captures real MP3 audio from the mount and falls back to its title', async () => {
    app.modules.trackMonitor.sampleSeconds = 1;
    const row = await app.modules.trackMonitor.checkChannel('dhr2');
    expect(samples).toHaveLength(1);
    const sample = samples[0] ?? Buffer.alloc(0);
    // About one second at 128 kbit/s.
    expect(sample.byteLength).toBe(16_000);
    // MP3 frame sync (11 set bits) appears in what was captured.
    const hasFrameSync = sample.some((b, i) => b === 0xff && i + 1 < sample.length && ((sample[i + 1] ?? 0) & 0xe0) === 0xe0);
    expect(hasFrameSync).toBe(true);
    expect(row).toMatchObject({ channel: 'dhr2', artist: 'Ron Trent', title: 'Altered States', service: 'icecast-metadata' });
  });

  it('takes a channel off air when its source stops', async () => {
    await radio.stopFeed('dhr2');
    await app.modules.nowPlaying.pollOnce();
    const res = await metadata('dhr2');
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ error: { code: 'channel_offline' } });
    expect((await metadata('dhr1')).statusCode).toBe(200);
  });
});

describe.skipIf(!hasIcecast)('starting icecast2 on a port something else holds', () => {
  it('is not fooled by another server answering the status page there', async () => {
    // Another Icecast (a parallel test's) on the picked port: ours cannot bind it and exits, yet the
    // status page answers. The start must fail (and a caller's retry pick another port), not go on.
    const impostor = http.createServer((_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ icestats: { location: 'DHR local radio', source: [] } }));
    });
    await new Promise<void>((r) => impostor.listen(0, '127.0.0.1', r));
    const port = (impostor.address() as AddressInfo).port;
    try {
      await expect(startIcecast({ port })).rejects.toThrow(new RegExp(`(exited|another server answers).*on port ${port}`));
    } finally {
      impostor.closeAllConnections();
      await new Promise((r) => impostor.close(r));
    }
  });
});
