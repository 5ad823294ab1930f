import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { PROFILE_MESSAGES, type Profile } from '../../src/contracts/community';
import { IMAGE_MESSAGES } from '../../src/contracts/images';
import { DAY_MS } from '../../src/contracts/time';
import { comments, follows, memberProfiles, users } from '../../src/server/db/schema';
import { processImage, sniffImageType } from '../../src/server/lib/images';
import { createMember, createTestApp, memberWithRole, type TestMember } from '../support/app';
import { freshIp } from '../support/auth-client';
import { tempDataDir } from '../support/outbox';

type Who = TestMember | undefined;

const req = (app: FastifyInstance, who: Who, method: 'GET' | 'PATCH' | 'POST', url: string, payload?: object) =>
  app.inject({ method, url, remoteAddress: freshIp(), ...(payload ? { payload } : {}), headers: who ? { cookie: who.cookie } : {} });

/** A multipart body built by the platform's own FormData encoder, as a browser would send it. */
async function multipart(fields: Record<string, string | { bytes: Buffer; name: string; type: string }>) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) {
    if (typeof v === 'string') form.append(k, v);
    else form.append(k, new Blob([new Uint8Array(v.bytes)], { type: v.type }), v.name);
  }
  const request = new Request('http://local/', { method: 'POST', body: form });
  return { payload: Buffer.from(await request.arrayBuffer()), contentType: request.headers.get('content-type') ?? '' };
}

async function upload(app: FastifyInstance, who: Who, fields: Parameters<typeof multipart>[0]) {
  const { payload, contentType } = await multipart(fields);
  return app.inject({
    method: 'POST',
    url: '/api/users/upload-image',
    remoteAddress: freshIp(),
    payload,
    headers: { 'content-type': contentType, ...(who ? { cookie: who.cookie } : {}) },
  });
}

/** Real pictures made by sharp, with EXIF (a camera and a GPS-bearing comment) that must not survive. */
async function picture(format: 'jpeg' | 'png' | 'webp' | 'gif', width = 640, height = 480): Promise<Buffer> {
  const base = sharp({ create: { width, height, channels: 3, background: { r: 20, g: 10, b: 60 } } }).withExif({
    IFD0: { Make: 'SecretCam', ImageDescription: 'GPS 53.3498N 6.2603W' },
  });
  return base.toFormat(format).toBuffer();
}

describe('image pipeline (src/server/lib/images.ts)', () => {
  it('accepts real JPEG, PNG, WebP and GIF; re-encodes to the fixed size with the metadata gone; names by content hash', async () => {
    for (const format of ['jpeg', 'png', 'webp', 'gif'] as const) {
      const input = await picture(format);
      expect(await sniffImageType(input)).toBe(format === 'jpeg' ? 'image/jpeg' : `image/${format}`);
      const out = await processImage(input, 'avatar');
      const meta = await sharp(out.bytes).metadata();
      expect(meta).toMatchObject({ format: 'webp', width: 256, height: 256 });
      expect(meta.exif).toBeUndefined();
      expect(out.bytes.includes(Buffer.from('SecretCam'))).toBe(false);
      expect(out.name).toMatch(/^[a-f0-9]{64}\.webp$/);
    }
    const banner = await processImage(await picture('png', 3000, 2000), 'banner');
    expect(await sharp(banner.bytes).metadata()).toMatchObject({ width: 1500, height: 500 });
    const same = await processImage(await picture('png', 3000, 2000), 'banner');
    expect(same.name).toBe(banner.name);
  });

  it('refuses SVG (with a script), HTML named .jpg, text, truncated images, empty files and files over 5 MB', async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script><rect width="10" height="10"/></svg>');
    const html = Buffer.from('<!doctype html><html><body><script>alert(1)</script></body></html>');
    const png = await picture('png');
    for (const bad of [svg, html, Buffer.from('just text'), png.subarray(0, 60), Buffer.alloc(0)]) {
      await expect(processImage(bad, 'avatar')).rejects.toMatchObject({ statusCode: 400, message: IMAGE_MESSAGES.invalid });
    }
    const big = Buffer.concat([png, Buffer.alloc(6 * 1024 * 1024 - png.length)]);
    await expect(processImage(big, 'avatar')).rejects.toMatchObject({ statusCode: 413, message: IMAGE_MESSAGES.tooLarge });
  });
});

describe('profiles, following and uploads', async () => {
  const dataDir = tempDataDir();
  const app = await createTestApp({ DATA_DIR: dataDir });
  const roles = {
    free: await memberWithRole(app, 'free'),
    dhr1: await memberWithRole(app, 'dhr1'),
    vip: await memberWithRole(app, 'vip'),
    admin: await memberWithRole(app, 'admin'),
  };
  const profileOf = (who: Who, id: string) => req(app, who, 'GET', `/api/users/${id}/profile`);

  it('visibility per role: public for all, subscribers for paying members, private for owner and admins; others get 404', async () => {
    const owner = await memberWithRole(app, 'dhr1');
    const viewers: [string, Who][] = [
      ['anonymous', undefined],
      ['free', roles.free],
      ['dhr1', roles.dhr1],
      ['vip', roles.vip],
      ['admin', roles.admin],
      ['owner', owner],
    ];
    const expected: Record<'public' | 'subscribers' | 'private', number[]> = {
      public: [200, 200, 200, 200, 200, 200],
      subscribers: [404, 404, 200, 200, 200, 200],
      private: [404, 404, 404, 404, 200, 200],
    };
    for (const visibility of ['public', 'subscribers', 'private'] as const) {
      expect((await req(app, owner, 'PATCH', `/api/users/${owner.user.id}/profile`, { profileVisibility: visibility })).statusCode).toBe(200);
      for (const [i, [name, who]] of viewers.entries()) {
        const res = await profileOf(who, owner.user.id);
        expect(res.statusCode, `${visibility} seen by ${name}`).toBe(expected[visibility][i]);
        if (res.statusCode === 404) expect(res.json().message).toBe(PROFILE_MESSAGES.notFound);
      }
    }
    // A banned member's comment ban does not matter here; an unknown id is the same 404.
    expect((await profileOf(roles.admin, '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
  });

  it('shows settings only to the owner and admins; never an email', async () => {
    const owner = await memberWithRole(app, 'vip');
    const own = (await profileOf(owner, owner.user.id)).json<Profile>();
    expect(own).toMatchObject({ isOwner: true, profileVisibility: 'public', emailNotifications: true });
    const other = await profileOf(roles.dhr1, owner.user.id);
    expect(other.json<Profile>()).toMatchObject({ isOwner: false, profileVisibility: null, emailNotifications: null });
    expect(other.body).not.toContain(owner.user.email);
    expect((await profileOf(roles.admin, owner.user.id)).json<Profile>().profileVisibility).toBe('public');
  });

  it('edits: owner or admin only, only profile fields, bad values refused and nothing changed', async () => {
    const owner = await memberWithRole(app, 'dhr1');
    const url = `/api/users/${owner.user.id}/profile`;
    for (const [who, status] of [
      [undefined, 401],
      [roles.free, 403],
      [roles.vip, 403],
    ] as const) {
      expect((await req(app, who, 'PATCH', url, { bio: 'hijacked' })).statusCode).toBe(status);
    }
    for (const bad of [
      { username: 'new-name' },
      { subscriptionTier: 'vip' },
      { website: 'javascript:alert(1)' },
      { profileImageUrl: 'https://tracker.example/pixel.gif' },
      { profileVisibility: 'everyone' },
      { bio: 'x'.repeat(501) },
      { favoriteGenres: Array.from({ length: 11 }, () => 'deep') },
    ]) {
      expect((await req(app, owner, 'PATCH', url, bad)).statusCode, JSON.stringify(bad).slice(0, 60)).toBe(400);
    }
    expect(await app.database.db.select().from(memberProfiles).where(eq(memberProfiles.userId, owner.user.id))).toEqual([]);

    const ok = await req(app, owner, 'PATCH', url, {
      bio: '<b>Deep</b> house head',
      location: 'Dublin',
      website: 'https://dj.example',
      favoriteGenres: ['deep-house', 'minimal'],
      chatNotifications: false,
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json<Profile>()).toMatchObject({
      bio: '<b>Deep</b> house head',
      location: 'Dublin',
      website: 'https://dj.example',
      favoriteGenres: ['deep-house', 'minimal'],
      chatNotifications: false,
    });
    const byAdmin = await req(app, roles.admin, 'PATCH', url, { bio: '' });
    expect(byAdmin.json<Profile>().bio).toBeNull();
  });

  it('follow and unfollow: members only, idempotent, never yourself, counts right', async () => {
    const star = await memberWithRole(app, 'vip');
    const fan = await memberWithRole(app, 'dhr1');
    const follow = (who: Who, id = star.user.id) => req(app, who, 'POST', `/api/users/${id}/follow`);
    expect((await follow(undefined)).statusCode).toBe(401);
    const self = await follow(star);
    expect(self.statusCode).toBe(400);
    expect(self.json().message).toBe(PROFILE_MESSAGES.followSelf);
    expect((await follow(fan)).json()).toEqual({ isFollowing: true, followerCount: 1, followingCount: 0 });
    expect((await follow(fan)).json()).toEqual({ isFollowing: true, followerCount: 1, followingCount: 0 });
    expect((await follow(roles.free)).json()).toMatchObject({ followerCount: 2 });
    expect((await profileOf(fan, star.user.id)).json<Profile>()).toMatchObject({ isFollowing: true, followerCount: 2 });
    expect((await profileOf(fan, fan.user.id)).json<Profile>()).toMatchObject({ followingCount: 1 });
    const un = req(app, fan, 'POST', `/api/users/${star.user.id}/unfollow`);
    expect((await un).json()).toEqual({ isFollowing: false, followerCount: 1, followingCount: 0 });
    expect((await req(app, fan, 'POST', `/api/users/${star.user.id}/unfollow`)).json()).toMatchObject({ followerCount: 1 });
    // A private profile cannot be followed by those who cannot see it.
    await req(app, star, 'PATCH', `/api/users/${star.user.id}/profile`, { profileVisibility: 'private' });
    expect((await follow(fan)).statusCode).toBe(404);
    expect(await app.database.db.select().from(follows).where(eq(follows.followeeId, star.user.id))).toHaveLength(1);
  });

  it('reputation and badges come from real activity', async () => {
    const plain = await createMember(app, { emailVerifiedAt: null });
    expect((await profileOf(plain, plain.user.id)).json<Profile>()).toMatchObject({ badges: [], badgeCount: 0, isVerified: false, reputationScore: 0 });
    const supporter = await memberWithRole(app, 'dhr2');
    await app.database.db.insert(comments).values([
      { discussionId: 'rep', userId: supporter.user.id, authorName: 'x', authorTier: 'dhr2', content: 'one', status: 'approved' },
      { discussionId: 'rep', userId: supporter.user.id, authorName: 'x', authorTier: 'dhr2', content: 'two', status: 'approved' },
      { discussionId: 'rep', userId: supporter.user.id, authorName: 'x', authorTier: 'dhr2', content: 'held', status: 'pending' },
    ]);
    // Only a follower older than 7 days raises reputation.
    await app.database.db
      .update(users)
      .set({ createdAt: new Date(Date.now() - 8 * DAY_MS) })
      .where(eq(users.id, roles.free.user.id));
    await req(app, roles.free, 'POST', `/api/users/${supporter.user.id}/follow`);
    const p = (await profileOf(undefined, supporter.user.id)).json<Profile>();
    expect(p).toMatchObject({
      badges: ['Supporter', 'Verified'],
      verificationMethod: 'subscription',
      commentCount: 2,
      followerCount: 1,
      reputationScore: 2 * 10 + 5 + 50,
    });
    expect((await profileOf(undefined, roles.admin.user.id)).json<Profile>().verificationMethod).toBe('admin');
  });

  it('uploads: members only, real images stored re-encoded, everything else refused', async () => {
    const png = await picture('png');
    expect((await upload(app, undefined, { type: 'profile', image: { bytes: png, name: 'me.png', type: 'image/png' } })).statusCode).toBe(401);
    const ok = await upload(app, roles.free, { type: 'profile', image: { bytes: png, name: 'me.png', type: 'image/png' } });
    expect(ok.statusCode).toBe(200);
    const { imageUrl } = ok.json<{ imageUrl: string }>();
    expect(imageUrl).toMatch(/^\/media\/images\/[a-f0-9]{64}\.webp$/);
    const stored = fs.readFileSync(path.join(dataDir, 'media', 'images', path.basename(imageUrl)));
    expect(await sharp(stored).metadata()).toMatchObject({ width: 256, height: 256, format: 'webp' });
    const served = await app.inject({ method: 'GET', url: imageUrl });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/webp');
    expect(served.rawPayload.equals(stored)).toBe(true);
    const set = await req(app, roles.free, 'PATCH', `/api/users/${roles.free.user.id}/profile`, { profileImageUrl: imageUrl });
    expect(set.json<Profile>().profileImageUrl).toBe(imageUrl);

    const refused: [string, Parameters<typeof multipart>[0], number, string][] = [
      [
        'svg with script',
        {
          type: 'profile',
          image: { bytes: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), name: 'a.svg', type: 'image/svg+xml' },
        },
        400,
        IMAGE_MESSAGES.invalid,
      ],
      [
        'html renamed .jpg',
        { type: 'banner', image: { bytes: Buffer.from('<html><script>alert(1)</script></html>'), name: 'photo.jpg', type: 'image/jpeg' } },
        400,
        IMAGE_MESSAGES.invalid,
      ],
      ['zero bytes', { type: 'profile', image: { bytes: Buffer.alloc(0), name: 'empty.png', type: 'image/png' } }, 400, IMAGE_MESSAGES.invalid],
      [
        '6 MB',
        { type: 'profile', image: { bytes: Buffer.concat([png, Buffer.alloc(6 * 1024 * 1024)]), name: 'big.png', type: 'image/png' } },
        413,
        IMAGE_MESSAGES.tooLarge,
      ],
      ['no file', { type: 'profile' }, 400, IMAGE_MESSAGES.missing],
      ['bad type', { type: 'wallpaper', image: { bytes: png, name: 'a.png', type: 'image/png' } }, 400, "Field 'type' must be profile or banner"],
    ];
    const before = fs.readdirSync(path.join(dataDir, 'media', 'images')).length;
    for (const [name, fields, status, message] of refused) {
      const res = await upload(app, roles.vip, fields);
      expect(res.statusCode, name).toBe(status);
      expect(res.json().message, name).toBe(message);
    }
    expect(fs.readdirSync(path.join(dataDir, 'media', 'images'))).toHaveLength(before);
  });
});
