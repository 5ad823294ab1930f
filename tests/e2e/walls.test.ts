import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { tierLabel } from '../../src/contracts/tier-table';
import type { Tier } from '../../src/contracts/tiers';
import { tierPrice } from '../../src/web/lib/tier-prices';
import { memberWithRole, type TestMember } from '../support/app';
import { canRunBrowser, DESKTOP, startBrowserHarness } from '../support/browser';

const NARROW = { width: 360, height: 740 };
const POP_OUT = { width: 420, height: 500 };
/** Set SCREENSHOT_DIR to keep PNGs of the walls (for looking at them). */
const SCREENSHOT_DIR = process.env.SCREENSHOT_DIR;

/**
 * The walls: a visitor at a tier's page or pop-out sees what the tier gives, its price and how to join
 * or sign in; the live monitor keeps the public on-air titles and walls off the identifications.
 */
describe.skipIf(!canRunBrowser)('walls that sell', async () => {
  const h = await startBrowserHarness();
  const free = await memberWithRole(h.app, 'free');
  const dhr1 = await memberWithRole(h.app, 'dhr1');

  async function open(path: string, viewport: { width: number; height: number }, member?: TestMember) {
    const { page, context } = await h.newPage(viewport);
    if (member) {
      const eq = member.cookie.indexOf('=');
      await context.addCookies([{ name: member.cookie.slice(0, eq), value: member.cookie.slice(eq + 1), url: h.baseUrl }]);
    }
    const identification: string[] = [];
    page.on('request', (r) => /\/api\/(tracks\/recent|track-monitor)\//.test(r.url()) && identification.push(r.url()));
    await page.goto(path);
    return { page, context, identification };
  }

  /** The wall's parts, read from the tier table: heading, benefits with the price, sign in, join, subscribe. */
  async function expectVisitorWall(page: Page, tier: Tier) {
    const heading = page.getByRole('heading', { name: `${tierLabel(tier)} Subscription Required` });
    await heading.waitFor();
    const scope = page.locator('section', { has: heading }).last();
    await scope.getByText(`From ${tierPrice(tier)} a month:`).waitFor();
    await scope.getByText(tier === 'dhr1' ? 'Track identification' : `Everything in ${tierLabel('dhr1')}`).waitFor();
    expect(await scope.getByRole('link', { name: 'Sign In' }).getAttribute('href')).toBe('/simple-auth');
    expect(await scope.getByRole('link', { name: 'Create a free account' }).getAttribute('href')).toBe('/auth');
    await scope.getByRole('link', { name: 'Upgrade on Patreon' }).waitFor();
    expect(await page.getByText('Login Required').count()).toBe(0);
    // Nothing wider than the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(page.viewportSize()?.width ?? 0);
  }

  for (const viewport of [NARROW, DESKTOP]) {
    it(`shows a visitor each tier's wall with its price at ${viewport.width} px`, async () => {
      for (const [path, tier] of [
        ['/dhr1', 'dhr1'],
        ['/dhr2', 'dhr2'],
        ['/track-ident', 'dhr1'],
      ] as const) {
        const { page, context } = await open(path, viewport);
        await expectVisitorWall(page, tier);
        if (SCREENSHOT_DIR) await page.screenshot({ path: `${SCREENSHOT_DIR}/wall${path.replace('/', '-')}-${viewport.width}.png`, fullPage: true });
        await context.close();
      }
    });

    it(`walls off the identifications on /birdy but keeps what is on air, at ${viewport.width} px`, async () => {
      const { page, context, identification } = await open('/birdy', viewport);
      await page.getByTestId('on-air-dhr1').waitFor();
      await page.getByTestId('on-air-dhr2').waitFor();
      await expectVisitorWall(page, 'dhr1');
      // The page keeps its own title; the wall is a section of it.
      expect(await page.getByRole('heading', { level: 1 }).count()).toBe(1);
      expect(await page.getByTestId('live-track-dhr1').count()).toBe(0);
      expect(await page.getByTestId('recent-tracks-dhr1').count()).toBe(0);
      expect(identification).toEqual([]);
      if (SCREENSHOT_DIR) await page.screenshot({ path: `${SCREENSHOT_DIR}/wall-birdy-${viewport.width}.png`, fullPage: true });
      await context.close();
    });
  }

  it('shows the wall in a 420×500 pop-out', async () => {
    for (const channel of ['dhr1', 'dhr2'] as const) {
      const { page, context } = await open(`/player/${channel}`, POP_OUT);
      await expectVisitorWall(page, channel);
      expect(await page.locator('audio').count()).toBe(0);
      await context.close();
    }
  });

  it('a free member meets the same screen with their state; a DHR1 member gets the identifications', async () => {
    const asFree = await open('/birdy', DESKTOP, free);
    await asFree.page.getByRole('heading', { name: `${tierLabel('dhr1')} Subscription Required` }).waitFor();
    await asFree.page.getByTestId('membership-status').getByText('Free member').waitFor();
    await asFree.page.getByText('the upgrade applies as soon as the payment goes through').waitFor();
    expect(await asFree.page.getByText('when you next sign in').count()).toBe(0);
    expect(asFree.identification).toEqual([]);
    await asFree.context.close();

    const asDhr1 = await open('/birdy', DESKTOP, dhr1);
    await asDhr1.page.getByTestId('live-track-dhr1').waitFor();
    await asDhr1.page.getByTestId('recent-tracks-dhr2').waitFor();
    expect(await asDhr1.page.getByText('Subscription Required').count()).toBe(0);
    await expect.poll(() => asDhr1.identification.length).toBeGreaterThan(0);
    await asDhr1.context.close();
  });
});
