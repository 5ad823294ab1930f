import { readFile } from 'node:fs/promises';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ACCOUNT_MESSAGES } from '../../src/contracts/account-values';
import { users } from '../../src/server/db/schema';
import { hashPassword } from '../../src/server/modules/auth/passwords';
import { createMember, type TestMember } from '../support/app';
import { canRunBrowser, startBrowserHarness } from '../support/browser';
import { tempDataDir } from '../support/outbox';

// The browser logs the 400 of a deliberately wrong password, and 503 from the radio's now-playing
// call (no Icecast runs in this suite); nothing else may be logged.
const unexpected = (errors: string[]) => errors.filter((e) => !/status of (400|503)/.test(e));

describe.skipIf(!canRunBrowser)("members' own data in the browser", async () => {
  const h = await startBrowserHarness({ DATA_DIR: tempDataDir() });
  const password = 'deep-house-42';

  async function signedIn(who: TestMember) {
    const { page, context, errors } = await h.newPage();
    const eq = who.cookie.indexOf('=');
    await context.addCookies([{ name: who.cookie.slice(0, eq), value: who.cookie.slice(eq + 1), url: h.baseUrl }]);
    return { page, context, errors };
  }

  it('the footer links the privacy page, which says what is kept and for how long', async () => {
    const { page, context, errors } = await h.newPage();
    await page.goto('/');
    await page.getByRole('contentinfo').getByRole('link', { name: 'Privacy' }).click();
    await page.waitForURL((u) => u.pathname === '/privacy');
    await page.getByRole('heading', { name: 'What DHR keeps, and for how long' }).waitFor();
    await page.getByText('Sessions', { exact: true }).waitFor();
    await page.getByText('Live monitor', { exact: true }).waitFor();
    expect(unexpected(errors)).toEqual([]);
    await context.close();
  });

  it('the account page downloads the data and deletes the account after the password, in a dialog', async () => {
    const m = await createMember(h.app, { passwordHash: await hashPassword(password) });
    const { page, context, errors } = await signedIn(m);
    await page.goto('/auth');

    const download = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Download my data' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^dhr-my-data-\d{4}-\d{2}-\d{2}\.json$/);
    const data = JSON.parse(await readFile((await file.path()) ?? '', 'utf8')) as { account: { email: string } };
    expect(data.account.email).toBe(m.user.email);

    await page.getByRole('button', { name: 'Delete my account' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText(ACCOUNT_MESSAGES.deleteEndsAccess).waitFor();
    await dialog.getByLabel('Current password').fill('not-my-password');
    await dialog.getByRole('button', { name: 'Delete my account now' }).click();
    await dialog.getByText(ACCOUNT_MESSAGES.wrongPassword).waitFor();
    expect(await h.app.database.db.select().from(users).where(eq(users.id, m.user.id))).toHaveLength(1);

    await dialog.getByLabel('Current password').fill(password);
    await dialog.getByRole('button', { name: 'Delete my account now' }).click();
    await page.waitForURL((u) => u.pathname === '/');
    await expect.poll(async () => (await h.app.database.db.select().from(users).where(eq(users.id, m.user.id))).length).toBe(0);
    expect(unexpected(errors)).toEqual([]);
    await context.close();
  });
});
