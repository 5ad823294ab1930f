import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { MIX_MESSAGES } from '../../src/contracts/mixes';
import { mixDownloads, vipMixes, type UserRow } from '../../src/server/db/schema';
import { demoMixKey } from '../../src/server/db/seed/seed';
import { grantDownload, type MixAccessDeps } from '../../src/server/modules/mixes/mix-access-service';
import { findMix } from '../../src/server/modules/mixes/mixes-repository';
import { StreamVolume } from '../../src/server/modules/mixes/stream-volume';
import { createSession, SESSION_COOKIE } from '../../src/server/lib/sessions';
import { hashToken } from '../../src/server/lib/tokens';
import { createMember, createTestApp, memberWithRole } from '../support/app';

const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'dhr-vip-'));
afterAll(() => fs.rm(dataDir, { recursive: true, force: true }));

const MIX = 'mix-midnight-drift';

describe('VIP mix library API', async () => {
  const app = await createTestApp({ DATA_DIR: dataDir });
  const db = app.database.db;
  const deps: MixAccessDeps = {
    db,
    storage: app.mediaStorage,
    links: app.mediaLinks,
    findMix: (id) => findMix(db, id),
    streamDailyBytes: 1,
    streamVolume: new StreamVolume(db),
  };
  const [free, dhr1, vip, admin] = await Promise.all([
    memberWithRole(app, 'free'),
    memberWithRole(app, 'dhr1'),
    memberWithRole(app, 'vip'),
    memberWithRole(app, 'admin'),
  ]);
  const demoWav = await app.mediaStorage.stat(demoMixKey(MIX));
  // The demo mixes' listening copies (background jobs are off in tests).
  await app.modules.mixes.renditions.drain();
  const listening = await app.mediaStorage.stat(`renditions/${MIX}.mp3`);

  const get = (url: string, cookie?: string, headers: Record<string, string> = {}) =>
    app.inject({ method: 'GET', url, headers: { ...(cookie ? { cookie } : {}), ...headers } });
  const download = (mixId: string, who: { cookie: string }, userId: string) =>
    app.inject({ method: 'POST', url: `/api/download/${mixId}`, headers: { cookie: who.cookie }, payload: { userId } });
  const createSecondSession = async (userId: string) => ({ cookie: `${SESSION_COOKIE}=${await createSession(db, userId)}` });
  const downloadsOf = async (user: UserRow) => (await db.select().from(mixDownloads).where(eq(mixDownloads.userId, user.id))).length;

  it('seeds demo mixes with real audio in media storage', () => {
    expect(demoWav).toMatchObject({ contentType: 'audio/wav' });
    expect(demoWav?.size).toBeGreaterThan(100_000);
  });

  it('lists the mixes publicly without their storage address, the same on both paths', async () => {
    const res = await get('/api/vip-mixes', vip.cookie);
    expect(res.statusCode).toBe(200);
    const list = res.json();
    expect(list.length).toBeGreaterThanOrEqual(6);
    const mix = list.find((m: { id: string }) => m.id === MIX);
    expect(mix).toMatchObject({ title: 'Midnight Drift', artist: 'Lena Vos', genre: 'deep house', isExclusive: true, hasAudio: true });
    for (const m of list) expect(m).not.toHaveProperty('s3Url');
    expect(res.body).not.toContain('.wav');
    expect((await get('/api/vip/mixes')).json()).toEqual((await get('/api/vip-mixes')).json());
  });

  it('gives admins the storage address', async () => {
    const res = await get('/api/admin/vip-mixes', admin.cookie);
    expect(res.json().find((m: { id: string }) => m.id === MIX).s3Url).toBe(demoMixKey(MIX));
    expect((await get('/api/admin/vip-mixes', vip.cookie)).statusCode).toBe(403);
  });

  describe('playing', () => {
    it('refuses visitors (401) and free members (403, with the spec text)', async () => {
      expect((await get(`/api/stream/${MIX}`)).statusCode).toBe(401);
      const res = await get(`/api/stream/${MIX}`, free.cookie);
      expect(res.statusCode).toBe(403);
      expect(res.json().error.message).toBe('Subscribe to DHR1 (€3+) to play mixes, or VIP (€10+) to download');
      const expired = await memberWithRole(app, 'expired-vip');
      expect((await get(`/api/stream/${MIX}`, expired.cookie)).statusCode).toBe(403);
    });

    it('gives DHR1 members a signed stream URL of the listening copy, served inline with ranges', async () => {
      const res = await get(`/api/stream/${MIX}`, dhr1.cookie);
      expect(res.statusCode).toBe(200);
      const { streamUrl } = res.json();
      expect(streamUrl).toMatch(new RegExp(`^/media/mixes/${MIX}/stream\\?token=`));
      // How long the link works (MIX_STREAM_LINK_TTL_S, 15 minutes by default): the player renews it before then.
      const { expiresInMs } = res.json();
      expect(expiresInMs).toBeGreaterThan(899_000);
      expect(expiresInMs).toBeLessThanOrEqual(900_000);
      const whole = await get(streamUrl, dhr1.cookie);
      expect(whole.statusCode).toBe(200);
      expect(whole.headers['content-type']).toBe('audio/mpeg');
      expect(whole.headers['accept-ranges']).toBe('bytes');
      expect(whole.headers['content-disposition']).toBe('inline');
      expect(whole.headers['content-length']).toBe(String(listening?.size));
      expect(whole.rawPayload.subarray(0, 4).toString()).not.toBe('RIFF');
    });

    it('answers Range requests: a slice, an open end, a suffix, past the end', async () => {
      const size = listening?.size ?? 0;
      const { streamUrl } = (await get(`/api/stream/${MIX}`, dhr1.cookie)).json();
      const slice = await get(streamUrl, dhr1.cookie, { range: 'bytes=0-3' });
      expect(slice.statusCode).toBe(206);
      expect(slice.headers['content-range']).toBe(`bytes 0-3/${size}`);
      expect(slice.headers['content-length']).toBe('4');
      const open = await get(streamUrl, dhr1.cookie, { range: `bytes=${size - 10}-` });
      expect(open.statusCode).toBe(206);
      expect(open.headers['content-range']).toBe(`bytes ${size - 10}-${size - 1}/${size}`);
      expect(open.rawPayload.length).toBe(10);
      const suffix = await get(streamUrl, dhr1.cookie, { range: 'bytes=-100' });
      expect(suffix.headers['content-range']).toBe(`bytes ${size - 100}-${size - 1}/${size}`);
      const clipped = await get(streamUrl, dhr1.cookie, { range: `bytes=${size - 2}-${size + 500}` });
      expect(clipped.headers['content-range']).toBe(`bytes ${size - 2}-${size - 1}/${size}`);
      const past = await get(streamUrl, dhr1.cookie, { range: `bytes=${size}-` });
      expect(past.statusCode).toBe(416);
      expect(past.headers['content-range']).toBe(`bytes */${size}`);
      expect(past.json().error.code).toBe('range_not_satisfiable');
      const garbage = await get(streamUrl, dhr1.cookie, { range: 'lines=1-2' });
      expect(garbage.statusCode).toBe(200);
    });

    it('refuses tampered, expired, other-mix and other-purpose tokens, and any other session (403)', async () => {
      const { streamUrl } = (await get(`/api/stream/${MIX}`, dhr1.cookie)).json();
      const token = new URL(streamUrl, 'http://x').searchParams.get('token') ?? '';
      const flipped = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
      const sessionIdHash = hashToken(dhr1.cookie.split('=')[1] ?? '');
      const expired = app.mediaLinks.issue({ memberId: dhr1.user.id, sessionIdHash, mixId: MIX, purpose: 'stream' }, -1).token;
      const refused: [string, string | undefined][] = [
        [`/media/mixes/${MIX}/stream?token=${encodeURIComponent(flipped)}`, dhr1.cookie],
        [`/media/mixes/${MIX}/stream?token=${encodeURIComponent(expired)}`, dhr1.cookie],
        [`/media/mixes/mix-harbour-lights/stream?token=${encodeURIComponent(token)}`, dhr1.cookie],
        [`/media/mixes/${MIX}/download?token=${encodeURIComponent(token)}`, dhr1.cookie],
        [`/media/mixes/${MIX}/stream?token=nonsense`, dhr1.cookie],
        [`/media/mixes/${MIX}/stream`, dhr1.cookie],
        // The link without the session that asked for it: no cookie, another member's, or the same
        // member's other session.
        [streamUrl, undefined],
        [streamUrl, vip.cookie],
        [streamUrl, (await createSecondSession(dhr1.user.id)).cookie],
      ];
      for (const [url, cookie] of refused) {
        const res = await get(url, cookie);
        expect(res.statusCode, url).toBe(403);
        expect(res.json().error.message).toBe(MIX_MESSAGES.linkExpired);
      }
      expect((await get(streamUrl, dhr1.cookie)).statusCode).toBe(200);
    });

    it('answers 404 for an unknown mix and for a mix without a file', async () => {
      const unknown = await get('/api/stream/mix-nope', dhr1.cookie);
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().error.message).toBe(MIX_MESSAGES.mixNotFound);
      expect((await get('/api/stream/Bad..Id', dhr1.cookie)).statusCode).toBe(400);
      await db.insert(vipMixes).values({ id: 'mix-silent', title: 'Silent', artist: 'Nobody', genre: 'minimal', duration: 1, fileSize: 0 });
      const silent = await get('/api/stream/mix-silent', dhr1.cookie);
      expect(silent.statusCode).toBe(404);
      expect(silent.json().error.code).toBe('file_not_available');
    });
  });

  describe('downloading', () => {
    it('is for VIP only: DHR1 is refused with the spec text and nothing is counted', async () => {
      const res = await download(MIX, dhr1, dhr1.user.id);
      expect(res.statusCode).toBe(403);
      expect(res.json().error.message).toBe('VIP subscription required for downloads');
      expect(await downloadsOf(dhr1.user)).toBe(0);
      expect((await get(`/api/download-limits/${dhr1.user.id}`, dhr1.cookie)).json()).toEqual({ subscriptionTier: 'dhr1', remainingDownloads: 0 });
    });

    it('gives a VIP two downloads a day, then refuses with the spec text', async () => {
      expect((await get(`/api/download-limits/${vip.user.id}`, vip.cookie)).json()).toEqual({ subscriptionTier: 'vip', remainingDownloads: 2 });
      const before = (await get('/api/vip-mixes')).json().find((m: { id: string }) => m.id === MIX).totalDownloads;
      const first = await download(MIX, vip, vip.user.id);
      expect(first.statusCode).toBe(200);
      expect(first.json().remainingDownloads).toBe(1);
      const file = await get(first.json().downloadUrl, vip.cookie);
      expect(file.statusCode).toBe(200);
      expect(file.headers['content-disposition']).toBe(
        `attachment; filename="Lena Vos - Midnight Drift.wav"; filename*=UTF-8''Lena%20Vos%20-%20Midnight%20Drift.wav`,
      );
      expect(file.headers['content-type']).toBe('audio/wav');
      expect((await download('mix-harbour-lights', vip, vip.user.id)).json().remainingDownloads).toBe(0);
      const third = await download(MIX, vip, vip.user.id);
      expect(third.statusCode).toBe(429);
      expect(third.json().error.message).toBe('Daily download limit reached (2 per day)');
      expect(Number(third.headers['retry-after'])).toBeGreaterThan(0);
      expect(await downloadsOf(vip.user)).toBe(2);
      expect((await get(`/api/download-limits/${vip.user.id}`, vip.cookie)).json().remainingDownloads).toBe(0);
      expect((await get('/api/user/permissions', vip.cookie)).json().remainingDownloads).toBe(0);
      // The public list is served from memory; a download drops it.
      expect((await get('/api/vip-mixes')).json().find((m: { id: string }) => m.id === MIX).totalDownloads).toBe(before + 1);
    });

    it('gives a fresh file link for a mix downloaded today, and none for others', async () => {
      const ok = await get(`/api/file/${MIX}?userId=${vip.user.id}`, vip.cookie);
      expect(ok.statusCode).toBe(200);
      expect((await get(ok.json().downloadUrl, vip.cookie)).statusCode).toBe(200);
      const notYet = await get(`/api/file/mix-low-tide?userId=${vip.user.id}`, vip.cookie);
      expect(notYet.statusCode).toBe(403);
      expect(notYet.json().error.code).toBe('not_downloaded_today');
      expect(await downloadsOf(vip.user)).toBe(2);
    });

    it('counts the last download once when requests race', async () => {
      const racer = await memberWithRole(app, 'vip');
      expect((await download(MIX, racer, racer.user.id)).statusCode).toBe(200);
      const results = await Promise.all(Array.from({ length: 6 }, () => download('mix-warehouse-13', racer, racer.user.id)));
      expect(results.map((r) => r.statusCode).sort()).toEqual([200, 429, 429, 429, 429, 429]);
      expect(await downloadsOf(racer.user)).toBe(2);
    });

    it('never lets a member act for another (403, nothing changes); admins may name anyone', async () => {
      const victim = await memberWithRole(app, 'vip');
      const before = await downloadsOf(victim.user);
      const attempts = [
        await get(`/api/download-limits/${victim.user.id}`, vip.cookie),
        await download(MIX, vip, victim.user.id),
        await get(`/api/file/${MIX}?userId=${victim.user.id}`, vip.cookie),
      ];
      for (const res of attempts) {
        expect(res.statusCode).toBe(403);
        expect(res.json().error.code).toBe('not_your_account');
        expect(res.body).not.toContain(victim.user.email);
      }
      expect(await downloadsOf(victim.user)).toBe(before);
      expect((await get(`/api/download-limits/${victim.user.id}`)).statusCode).toBe(401);
      expect((await get(`/api/download-limits/${victim.user.id}`, admin.cookie)).json()).toEqual({ subscriptionTier: 'vip', remainingDownloads: 2 });
      expect((await get('/api/download-limits/00000000-0000-4000-8000-000000000000', admin.cookie)).statusCode).toBe(404);
      expect((await get('/api/download-limits/not-a-uuid', vip.cookie)).statusCode).toBe(400);
      expect((await app.inject({ method: 'POST', url: `/api/download/${MIX}`, headers: { cookie: vip.cookie }, payload: {} })).statusCode).toBe(400);
    });

    it('answers 404 for an unknown mix without counting', async () => {
      const fresh = await memberWithRole(app, 'vip');
      expect((await download('mix-nope', fresh, fresh.user.id)).statusCode).toBe(404);
      expect((await download('mix-silent', fresh, fresh.user.id)).statusCode).toBe(404);
      expect(await downloadsOf(fresh.user)).toBe(0);
    });

    it('resets at midnight in Dublin, winter (UTC) and summer (UTC+1)', async () => {
      for (const [last, before, after] of [
        ['2026-01-15T23:58:00Z', '2026-01-15T23:59:00Z', '2026-01-16T00:01:00Z'],
        ['2026-07-15T22:58:00Z', '2026-07-15T22:59:00Z', '2026-07-15T23:01:00Z'],
      ] as const) {
        const m = await createMember(app, { subscriptionTier: 'vip', subscriptionStatus: 'active' });
        const asker = { user: m.user, sessionIdHash: 'x' };
        await grantDownload(deps, asker, m.user, MIX, new Date(last));
        expect((await grantDownload(deps, asker, m.user, MIX, new Date(last))).remainingDownloads).toBe(0);
        // 23:59 in Dublin: still the same day.
        await expect(grantDownload(deps, asker, m.user, MIX, new Date(before))).rejects.toThrow(MIX_MESSAGES.dailyLimitReached);
        // 00:01 in Dublin: a new day.
        expect((await grantDownload(deps, asker, m.user, MIX, new Date(after))).remainingDownloads).toBe(1);
      }
    });
  });

  describe('admin edits', () => {
    it('sets and clears a mix link, checking a storage key names a file', async () => {
      const patch = (s3Url: string | null, cookie = admin.cookie) =>
        app.inject({ method: 'PATCH', url: '/api/vip-mixes/mix-low-tide', headers: { cookie }, payload: { s3Url } });
      // The media route keeps mix rows in memory: play once first, so every change below must drop it.
      const playable = async () => (await get((await get('/api/stream/mix-low-tide', dhr1.cookie)).json().streamUrl, dhr1.cookie)).statusCode;
      expect(await playable()).toBe(200);
      expect((await patch('', vip.cookie)).statusCode).toBe(403);
      const missing = await patch('mixes/nothing-here.mp3');
      expect(missing.statusCode).toBe(400);
      expect((await patch('../../etc/passwd')).statusCode).toBe(400);
      expect((await patch('javascript:alert(1)')).statusCode).toBe(400);
      const cleared = await patch('');
      expect(cleared.json()).toMatchObject({ s3Url: null, hasAudio: false });
      expect((await get('/api/vip-mixes')).json().find((m: { id: string }) => m.id === 'mix-low-tide').hasAudio).toBe(false);
      expect((await get('/api/stream/mix-low-tide', dhr1.cookie)).statusCode).toBe(404);
      const relinked = await patch(demoMixKey('mix-low-tide'));
      expect(relinked.json()).toMatchObject({ s3Url: demoMixKey('mix-low-tide'), hasAudio: true, fileSize: demoWav?.size });
      // A new file needs a new listening copy: DHR1 waits for it.
      expect(relinked.json().rendition).toEqual({ state: 'queued', percent: 0, error: null });
      expect((await get('/api/stream/mix-low-tide', dhr1.cookie)).statusCode).toBe(409);
      await app.modules.mixes.renditions.drain();
      expect(await playable()).toBe(200);
      // An outside URL is refused (it would be handed to every member as a redirect).
      const outside = await patch('https://cdn.example.test/mixes/low-tide.mp3');
      expect(outside.statusCode).toBe(400);
      expect(await playable()).toBe(200);
    });

    it('edits details and deletes a mix', async () => {
      const edit = await app.inject({
        method: 'PATCH',
        url: '/api/admin/vip-mixes/mix-silent',
        headers: { cookie: admin.cookie },
        payload: { title: 'Silent Night', genre: 'organic', rating: 4.5 },
      });
      expect(edit.json()).toMatchObject({ title: 'Silent Night', genre: 'organic', rating: 4.5 });
      const badGenre = await app.inject({
        method: 'PATCH',
        url: '/api/admin/vip-mixes/mix-silent',
        headers: { cookie: admin.cookie },
        payload: { genre: 'polka' },
      });
      expect(badGenre.statusCode).toBe(400);
      const del = await app.inject({ method: 'DELETE', url: '/api/admin/vip-mixes/mix-silent', headers: { cookie: admin.cookie } });
      expect(del.statusCode).toBe(204);
      expect((await app.inject({ method: 'DELETE', url: '/api/admin/vip-mixes/mix-silent', headers: { cookie: admin.cookie } })).statusCode).toBe(404);
    });

    it('reports the storage live', async () => {
      const st = (await get('/api/admin/storage-status', admin.cookie)).json();
      expect(st).toMatchObject({ mode: 'local', location: path.join(dataDir, 'media'), reachable: true, error: null, localPathExists: true });
      expect(st.fileCount).toBeGreaterThanOrEqual(6);
      expect(st.bytesUsed).toBeGreaterThanOrEqual(6 * (demoWav?.size ?? 0));
      expect(st.mixes.withS3Url).toBeGreaterThanOrEqual(6);
    });
  });
});
