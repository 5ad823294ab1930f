// The accessibility pass of "The listener's DHR, round 2": axe-core (the engine Lighthouse and the
// browsers' own audits use) over every page of src/contracts/routes.ts at 360 px, for a visitor and
// for an admin (who sees every page), with zero violations; and every control a finger presses at
// least 44×44 px (WCAG 2.5.5) on a touch screen. A new page is walked the day it is added.
import axe from 'axe-core';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { PAGE_PATHS } from '../../src/contracts/routes';
import { memberWithRole, type Role, type TestMember } from '../support/app';
import { canRunBrowser, startBrowserHarness, type BrowserHarness } from '../support/browser';

const WIDTH = 360;
const TOUCH_MIN = 44;
const ROLES: Role[] = ['anonymous', 'admin'];
const SAMPLE_PARAMS: Record<string, string> = { channel: 'dhr1', id: '00000000-0000-4000-8000-000000000000' };

const samplePath = (route: string) => route.replace(/:([a-zA-Z]+)/g, (_, name: string) => SAMPLE_PARAMS[name] ?? name);

interface AxeResult {
  violations: { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }[];
}

/** axe's violations on the page as it stands, one line each with up to three offending elements. */
async function axeViolations(page: Page): Promise<string[]> {
  // Evaluated through the DevTools protocol: the site's Content-Security-Policy refuses injected scripts, rightly.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axe.source);
  const result = await page.evaluate(
    () =>
      (window as unknown as { axe: { run: (ctx: Document, opts: unknown) => Promise<AxeResult> } }).axe.run(document, {
        runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] },
        resultTypes: ['violations'],
      }) as Promise<AxeResult>,
  );
  return result.violations.map(
    (v) =>
      `${v.id} (${v.impact}): ${v.help} — ${v.nodes
        .slice(0, 3)
        .map((n) => n.target.join(' '))
        .join(', ')}`,
  );
}

/**
 * Controls under 44×44 px: buttons, form fields, sliders and links that stand alone (a link inside a
 * sentence is exempt, as WCAG 2.5.5 says). A control's hit area counts: a label wrapping a checkbox, or
 * a slider's padding, is where the finger lands.
 */
async function smallTargets(page: Page): Promise<string[]> {
  return page.evaluate((min) => {
    const found: string[] = [];
    const controls = document.querySelectorAll<HTMLElement>(
      'button, a[href], input:not([type="hidden"]), select, textarea, [role="button"], [role="slider"], [role="tab"], [role="menuitem"], summary',
    );
    for (const el of controls) {
      if (el.closest('[aria-hidden="true"], [inert]')) continue;
      const style = getComputedStyle(el);
      if (style.visibility === 'hidden' || style.display === 'none') continue;
      const r = el.getBoundingClientRect();
      // Nothing to press, or visually hidden until focused (the skip link).
      if (r.width <= 1 || r.height <= 1) continue;
      // A link inside running text is sized by its sentence.
      if (el.tagName === 'A' && style.display === 'inline' && el.parentElement && /^(P|LI|SPAN|SMALL|EM|STRONG|TD|DD|LABEL)$/.test(el.parentElement.tagName)) {
        const text = el.parentElement.textContent?.trim() ?? '';
        if (text.length > (el.textContent?.trim().length ?? 0) + 1) continue;
      }
      // Where a label (or the control's wrapper) is the hit area, measure that.
      const area = (el.closest('label') ?? el).getBoundingClientRect();
      const w = Math.max(r.width, area.width);
      const h = Math.max(r.height, area.height);
      if (w + 0.5 < min || h + 0.5 < min) {
        const name = el.getAttribute('aria-label') ?? el.textContent?.trim().slice(0, 40) ?? el.tagName;
        found.push(`${el.tagName.toLowerCase()} "${name}" is ${Math.round(w)}x${Math.round(h)}`);
      }
    }
    return found;
  }, TOUCH_MIN);
}

/** The page's own content in place: its heading shown (every page has one) and nothing busy. */
async function settled(page: Page): Promise<void> {
  await page
    .waitForFunction(() => document.querySelector('h1') && !document.querySelector('[aria-busy="true"], [role="status"] > .animate-spin'), undefined, {
      timeout: 3000,
    })
    .catch(() => undefined);
  await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));
  await page.waitForTimeout(150);
}

describe.skipIf(!canRunBrowser)('accessibility of every page at 360 px', () => {
  let h: BrowserHarness;
  const members = new Map<Role, TestMember>();

  beforeAll(async () => {
    h = await startBrowserHarness();
    for (const role of ROLES) if (role !== 'anonymous') members.set(role, await memberWithRole(h.app, role));
  });

  it.each(ROLES)('has no axe violation and no control under 44×44 px (%s)', { timeout: 300_000 }, async (role) => {
    const context = await h.browser.newContext({ viewport: { width: WIDTH, height: 800 }, baseURL: h.baseUrl, hasTouch: true, isMobile: true });
    const member = members.get(role);
    if (member) {
      const eq = member.cookie.indexOf('=');
      await context.addCookies([{ name: member.cookie.slice(0, eq), value: member.cookie.slice(eq + 1), url: h.baseUrl }]);
    }
    const page = await context.newPage();
    const report: string[] = [];
    try {
      for (const route of PAGE_PATHS) {
        // A full load per page: axe reads the page as a listener arriving on it does.
        await page.goto(samplePath(route));
        await settled(page);
        for (const v of await axeViolations(page)) report.push(`${route}: ${v}`);
        for (const t of await smallTargets(page)) report.push(`${route}: ${t}`);
      }
    } finally {
      await context.close();
    }
    expect(report).toEqual([]);
  });
});
