import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { PAGE_PATHS } from '../../src/contracts/routes';
import { memberWithRole, type Role, type TestMember } from '../support/app';
import { canRunBrowser, startBrowserHarness, type BrowserHarness } from '../support/browser';

/** Phone (320, 360, 390), tablet (768) and desktop (1366) widths; below 1024 px the top bar shows the menu button. */
const WIDTHS = [320, 360, 390, 768, 1366];
const NAV_BREAKPOINT = 1024;
const TOUCH_MIN = 44;

/** Sample values for a path's `:param` segments, so a new page with a parameter is walked too. */
const SAMPLE_PARAMS: Record<string, string> = { channel: 'dhr1', id: '00000000-0000-4000-8000-000000000000' };

function samplePath(route: string): string {
  return route.replace(/:([a-zA-Z]+)/g, (_, name: string) => {
    const value = SAMPLE_PARAMS[name];
    if (!value) throw new Error(`no sample value for :${name} in ${route}: add one to SAMPLE_PARAMS`);
    return value;
  });
}

const ROLES: Role[] = ['anonymous', 'free', 'dhr1', 'vip', 'admin'];

interface Finding {
  width: number;
  problem: string;
}

/** What is wrong with the page at the current width: horizontal scroll, the main nav control outside the screen, small header targets. */
async function problemsAt(page: Page, width: number, popOut: boolean): Promise<Finding[]> {
  const found = await page.evaluate(
    ({ breakpoint, touchMin, popOut }) => {
      const problems: string[] = [];
      const vw = window.innerWidth;
      const sw = document.documentElement.scrollWidth;
      if (sw > vw) {
        // Name the widest offenders so a failure says where to look.
        const wide = [...document.querySelectorAll<HTMLElement>('body *')]
          .filter((el) => el.getBoundingClientRect().right > vw + 0.5 && el.getClientRects().length > 0)
          .slice(-3)
          .map((el) => `${el.tagName.toLowerCase()}.${String(el.className).slice(0, 60)} (right ${Math.round(el.getBoundingClientRect().right)})`);
        problems.push(`page is ${sw} px wide in ${vw}: ${wide.join('; ')}`);
      }
      // A player's channel name is shown whole.
      for (const el of document.querySelectorAll<HTMLElement>('[data-testid="player-channel"]')) {
        if (el.scrollWidth > el.clientWidth + 0.5 || el.getBoundingClientRect().right > vw) problems.push(`channel name "${el.textContent}" is cut`);
      }
      if (popOut) return problems;
      const control =
        vw < breakpoint
          ? document.querySelector<HTMLElement>('header button[aria-label="Open menu"]')
          : document.querySelector<HTMLElement>('header nav[aria-label="Main"]');
      if (!control) problems.push('no main nav control');
      else {
        const r = control.getBoundingClientRect();
        if (r.left < 0 || r.right > vw || r.width === 0) problems.push(`main nav control at ${Math.round(r.left)}..${Math.round(r.right)} in ${vw}`);
      }
      if (vw < breakpoint) {
        // The site's top bar (the first header); a page's own header is its content.
        for (const el of document.querySelector('header')?.querySelectorAll<HTMLElement>('a, button') ?? []) {
          const r = el.getBoundingClientRect();
          if (r.width === 0 || getComputedStyle(el).visibility === 'hidden') continue;
          if (r.height < touchMin - 0.5 || r.width < touchMin - 0.5)
            problems.push(`header target "${el.getAttribute('aria-label') ?? el.textContent?.trim()}" is ${Math.round(r.width)}x${Math.round(r.height)}`);
          if (r.left < 0 || r.right > vw) problems.push(`header target "${el.getAttribute('aria-label') ?? el.textContent?.trim()}" is cut`);
        }
      }
      return problems;
    },
    { breakpoint: NAV_BREAKPOINT, touchMin: TOUCH_MIN, popOut },
  );
  return found.map((problem) => ({ width, problem }));
}

/**
 * Two frames after a resize, so the layout measured is the one painted. Bounded: a renderer that
 * produces no frame for a while (it happened once in CI, and page.evaluate has no timeout) must not
 * hold the test until its 240 s run out; the measurements force a layout of their own anyway.
 */
async function settle(page: Page): Promise<void> {
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        setTimeout(resolve, 1000);
        requestAnimationFrame(() => requestAnimationFrame(() => resolve()));
      }),
  );
}

describe.skipIf(!canRunBrowser)('every page at 320 to 1366 px, for every role', () => {
  let h: BrowserHarness;
  const members = new Map<Role, TestMember>();

  beforeAll(async () => {
    h = await startBrowserHarness();
    for (const role of ROLES) if (role !== 'anonymous') members.set(role, await memberWithRole(h.app, role));
  });

  it.each(ROLES)('has no horizontal scroll, the main nav inside the screen and 44 px header targets (%s)', { timeout: 240_000 }, async (role) => {
    const context = await h.browser.newContext({ viewport: { width: WIDTHS[0]!, height: 800 }, baseURL: h.baseUrl, hasTouch: true });
    const member = members.get(role);
    if (member) {
      const eq = member.cookie.indexOf('=');
      await context.addCookies([{ name: member.cookie.slice(0, eq), value: member.cookie.slice(eq + 1), url: h.baseUrl }]);
    }
    const page = await context.newPage();
    const crashes: string[] = [];
    page.on('pageerror', (err) => crashes.push(err.message));
    const report: string[] = [];
    try {
      let loaded = false;
      for (const route of PAGE_PATHS) {
        const popOut = route.startsWith('/player');
        await page.setViewportSize({ width: WIDTHS[0]!, height: 800 });
        if (popOut || !loaded) {
          // The pop-out players have their own layout: a full load; the first page loads the app.
          await page.goto(samplePath(route));
          loaded = !popOut;
        } else {
          // Client-side navigation, as a listener moves between pages: the router follows popstate.
          await page.evaluate((path) => {
            history.pushState(null, '', path);
            dispatchEvent(new PopStateEvent('popstate'));
          }, samplePath(route));
        }
        if (popOut) await page.locator('main, [role="main"], body > div').first().waitFor();
        else await page.locator('header button[aria-label="Open menu"]').waitFor();
        // The page's own content (lazy chunk, first data) in place before measuring.
        await page
          .waitForFunction(() => !document.querySelector('[aria-busy="true"], [role="status"] > .animate-spin'), undefined, { timeout: 1500 })
          .catch(() => undefined);
        await page.waitForTimeout(100);
        for (const width of WIDTHS) {
          await page.setViewportSize({ width, height: 800 });
          await settle(page);
          for (const f of await problemsAt(page, width, popOut)) report.push(`${route} @${f.width}: ${f.problem}`);
        }
      }
    } finally {
      await context.close();
    }
    expect(crashes).toEqual([]);
    expect(report).toEqual([]);
  });
});
