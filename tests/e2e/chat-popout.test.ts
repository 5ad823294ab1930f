import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { CHAT_MESSAGES } from '../../src/contracts/chat';
import { MODERATION_MESSAGES } from '../../src/contracts/community-values';
import { chatMembers, chatMessages, commentBans } from '../../src/server/db/schema';
import { memberWithRole, type TestMember } from '../support/app';
import { canRunBrowser, startBrowserHarness } from '../support/browser';

const POP_OUT = { width: 420, height: 500 };
/** Set SCREENSHOT_DIR to keep PNGs of the pop-out. */
const SCREENSHOT_DIR = process.env.SCREENSHOT_DIR;

/** The chat of a 420×500 pop-out player: bounded, at the newest message, telling muted and banned members first. */
describe.skipIf(!canRunBrowser)('pop-out chat', async () => {
  const h = await startBrowserHarness();
  // No Icecast runs here: the pop-out's now-playing reads answer 503 and its stream is refused.
  const offAir = /status of 503|ERR_CONNECTION_REFUSED/;
  const poster = await memberWithRole(h.app, 'dhr1');
  const admin = await memberWithRole(h.app, 'admin');
  const base = Date.now() - 60 * 60_000;
  await h.app.database.db.insert(chatMessages).values(
    Array.from({ length: 40 }, (_, i) => ({
      channel: 'dhr1',
      userId: poster.user.id,
      authorName: poster.user.username,
      authorTier: 'dhr1' as const,
      text: i === 39 ? 'مرحبا بالجميع، الموسيقى رائعة' : `Message number ${i + 1} about the warm pads`,
      status: 'shown' as const,
      createdAt: new Date(base + i * 60_000),
    })),
  );

  async function popOut(who: TestMember) {
    h.expectPageErrors(offAir);
    const { page, context } = await h.newPage(POP_OUT);
    const at = who.cookie.indexOf('=');
    await context.addCookies([{ name: who.cookie.slice(0, at), value: who.cookie.slice(at + 1), url: h.baseUrl }]);
    await page.goto('/player/dhr1');
    const panel = page.getByTestId('chat-panel');
    await panel.getByTestId('chat-message').last().waitFor();
    return { page, context, panel };
  }
  /** Whether the element is inside the list's visible box. */
  const inListView = (page: Page, text: string) =>
    page.getByTestId('chat-panel').evaluate((el, t) => {
      const list = el.querySelector('ol');
      const item = [...(list?.querySelectorAll('li') ?? [])].find((li) => li.textContent?.includes(t));
      if (!list || !item) return false;
      const a = list.getBoundingClientRect();
      const b = item.getBoundingClientRect();
      return b.top >= a.top - 1 && b.bottom <= a.bottom + 1;
    }, text);

  it('opens at the newest message with the message box in reach, and lays out right-to-left text right to left', async () => {
    const { page, context, panel } = await popOut(poster);
    await expect.poll(() => inListView(page, 'مرحبا')).toBe(true);
    expect(await inListView(page, 'Message number 1 about')).toBe(false);
    // Bounded: the list scrolls inside the panel; the box is at most a short scroll away, never 1,800 px.
    const box = await panel.getByLabel('Your message').boundingBox();
    expect(box).not.toBeNull();
    expect((box?.y ?? 0) + (box?.height ?? 0)).toBeLessThan(POP_OUT.height * 2);
    const list = await panel.locator('ol').boundingBox();
    expect(list?.height ?? 0).toBeLessThanOrEqual(POP_OUT.height * 0.55 + 1);
    const arabic = panel.getByTestId('chat-message').last().getByText('مرحبا', { exact: false });
    expect(await arabic.getAttribute('dir')).toBe('auto');
    expect(await arabic.evaluate((el) => getComputedStyle(el).direction)).toBe('rtl');
    if (SCREENSHOT_DIR) await page.screenshot({ path: `${SCREENSHOT_DIR}/chat-popout-420.png`, fullPage: true });
    await context.close();
  });

  it('tells a muted member in the chat box, with the end time, before they type', async () => {
    const muted = await memberWithRole(h.app, 'dhr1');
    await h.app.database.db.insert(chatMembers).values({ userId: muted.user.id, mutedUntil: new Date(Date.now() + 60 * 60_000) });
    const { panel, context } = await popOut(muted);
    await panel.getByText(/^You are muted in chat until .+\.$/).waitFor();
    expect(await panel.getByLabel('Your message').count()).toBe(0);
    await context.close();
  });

  it('tells a banned member in the chat box, with the reason and the end, before they type', async () => {
    const banned = await memberWithRole(h.app, 'dhr1');
    await h.app.database.db.insert(commentBans).values({ userId: banned.user.id, reason: 'spam links', expiresAt: new Date(Date.now() + 7 * 86_400_000) });
    const { panel, context } = await popOut(banned);
    const notice = panel.getByTestId('chat-banned');
    await notice.getByText(CHAT_MESSAGES.banned).waitFor();
    await notice.getByText(/Reason: spam links\. The ban lasts until .+\./).waitFor();
    expect(await panel.getByLabel('Your message').count()).toBe(0);
    await context.close();
  });

  it('bans from a message in an in-page dialog that names comments and chat', async () => {
    const target = await memberWithRole(h.app, 'dhr1');
    await h.app.database.db.insert(chatMessages).values({
      channel: 'dhr1',
      userId: target.user.id,
      authorName: target.user.username,
      authorTier: 'dhr1',
      text: 'buy cheap followers',
      status: 'shown',
    });
    const { page, panel, context } = await popOut(admin);
    const dialogs: string[] = [];
    page.on('dialog', (d) => dialogs.push(d.type()));
    const line = panel.getByTestId('chat-message').filter({ hasText: 'buy cheap followers' });
    await line.getByRole('button', { name: `Moderate the message of ${target.user.username}` }).click();
    await page.getByRole('menuitem', { name: 'Ban from comments and chat' }).click();
    const dialog = page.getByRole('dialog', { name: `Ban ${target.user.username} from comments and chat` });
    await dialog.getByLabel('Reason').fill('spam');
    await dialog.getByLabel('Ban lasts').selectOption('7');
    await dialog.getByRole('button', { name: 'Ban from comments and chat' }).click();
    await page.getByText(MODERATION_MESSAGES.banned(target.user.username)).waitFor();
    expect(dialogs).toEqual([]);
    const row = (await h.app.database.db.select().from(commentBans)).find((b) => b.userId === target.user.id);
    expect(row?.reason).toBe('spam');
    expect((row?.expiresAt?.getTime() ?? 0) - Date.now()).toBeGreaterThan(6 * 86_400_000);
    await context.close();
  });
});
