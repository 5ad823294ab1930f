import type { Dialog, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { CONTACT_MESSAGES, newsCommentFailure } from '../../src/contracts/community';
import { trackIdentifications } from '../../src/server/db/schema';
import { TRACK_HISTORY_CHANNEL } from '../../src/server/modules/tracks/tracks-routes';
import { createMember, memberWithRole, type TestMember } from '../support/app';
import { canRunBrowser, DESKTOP, PHONE, startBrowserHarness, type BrowserHarness } from '../support/browser';

type Role = 'anonymous' | 'free' | 'dhr1' | 'vip';

/** What each role is: signed in or not, paying or not (paying tiers are ad-free in the tier table). */
const PAYING: Record<Role, boolean> = { anonymous: false, free: false, dhr1: true, vip: true };

/** Signed-in members, the site shell and the messages of the member-facing pages, per role. */
describe.skipIf(!canRunBrowser)('member-facing pages in the browser', () => {
  let h: BrowserHarness;
  const members = new Map<Role, TestMember>();

  beforeAll(async () => {
    h = await startBrowserHarness();
    // Every member here has a password (the home page's set-password notice is not for them).
    members.set('free', await createMember(h.app, { passwordHash: 'set', emailVerifiedAt: new Date() }));
    for (const role of ['dhr1', 'vip'] as const)
      members.set(role, await createMember(h.app, { subscriptionTier: role, subscriptionStatus: 'active', passwordHash: 'set' }));
  });

  async function open(role: Role, viewport = DESKTOP): Promise<{ page: Page; alerts: string[]; errors: string[] }> {
    const context = await h.browser.newContext({ viewport, baseURL: h.baseUrl });
    const member = members.get(role);
    if (member) {
      const eq = member.cookie.indexOf('=');
      await context.addCookies([{ name: member.cookie.slice(0, eq), value: member.cookie.slice(eq + 1), url: h.baseUrl }]);
    }
    const page = await context.newPage();
    const alerts: string[] = [];
    const errors: string[] = [];
    page.on('dialog', (d: Dialog) => {
      alerts.push(d.message());
      void d.accept();
    });
    page.on('pageerror', (err) => errors.push(err.message));
    return { page, alerts, errors };
  }

  /** An in-page notice (toast) with this text. */
  const waitForNotice = (page: Page, text: string) => page.getByTestId('toast').filter({ hasText: text }).first().waitFor();

  const footerLinks = (page: Page) =>
    page
      .getByRole('contentinfo')
      .getByRole('link')
      .evaluateAll((links) => links.map((a) => a.textContent?.trim() ?? ''));

  it.each(['anonymous', 'free', 'dhr1', 'vip'] as const)(
    'offers sign-in and passwords only to visitors, and adverts only to non-paying visitors (%s)',
    { timeout: 60_000 },
    async (role) => {
      const { page, errors } = await open(role);
      await page.goto('/');
      await page.getByRole('contentinfo').scrollIntoViewIfNeeded();
      await page.getByRole('contentinfo').getByRole('link', { name: 'Privacy' }).waitFor();
      const links = await footerLinks(page);
      if (role === 'anonymous') {
        expect(links).toEqual(expect.arrayContaining(['Sign In', 'Set Password', 'Forgot Password']));
        await page.getByText('Existing members: set your password').waitFor();
      } else {
        expect(links).toContain('Account');
        expect(links).not.toContain('Sign In');
        expect(links).not.toContain('Set Password');
        expect(links).not.toContain('Forgot Password');
        // The notice's block is in (its pricing cards are there), without the notice.
        await page.getByRole('heading', { name: 'Keep The Music Playing' }).waitFor();
        expect(await page.getByText('Existing members: set your password').count()).toBe(0);
      }
      expect(await page.getByRole('complementary', { name: 'Advertisement' }).count()).toBe(PAYING[role] ? 0 : 2);

      await page.goto('/shop');
      await page.getByRole('heading', { level: 1 }).waitFor();
      await page.getByRole('heading', { name: 'Stay in the loop' }).waitFor();
      expect(await page.getByRole('complementary', { name: 'Advertisement' }).count()).toBe(PAYING[role] ? 0 : 1);
      expect(errors).toEqual([]);
    },
  );

  it.each(['free', 'dhr1', 'vip'] as const)(
    'the member menu links Account, Profile and Sign out, in the top bar and the phone menu (%s)',
    { timeout: 60_000 },
    async (role) => {
      const { page } = await open(role);
      await page.goto('/forum');
      await page.getByRole('banner').getByRole('button', { name: 'MEMBER' }).click();
      const menu = page.getByRole('region', { name: 'Your account' });
      await menu.getByRole('link', { name: 'Account' }).waitFor();
      await menu.getByRole('button', { name: 'Sign out' }).waitFor();
      // Opaque: nothing of the page shows through.
      expect(await menu.evaluate((el) => getComputedStyle(el).backgroundColor)).toMatch(/^rgb\(/);
      await menu.getByRole('button', { name: 'Profile' }).click();
      await page.getByRole('dialog', { name: 'Your profile' }).getByText(members.get(role)!.user.email).waitFor();
      await page.keyboard.press('Escape');
      await page.getByRole('banner').getByRole('button', { name: 'MEMBER' }).click();
      await menu.getByRole('link', { name: 'Account' }).click();
      await page.waitForURL((u) => u.pathname === '/auth');
      await page.getByRole('heading', { name: 'Your account' }).waitFor();
      expect(await page.getByTestId('membership-status').textContent()).toBe(role === 'free' ? 'Free member' : 'active');

      const phone = await open(role, PHONE);
      await phone.page.goto('/shop');
      await phone.page.getByRole('button', { name: 'Open menu' }).click();
      const sheet = phone.page.getByRole('dialog', { name: 'Menu' });
      const account = sheet.getByRole('group', { name: 'Your account' });
      await account.getByRole('link', { name: 'Account' }).waitFor();
      await account.getByRole('button', { name: 'Profile' }).waitFor();
      await account.getByRole('button', { name: 'Sign out' }).click();
      await phone.page.getByRole('banner').getByRole('link', { name: 'Sign In' }).waitFor();
      expect((await phone.page.context().cookies()).find((c) => c.name === 'dhr_session')).toBeUndefined();
      // Signed out on the server too: the member's cookie no longer works, so give it a fresh session for later tests.
      members.set(
        role,
        role === 'free'
          ? await memberWithRole(h.app, 'free')
          : await createMember(h.app, { subscriptionTier: role, subscriptionStatus: 'active', passwordHash: 'set' }),
      );
    },
  );

  it('the share menu and the phone menu are opaque', async () => {
    const { page } = await open('anonymous', PHONE);
    await page.goto('/');
    await page.getByRole('button', { name: 'Share and follow' }).click();
    const panel = page.getByRole('region', { name: 'Share and follow' });
    await panel.getByRole('button', { name: /Share on X/ }).waitFor();
    const alpha = (color: string) => (color.startsWith('rgba') ? Number(color.split(',')[3]!.replace(')', '')) : 1);
    expect(alpha(await panel.evaluate((el) => getComputedStyle(el).backgroundColor))).toBe(1);
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Open menu' }).click();
    const sheet = page.getByRole('dialog', { name: 'Menu' });
    await sheet.getByRole('link', { name: 'Sign In' }).waitFor();
    expect(alpha(await sheet.evaluate((el) => getComputedStyle(el).backgroundColor))).toBe(1);
  });

  it('the track-history link says it is a VIP feature to members without VIP', async () => {
    for (const role of ['dhr1', 'vip'] as const) {
      const { page } = await open(role);
      await page.goto('/dhr1');
      const recent = page.getByTestId('recent-tracks-dhr1');
      await recent.waitFor();
      const link = recent.getByRole('link', { name: /track history/i });
      expect((await link.textContent())?.trim()).toBe(role === 'vip' ? 'View Full Track History' : 'Full track history — VIP');
      await page.context().close();
    }
  });

  it('the Track Identifier card and its Recent Tracks list agree', { timeout: 60_000 }, async () => {
    const now = Date.now();
    await h.app.database.db.insert(trackIdentifications).values({
      channel: 'dhr1',
      title: 'Space Station',
      artist: 'Kerri Chandler',
      album: null,
      confidence: 100,
      service: 'audd',
      durationS: 412,
      identifiedAt: new Date(now - 4 * 60_000),
      lastSeenAt: new Date(now - 4 * 60_000),
    });
    // Written past the tracks module: tell it, as it tells itself, so its kept list is read again.
    await h.app.database.notify(TRACK_HISTORY_CHANNEL, 'changed');
    await expect
      .poll(async () => (await h.app.inject({ url: '/api/tracks/recent/dhr1', headers: { cookie: members.get('dhr1')?.cookie ?? '' } })).body)
      .toContain('Space Station');
    const { page } = await open('dhr1');
    // The monitor runs but names no track right now (between two identified tracks).
    await page.route('**/api/track-monitor/current/dhr1', (r) =>
      r.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ track: null, isActive: true }) }),
    );
    await page.goto('/track-ident');
    await page.getByTestId('recent-tracks-dhr1').getByText('Space Station').waitFor();
    const card = page.getByTestId('live-track-dhr1');
    await card.getByText('Listening for the next track...').waitFor();
    await card.getByText(/Last identified at .*: Kerri Chandler - Space Station/).waitFor();
    expect(await card.getByText('Listening for individual tracks...').count()).toBe(0);
  });

  it('the contact form shows the wrong field by the field, in the spec words', async () => {
    const { page } = await open('free', PHONE);
    await page.goto('/');
    await page.getByRole('button', { name: /Contact Us/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Contact Us' });
    await dialog.getByLabel('Name *').fill('Aoife');
    await dialog.getByLabel('Email *').fill('aoife@example');
    await dialog.getByLabel('Message *').fill('Love the Sunday sessions');
    await dialog.getByRole('button', { name: 'Send Message' }).click();
    await waitForNotice(page, CONTACT_MESSAGES.invalidEmail);
    const email = dialog.getByLabel('Email *');
    expect(await email.getAttribute('aria-invalid')).toBe('true');
    await dialog.getByText(CONTACT_MESSAGES.invalidEmail).waitFor();
    expect(await dialog.getByLabel('Name *').getAttribute('aria-invalid')).toBeNull();
    expect(await page.getByTestId('toast').filter({ hasText: CONTACT_MESSAGES.failed }).count()).toBe(0);

    // Missing fields: the spec's alert, and each empty field says so.
    await dialog.getByLabel('Name *').fill('');
    await dialog.getByRole('button', { name: 'Send Message' }).click();
    await waitForNotice(page, CONTACT_MESSAGES.required);
    await dialog.getByText(CONTACT_MESSAGES.nameRequired).waitFor();

    await dialog.getByLabel('Name *').fill('Aoife');
    await email.fill('aoife@example.ie');
    expect(await email.getAttribute('aria-invalid')).toBeNull();
    await dialog.getByRole('button', { name: 'Send Message' }).click();
    await waitForNotice(page, CONTACT_MESSAGES.sent);
  });

  it('comments show their status chip: approved green, pending yellow', async () => {
    const vip = members.get('vip')!;
    const dhr1 = members.get('dhr1')!;
    // A paying member's comment is approved at once; one with a link waits for a moderator.
    for (const [who, content] of [
      [dhr1, 'Chip test: approved at once'],
      [vip, 'Chip test: held for moderation, see https://scene.example/set'],
    ] as const) {
      const res = await h.app.inject({ method: 'POST', url: '/api/comments', payload: { articleId: 'homepage', content }, headers: { cookie: who.cookie } });
      expect(res.statusCode).toBe(201);
    }
    const { page } = await open('vip', PHONE);
    await page.goto('/');
    await page.getByRole('button', { name: 'Comments', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Community Comments' });
    const chip = async (content: string) => {
      const item = dialog.getByRole('listitem').filter({ hasText: content });
      await item.waitFor();
      return item.locator('span.rounded-full', { hasText: /^(approved|pending|rejected)$/ });
    };
    const approved = await chip('Chip test: approved at once');
    expect(await approved.textContent()).toBe('approved');
    expect(await approved.getAttribute('class')).toContain('emerald');
    const pending = await chip('Chip test: held for moderation');
    expect(await pending.textContent()).toBe('pending');
    expect(await pending.getAttribute('class')).toContain('amber');
  });

  it('a failed news comment says "Failed to post comment: {message or Unknown error}"', { timeout: 60_000 }, async () => {
    const { page } = await open('dhr1');
    const item = {
      id: 'news-chip-1',
      title: 'Loopback scene report',
      description: 'All the news from the loopback scene',
      link: 'https://scene.example/report',
      imageUrl: null,
      source: 'Scene',
      pubDate: new Date().toISOString(),
      type: 'rss',
    };
    await page.route('**/api/rss/latest', (r) => r.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify([item]) }));
    let reply = {
      status: 503,
      body: JSON.stringify({ error: { code: 'service_unavailable', message: 'Comments are resting' }, message: 'Comments are resting' }),
    };
    await page.route('**/api/comments', (r) =>
      r.request().method() === 'POST' ? r.fulfill({ status: reply.status, contentType: 'application/json', body: reply.body }) : r.continue(),
    );
    await page.goto('/forum');
    await page.getByText(item.title).first().waitFor();
    await page.getByRole('tabpanel').getByRole('button', { name: 'Comments', exact: true }).first().click();
    const box = page.getByRole('region', { name: `Comments on ${item.title}` }).getByLabel('Your comment');
    await box.fill('Great report');
    await box.press('Enter');
    await waitForNotice(page, newsCommentFailure('Comments are resting'));
    expect(newsCommentFailure('Comments are resting')).toBe('Failed to post comment: Comments are resting');

    reply = { status: 500, body: 'not json' };
    await box.press('Enter');
    await waitForNotice(page, 'Failed to post comment: Unknown error');
  });
});
