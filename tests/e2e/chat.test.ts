import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CHAT_MESSAGES } from '../../src/contracts/chat';
import { memberWithRole, type TestMember } from '../support/app';
import { canRunBrowser, DESKTOP, startBrowserHarness, type BrowserHarness } from '../support/browser';

/** No Icecast runs here: now-playing reads answer 503 and the pop-out's autoplaying stream is refused. */
const unexpected = (errors: string[]) => errors.filter((e) => !/status of 503|ERR_CONNECTION_REFUSED/.test(e));

/** Set SCREENSHOT_DIR to keep PNGs of the chat at 360 and 1366 px (for looking at them). */
const SCREENSHOT_DIR = process.env.SCREENSHOT_DIR;

describe.skipIf(!canRunBrowser)('channel chat in the browser', () => {
  let h: BrowserHarness;
  let poster: TestMember;
  let reader: TestMember;
  let admin: TestMember;

  beforeAll(async () => {
    h = await startBrowserHarness();
    poster = await memberWithRole(h.app, 'dhr1');
    reader = await memberWithRole(h.app, 'dhr2');
    admin = await memberWithRole(h.app, 'admin');
  });

  const contexts: BrowserContext[] = [];
  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((c) => c.close()));
  });

  async function pageAs(who: TestMember | undefined, viewport = DESKTOP) {
    const { page, context, errors } = await h.newPage(viewport);
    contexts.push(context);
    if (who) {
      const at = who.cookie.indexOf('=');
      await context.addCookies([{ name: who.cookie.slice(0, at), value: who.cookie.slice(at + 1), url: h.baseUrl }]);
    }
    return { page, errors };
  }

  /** Opens `pathname` and waits until its chat is live (the shared stream is open). */
  async function openChat(page: Page, pathname: string) {
    await page.goto(pathname);
    const panel = page.getByTestId('chat-panel');
    await panel.getByText('Live', { exact: true }).waitFor();
    return panel;
  }

  /** The chat panel fits the viewport and scrolls nothing sideways. */
  const noHorizontalScroll = (page: Page) =>
    page.getByTestId('chat-panel').evaluate((el) => {
      const list = el.querySelector('ol');
      return el.getBoundingClientRect().right <= window.innerWidth && el.getBoundingClientRect().left >= 0 && !!list && list.scrollWidth <= list.clientWidth;
    });

  it('a DHR1 member posts on /dhr1, another member sees it live, an admin deletes it and it disappears', async () => {
    const text = `Warm pads tonight ${Date.now().toString(36)}`;
    const a = await pageAs(poster);
    const b = await pageAs(reader);
    const m = await pageAs(admin);
    const panelA = await openChat(a.page, '/dhr1');
    const panelB = await openChat(b.page, '/dhr1');
    const panelM = await openChat(m.page, '/dhr1');

    await panelA.getByLabel('Your message').fill(text);
    await expect.poll(() => panelA.getByText(`${[...text].length}/300`).count()).toBe(1);
    await panelA.getByRole('button', { name: 'Send message' }).click();
    await panelA.getByText(text).waitFor();

    // The other member's page shows it without a reload, with the author's name and tier.
    const line = panelB.getByTestId('chat-message').filter({ hasText: text });
    await line.waitFor({ timeout: 5000 });
    await expect.poll(() => line.getByText(poster.user.username).count()).toBe(1);
    await expect.poll(() => line.getByText('DHR1', { exact: true }).count()).toBe(1);

    // The admin deletes it from the message's menu; it goes for the other reader too.
    const adminLine = panelM.getByTestId('chat-message').filter({ hasText: text });
    await adminLine.waitFor();
    await adminLine.getByRole('button', { name: `Moderate the message of ${poster.user.username}` }).click();
    await m.page.getByRole('menuitem', { name: 'Delete message' }).click();
    await adminLine.waitFor({ state: 'detached', timeout: 5000 });
    await line.waitFor({ state: 'detached', timeout: 5000 });
    await panelA.getByText(text).waitFor({ state: 'detached', timeout: 5000 });
    // Members see no moderator menu.
    expect(await panelB.getByRole('button', { name: /Moderate the message/ }).count()).toBe(0);
    for (const p of [a, b, m]) expect(unexpected(p.errors)).toEqual([]);
  });

  it('shows a visitor the chat read-only with "Sign in to chat", and a free member the upgrade line', async () => {
    const text = `Free stream hello ${Date.now().toString(36)}`;
    const v = await pageAs(undefined, { width: 360, height: 740 });
    await v.page.goto('/player');
    const panel = v.page.getByTestId('chat-panel');
    await panel.waitFor();
    await panel.getByRole('link', { name: CHAT_MESSAGES.signIn }).waitFor();
    expect(await panel.getByLabel('Your message').count()).toBe(0);
    await panel.getByText('Live', { exact: true }).waitFor();
    // Messages still arrive live for the visitor.
    const res = await h.app.inject({ method: 'POST', url: '/api/chat/free/messages', headers: { cookie: reader.cookie }, payload: { text } });
    expect(res.statusCode).toBe(201);
    await panel.getByText(text).waitFor({ timeout: 5000 });
    expect(await noHorizontalScroll(v.page)).toBe(true);
    const signIn = await panel.getByRole('link', { name: CHAT_MESSAGES.signIn }).boundingBox();
    expect(signIn?.height ?? 0).toBeGreaterThanOrEqual(44);
    if (SCREENSHOT_DIR) await v.page.screenshot({ path: path.join(SCREENSHOT_DIR, 'chat-popout-visitor-360.png') });

    const free = await memberWithRole(h.app, 'free');
    const f = await pageAs(free, { width: 360, height: 740 });
    await f.page.goto('/');
    await f.page.getByRole('button', { name: 'Open the live chat' }).click();
    const freePanel = f.page.getByTestId('chat-panel');
    await freePanel.getByRole('link', { name: 'upgrade' }).waitFor();
    expect(await freePanel.getByLabel('Your message').count()).toBe(0);
    expect(await noHorizontalScroll(f.page)).toBe(true);
    for (const p of [v, f]) expect(unexpected(p.errors)).toEqual([]);
  });

  it('fits 320 px without horizontal scroll, with 44 px touch targets, and sits beside the player at 1366 px', async () => {
    await h.app.inject({
      method: 'POST',
      url: '/api/chat/dhr1/messages',
      headers: { cookie: reader.cookie },
      payload: { text: 'A rather long line to see wrapping: deepdeepdeepdeepdeepdeepdeepdeepdeepdeepdeepdeephouse all night long' },
    });
    for (const viewport of [
      { width: 320, height: 760 },
      { width: 360, height: 760 },
      { width: 1366, height: 900 },
    ]) {
      const p = await pageAs(poster, viewport);
      const panel = await openChat(p.page, '/dhr1');
      await panel.getByTestId('chat-message').first().waitFor();
      await panel.scrollIntoViewIfNeeded();
      expect(await noHorizontalScroll(p.page)).toBe(true);
      const send = await panel.getByRole('button', { name: 'Send message' }).boundingBox();
      const input = await panel.getByLabel('Your message').boundingBox();
      expect(send?.height ?? 0).toBeGreaterThanOrEqual(44);
      expect(input?.height ?? 0).toBeGreaterThanOrEqual(44);
      if (SCREENSHOT_DIR) await p.page.screenshot({ path: path.join(SCREENSHOT_DIR, `chat-dhr1-${viewport.width}.png`) });
      expect(unexpected(p.errors)).toEqual([]);
    }
  });
});
