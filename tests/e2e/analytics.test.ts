import fs from 'node:fs/promises';
import type { BrowserContext } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { DAY_MS, HOUR_MS, MINUTE_MS } from '../../src/contracts/time';
import { listeningSessions } from '../../src/server/db/schema';
import { dublinDate } from '../../src/server/lib/dates';
import { dayBounds, rollUpDay } from '../../src/server/modules/analytics/rollups-service';
import { memberWithRole, type TestMember } from '../support/app';
import { canRunBrowser, DESKTOP, startBrowserHarness } from '../support/browser';

const SMALL_PHONE = { width: 360, height: 740 };
// No Icecast runs here: the radio's now-playing call answers 503, which the browser logs.
const unexpected = (errors: string[]) => errors.filter((e) => !/status of 503/.test(e));

describe.skipIf(!canRunBrowser)('the analytics page in the browser', async () => {
  const h = await startBrowserHarness();
  const db = h.app.database.db;
  const admin = await memberWithRole(h.app, 'admin');
  const now = new Date();
  // Three days back: a listener present 30 minutes (0.5 h) and another 90 minutes (1.5 h).
  const day = dublinDate(new Date(now.getTime() - 3 * DAY_MS));
  const at = (minutes: number) => new Date(dayBounds(day).start.getTime() + 18 * HOUR_MS + minutes * MINUTE_MS);
  await db.insert(listeningSessions).values(
    [
      ['198.51.100.0/24', 0, 30],
      ['203.0.113.0/24', 0, 90],
    ].map(([network, from, to], i) => ({
      channelId: 'dhr1',
      mount: '/dhr1-free',
      icecast: 'radio:8000',
      clientId: String(i),
      network: String(network),
      country: 'IE',
      player: 'browser',
      userAgent: 'Mozilla/5.0',
      startedAt: at(Number(from)),
      lastSeenAt: at(Number(to)),
      endedAt: at(Number(to)),
      durationS: (Number(to) - Number(from)) * 60,
    })),
  );
  await rollUpDay(db, day, now);

  const contexts: BrowserContext[] = [];
  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((c) => c.close()));
  });
  async function pageAs(member: TestMember, viewport: { width: number; height: number }) {
    const { page, context, errors } = await h.newPage(viewport);
    contexts.push(context);
    const eq = member.cookie.indexOf('=');
    await context.addCookies([{ name: member.cookie.slice(0, eq), value: member.cookie.slice(eq + 1), url: h.baseUrl }]);
    return { page, errors };
  }

  for (const viewport of [SMALL_PHONE, DESKTOP]) {
    it(`at ${viewport.width} px: switches ranges, opens a data table and downloads its CSV`, async () => {
      const { page, errors } = await pageAs(admin, viewport);
      await page.goto(`${h.baseUrl}/analytics`);
      await page.getByRole('heading', { name: 'Analytics', level: 1 }).waitFor();
      const hours = page.locator('dt', { hasText: 'Listening hours' }).locator('xpath=following-sibling::dd[1]');
      await expect.poll(() => hours.textContent()).toBe('2');
      // 24 h: nothing today yet; the request and the figures follow the range.
      const asked = page.waitForRequest((r) => r.url().includes('/api/admin/analytics/overview') && r.url().includes(`from=${dublinDate(now)}`));
      await page.getByRole('button', { name: '24 h' }).click();
      await asked;
      await expect.poll(() => hours.textContent()).toBe('0');
      await page.getByRole('button', { name: '7 days' }).click();
      await expect.poll(() => hours.textContent()).toBe('2');
      expect(await page.getByRole('button', { name: '7 days' }).getAttribute('aria-pressed')).toBe('true');

      const chart = page.getByRole('region', { name: 'Listening hours by day' });
      await chart.getByRole('button', { name: 'Show data table' }).click();
      const row = chart.getByRole('row', { name: new RegExp(day) });
      await expect.poll(() => row.textContent()).toContain('2');
      expect(await chart.getByRole('button', { name: 'Hide data table' }).getAttribute('aria-expanded')).toBe('true');

      // Keyboard: a focused column says its exact values.
      await chart.locator('rect[tabindex="0"]').first().focus();
      await expect.poll(() => chart.locator('p[aria-live]').textContent()).toBe(`${day}: Hours 2`);

      const download = page.waitForEvent('download');
      await chart.getByRole('button', { name: 'Download CSV' }).click();
      const file = await download;
      expect(file.suggestedFilename()).toMatch(/^dhr-tlh-.*\.csv$/);
      const csv = await fs.readFile((await file.path()) ?? '', 'utf8');
      expect(csv).toContain(`${day},2\r\n`);

      // Nothing wider than the screen.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      expect(unexpected(errors)).toEqual([]);
    });
  }

  it('a member who is not an admin does not see the figures', async () => {
    const member = await memberWithRole(h.app, 'vip');
    const { page } = await pageAs(member, DESKTOP);
    await page.goto(`${h.baseUrl}/analytics`);
    await page.waitForTimeout(500);
    expect(await page.getByRole('heading', { name: 'Analytics', level: 1 }).count()).toBe(0);
  });
});
