import type { Locator, Page } from 'playwright-core';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CHAT_MESSAGES } from '../../src/contracts/chat-values';
import { COMMENT_MESSAGES } from '../../src/contracts/community-values';
import { NEWS_EMPTY } from '../../src/contracts/news-values';
import { memberWithRole, type TestMember } from '../support/app';
import { canRunBrowser, DESKTOP, startBrowserHarness, type BrowserHarness } from '../support/browser';

type Who = 'visitor' | 'dhr1' | 'vip' | 'admin';

/** One read of a list or panel: where it shows, the API path it reads, and what it says when empty. */
interface ReadCase {
  name: string;
  who: Who;
  path: string;
  /** The read that answers 503 (only this one: the page's other reads answer as usual). */
  api: RegExp;
  /** The end of "Couldn't load …". */
  what: string;
  /** The list's empty-state text, which a failed read must never show. */
  empty: string;
  /** What to do on the page before the list is read (open a dialog, a panel). */
  open?: (page: Page) => Promise<void>;
  /** What shows once the read answers again and Retry was pressed: content, or the empty text of a list that is empty. */
  loaded: (page: Page) => Locator;
}

const CASES: ReadCase[] = [
  {
    name: 'VIP library',
    who: 'visitor',
    path: '/vip',
    api: /\/api\/vip-mixes$/,
    what: 'the mix library',
    empty: 'No mixes yet.',
    loaded: (page) => page.getByTestId('mix-card').first(),
  },
  {
    name: 'news',
    who: 'visitor',
    path: '/forum',
    api: /\/api\/rss\/latest$/,
    what: 'the news',
    empty: NEWS_EMPTY.rss,
    loaded: (page) => page.getByRole('tabpanel').locator('article').first().or(page.getByText(NEWS_EMPTY.rss)),
  },
  {
    name: 'forum threads',
    who: 'visitor',
    path: '/forum',
    api: /\/api\/forum\/posts\?/,
    what: 'the forum',
    empty: 'No threads yet. Start the first one!',
    loaded: (page) => page.getByText('No threads yet. Start the first one!'),
  },
  {
    name: 'shop',
    who: 'visitor',
    path: '/shop',
    api: /\/api\/shop\/products$/,
    what: 'the shop',
    empty: 'No products match your search.',
    loaded: (page) => page.getByRole('list', { name: 'Products' }).getByRole('listitem').first(),
  },
  {
    name: 'comments',
    who: 'visitor',
    path: '/',
    api: /\/api\/comments\/homepage$/,
    what: 'the comments',
    empty: COMMENT_MESSAGES.emptyList,
    open: async (page) => page.getByRole('button', { name: /Community Comments/ }).click(),
    loaded: (page) => page.getByRole('dialog', { name: 'Community Comments' }).getByText(COMMENT_MESSAGES.emptyList),
  },
  {
    name: 'chat history',
    who: 'visitor',
    path: '/',
    api: /\/api\/chat\/[^/]+\/messages$/,
    what: 'the chat',
    empty: CHAT_MESSAGES.emptyList,
    open: async (page) => page.getByRole('button', { name: 'Open the live chat' }).click(),
    loaded: (page) => page.getByTestId('chat-panel').getByText(CHAT_MESSAGES.emptyList),
  },
  {
    name: 'track history',
    who: 'vip',
    path: '/track-history',
    api: /\/api\/vip\/track-history$/,
    what: 'the track history',
    empty: 'No tracks identified yet',
    loaded: (page) => page.getByRole('region', { name: 'Identified tracks' }).getByText('No tracks identified yet'),
  },
  {
    name: 'recent tracks',
    who: 'dhr1',
    path: '/dhr1',
    api: /\/api\/tracks\/recent\/dhr1\?/,
    what: 'the recent tracks',
    empty: 'No tracks identified yet',
    loaded: (page) => page.getByTestId('recent-tracks-dhr1').getByText('No tracks identified yet'),
  },
  {
    name: 'admin: members',
    who: 'admin',
    path: '/user-management',
    api: /\/api\/admin\/users\?/,
    what: 'the members',
    empty: 'No users found',
    loaded: (page) => page.getByRole('list', { name: 'Users' }).getByRole('listitem').first(),
  },
  {
    name: 'admin: sync log',
    who: 'admin',
    path: '/admin/supporters',
    api: /\/api\/admin\/sync-runs\?/,
    what: 'the sync log',
    empty: 'No sync has run yet.',
    loaded: (page) => page.getByText('No sync has run yet.'),
  },
  {
    name: 'admin: contact inbox',
    who: 'admin',
    path: '/admin/contact',
    api: /\/api\/admin\/contact-messages\?/,
    what: 'the inbox',
    empty: 'No messages here.',
    loaded: (page) => page.getByText('No messages here.'),
  },
  {
    name: 'admin: news sources',
    who: 'admin',
    path: '/admin/news-sources',
    api: /\/api\/admin\/news-sources$/,
    what: 'the news sources',
    empty: 'No sources yet. Add a feed or a web page.',
    loaded: (page) => page.getByText('No sources yet. Add a feed or a web page.'),
  },
  {
    name: 'admin: products',
    who: 'admin',
    path: '/shop-admin',
    api: /\/api\/admin\/shop\/products$/,
    what: 'the products',
    empty: '0 products',
    loaded: (page) => page.getByTestId('admin-product').first(),
  },
  {
    name: 'admin: mixes',
    who: 'admin',
    path: '/vip-admin',
    api: /\/api\/admin\/vip-mixes$/,
    what: 'the mixes',
    empty: '0 mixes in the library.',
    loaded: (page) => page.getByText(/\d+ mixes in the library\./),
  },
];

const UNAVAILABLE = { status: 503, contentType: 'application/json', body: '{"error":{"code":"service_unavailable","message":"down"}}' };

describe.skipIf(!canRunBrowser)('a list whose read fails says "Couldn\'t load …" with Retry, never that it is empty', () => {
  let h: BrowserHarness;
  const members = {} as Record<Exclude<Who, 'visitor'>, TestMember>;
  const closers: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    h = await startBrowserHarness();
    for (const role of ['dhr1', 'vip', 'admin'] as const) members[role] = await memberWithRole(h.app, role);
  });
  afterEach(async () => {
    await Promise.all(closers.splice(0).map((close) => close()));
  });

  it.each(CASES)('$name', async ({ who, path, api, what, empty, open, loaded }) => {
    const { page, context, errors } = await h.newPage(DESKTOP);
    closers.push(() => context.close());
    if (who !== 'visitor') {
      const cookie = members[who].cookie;
      const eq = cookie.indexOf('=');
      await context.addCookies([{ name: cookie.slice(0, eq), value: cookie.slice(eq + 1), url: h.baseUrl }]);
    }
    let failing = true;
    let reads = 0;
    await context.route(api, async (route) => {
      reads++;
      if (failing) await route.fulfill(UNAVAILABLE);
      else await route.fallback();
    });
    await page.goto(path);
    await open?.(page);

    const failed = page.getByRole('alert').filter({ hasText: `Couldn't load ${what}.` });
    await failed.waitFor({ timeout: 30_000 });
    expect(reads).toBeGreaterThan(0);
    expect(await page.getByText(empty, { exact: true }).count()).toBe(0);

    // The read answers again: Retry reads it, and the list (or its honest empty state) replaces the error.
    failing = false;
    const before = reads;
    await failed.getByRole('button', { name: 'Retry' }).click();
    await loaded(page).waitFor({ timeout: 15_000 });
    expect(reads).toBeGreaterThan(before);
    expect(await failed.count()).toBe(0);
    // The 503s are logged by the browser; nothing else went wrong.
    expect(errors.filter((e) => !/status of 503/.test(e))).toEqual([]);
  });
});
