import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { NO_PLATFORM_CONFIGURED, type AdminStats, type AdminUser } from '../../src/contracts/admin';
import { createMember, type TestMember } from '../support/app';
import { canRunBrowser, DESKTOP, PHONE, startBrowserHarness, type BrowserHarness } from '../support/browser';
import { HEARTBEAT_PATH } from '../../src/contracts/live-values';
import { closeConnection, openConnectionWithin } from '../../src/server/modules/radio/stream-connections-repository';

/** Set SCREENSHOT_DIR to keep PNGs of the pages at both widths (for looking at them, not for asserting). */
const SCREENSHOT_DIR = process.env.SCREENSHOT_DIR;

describe.skipIf(!canRunBrowser)('admin pages in the browser', () => {
  let h: BrowserHarness;
  let admin: TestMember;
  const tag = Date.now().toString(36);

  beforeAll(async () => {
    h = await startBrowserHarness();
    admin = await createMember(h.app, { isAdmin: true, firstName: 'Orla', lastName: 'Admin' });
    // A few paying members so the dashboard has figures to compute.
    await createMember(h.app, { subscriptionTier: 'vip', subscriptionStatus: 'active', pledgeAmountCents: 1000, subscriptionSource: 'patreon' });
    await createMember(h.app, { subscriptionTier: 'dhr2', subscriptionStatus: 'active', pledgeAmountCents: 500, subscriptionSource: 'buymeacoffee' });
    await createMember(h.app, { subscriptionTier: 'dhr1', subscriptionStatus: 'cancelled_with_access', pledgeAmountCents: 300 });
    await createMember(h.app, { subscriptionTier: 'dhr1', subscriptionStatus: 'expired', pledgeAmountCents: 300 });
  });

  const contexts: BrowserContext[] = [];
  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((c) => c.close()));
  });

  async function adminPage(viewport = DESKTOP): Promise<{ page: Page; errors: string[] }> {
    const { page, context, errors } = await h.newPage(viewport);
    contexts.push(context);
    const eq = admin.cookie.indexOf('=');
    await context.addCookies([{ name: admin.cookie.slice(0, eq), value: admin.cookie.slice(eq + 1), url: h.baseUrl }]);
    return { page, errors };
  }

  async function api<T>(url: string): Promise<T> {
    const res = await h.app.inject({ method: 'GET', url, headers: { cookie: admin.cookie } });
    expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
    return res.json<T>();
  }

  async function findUser(email: string): Promise<AdminUser | undefined> {
    const list = await api<AdminUser[]>(`/api/admin/users?search=${encodeURIComponent(email)}`);
    return list.find((u) => u.email === email);
  }

  /** Saves the page in screen-high slices, so a long phone page can be looked at piece by piece. */
  async function shoot(page: Page, name: string) {
    if (!SCREENSHOT_DIR) return;
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    const { width } = page.viewportSize() ?? DESKTOP;
    const slice = width < 600 ? 1100 : 1400;
    for (let y = 0, i = 1; y < height; y += slice, i++) {
      const clip = { x: 0, y, width, height: Math.min(slice, height - y) };
      await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}-${i}.png`), fullPage: true, clip });
    }
  }

  async function noHorizontalScroll(page: Page) {
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  }

  it('shows the dashboard with figures computed by the server', async () => {
    const stats = await api<AdminStats>('/api/admin/stats');
    expect(stats.totalUsers).toBeGreaterThanOrEqual(5);
    const { page, errors } = await adminPage();
    await page.goto('/admin-dashboard');
    await page.getByRole('heading', { name: 'Admin Dashboard' }).waitFor();

    const fmt = (n: number) => new Intl.NumberFormat('en-IE').format(n);
    await expect.poll(() => page.getByTestId('stat-total-users').textContent()).toBe(fmt(stats.totalUsers));
    await expect.poll(() => page.getByTestId('stat-vip-members').textContent()).toBe(fmt(stats.vipUsers));
    await expect.poll(() => page.getByTestId('stat-vip-mixes').textContent()).toBe(fmt(stats.totalMixes));
    await expect.poll(() => page.getByTestId('stat-downloads-today').textContent()).toBe('0');
    // The top card and the status tiles read the same buckets, and the buckets add up to the total.
    const b = stats.buckets;
    expect(b.active + b.cancelledWithAccess + b.expired + b.free).toBe(stats.totalUsers);
    for (const [id, value] of [
      ['active', b.active],
      ['cancelled-with-access', b.cancelledWithAccess],
      ['expired', b.expired],
      ['free', b.free],
    ] as const) {
      await expect.poll(() => page.getByTestId(`member-bucket-${id}`).textContent(), { message: id }).toMatch(new RegExp(`^${fmt(value)} `));
      expect(await page.getByTestId(`bucket-${id}`).textContent(), id).toBe(fmt(value));
    }
    await page.getByText(`DHR2 ${fmt(stats.dhr2Users)} · DHR1 ${fmt(stats.dhr1Users)}`).waitFor();
    expect(await page.getByTestId('tier-count-dhr1').textContent()).toBe(fmt(stats.dhr1Users));

    // Each figure opens User Management listing exactly those members.
    await page.getByTestId('member-bucket-expired').getByRole('link').click();
    await page.waitForURL('**/user-management?access=expired');
    const list = page.getByRole('region', { name: /All Users/ });
    await expect.poll(() => list.getByTestId('users-matching').textContent()).toBe(fmt(b.expired));
    expect(await list.getByLabel('Access now').inputValue()).toBe('expired');
    await page.goBack();
    await page.getByTestId('tier-count-dhr1').click();
    await page.waitForURL('**/user-management?effectiveTier=dhr1');
    await expect.poll(() => list.getByTestId('users-matching').textContent()).toBe(fmt(stats.dhr1Users));
    await page.goto('/admin-dashboard');
    await page.getByRole('heading', { name: 'Admin Dashboard' }).waitFor();

    // The nine tools.
    for (const name of [
      'User Management',
      'Comment Moderation',
      'Sync Systems',
      'VIP Content',
      'Bulk Import',
      'Storage Setup',
      'Track History',
      'Live User Monitor',
      'Shop Management',
    ]) {
      await page.getByRole('list', { name: 'Admin tools' }).getByText(name, { exact: true }).waitFor();
    }

    // Storage Setup opens the storage setup page.
    const storage = page.getByRole('list', { name: 'Admin tools' }).getByRole('link', { name: /Storage Setup/ });
    expect(await storage.getAttribute('href')).toBe('/storage-setup');
    expect(await storage.getAttribute('target')).toBeNull();

    // System status comes from the running system: the database answers, the platforms are not configured here.
    const status = page.getByRole('region', { name: 'System Status' });
    await status.getByText(/^Database · (PGlite \(embedded\)|PostgreSQL)$/).waitFor();
    await status.getByText(/Answering in <?\d+ ms/).waitFor();
    await status.getByText('Not configured (no API token)').first().waitFor();
    // The VIP mixes test calls GET /api/vip/mixes and says how many it answered; metadata health opens in a tab.
    const mixes = await api<unknown[]>('/api/vip/mixes');
    await status.getByRole('button', { name: 'VIP mixes' }).click();
    await expect.poll(() => status.getByTestId('vip-mixes-check').textContent()).toBe(`${mixes.length} ${mixes.length === 1 ? 'mix' : 'mixes'}`);
    expect(await status.getByRole('link', { name: 'Metadata health' }).getAttribute('href')).toBe('/api/health/metadata');

    // Sync Systems opens its preview, which says plainly that no platform is configured here.
    await page.getByRole('button', { name: /Sync Systems/ }).click();
    await page.getByRole('dialog').getByText(NO_PLATFORM_CONFIGURED).waitFor();
    await page.keyboard.press('Escape');

    // The other /admin paths show the same dashboard; only /sync opens its tool, and /analytics is its own page.
    expect(await page.getByRole('region', { name: 'Sync Systems' }).count()).toBe(0);
    for (const p of ['/admin', '/members', '/admin-settings']) {
      await page.goto(p);
      await page.getByRole('heading', { name: 'Admin Dashboard' }).waitFor();
    }
    await page.goto('/analytics');
    await page.getByRole('heading', { name: 'Analytics', level: 1 }).waitFor();
    await page.goto('/members');

    await page.getByRole('link', { name: 'Back' }).click();
    await page.waitForURL(`${h.baseUrl}/`);
    // The home page asks for now-playing at once; no Icecast runs in this suite, so that one call answers 503;
    // the sync preview answered 409 (no platform configured).
    expect(errors.filter((e) => !/status of (503|409)/.test(e))).toEqual([]);
  });

  it('opens the Sync Systems and Bulk Import tools at their own paths, at 360 and 1366 px', async () => {
    for (const [name, viewport] of [
      ['360', { width: 360, height: 800 }],
      ['1366', DESKTOP],
    ] as const) {
      const { page, errors } = await adminPage(viewport);
      // /sync is the dashboard with its Sync Systems tool open: the button and the sync log.
      await page.goto('/sync');
      await page.getByRole('heading', { name: 'Admin Dashboard' }).waitFor();
      const syncTool = page.getByRole('region', { name: 'Sync Systems' });
      await syncTool.getByRole('heading', { name: 'Sync log' }).waitFor();
      await noHorizontalScroll(page);
      // Its button opens the preview, which says plainly that no platform is configured here.
      await syncTool.getByRole('button', { name: 'Sync Systems', exact: true }).click();
      await page.getByRole('dialog').getByText(NO_PLATFORM_CONFIGURED).waitFor();
      await noHorizontalScroll(page);
      await shoot(page, `sync-${name}`);
      await page.keyboard.press('Escape');

      await page.goto('/bulk-import');
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('tab', { name: 'Import Data' }).waitFor();
      await noHorizontalScroll(page);
      if (SCREENSHOT_DIR) await page.screenshot({ path: path.join(SCREENSHOT_DIR, `bulk-import-path-${name}.png`) });
      // Closing it leaves the tool's path for the dashboard, so a reload does not reopen it.
      await page.keyboard.press('Escape');
      await page.waitForURL(`${h.baseUrl}/admin-dashboard`);
      await page.getByRole('heading', { name: 'Admin Dashboard' }).waitFor();
      expect(await dialog.count()).toBe(0);
      await page.getByTestId('bucket-free').waitFor();
      await page.getByText(/Answering in <?\d+ ms/).waitFor();
      await noHorizontalScroll(page);
      await shoot(page, `dashboard-${name}`);
      // The preview's 409 (no platform configured) is logged by the browser.
      expect(errors.filter((e) => !/status of 409/.test(e))).toEqual([]);
    }
  });

  it('creates, finds and edits a member on /user-management', async () => {
    const email = `nadia-${tag}@example.test`;
    const { page, errors } = await adminPage();
    await page.goto('/user-management');
    await page.getByRole('heading', { name: 'User Management' }).waitFor();
    await page.getByTestId('user-row').first().waitFor();

    const create = page.getByRole('form', { name: 'Create user' });
    const createButton = create.getByRole('button', { name: 'Create User' });
    expect(await createButton.isDisabled()).toBe(true);
    await create.getByLabel('Email *').fill('not-an-email');
    await create.getByLabel('Username *').fill(`nadia${tag}`);
    await createButton.click();
    await page.getByText('Please enter a valid email address').waitFor();

    await create.getByLabel('Email *').fill(email);
    await create.getByLabel('First name').fill('Nadia');
    await create.getByLabel('Last name').fill(`Quinn${tag}`);
    await create.getByLabel('Tier').selectOption('dhr2');
    await create.getByLabel('Amount (€ per month)').fill('5');
    await create.getByLabel('Expiry (days)').fill('30');
    await createButton.click();
    await page.getByText('User created successfully').waitFor();
    const created = await findUser(email);
    expect(created).toMatchObject({ subscriptionTier: 'dhr2', subscriptionStatus: 'active', pledgeAmount: 500, firstName: 'Nadia' });
    expect(created?.subscriptionExpiry).not.toBeNull();

    // Search is server-side and case-insensitive, over last name too.
    const list = page.getByRole('region', { name: /All Users/ });
    const rows = list.getByTestId('user-row');
    await list.getByLabel('Search').fill(`QUINN${tag}`);
    await expect.poll(() => rows.count()).toBe(1);
    await rows.first().getByText(email).waitFor();
    await page.getByText(/All Users \(1 of \d+\)/).waitFor();

    // Tier filter: the member is DHR2, so a VIP filter hides them.
    await list.getByLabel('Stored tier', { exact: true }).selectOption('vip');
    await page.getByText('No users match your filters').waitFor();
    await list.getByLabel('Stored tier', { exact: true }).selectOption('dhr2');
    await expect.poll(() => rows.count()).toBe(1);
    await list.getByRole('button', { name: 'Clear Filters' }).click();
    await expect.poll(() => rows.count()).toBeGreaterThanOrEqual(6);

    // Inline edit: tier and amount; the amount is shown in euros and stored in cents.
    await list.getByLabel('Search').fill(email);
    await expect.poll(() => rows.count()).toBe(1);
    await page.getByRole('button', { name: `Edit ${email}` }).click();
    const edit = page.getByRole('form', { name: `Edit ${email}` });
    expect(await edit.getByLabel('Amount (€ per month)').inputValue()).toBe('5.00');
    await edit.getByLabel('Tier').selectOption('vip');
    await edit.getByLabel('Amount (€ per month)').fill('12.50');
    await edit.getByLabel('Expiry date').fill('2031-03-15');
    await edit.getByRole('button', { name: 'Save' }).click();
    await page.getByText('User updated successfully').waitFor();
    await rows.first().getByText('€12.50').waitFor();
    await rows.first().getByText('15 Mar 2031').waitFor();
    await rows.first().getByText('VIP', { exact: true }).waitFor();

    const saved = await findUser(email);
    expect(saved).toMatchObject({ subscriptionTier: 'vip', pledgeAmount: 1250 });
    expect(saved?.subscriptionExpiry?.slice(0, 10)).toBe('2031-03-15');

    // The status message goes away after 3 s.
    await page.getByText('User updated successfully').waitFor({ state: 'detached', timeout: 6000 });
    expect(errors).toEqual([]);
  });

  it('signs a member out everywhere from the inline edit', async () => {
    const member = await createMember(h.app, { subscriptionTier: 'dhr1', subscriptionStatus: 'active' });
    const me = () => h.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie: member.cookie } });
    expect((await me()).statusCode).toBe(200);
    const { page, errors } = await adminPage();
    await page.goto(`${h.baseUrl}/user-management`);
    const list = page.getByRole('region', { name: /All Users/ });
    await list.getByLabel('Search').fill(member.user.email);
    await page.getByRole('button', { name: `Edit ${member.user.email}` }).click();
    const edit = page.getByRole('form', { name: `Edit ${member.user.email}` });
    await edit.getByRole('button', { name: 'Sign out everywhere' }).click();
    await page.getByText('The member is signed out everywhere.').waitFor();
    // The member's session row is gone: the same cookie no longer signs anyone in.
    expect((await me()).statusCode).toBe(401);
    expect(errors).toEqual([]);
  });

  it("shows a member's premium stream connections in the inline edit: where now, and lately", async () => {
    const member = await createMember(h.app, { subscriptionTier: 'dhr2', subscriptionStatus: 'active' });
    const { db } = h.app.database;
    const base = { userId: member.user.id, icecast: 'radio.example:8000' };
    const now = new Date();
    await openConnectionWithin(db, { ...base, mount: '/dhr2', clientId: '1', network: '203.0.113.0/24', userAgent: 'Mozilla/5.0 (Android 14)' }, 2, now);
    await openConnectionWithin(db, { ...base, mount: '/dhr1', clientId: '2', network: '2001:db8:77::/48', userAgent: 'VLC/3.0.20' }, 2, now);
    await closeConnection(db, base.icecast, '2', new Date());
    const { page, errors } = await adminPage();
    await page.goto(`${h.baseUrl}/user-management`);
    await page
      .getByRole('region', { name: /All Users/ })
      .getByLabel('Search')
      .fill(member.user.email);
    await page.getByRole('button', { name: `Edit ${member.user.email}` }).click();
    const section = page.getByRole('region', { name: 'Stream connections' });
    await section.getByText('Listening now on 1 of 2 allowed connections.').waitFor();
    const lines = section.getByTestId('stream-connection');
    await expect.poll(() => lines.count()).toBe(2);
    expect(await lines.nth(0).innerText()).toContain('203.0.113.0/24');
    expect(await lines.nth(1).innerText()).toContain('2001:db8:77::/48');
    expect(await lines.nth(1).innerText()).toContain('ended');
    await shoot(page, 'admin-stream-connections');
    expect(errors).toEqual([]);
  });

  it('assigns a tier with the quick-assign form', async () => {
    const email = `quick-${tag}@example.test`;
    const { page, errors } = await adminPage();
    await page.goto('/user-management');
    const form = page.getByRole('form', { name: 'Quick assign tier' });
    await form.getByRole('button', { name: 'Assign Tier' }).click();
    await page.getByText('Please fill in email and tier').waitFor();
    await form.getByLabel('Email *').fill(email);
    await form.getByLabel('Tier *').selectOption('dhr1');
    await form.getByLabel('Expiry (days)').fill('0');
    await form.getByRole('button', { name: 'Assign Tier' }).click();
    await page.getByText('User tier assigned successfully').waitFor();
    expect(await findUser(email)).toMatchObject({ subscriptionTier: 'dhr1', subscriptionStatus: 'active', subscriptionExpiry: null });
    expect(errors).toEqual([]);
  });

  it('sends an admin whose session ended to sign-in after a 401 on quick assign', async () => {
    const lapsed = await createMember(h.app, { isAdmin: true });
    const { page, context } = await h.newPage(DESKTOP);
    contexts.push(context);
    const eq = lapsed.cookie.indexOf('=');
    await context.addCookies([{ name: lapsed.cookie.slice(0, eq), value: lapsed.cookie.slice(eq + 1), url: h.baseUrl }]);
    await page.goto('/user-management');
    const form = page.getByRole('form', { name: 'Quick assign tier' });
    await form.getByLabel('Email *').fill(`lapsed-${tag}@example.test`);
    await form.getByLabel('Tier *').selectOption('vip');
    // The session ends on the server (signed out elsewhere) while the page is open.
    const out = await h.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie: lapsed.cookie } });
    expect(out.statusCode).toBeLessThan(300);
    await form.getByRole('button', { name: 'Assign Tier' }).click();
    await page.getByText('Unauthorized - redirecting to login...').waitFor();
    await page.waitForURL(`${h.baseUrl}/auth`, { timeout: 5000 });
    expect(await findUser(`lapsed-${tag}@example.test`)).toBeUndefined();
  });

  it('imports members through the Bulk Import dialog, pasted and from a file', async () => {
    const good = `import-good-${tag}@example.test`;
    const fromFile = `import-file-${tag}@example.test`;
    const { page, errors } = await adminPage();
    await page.goto('/admin-dashboard');
    await page.getByRole('button', { name: /Bulk Import/ }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('tab', { name: 'Import Data' }).waitFor();

    // Nothing to import.
    await dialog.getByRole('button', { name: 'Preview import', exact: true }).click();
    await dialog.getByText('Please upload a CSV file or paste CSV data').waitFor();

    // Not a CSV file.
    await dialog.getByLabel('Upload a CSV file').setInputFiles({ name: 'members.txt', mimeType: 'text/plain', buffer: Buffer.from('x') });
    await dialog.getByText('Please select a valid CSV file').waitFor();

    // One good and one bad row, pasted.
    const csv = [
      'email,firstName,lastName,subscriptionTier,subscriptionStatus,subscriptionExpiry,pledgeAmount,source',
      `${good},Eve,Good,dhr2,active,2030-01-31,5,patreon`,
      `bad-${tag}@example.test,Bad,Row,gold,active,,5,patreon`,
    ].join('\n');
    await dialog.getByLabel('…or paste CSV data').fill(csv);
    // A preview first: it says what would happen and saves nothing.
    await dialog.getByRole('button', { name: 'Preview import', exact: true }).click();
    await expect.poll(() => dialog.getByTestId('preview-imported').textContent()).toBe('1');
    expect(await dialog.getByTestId('plan-gainAccess').textContent()).toBe('1');
    expect(await findUser(good)).toBeUndefined();
    await dialog.getByRole('button', { name: 'Confirm import', exact: true }).click();
    await expect.poll(() => dialog.getByTestId('import-imported').textContent()).toBe('1');
    expect(await dialog.getByTestId('import-errors').textContent()).toBe('1');
    await dialog.getByText(/Row 3/).waitFor();
    if (SCREENSHOT_DIR) await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'bulk-import-result-desktop.png') });
    expect(await findUser(good)).toMatchObject({ subscriptionTier: 'dhr2', pledgeAmount: 500, subscriptionSource: 'patreon' });
    expect(await findUser(`bad-${tag}@example.test`)).toBeUndefined();

    // The template tab explains the columns and offers the file.
    await dialog.getByRole('tab', { name: 'Template & Help' }).click();
    await dialog.getByText('subscriptionTier', { exact: true }).waitFor();
    const download = page.waitForEvent('download');
    await dialog.getByRole('button', { name: 'Download template' }).click();
    expect((await download).suggestedFilename()).toBe('dhr-members-import-template.csv');
    await dialog.getByRole('tab', { name: 'Import Data' }).click();

    // A CSV file wins over the pasted text.
    const fileCsv = [
      'email,firstName,lastName,subscriptionTier,subscriptionStatus,subscriptionExpiry,pledgeAmount,source',
      `${fromFile},Fin,File,VIP,cancelled,,10,buymeacoffee`,
    ].join('\n');
    await dialog.getByLabel('Upload a CSV file').setInputFiles({ name: 'members.csv', mimeType: 'text/csv', buffer: Buffer.from(fileCsv) });
    await dialog.getByRole('button', { name: 'Preview import', exact: true }).click();
    await dialog.getByRole('button', { name: 'Confirm import', exact: true }).click();
    await expect.poll(() => dialog.getByTestId('import-errors').textContent()).toBe('0');
    expect(await dialog.getByTestId('import-imported').textContent()).toBe('1');
    expect(await findUser(fromFile)).toMatchObject({ subscriptionTier: 'vip', subscriptionStatus: 'cancelled', pledgeAmount: 1000 });

    // Two seconds after a successful import the dashboard refreshes its figures.
    const stats = await api<AdminStats>('/api/admin/stats');
    await page.keyboard.press('Escape');
    await expect
      .poll(() => page.getByTestId('stat-total-users').textContent(), { timeout: 8000 })
      .toBe(new Intl.NumberFormat('en-IE').format(stats.totalUsers));
    expect(errors).toEqual([]);
  });

  it('refuses an import whose plan takes more than its preview, says what changed, and applies the new preview', async () => {
    const member = await createMember(h.app, { email: `replan-${tag}@example.test` });
    const { page, errors } = await adminPage();
    await page.goto('/admin-dashboard');
    await page.getByRole('button', { name: /Bulk Import/ }).click();
    const dialog = page.getByRole('dialog');
    const csv = [
      'email,firstName,lastName,subscriptionTier,subscriptionStatus,subscriptionExpiry,pledgeAmount,source',
      `${member.user.email},Re,Plan,free,inactive,,0,admin`,
    ].join('\n');
    await dialog.getByLabel('…or paste CSV data').fill(csv);
    await dialog.getByRole('button', { name: 'Preview import', exact: true }).click();
    await expect.poll(() => dialog.getByTestId('plan-loseAccess').textContent()).toBe('0');
    // Between the preview and the click, the member gets VIP from the station: the row would now take it away.
    const granted = await h.app.inject({
      method: 'POST',
      url: '/api/admin/assign-tier',
      headers: { cookie: admin.cookie },
      payload: { email: member.user.email, tier: 'vip', expiryDays: 30 },
    });
    expect(granted.statusCode).toBe(200);
    await dialog.getByRole('button', { name: 'Confirm import', exact: true }).click();
    await dialog.getByText(new RegExp(`1 more member would lose access: ${member.user.email.replace(/[.+]/g, '\\$&')}`)).waitFor();
    expect(await findUser(member.user.email)).toMatchObject({ subscriptionTier: 'vip' });
    // The new preview is shown; confirming it applies the plan it names.
    await expect.poll(() => dialog.getByTestId('plan-loseAccess').textContent()).toBe('1');
    await dialog.getByRole('button', { name: 'Confirm import', exact: true }).click();
    await expect.poll(async () => (await findUser(member.user.email))?.subscriptionTier).toBe('free');
    expect(errors.filter((e) => !/status of 409/.test(e))).toEqual([]);
  });

  it('pages through a long list, 50 members at a time', async () => {
    for (let i = 0; i < 51; i++) {
      await createMember(h.app, { email: `pager-${tag}-${i}@example.test`, username: `pager${tag}${i}` });
    }
    const { page, errors } = await adminPage();
    await page.goto('/user-management');
    const list = page.getByRole('region', { name: /All Users/ });
    await list.getByLabel('Search').fill(`pager-${tag}`);
    await list.getByText(`1–50 of 51 matching`).waitFor();
    await list.getByText(/All Users \(50 of \d+\)/).waitFor();
    expect(await list.getByRole('button', { name: 'Previous page' }).isDisabled()).toBe(true);
    await list.getByRole('button', { name: 'Next page' }).click();
    await list.getByText(`51–51 of 51 matching`).waitFor();
    await expect.poll(() => list.getByTestId('user-row').count()).toBe(1);
    expect(await list.getByRole('button', { name: 'Next page' }).isDisabled()).toBe(true);
    // A new search starts from the first page again.
    await list.getByLabel('Search').fill(`pager-${tag}-1`);
    await expect.poll(() => list.getByTestId('user-row').count()).toBe(11);
    expect(errors).toEqual([]);
  });

  it('keeps members who are not admins out, without calling the admin API', async () => {
    const member = await createMember(h.app, { subscriptionTier: 'vip', subscriptionStatus: 'active' });
    const { page, context, errors } = await h.newPage(DESKTOP);
    contexts.push(context);
    const eq = member.cookie.indexOf('=');
    await context.addCookies([{ name: member.cookie.slice(0, eq), value: member.cookie.slice(eq + 1), url: h.baseUrl }]);
    const adminCalls: string[] = [];
    page.on('request', (r) => {
      // The live monitor's heartbeat keeps the spec's admin-looking path but is open to every visitor.
      const path = new URL(r.url()).pathname;
      if (path.startsWith('/api/admin/') && path !== HEARTBEAT_PATH) adminCalls.push(r.url());
    });
    for (const p of ['/admin-dashboard', '/user-management']) {
      await page.goto(p);
      await page.getByText('Admin Access Required').waitFor();
    }
    expect(adminCalls).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('fits a phone screen without sideways scrolling', async () => {
    for (const [name, viewport] of [
      ['phone', PHONE],
      ['desktop', DESKTOP],
    ] as const) {
      const { page, errors } = await adminPage(viewport);
      await page.goto('/admin-dashboard');
      await page.getByRole('heading', { name: 'System Status' }).waitFor();
      await page.getByText(/Answering in <?\d+ ms/).waitFor();
      await noHorizontalScroll(page);
      await shoot(page, `admin-dashboard-${name}`);
      await page.getByRole('button', { name: /Bulk Import/ }).click();
      await page.getByRole('dialog').getByRole('tab', { name: 'Template & Help' }).click();
      await noHorizontalScroll(page);
      if (SCREENSHOT_DIR) await page.screenshot({ path: path.join(SCREENSHOT_DIR, `bulk-import-help-${name}.png`) });
      await page.getByRole('dialog').getByRole('tab', { name: 'Import Data' }).click();
      if (SCREENSHOT_DIR) await page.screenshot({ path: path.join(SCREENSHOT_DIR, `bulk-import-${name}.png`) });
      await page.keyboard.press('Escape');

      await page.goto('/user-management');
      await page.getByTestId('user-row').first().waitFor();
      await noHorizontalScroll(page);
      await shoot(page, `user-management-${name}`);

      await page
        .getByRole('button', { name: /^Edit / })
        .first()
        .click();
      // One member at a time: the other rows' Edit buttons wait.
      expect(
        await page
          .getByRole('button', { name: /^Edit / })
          .first()
          .isDisabled(),
      ).toBe(true);
      await noHorizontalScroll(page);
      await shoot(page, `user-edit-${name}`);
      expect(errors).toEqual([]);
    }
  });
});
