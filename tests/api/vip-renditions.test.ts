import { execFileSync } from 'node:child_process';
import { openAsBlob } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { eq, and, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { parseBuffer } from 'music-metadata';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { MIX_MESSAGES, streamLimitMessage } from '../../src/contracts/mixes';
import { buildApp } from '../../src/server/app';
import { mixStreamVolume, users, vipMixes } from '../../src/server/db/schema';
import { RenditionWorker } from '../../src/server/modules/mixes/rendition-service';
import { streamedBytes } from '../../src/server/modules/mixes/mixes-repository';
import { startOfDayDublin } from '../../src/server/lib/dates';
import { MAX_MEDIA_ANSWERS_IN_FLIGHT, MEDIA_ANSWER_STALE_MS, StreamVolume, type VolumeReservation } from '../../src/server/modules/mixes/stream-volume';
import { createTestApp, memberWithRole, type TestMember } from '../support/app';
import { startTestS3 } from '../support/s3';

/** A 320 kbit/s master made by ffmpeg: 20 s of pink noise (noise keeps the encoder at its bitrate). */
const work = await fs.mkdtemp(path.join(os.tmpdir(), 'dhr-renditions-'));
afterAll(() => fs.rm(work, { recursive: true, force: true }));
const master = path.join(work, 'master.mp3');
execFileSync('ffmpeg', [
  '-hide_banner',
  '-loglevel',
  'error',
  '-y',
  '-f',
  'lavfi',
  '-i',
  'anoisesrc=d=20:c=pink:a=0.3',
  '-ac',
  '2',
  '-ar',
  '44100',
  '-c:a',
  'libmp3lame',
  '-b:a',
  '320k',
  master,
]);
const masterBytes = await fs.readFile(master);

/** Daily streaming volume in these tests: less than one listening copy of the master (20 s at 128 kbit/s ≈ 320 KB). */
const LIMIT_MB = 0.2;
const silent = { info: () => undefined, warn: () => undefined };

function renditionSuite(name: string, env: () => Promise<Record<string, string>>) {
  describe(`listening copies and session-bound links (${name})`, async () => {
    const dataDir = await fs.mkdtemp(path.join(work, 'data-'));
    // One media-link key, so that a link made by one instance is good on the other.
    const app = await createTestApp({
      DATA_DIR: dataDir,
      MIX_STREAM_DAILY_MB: String(LIMIT_MB),
      STREAM_AUTH_KEY: 'renditions-test-media-key',
      ...(await env()),
    });
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    const { db } = app.database;
    // A second instance on the same database: PostgreSQL through its own pool, PGlite sharing the database object.
    const second: FastifyInstance = await buildApp({ ...app.config }, { logger: false, ...(app.config.DATABASE_URL ? {} : { database: app.database }) });
    const secondBase = await second.listen({ port: 0, host: '127.0.0.1' });
    afterAll(() => second.close());
    const admin = await memberWithRole(app, 'admin');
    const get = (url: string, who?: TestMember, headers: Record<string, string> = {}) =>
      app.inject({ url, headers: { ...(who ? { cookie: who.cookie } : {}), ...headers } });
    const adminMix = async (id: string) => (await get('/api/admin/vip-mixes', admin)).json().find((m: { id: string }) => m.id === id);
    const streamUrl = async (who: TestMember, id: string) => {
      const res = await get(`/api/stream/${id}`, who);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().streamUrl as string;
    };

    // The upload route: the mix is stored and its listening copy queued.
    const body = new FormData();
    for (const [k, v] of Object.entries({ title: 'Loud Noise', artist: 'Pink', genre: 'minimal' })) body.set(k, v);
    body.set('file', await openAsBlob(master), 'master.mp3');
    const uploaded = await fetch(`${base}/api/admin/vip-mixes`, { method: 'POST', body, headers: { cookie: admin.cookie, origin: base } });
    const mix = (await uploaded.json()) as { id: string; rendition: unknown; bitrateKbps: number };

    it('queues a listening copy at upload; until it is ready DHR1 gets the clear message and a VIP plays the master', async () => {
      expect(uploaded.status).toBe(201);
      expect(mix.bitrateKbps).toBe(320);
      expect(mix.rendition).toEqual({ state: 'queued', percent: 0, error: null });
      const dhr1 = await memberWithRole(app, 'dhr1');
      const waiting = await get(`/api/stream/${mix.id}`, dhr1);
      expect(waiting.statusCode).toBe(409);
      expect(waiting.json().error).toEqual({ code: 'listening_copy_pending', message: MIX_MESSAGES.listeningCopyPending });
      const vip = await memberWithRole(app, 'vip');
      const res = await get(await streamUrl(vip, mix.id), vip, { range: 'bytes=0-9' });
      expect(res.statusCode).toBe(206);
      expect(res.headers['content-range']).toBe(`bytes 0-9/${masterBytes.length}`);
      expect(res.rawPayload).toEqual(masterBytes.subarray(0, 10));
    });

    it("renders it (with the demo mixes made before) and DHR1's stream bytes are the listening copy, never the master", async () => {
      expect(await app.modules.mixes.renditions.drain()).toBeGreaterThanOrEqual(7);
      const listed = await adminMix(mix.id);
      expect(listed.rendition).toEqual({ state: 'ready', percent: 100, error: null });
      for (const m of (await get('/api/admin/vip-mixes', admin)).json()) expect(m.rendition.state, m.id).toBe('ready');

      const dhr1 = await memberWithRole(app, 'dhr1');
      const res = await get(await streamUrl(dhr1, mix.id), dhr1);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('audio/mpeg');
      const bytes = res.rawPayload;
      expect(bytes.length).toBeLessThan(0.6 * masterBytes.length);
      expect(bytes.subarray(0, 4096).equals(masterBytes.subarray(0, 4096))).toBe(false);
      const meta = await parseBuffer(bytes, { mimeType: 'audio/mpeg', size: bytes.length });
      expect(meta.format.bitrate).toBeLessThanOrEqual(160_000);
      expect(meta.format.duration).toBeGreaterThan(19);
      // The master stays the download's, for VIPs within their limit.
      const vip = await memberWithRole(app, 'vip');
      const grant = await app.inject({ method: 'POST', url: `/api/download/${mix.id}`, headers: { cookie: vip.cookie }, payload: { userId: vip.user.id } });
      const file = await get(grant.json().downloadUrl, vip);
      expect(file.statusCode).toBe(200);
      expect(file.rawPayload.equals(masterBytes)).toBe(true);
    });

    it('counts a play per stream link, at most once an hour per member and mix, and shows it to admins', async () => {
      const before = (await adminMix(mix.id)).plays;
      const a = await memberWithRole(app, 'dhr1');
      const b = await memberWithRole(app, 'dhr1');
      await Promise.all([streamUrl(a, mix.id), streamUrl(a, mix.id), streamUrl(a, mix.id)]);
      await streamUrl(b, mix.id);
      expect((await adminMix(mix.id)).plays).toBe(before + 2);
    });

    it('refuses a link used without the session that asked for it (403)', async () => {
      const dhr1 = await memberWithRole(app, 'dhr1');
      const other = await memberWithRole(app, 'dhr1');
      const url = await streamUrl(dhr1, mix.id);
      for (const who of [undefined, other]) {
        const res = await get(url, who, { range: 'bytes=0-9' });
        expect(res.statusCode).toBe(403);
        expect(res.json().error).toEqual({ code: 'invalid_media_token', message: MIX_MESSAGES.linkExpired });
      }
      // Over real HTTP too: curl without the cookie gets nothing.
      expect((await fetch(`${base}${url}`)).status).toBe(403);
      expect((await fetch(`${base}${url}`, { headers: { cookie: dhr1.cookie, range: 'bytes=0-9' } })).status).toBe(206);
    });

    it("refuses a downgraded member's old stream and download links (403)", async () => {
      const vip = await memberWithRole(app, 'vip');
      const stream = await streamUrl(vip, mix.id);
      const grant = await app.inject({ method: 'POST', url: `/api/download/${mix.id}`, headers: { cookie: vip.cookie }, payload: { userId: vip.user.id } });
      const download = grant.json().downloadUrl as string;
      expect((await get(download, vip, { range: 'bytes=0-9' })).statusCode).toBe(206);
      // VIP → DHR1: still plays, no longer downloads.
      await db.update(users).set({ subscriptionTier: 'dhr1' }).where(eq(users.id, vip.user.id));
      expect((await get(stream, vip, { range: 'bytes=0-9' })).statusCode).toBe(206);
      const noDownload = await get(download, vip);
      expect(noDownload.statusCode).toBe(403);
      expect(noDownload.json().error.message).toBe(MIX_MESSAGES.vipRequiredForDownloads);
      // → free: neither.
      await db.update(users).set({ subscriptionTier: 'free' }).where(eq(users.id, vip.user.id));
      const noStream = await get(stream, vip, { range: 'bytes=0-9' });
      expect(noStream.statusCode).toBe(403);
      expect(noStream.json().error.message).toBe(MIX_MESSAGES.playRequiresSubscription);
      expect((await get(download, vip)).statusCode).toBe(403);
    });

    it('stops a member at the daily streaming volume with 429, the reset time and Retry-After', async () => {
      const dhr1 = await memberWithRole(app, 'dhr1');
      const url = await streamUrl(dhr1, mix.id);
      // Small ranges add up only to what was sent.
      expect((await get(url, dhr1, { range: 'bytes=0-999' })).statusCode).toBe(206);
      expect((await get(url, dhr1)).statusCode).toBe(200);
      // The bytes sent are added as the answer ends.
      await vi.waitFor(async () => expect((await get(url, dhr1, { range: 'bytes=0-9' })).statusCode).toBe(429));
      const refused = await get(url, dhr1, { range: 'bytes=0-9' });
      expect(refused.json().error).toEqual({ code: 'stream_limit_reached', message: streamLimitMessage(LIMIT_MB) });
      expect(refused.json().error.message).toContain('Dublin time');
      const retryAfter = Number(refused.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(25 * 3600);
      // A new link says so too, and counts no play.
      const plays = (await adminMix(mix.id)).plays;
      expect((await get(`/api/stream/${mix.id}`, dhr1)).statusCode).toBe(429);
      expect((await adminMix(mix.id)).plays).toBe(plays);
      // Another member is not affected.
      const other = await memberWithRole(app, 'dhr1');
      expect((await get(await streamUrl(other, mix.id), other, { range: 'bytes=0-9' })).statusCode).toBe(206);
    });

    it('reserves each answer in the daily volume as it is admitted: 20 parallel ranges over two instances never pass the cap by more than one answer', async () => {
      const member = await memberWithRole(app, 'dhr1');
      const url = await streamUrl(member, mix.id);
      const limit = LIMIT_MB * 1024 * 1024;
      const piece = 40_000;
      const headers = { cookie: member.cookie, range: `bytes=0-${piece - 1}` };
      // Every other range goes to the other instance (round robin).
      const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? second : app).inject({ url, headers })));
      const admitted = answers.filter((a) => a.statusCode === 206);
      for (const a of answers) expect([206, 429], a.body.slice(0, 200)).toContain(a.statusCode);
      const sent = admitted.reduce((n, a) => n + a.rawPayload.length, 0);
      expect(admitted.length).toBeGreaterThan(0);
      expect(admitted.length).toBeLessThan(20);
      // Without the shared reservation each instance would admit up to the cap (and all 20 on one reading).
      expect(sent).toBeLessThanOrEqual(limit + piece);
      for (const a of answers.filter((x) => x.statusCode === 429)) {
        expect(['stream_limit_reached', 'too_many_streams']).toContain(a.json().error.code);
        expect(Number(a.headers['retry-after'])).toBeGreaterThan(0);
      }
      // What the admitted answers sent is what counts once they have ended; none is left in flight.
      // (Each answer's end is written when its response closes, after the client has its bytes: wait for both.)
      await vi.waitFor(
        async () => {
          expect(await streamedBytes(db, member.user.id, startOfDayDublin(new Date()))).toBe(sent);
          const [row] = await db.select().from(mixStreamVolume).where(eq(mixStreamVolume.userId, member.user.id));
          expect(row?.answers).toEqual({});
        },
        { timeout: 8000, interval: 100 },
      );
      // Past the cap on one instance is past it on the other.
      if (sent >= limit) for (const one of [app, second]) expect((await one.inject({ url, headers })).json().error.code).toBe('stream_limit_reached');
    });

    it('keeps at most 3 answers of a member in flight across instances: the fourth gets 429 with Retry-After; an aborted answer gives back what it did not send', async () => {
      const member = await memberWithRole(app, 'dhr1');
      const url = await streamUrl(member, mix.id);
      const day = startOfDayDublin(new Date());
      const piece = 50_000; // three of them stay under the cap (LIMIT_MB)
      // Answers that send 1,000 bytes and then wait (a listener who paused), on both instances.
      const held: PassThrough[] = [];
      const slowOpen = async () => {
        const body = new PassThrough();
        body.write(Buffer.alloc(1000));
        held.push(body);
        return body;
      };
      const spies = [vi.spyOn(app.mediaStorage, 'open').mockImplementation(slowOpen), vi.spyOn(second.mediaStorage, 'open').mockImplementation(slowOpen)];
      const aborts: AbortController[] = [];
      const open = async (where: string) => {
        const abort = new AbortController();
        aborts.push(abort);
        return fetch(where + url, { headers: { cookie: member.cookie, range: `bytes=0-${piece - 1}` }, signal: abort.signal });
      };
      try {
        const inFlight = [await open(base), await open(secondBase), await open(base)];
        for (const r of inFlight) expect(r.status).toBe(206);
        expect(await streamedBytes(db, member.user.id, day)).toBe(3 * piece);
        for (const where of [secondBase, base]) {
          const fourth = await open(where);
          expect(fourth.status).toBe(429);
          expect(((await fourth.json()) as { error: { code: string } }).error.code).toBe('too_many_streams');
          expect(Number(fourth.headers.get('retry-after'))).toBeGreaterThan(0);
        }
        // The listener leaves the first answer after its first 1,000 bytes: the rest of its length is given back.
        const reader = inFlight[0]!.body!.getReader();
        await reader.read();
        aborts[0]!.abort();
        await vi.waitFor(async () => expect(await streamedBytes(db, member.user.id, day)).toBeLessThan(2 * piece + 5_000), { timeout: 8000, interval: 100 });
        const counted = await streamedBytes(db, member.user.id, day);
        expect(counted).toBeGreaterThanOrEqual(2 * piece + 1000);
        // Its place is free again, on either instance.
        const next = await open(secondBase);
        expect(next.status).toBe(206);
      } finally {
        for (const a of aborts) a.abort();
        for (const b of held) b.end();
        for (const s of spies) s.mockRestore();
      }
      await vi.waitFor(
        async () => {
          const [row] = await db.select().from(mixStreamVolume).where(eq(mixStreamVolume.userId, member.user.id));
          expect(row?.answers).toEqual({});
        },
        { timeout: 8000, interval: 100 },
      );
    });

    it('counts the answers of two instances together, ends each once, and lets a crashed instance block a member only until its answers are stale', async () => {
      const member = await memberWithRole(app, 'dhr1');
      const [one, other] = [new StreamVolume(db), new StreamVolume(second.database.db)];
      const day = new Date('2026-01-01T00:00:00Z');
      const held = await Promise.all(Array.from({ length: 6 }, (_, i) => (i % 2 ? other : one).reserve(member.user.id, day, 100, 1_000_000)));
      expect(held.filter((h) => typeof h === 'object')).toHaveLength(MAX_MEDIA_ANSWERS_IN_FLIGHT);
      expect(held.filter((h) => h === 'busy')).toHaveLength(6 - MAX_MEDIA_ANSWERS_IN_FLIGHT);
      expect(await one.used(member.user.id, day)).toBe(300);
      const first = held.find((h): h is VolumeReservation => typeof h === 'object') as VolumeReservation;
      first.end(40);
      first.end(100); // once only
      await Promise.all([one.settled(), other.settled()]);
      expect(await other.used(member.user.id, day)).toBe(240);
      expect(typeof (await other.reserve(member.user.id, day, 100, 1_000_000))).toBe('object');
      expect(await one.reserve(member.user.id, day, 100, 1_000_000)).toBe('busy');
      // Over the limit: refused as over, whatever is in flight.
      expect(await one.reserve(member.user.id, day, 100, 200)).toBe('over');
      // An instance that stopped with three answers in flight: once they are older than the bound they no longer count.
      const crashed = await db
        .update(mixStreamVolume)
        .set({
          answers: sql`(select jsonb_object_agg(e.key, to_jsonb((e.value)::bigint - ${MEDIA_ANSWER_STALE_MS + 1000})) from jsonb_each(${mixStreamVolume.answers}) e)`,
        })
        .where(and(eq(mixStreamVolume.userId, member.user.id), eq(mixStreamVolume.day, day)))
        .returning();
      expect(Object.keys(crashed[0]!.answers)).toHaveLength(MAX_MEDIA_ANSWERS_IN_FLIGHT);
      const after = await other.reserve(member.user.id, day, 100, 1_000_000);
      expect(typeof after).toBe('object');
      // The stale ones were dropped on the way.
      const [row] = await db
        .select()
        .from(mixStreamVolume)
        .where(and(eq(mixStreamVolume.userId, member.user.id), eq(mixStreamVolume.day, day)));
      expect(Object.keys(row!.answers)).toHaveLength(1);
    });

    it('takes over a copy a stopped instance left running, leaves a live one alone, and renders each mix once across workers', async () => {
      const ids = (await db.select({ id: vipMixes.id }).from(vipMixes)).map((r) => r.id).filter((id) => id !== mix.id);
      const [dead, live] = ids;
      await db.update(vipMixes).set({ renditionState: 'queued', renditionPercent: 0 });
      await db
        .update(vipMixes)
        .set({ renditionState: 'running', renditionPercent: 40, renditionLeaseUntil: new Date(Date.now() - 1000) })
        .where(eq(vipMixes.id, dead ?? ''));
      await db
        .update(vipMixes)
        .set({ renditionState: 'running', renditionPercent: 40, renditionLeaseUntil: new Date(Date.now() + 3_600_000) })
        .where(eq(vipMixes.id, live ?? ''));
      // Two instances' workers at once.
      const other = new RenditionWorker({ db, storage: app.mediaStorage, ffmpeg: 'ffmpeg', announceChange: async () => undefined, log: silent });
      const [a, b] = await Promise.all([app.modules.mixes.renditions.drain(), other.drain()]);
      const total = (await db.select().from(vipMixes)).length;
      expect(a + b).toBe(total - 1);
      const states = await db.select({ id: vipMixes.id, state: vipMixes.renditionState }).from(vipMixes);
      for (const s of states) expect(s.state, s.id).toBe(s.id === live ? 'running' : 'ready');
    });

    it('gives a copy in progress back to the queue when its instance stops, and finishes it after the restart', async () => {
      await db.update(vipMixes).set({ renditionState: 'queued', renditionLeaseUntil: null }).where(eq(vipMixes.id, mix.id));
      const stopping = new RenditionWorker({ db, storage: app.mediaStorage, ffmpeg: 'ffmpeg', announceChange: async () => undefined, log: silent });
      const running = stopping.drain();
      await vi.waitFor(async () => expect((await adminMix(mix.id)).rendition.state).toBe('running'), { interval: 5 });
      await stopping.stop();
      await running;
      expect((await adminMix(mix.id)).rendition.state).toBe('queued');
      const restarted = new RenditionWorker({ db, storage: app.mediaStorage, ffmpeg: 'ffmpeg', announceChange: async () => undefined, log: silent });
      expect(await restarted.drain()).toBe(1);
      expect((await adminMix(mix.id)).rendition).toEqual({ state: 'ready', percent: 100, error: null });
    });

    it('retries a failing copy with backoff, then shows it failed with the reason; an admin may retry', async () => {
      await app.mediaStorage.put('mixes/broken.mp3', (await import('node:stream')).Readable.from([Buffer.alloc(50_000, 7)]), {
        contentType: 'audio/mpeg',
        maxBytes: 1e6,
      });
      await db
        .insert(vipMixes)
        .values({ id: 'mix-broken', title: 'Broken', artist: 'Nobody', genre: 'minimal', duration: 60, fileSize: 50_000, s3Url: 'mixes/broken.mp3' });
      // Its first attempt fails (drained here; on a busy machine a worker still finishing an earlier test may take it first).
      await vi.waitFor(
        async () => {
          await app.modules.mixes.renditions.drain();
          expect((await adminMix('mix-broken')).rendition.error).toBeTruthy();
        },
        { timeout: 10_000, interval: 50 },
      );
      let row = await adminMix('mix-broken');
      expect(row.rendition.state).toBe('queued');
      expect(row.rendition.error).toBeTruthy();
      // Backing off: not taken again before its time.
      expect(await app.modules.mixes.renditions.drain()).toBe(0);
      for (let i = 0; i < 2; i++) {
        await db.update(vipMixes).set({ renditionNotBefore: new Date() }).where(eq(vipMixes.id, 'mix-broken'));
        await app.modules.mixes.renditions.drain();
      }
      row = await adminMix('mix-broken');
      expect(row.rendition.state).toBe('failed');
      expect(row.rendition.error).toBeTruthy();
      const retry = await app.inject({ method: 'POST', url: '/api/admin/vip-mixes/mix-broken/rendition', headers: { cookie: admin.cookie } });
      expect(retry.statusCode).toBe(200);
      expect(retry.json().rendition).toEqual({ state: 'queued', percent: 0, error: null });
      const dhr1 = await memberWithRole(app, 'dhr1');
      expect((await app.inject({ method: 'POST', url: '/api/admin/vip-mixes/mix-broken/rendition', headers: { cookie: dhr1.cookie } })).statusCode).toBe(403);
      expect((await app.inject({ method: 'POST', url: '/api/admin/vip-mixes/mix-nope/rendition', headers: { cookie: admin.cookie } })).statusCode).toBe(404);
    });
  });

  describe(`without ffmpeg (${name})`, async () => {
    const app = await createTestApp({ DATA_DIR: await fs.mkdtemp(path.join(work, 'noff-')), FFMPEG_PATH: path.join(work, 'no-such-ffmpeg'), ...(await env()) });
    const admin = await memberWithRole(app, 'admin');

    it("fails each mix's copy with the install message; VIPs still play, DHR1 gets the clear message", async () => {
      const handled = await app.modules.mixes.renditions.drain();
      expect(handled).toBeGreaterThanOrEqual(6);
      const list = (await app.inject({ url: '/api/admin/vip-mixes', headers: { cookie: admin.cookie } })).json();
      for (const m of list) expect(m.rendition, m.id).toEqual({ state: 'failed', percent: 0, error: MIX_MESSAGES.ffmpegMissing });
      const id = list[0].id as string;
      const vip = await memberWithRole(app, 'vip');
      const { streamUrl } = (await app.inject({ url: `/api/stream/${id}`, headers: { cookie: vip.cookie } })).json();
      const played = await app.inject({ url: streamUrl, headers: { cookie: vip.cookie, range: 'bytes=0-3' } });
      expect(played.statusCode).toBe(206);
      expect(played.body).toBe('RIFF');
      const dhr1 = await memberWithRole(app, 'dhr1');
      const refused = await app.inject({ url: `/api/stream/${id}`, headers: { cookie: dhr1.cookie } });
      expect(refused.statusCode).toBe(409);
      expect(refused.json().error.message).toBe(MIX_MESSAGES.listeningCopyPending);
    });
  });
}

renditionSuite('local folder', async () => ({}));

const s3 = await startTestS3();
afterAll(() => s3.stop());
renditionSuite('S3 bucket', async () => s3.env);
