import type { BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { COMMENT_MESSAGES } from '../../src/contracts/community-values';
import { FORUM_MESSAGES, NEWS_EMPTY } from '../../src/contracts/news-values';
import { DAY_MS, HOUR_MS } from '../../src/contracts/time';
import { eq } from 'drizzle-orm';
import { forumPosts, newsItems, newsSources, users } from '../../src/server/db/schema';
import { createMember, type TestMember } from '../support/app';
import { canRunBrowser, DESKTOP, PHONE, startBrowserHarness, type BrowserHarness } from '../support/browser';
import { rss, startFeedServer, type FeedServer } from '../support/feed-server';

/** The forum page, the news panel, the home ticker and the news sources admin, in Chromium. */

const EXPECTED_RESOURCE_ERRORS = [/\/api\/live-metadata/];

describe.skipIf(!canRunBrowser)('news and forum in the browser', () => {
  let h: BrowserHarness;
  let feeds: FeedServer;
  let dhr1: TestMember;
  let admin: TestMember;

  beforeAll(async () => {
    feeds = await startFeedServer();
    feeds.route('/scene.xml', (_req, res) =>
      res
        .writeHead(200, { 'content-type': 'application/rss+xml' })
        .end(
          rss([
            { title: 'Loopback scene report', link: 'https://scene.example/report', guid: 'report-1', description: 'All the news from the loopback scene' },
          ]),
        ),
    );
    h = await startBrowserHarness({ NEWS_ALLOW_PRIVATE: 'true' });
    const { db } = h.app.database;
    dhr1 = await createMember(h.app, { subscriptionTier: 'dhr1', subscriptionStatus: 'active', firstName: 'Ada' });
    admin = await createMember(h.app, { isAdmin: true });
    const author = await createMember(h.app, { subscriptionTier: 'vip', subscriptionStatus: 'active', username: 'deepdigger' });
    await db.insert(newsItems).values([
      {
        id: 'web-warehouse',
        title: 'Warehouse night this Saturday',
        description: 'Doors at 22:00',
        link: 'https://club.example/night',
        source: 'Club Example',
        pubDate: new Date(Date.now() - 2 * HOUR_MS),
        type: 'event',
        origin: 'web',
      },
      {
        id: 'rss-ep',
        title: 'Label EP out now',
        description: 'Four deep cuts',
        link: 'https://label.example/ep',
        source: 'Label',
        pubDate: new Date(Date.now() - 3 * DAY_MS),
        type: 'release',
        origin: 'rss',
      },
    ]);
    await db.insert(forumPosts).values([
      { userId: author.user.id, category: 'discussion', title: 'Larry Heard appreciation thread', body: 'Can You Feel It still gives me chills.' },
      { userId: author.user.id, category: 'events', title: 'Who is going to the boat party?', body: 'Meet at the bar.' },
      { userId: author.user.id, category: 'releases', title: 'Best release of November', body: 'Vote below.' },
    ]);
    await h.app.modules.news.changed();
  });

  async function open(
    viewport: { width: number; height: number },
    opts: { member?: TestMember; reducedMotion?: 'reduce' } = {},
  ): Promise<{ page: Page; context: BrowserContext; errors: string[] }> {
    const context = await h.browser.newContext({ viewport, baseURL: h.baseUrl, ...(opts.reducedMotion ? { reducedMotion: opts.reducedMotion } : {}) });
    if (opts.member) {
      const eq = opts.member.cookie.indexOf('=');
      await context.addCookies([{ name: opts.member.cookie.slice(0, eq), value: opts.member.cookie.slice(eq + 1), url: h.baseUrl }]);
    }
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('console', (msg) => {
      if (msg.type() !== 'error') return;
      const url = msg.location().url;
      if (msg.text().startsWith('Failed to load resource') && EXPECTED_RESOURCE_ERRORS.some((re) => re.test(url))) return;
      errors.push(`${msg.text()} (${url})`);
    });
    page.on('pageerror', (err) => errors.push(err.message));
    return { page, context, errors };
  }

  const threadTitles = (page: Page) => page.getByRole('region', { name: 'Member Threads' }).getByRole('heading', { level: 3 }).allTextContents();

  it('shows visitors the forum: news panel tabs with counts, stats, Join The Discussion, threads; filters by category and search', async () => {
    const { page, context, errors } = await open(DESKTOP);
    await page.goto('/forum');
    await page.getByRole('heading', { name: 'DHR Forum' }).waitFor();
    await page.getByRole('heading', { name: 'Join The Discussion' }).waitFor();
    for (const figure of ['2.5K', '847', '156', '12.8K']) await page.getByText(figure, { exact: true }).waitFor();
    expect(await page.getByRole('complementary', { name: 'Advertisement' }).count()).toBe(1);

    // The RSS tab holds the seeded station news and the feed item; the web tab the crawled page.
    const rssTab = page.getByRole('tab', { name: /^RSS Feeds \(\d+\)$/ });
    await rssTab.waitFor();
    expect(await rssTab.getAttribute('aria-selected')).toBe('true');
    const title = page.getByRole('link', { name: /Label EP out now/ });
    expect(await title.getAttribute('target')).toBe('_blank');
    expect(await title.getAttribute('rel')).toContain('noopener');
    await page.getByText('3d ago').first().waitFor();
    await page.getByRole('tab', { name: 'Web Sources (1)' }).click();
    await page.getByRole('link', { name: /Warehouse night this Saturday/ }).waitFor();
    await page.getByText('2h ago').waitFor();
    await page.getByRole('tab', { name: /^RSS Feeds/ }).click();

    await page.getByText('Larry Heard appreciation thread').waitFor();
    expect(await threadTitles(page)).toHaveLength(3);

    // Events: event threads and event news only.
    await page.getByRole('button', { name: 'Events', exact: true }).click();
    await expect.poll(() => threadTitles(page)).toEqual(['Who is going to the boat party?']);
    await page.getByRole('tab', { name: 'Web Sources (1)' }).waitFor();
    await page.getByRole('tab', { name: 'RSS Feeds (1)' }).waitFor();
    // Discussion: threads only, no news panel.
    await page.getByRole('button', { name: 'Discussion', exact: true }).click();
    await expect.poll(() => threadTitles(page)).toEqual(['Larry Heard appreciation thread']);
    expect(await page.getByRole('tab', { name: /RSS Feeds/ }).count()).toBe(0);
    // News: the panel only.
    await page.getByRole('button', { name: 'News', exact: true }).click();
    await page.getByRole('tab', { name: /RSS Feeds/ }).waitFor();
    expect(await page.getByRole('region', { name: 'Member Threads' }).count()).toBe(0);

    // Search: threads (server) and news items (in the page).
    await page.getByRole('button', { name: 'All', exact: true }).click();
    await page.getByRole('searchbox', { name: 'Search the forum' }).fill('larry');
    await expect.poll(() => threadTitles(page)).toEqual(['Larry Heard appreciation thread']);
    await page.getByText(NEWS_EMPTY.rss).waitFor();
    await page.getByRole('searchbox', { name: 'Search the forum' }).fill('warehouse');
    await page.getByText('No threads match your search.').waitFor();
    await page.getByRole('tab', { name: 'Web Sources (1)' }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('opens a shared thread, article or profile address (sitemap, link previews) on that item', async () => {
    const { db } = h.app.database;
    const [thread] = await db.select().from(forumPosts).where(eq(forumPosts.title, 'Best release of November'));
    const [author] = await db.select().from(users).where(eq(users.username, 'deepdigger'));
    if (!thread || !author) throw new Error('fixtures missing');
    const { page, context, errors } = await open(PHONE);
    const focused = (selector: string) => page.locator(selector).evaluate((el) => el === document.activeElement);
    await page.goto(`/forum/${thread.id}`);
    await expect.poll(() => focused(`#thread-${thread.id}`), { timeout: 15_000 }).toBe(true);
    await page.goto('/news/web-warehouse');
    await expect.poll(() => focused('#news-web-warehouse'), { timeout: 15_000 }).toBe(true);
    expect(await page.getByRole('button', { name: 'News', pressed: true }).count()).toBe(1);
    await page.goto(`/profile/${author.id}`);
    const dialog = page.getByRole('dialog');
    // The dialog opens at once and shows "Loading..." until the profile arrives.
    await dialog.getByText('deepdigger').first().waitFor();
    await page.keyboard.press('Escape');
    await page.waitForURL(/\/forum$/);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('refreshes the news panel: the server fetches the sources and new items appear', async () => {
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/admin/news-sources',
      headers: { cookie: admin.cookie },
      payload: { kind: 'rss', name: 'Loopback Scene', url: feeds.url('/scene.xml') },
    });
    expect(res.statusCode).toBe(201);
    const { page, context, errors } = await open(DESKTOP);
    await page.goto('/forum');
    await page.getByRole('link', { name: /Loopback scene report/ }).waitFor();
    await page.getByRole('button', { name: 'Refresh news' }).click();
    await page.getByRole('button', { name: 'Refresh news' }).isEnabled();
    await page.getByRole('link', { name: /Loopback scene report/ }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('welcomes a DHR1 member, who starts a thread that shows at once', async () => {
    const { page, context, errors } = await open(PHONE, { member: dhr1 });
    await page.goto('/forum');
    await page.getByRole('heading', { name: 'Welcome back, Ada!' }).waitFor();
    expect(await page.getByRole('heading', { name: 'Join The Discussion' }).count()).toBe(0);
    expect(await page.getByRole('form', { name: 'Start a thread' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Start a thread' }).click();
    const form = page.getByRole('form', { name: 'Start a thread' });
    await expect.poll(() => form.getByLabel('Title').evaluate((el) => el === document.activeElement)).toBe(true);
    await form.getByLabel('Title').fill('First time at the DHR boat party');
    await form.getByLabel('Category').selectOption('events');
    await form.getByLabel('Message').fill('Any tips for a newcomer?');
    await form.getByRole('button', { name: 'Post thread' }).click();
    await page.getByText(FORUM_MESSAGES.posted).waitFor();
    await page.getByRole('heading', { name: 'First time at the DHR boat party' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("opens an item's comments when asked: visitors are asked to sign in, a DHR1 member comments under a news item", async () => {
    const visitor = await open(DESKTOP);
    await visitor.page.goto('/forum');
    const article = visitor.page.getByRole('article', { name: /Label EP out now/ });
    await article.waitFor();
    // Nothing is fetched until the section opens.
    const commentReads: string[] = [];
    visitor.page.on('request', (r) => {
      if (r.url().includes('/api/comments/')) commentReads.push(r.url());
    });
    await visitor.page.waitForTimeout(300);
    expect(commentReads).toEqual([]);
    await article.getByRole('button', { name: 'Comments' }).click();
    const section = article.getByRole('region', { name: 'Comments on Label EP out now' });
    await section.getByRole('link', { name: 'Sign In To Comment' }).waitFor();
    await section.getByText(COMMENT_MESSAGES.emptyList).waitFor();
    expect(commentReads.some((u) => u.endsWith('/api/comments/rss-ep'))).toBe(true);
    expect(visitor.errors).toEqual([]);
    await visitor.context.close();

    const { page, context, errors } = await open(DESKTOP, { member: dhr1 });
    await page.goto('/forum');
    const item = page.getByRole('article', { name: /Label EP out now/ });
    await item.getByRole('button', { name: 'Comments' }).click();
    const box = item.getByRole('region', { name: 'Comments on Label EP out now' }).getByLabel('Your comment');
    await box.fill('Those four tracks are pure gold');
    await box.press('Enter');
    await page.getByTestId('toast').filter({ hasText: COMMENT_MESSAGES.posted }).waitFor();
    await item.getByText('Those four tracks are pure gold').waitFor();
    // The thread's own discussion is separate from the news item's.
    const thread = page.getByRole('article', { name: 'Larry Heard appreciation thread' });
    await thread.getByRole('button', { name: 'Comments' }).click();
    await thread.getByText(COMMENT_MESSAGES.emptyList).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('runs the home ticker: the top 5 news and the recent comments shown twice, paused on hover, still under reduced motion', async () => {
    const { page, context, errors } = await open(DESKTOP);
    await page.goto('/');
    await page.getByRole('heading', { name: 'Everything On DHR' }).waitFor({ state: 'attached' });
    await page.evaluate(() => window.scrollBy(0, 500));
    const ticker = page.getByRole('region', { name: 'Latest news' });
    const track = ticker.getByTestId('ticker-track');
    await track.waitFor();
    const lists = track.locator('ul');
    expect(await lists.count()).toBe(2);
    // 5 news items, then the recent comment posted above.
    expect(await lists.nth(0).locator('li').count()).toBe(6);
    expect(await lists.nth(0).locator('li').last().textContent()).toContain('Those four tracks are pure gold');
    expect(await lists.nth(1).getAttribute('aria-hidden')).toBe('true');
    expect(await lists.nth(0).textContent()).toBe(await lists.nth(1).textContent());
    const animation = () => track.evaluate((el) => ({ name: getComputedStyle(el).animationName, state: getComputedStyle(el).animationPlayState }));
    expect(await animation()).toEqual({ name: 'ticker', state: 'running' });
    // It moves.
    const x0 = await track.evaluate((el) => el.getBoundingClientRect().x);
    await page.waitForTimeout(400);
    expect(await track.evaluate((el) => el.getBoundingClientRect().x)).toBeLessThan(x0);
    // The strip never stands still for a hover() action: point at the middle of its viewport.
    await ticker.scrollIntoViewIfNeeded();
    const box = await ticker.getByTestId('ticker-viewport').boundingBox();
    if (!box) throw new Error('ticker not laid out');
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    expect((await animation()).state).toBe('paused');
    await page.mouse.move(5, 5);
    expect((await animation()).state).toBe('running');
    expect(errors).toEqual([]);
    await context.close();

    const still = await open(PHONE, { reducedMotion: 'reduce' });
    await still.page.goto('/');
    await still.page.getByRole('heading', { name: 'Everything On DHR' }).waitFor({ state: 'attached' });
    // Below the fold on a phone: neither its code nor its data is loaded until it comes into view.
    expect(await still.page.getByRole('region', { name: 'Latest news' }).count()).toBe(0);
    // Scrolled down until the ticker comes near the screen (the player comes first on the home page).
    const stillRegion = still.page.getByRole('region', { name: 'Latest news' });
    for (let i = 0; i < 20 && (await stillRegion.count()) === 0; i++) {
      await still.page.evaluate(() => window.scrollBy(0, 300));
      await still.page.waitForTimeout(100);
    }
    const stillTrack = stillRegion.getByTestId('ticker-track');
    await stillTrack.waitFor();
    expect(await stillTrack.evaluate((el) => getComputedStyle(el).animationName)).toBe('none');
    expect(await still.page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await still.context.close();
  });

  it('lets an admin add, pause, resume and remove a source from the page linked on the dashboard, and shows what each fetch read', async () => {
    feeds.route('/label.xml', (_req, res) =>
      res.writeHead(200, { 'content-type': 'application/rss+xml' }).end(rss([{ title: 'Label news', link: 'https://label.example/n', guid: 'n1' }])),
    );
    const { page, context, errors } = await open(DESKTOP, { member: admin });
    await page.goto('/admin-dashboard');
    await page.getByRole('link', { name: 'News sources' }).click();
    await page.getByRole('heading', { name: 'News Sources' }).waitFor();
    const form = page.getByRole('form', { name: 'Add a source' });
    await form.getByLabel('Name').fill('Label Feed');
    await form.getByLabel('Address').fill(feeds.url('/label.xml'));
    await form.getByRole('button', { name: 'Add source' }).click();
    const row = page.getByRole('article', { name: 'Label Feed' });
    await row.getByText('OK', { exact: true }).waitFor();
    await row.getByText('1 item ·').waitFor();
    await row.getByText('HTTP 200 · utf-8 · RSS 2.0').waitFor();
    await row.getByText('1 listed · 1 new · 1 kept').waitFor();
    await row.getByRole('button', { name: 'Pause Label Feed' }).click();
    await row.getByText('Paused', { exact: true }).waitFor();
    await row.getByRole('button', { name: 'Resume Label Feed' }).click();
    await row.getByText('OK', { exact: true }).waitFor();
    // Paused by 7 days of failures: the page says so and offers Resume.
    await h.app.database.db
      .update(newsSources)
      .set({ paused: true, autoPausedAt: new Date(), failingSince: new Date(Date.now() - 8 * DAY_MS), errorCount: 40 })
      .where(eq(newsSources.name, 'Label Feed'));
    await page.reload();
    await row.getByText('Paused after 7 days of failures').waitFor();
    await row.getByRole('button', { name: 'Resume', exact: true }).click();
    await row.getByText('OK', { exact: true }).waitFor();
    await expect.poll(() => row.getByText('Paused after 7 days of failures').count()).toBe(0);
    await row.getByRole('button', { name: 'Pause Label Feed' }).click();
    await row.getByText('Paused', { exact: true }).waitFor();
    await row.getByRole('button', { name: 'Remove Label Feed' }).click();
    const asked = page.getByRole('dialog', { name: 'Remove the source' });
    await asked.getByText('Remove Label Feed and its items?').waitFor();
    await asked.getByRole('button', { name: 'Remove' }).click();
    await expect.poll(() => page.getByRole('article', { name: 'Label Feed' }).count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('lets an admin approve a held thread on the forum, and remove one; visitors then see the approved one', async () => {
    const { db } = h.app.database;
    const author = await createMember(h.app, { subscriptionTier: 'dhr2', subscriptionStatus: 'active', username: 'heldback' });
    await db.insert(forumPosts).values([
      { userId: author.user.id, category: 'events', title: 'Held: my label night', body: 'Tickets at https://tickets.example', status: 'pending' },
      { userId: author.user.id, category: 'discussion', title: 'Held: buy followers', body: 'https://spam.example', status: 'pending' },
    ]);
    await h.app.modules.news.changed();
    const { page, context, errors } = await open(DESKTOP, { member: admin });
    await page.goto('/forum');
    const held = page.getByRole('article', { name: 'Held: my label night' });
    await held.getByText('Awaiting moderation').waitFor();
    await held.getByRole('button', { name: 'Approve' }).click();
    await expect.poll(() => held.getByText('Awaiting moderation').count()).toBe(0);
    const spam = page.getByRole('article', { name: 'Held: buy followers' });
    await spam.getByRole('button', { name: 'Remove' }).click();
    await page.getByRole('dialog', { name: 'Remove the thread' }).getByRole('button', { name: 'Remove' }).click();
    await expect.poll(() => spam.count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();

    const visitor = await open(PHONE);
    await visitor.page.goto('/forum');
    await visitor.page.getByRole('heading', { name: 'Held: my label night' }).waitFor();
    expect(await visitor.page.getByRole('heading', { name: 'Held: buy followers' }).count()).toBe(0);
    expect(await visitor.page.getByRole('button', { name: 'Approve' }).count()).toBe(0);
    await visitor.context.close();
  });
});
