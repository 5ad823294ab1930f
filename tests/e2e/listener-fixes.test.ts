import { describe, expect, it } from 'vitest';
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
});
