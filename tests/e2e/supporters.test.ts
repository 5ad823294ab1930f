import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { SUPPORTER_MESSAGES } from '../../src/contracts/supporters';
import { createMember, type TestMember } from '../support/app';
import { canRunBrowser, DESKTOP, PHONE, startBrowserHarness } from '../support/browser';
import { bmcSubscription, startBmcStub, startPatreonStub } from '../support/platform-stubs';

/** Set SCREENSHOT_DIR to keep PNGs of the pages at both widths (for looking at them, not for asserting). */
const SCREENSHOT_DIR = process.env.SCREENSHOT_DIR;
const CAMPAIGN = '5150';
const CLIENT = { clientId: 'browser-client', clientSecret: 'browser-secret' };

// No Icecast runs here: the radio's now-playing call answers 503, which the browser logs.
const unexpected = (errors: string[]) => errors.filter((e) => !/status of 503/.test(e));

describe.skipIf(!canRunBrowser)('supporters in the browser', async () => {
  const patreon = await startPatreonStub({ token: 'creator-token', campaignId: CAMPAIGN, oauth: CLIENT });
  const bmc = await startBmcStub({ token: 'bmc-token' });
  afterAll(async () => {
    await patreon.close();
    await bmc.close();
  });
  const h = await startBrowserHarness({
    PATREON_API_URL: patreon.url,
    PATREON_CAMPAIGN_ID: CAMPAIGN,
    PATREON_CLIENT_ID: CLIENT.clientId,
    PATREON_CLIENT_SECRET: CLIENT.clientSecret,
    BMC_API_URL: bmc.url,
    BMC_ACCESS_TOKEN: 'bmc-token',
  });
  // Patreon sends the member back to PUBLIC_URL; the harness learns its port only once it listens.
  h.app.config.PUBLIC_URL = h.baseUrl;

  const contexts: BrowserContext[] = [];
  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((c) => c.close()));
  });

  async function pageAs(member: TestMember, viewport = DESKTOP) {
    const { page, context, errors } = await h.newPage(viewport);
    contexts.push(context);
    const eq = member.cookie.indexOf('=');
    await context.addCookies([{ name: member.cookie.slice(0, eq), value: member.cookie.slice(eq + 1), url: h.baseUrl }]);
    return { page, errors };
  }

  const shot = async (page: Page, name: string) => {
    if (SCREENSHOT_DIR) await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
  };

  it('a member whose Patreon email differs connects Patreon from the upgrade screen and gets the tier at once', async () => {
    const member = await createMember(h.app, { email: `listener-${Date.now().toString(36)}@example.test` });
    patreon.oauth.consentUser = {
      id: 'browser-patron',
      email: `another-address-${Date.now().toString(36)}@example.test`,
      fullName: 'Niamh Patron',
      memberships: [{ campaignId: CAMPAIGN, status: 'active_patron', cents: 500 }],
    };
    const { page, errors } = await pageAs(member, PHONE);
    await page.goto('/dhr2');
    await page.getByRole('heading', { name: 'DHR2 Subscription Required' }).waitFor();
    await shot(page, 'gate-connect-patreon-390');
    await page.getByRole('button', { name: 'Connect Patreon' }).click();

    // Patreon's authorize page (the stand-in consents at once) sends the browser back with code and state.
    await page.waitForURL((u) => u.pathname === '/auth/patreon');
    await page.getByText(SUPPORTER_MESSAGES.patreonConnected).waitFor();
    // The one-time code is off the address bar.
    expect(new URL(page.url()).search).toBe('');
    await expect(page.getByText('Your tier now:').textContent()).resolves.toContain('DHR2');
    await shot(page, 'patreon-return-390');

    await page.goto('/dhr2');
    await page.getByRole('heading', { name: 'DHR2 Subscription Required' }).waitFor({ state: 'detached' });
    expect(await page.getByRole('heading', { name: 'DHR2 Subscription Required' }).count()).toBe(0);

    await page.goto('/auth');
    await expect(page.getByTestId('patreon-link-status').textContent()).resolves.toMatch(/^Connected on /);
    expect(unexpected(errors)).toEqual([]);
  });

  it('shows the account page, the reconciliation page and the dashboard callout at phone and desktop widths', async () => {
    const member = await createMember(h.app);
    const admin = await createMember(h.app, { isAdmin: true });
    bmc.state.items = [bmcSubscription({ email: `coffee-${Date.now().toString(36)}@example.test`, price: '5.000' })];
    const synced = await h.app.inject({ method: 'POST', url: '/api/admin/sync-subscriptions', headers: { cookie: admin.cookie }, payload: {} });
    expect(synced.statusCode).toBe(200);

    for (const [viewport, width] of [
      [{ ...PHONE, width: 360 }, 360],
      [PHONE, 390],
      [DESKTOP, 1366],
    ] as const) {
      const m = await pageAs(member, viewport);
      await m.page.goto('/auth');
      await m.page.getByRole('heading', { name: 'Paid with another email?' }).waitFor();
      await m.page.getByLabel('Email you paid with').fill('paid-here@example.test');
      await shot(m.page, `auth-supporters-${width}`);
      expect(unexpected(m.errors)).toEqual([]);

      const a = await pageAs(admin, viewport);
      await a.page.goto('/admin-dashboard');
      await a.page.getByText('1 paying supporter matches no account').waitFor();
      await shot(a.page, `dashboard-callout-${width}`);
      await a.page.getByTestId('unmatched-callout').click();
      await a.page.waitForURL((u) => u.pathname === '/admin/supporters');
      await a.page.getByTestId('supporter-row').first().waitFor();
      // The amount is whole at every width (it was cut to "€5.00 / mo…" at 360 px).
      const amount = a.page.getByTestId('supporter-amount').first();
      expect(await amount.textContent()).toBe('€5.00 / month');
      expect(await amount.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
      await a.page.getByRole('button', { name: /^Link coffee-/ }).click();
      await a.page.getByTestId('sync-run').first().click();
      await a.page.getByRole('list', { name: 'Run lines' }).waitFor();
      await shot(a.page, `admin-supporters-${width}`);
      const overflow = await a.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      expect(unexpected(a.errors)).toEqual([]);
    }
  });

  it('previews Sync Systems, ends many subscriptions only when confirmed, keeps paid time, and reverts the run from the sync log', async () => {
    const admin = await createMember(h.app, { isAdmin: true });
    const t = Date.now().toString(36);
    const paidThrough = new Date(Date.now() + 90 * 86_400_000).toISOString().slice(0, 10);
    const emails = Array.from({ length: 8 }, (_, i) => `ahead${i}-${t}@example.test`);
    const csv = [
      'email,subscriptionTier,subscriptionStatus,subscriptionExpiry,pledgeAmount,source',
      ...emails.map((e) => `${e},VIP,active,${paidThrough},10,buymeacoffee`),
    ].join('\n');
    const imported = await h.app.inject({ method: 'POST', url: '/api/admin/bulk-import', headers: { cookie: admin.cookie }, payload: { csvContent: csv } });
    expect(imported.json()).toMatchObject({ imported: 8 });
    const statuses = async () => {
      const res = await h.app.inject({ url: `/api/admin/users?search=${encodeURIComponent(`-${t}@example.test`)}`, headers: { cookie: admin.cookie } });
      return (res.json() as { subscriptionStatus: string }[]).map((u) => u.subscriptionStatus);
    };

    for (const [viewport, width] of [
      [PHONE, 360],
      [DESKTOP, 1366],
    ] as const) {
      const a = await pageAs(admin, viewport);
      await a.page.goto('/admin-dashboard');
      await a.page.getByRole('button', { name: /Sync Systems/ }).click();
      const dialog = a.page.getByRole('dialog');
      // Paid ahead: they stop paying but keep access to their date; none loses access now.
      await expect.poll(() => dialog.getByTestId('plan-stopPaying').textContent()).toBe('8');
      expect(await dialog.getByTestId('plan-loseAccess').textContent()).toBe('0');
      await dialog.getByText(/This ends the subscriptions of 8 of \d+ paying members: 0 lose access now, 8 stop paying/).waitFor();
      await dialog.getByTestId('plan-samples-stopPaying').getByText('(showing 8 of 8)').waitFor();
      await shot(a.page, `sync-preview-${width}`);
      const overflow = await a.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      // Nothing changed by looking.
      expect(await statuses()).toEqual(Array(8).fill('active'));
      if (width === 360) {
        await dialog.getByRole('button', { name: 'Cancel' }).click();
        expect(unexpected(a.errors)).toEqual([]);
        continue;
      }
      await dialog.getByTestId('sync-apply').click();
      await a.page.getByText('Sync complete: 8 users updated · 8 stopped paying and keep access until their date').waitFor();
      // Paid ahead: the subscriptions end, access lasts to the paid-through date.
      expect(await statuses()).toEqual(Array(8).fill('cancelled_with_access'));

      await a.page.goto('/admin/supporters');
      const run = a.page.getByTestId('sync-run').filter({ hasText: 'Manual sync' }).first();
      await run.getByRole('button').first().click();
      await a.page.getByRole('button', { name: 'Revert this run...' }).click();
      await a.page.getByTestId('revert-confirm').waitFor();
      await shot(a.page, `sync-revert-${width}`);
      await a.page.getByTestId('revert-confirm').click();
      await a.page.getByText(/^Reverted: 8 members are back to their state before this run/).waitFor();
      expect(await statuses()).toEqual(Array(8).fill('active'));
      expect(unexpected(a.errors)).toEqual([]);
    }
  });

  it('shows a listing that failed in red with nothing to apply, and a plan that changed before Apply with its difference', async () => {
    const admin = await createMember(h.app, { isAdmin: true });
    const a = await pageAs(admin, DESKTOP);
    await a.page.goto('/admin-dashboard');

    // Buy Me a Coffee answers "No subscriptions": its listing does not count, and it is the only platform configured.
    bmc.state.failures = [{ status: 200, body: { error_code: 404, reason: 'No subscriptions' } }];
    await a.page.getByRole('button', { name: /Sync Systems/ }).click();
    const dialog = a.page.getByRole('dialog');
    await dialog.getByTestId('sync-failed-buymeacoffee').getByText('Buy Me a Coffee: error 404 No subscriptions. This listing does not count').waitFor();
    await dialog.getByText('No platform answered completely: there is nothing to apply.').waitFor();
    expect(await dialog.getByTestId('sync-apply').isDisabled()).toBe(true);
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    // Six supporters listed at the preview; gone from the listing when Apply is pressed.
    const t = Date.now().toString(36);
    const emails = Array.from({ length: 6 }, (_, i) => `gone${i}-${t}@example.test`);
    const csv = [
      'email,subscriptionTier,subscriptionStatus,subscriptionExpiry,pledgeAmount,source',
      ...emails.map((e) => `${e},VIP,active,,10,buymeacoffee`),
    ].join('\n');
    expect(
      (await h.app.inject({ method: 'POST', url: '/api/admin/bulk-import', headers: { cookie: admin.cookie }, payload: { csvContent: csv } })).statusCode,
    ).toBe(200);
    const listed = [...bmc.state.items];
    bmc.state.items = [...listed, ...emails.map((email) => bmcSubscription({ email, price: '10.000' }))];
    await a.page.getByRole('button', { name: /Sync Systems/ }).click();
    await expect.poll(() => dialog.getByTestId('plan-loseAccess').textContent()).toBe('0');
    bmc.state.items = listed;
    await dialog.getByTestId('sync-apply').click();
    await dialog.getByTestId('sync-plan-changed').getByText(`The plan changed since the preview: 6 more members would lose access: ${emails[0]}`).waitFor();
    await expect.poll(() => dialog.getByTestId('plan-loseAccess').textContent()).toBe('6');
    await dialog.getByTestId('plan-samples-loseAccess').getByText('(showing 6 of 6)').waitFor();
    await shot(a.page, 'sync-plan-changed-1366');
    // Nothing was applied.
    const res = await h.app.inject({ url: `/api/admin/users?search=${encodeURIComponent(`-${t}@example.test`)}`, headers: { cookie: admin.cookie } });
    expect((res.json() as { subscriptionStatus: string }[]).map((u) => u.subscriptionStatus)).toEqual(Array(6).fill('active'));
    expect(a.errors.filter((e) => !/status of (409|503)/.test(e))).toEqual([]);
  });
});
