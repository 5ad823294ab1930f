import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { MODERATION_MESSAGES } from '../../src/contracts/community-values';
import { comments } from '../../src/server/db/schema';
import { tierLabel } from '../../src/contracts/tier-table';
import { tierPrice } from '../../src/web/lib/tier-prices';
import { memberWithRole } from '../support/app';
import { canRunBrowser, DESKTOP, PHONE, startBrowserHarness } from '../support/browser';

/** The listener's round-2 fixes on the home page: contact dialog, advert slots, stats. */
describe.skipIf(!canRunBrowser)('home page fixes', async () => {
  const h = await startBrowserHarness();
  // No Icecast runs here: the home player's now-playing reads answer 503.
  const offAir = /status of 503|ERR_CONNECTION_REFUSED/;

  it('prefills the contact form for a member; the dialog takes focus and gives it back', async () => {
    h.expectPageErrors(offAir);
    const member = await memberWithRole(h.app, 'dhr1');
    const { page, context } = await h.newPage(PHONE);
    const at = member.cookie.indexOf('=');
    await context.addCookies([{ name: member.cookie.slice(0, at), value: member.cookie.slice(at + 1), url: h.baseUrl }]);
    await page.goto('/');
    const opener = page.getByRole('button', { name: /Contact Us/ });
    await opener.click();
    const dialog = page.getByRole('dialog', { name: 'Contact Us' });
    await dialog.waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.closest('[role="dialog"]') !== null)).toBe(true);
    expect(await dialog.getByLabel('Email *').inputValue()).toBe(member.user.email);
    expect(await dialog.getByLabel('Name *').inputValue()).toBe(member.user.firstName ?? member.user.username);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => opener.evaluate((el) => el === document.activeElement)).toBe(true);
    await context.close();
  });

  it('leaves a visitor the contact form empty', async () => {
    h.expectPageErrors(offAir);
    const { page, context } = await h.newPage(PHONE);
    await page.goto('/');
    await page.getByRole('button', { name: /Contact Us/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Contact Us' });
    expect(await dialog.getByLabel('Email *').inputValue()).toBe('');
    await context.close();
  });

  it('fills each advert slot with the ad-free tier, never an empty frame; stats read label then value', async () => {
    h.expectPageErrors(offAir);
    const { page, context } = await h.newPage(DESKTOP);
    await page.goto('/');
    const slots = page.getByRole('complementary', { name: 'Advertisement' });
    await slots.first().waitFor();
    expect(await slots.count()).toBeGreaterThan(0);
    for (const slot of await slots.all()) {
      expect(await slot.textContent()).toBe(`Ad-free listening with ${tierLabel('dhr1')}, from ${tierPrice('dhr1')} a month Upgrade`);
      expect(await slot.getByRole('link').getAttribute('href')).toBe('/auth');
    }
    // In the stats row each label (dt) comes before its figure (dd) in reading order.
    const order = await page
      .locator('dl')
      .filter({ hasText: 'Listeners' })
      .first()
      .evaluate((dl) => [...dl.querySelectorAll('dt, dd')].map((e) => e.tagName).join(''));
    expect(order).toBe('DTDD'.repeat(4));
    await context.close();
  });

  it('asks before deleting a comment in the page, not with a native confirm', async () => {
    const admin = await memberWithRole(h.app, 'admin');
    const author = await memberWithRole(h.app, 'free');
    const text = `Delete me ${Date.now().toString(36)}`;
    const [row] = await h.app.database.db
      .insert(comments)
      .values({ discussionId: 'homepage', userId: author.user.id, authorName: author.user.username, authorTier: 'free', content: text, status: 'pending' })
      .returning();
    const { page, context } = await h.newPage(DESKTOP);
    const at = admin.cookie.indexOf('=');
    await context.addCookies([{ name: admin.cookie.slice(0, at), value: admin.cookie.slice(at + 1), url: h.baseUrl }]);
    const natives: string[] = [];
    page.on('dialog', (d) => natives.push(d.type()));
    await page.goto('/forum-moderation');
    await page.getByRole('tab', { name: /^Pending \(/ }).click();
    const card = page.getByRole('listitem').filter({ hasText: text });
    await card.getByRole('button', { name: 'Delete' }).click();
    const asked = page.getByRole('dialog', { name: 'Delete the comment' });
    await asked.getByText(MODERATION_MESSAGES.deleteConfirm).waitFor();
    await asked.getByRole('button', { name: 'Cancel' }).click();
    await asked.waitFor({ state: 'detached' });
    expect(
      await h.app.database.db
        .select()
        .from(comments)
        .where(eq(comments.id, row?.id ?? '')),
    ).toHaveLength(1);
    await card.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog', { name: 'Delete the comment' }).getByRole('button', { name: 'Delete' }).click();
    await page.getByTestId('toast').filter({ hasText: MODERATION_MESSAGES.deleted }).first().waitFor();
    await expect
      .poll(
        async () =>
          (
            await h.app.database.db
              .select()
              .from(comments)
              .where(eq(comments.id, row?.id ?? ''))
          ).length,
      )
      .toBe(0);
    expect(natives).toEqual([]);
    await context.close();
  });
});
