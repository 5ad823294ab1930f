import { describe, expect, it } from 'vitest';
import { AUTH_MESSAGES } from '../../src/contracts/auth';
import { createMember } from '../support/app';
import { registerAndLogin } from '../support/auth-client';
import { canRunBrowser, PHONE, startBrowserHarness } from '../support/browser';
import { codeIn, lastMailTo, tempDataDir } from '../support/outbox';

/** A member's sign-in controls in the browser: change password, sign out everywhere, code sign-in, set password. */
describe.skipIf(!canRunBrowser)('account security in the browser', async () => {
  const dataDir = tempDataDir();
  const h = await startBrowserHarness({ DATA_DIR: dataDir });

  async function signedInPage(cookie: string, viewport = PHONE) {
    const { page, context } = await h.newPage(viewport);
    const eq = cookie.indexOf('=');
    await context.addCookies([{ name: cookie.slice(0, eq), value: cookie.slice(eq + 1), url: h.baseUrl }]);
    return { page, context };
  }
  const signedIn = async (cookie: string) => (await h.app.inject({ url: '/api/auth/me', headers: { cookie } })).statusCode === 200;
  const passwordLogin = (email: string, password: string) =>
    h.app.inject({ method: 'POST', url: '/api/auth/email-login-secure', payload: { email, password }, remoteAddress: '192.0.2.9' });
  async function secondSession(email: string, password: string) {
    const login = await passwordLogin(email, password);
    return `dhr_session=${login.cookies.find((c) => c.name === 'dhr_session')?.value ?? ''}`;
  }

  it('changes the password with the current one and signs out the other devices', async () => {
    const m = await registerAndLogin(h.app);
    const second = await secondSession(m.email, m.password);
    expect(await signedIn(second)).toBe(true);
    h.expectPageErrors(/status of 400/);
    const { page, context } = await signedInPage(m.cookie);
    await page.goto('/auth');
    await page.getByRole('button', { name: 'Change password' }).click();
    // The dialog takes focus.
    await expect.poll(() => page.evaluate(() => document.activeElement?.closest('[role="dialog"]') !== null)).toBe(true);
    const dialog = page.getByRole('dialog', { name: 'Change password' });
    await dialog.getByLabel('Current password').fill('not-my-password');
    await dialog.getByLabel('New password').fill('brand-new-1');
    await dialog.getByLabel('Confirm password').fill('brand-new-1');
    await dialog.getByRole('button', { name: 'Change password' }).click();
    await dialog.getByText(AUTH_MESSAGES.currentPasswordWrong).waitFor();
    expect(await signedIn(second)).toBe(true);

    await dialog.getByLabel('Current password').fill(m.password);
    await dialog.getByRole('button', { name: 'Change password' }).click();
    await dialog.getByText(AUTH_MESSAGES.passwordChanged).waitFor();
    expect(await signedIn(second)).toBe(false);
    expect(await signedIn(m.cookie)).toBe(true);
    await page.keyboard.press('Escape');
    // Focus returns to the button that opened the dialog.
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent?.trim())).toBe('Change password');

    expect((await passwordLogin(m.email, m.password)).statusCode).toBe(401);
    expect((await passwordLogin(m.email, 'brand-new-1')).statusCode).toBe(200);
    await context.close();
  });

  it('signs out everywhere else from /auth', async () => {
    const m = await registerAndLogin(h.app);
    const second = await secondSession(m.email, m.password);
    expect(await signedIn(second)).toBe(true);
    const { page, context } = await signedInPage(m.cookie);
    await page.goto('/auth');
    await page.getByRole('button', { name: 'Sign out everywhere else' }).click();
    await page.getByText(AUTH_MESSAGES.signedOutEverywhere).waitFor();
    expect(await signedIn(second)).toBe(false);
    expect(await signedIn(m.cookie)).toBe(true);
    await context.close();
  });

  it('signs in with the 6-digit code from the sign-in mail', async () => {
    const m = await createMember(h.app, { subscriptionTier: 'dhr1', subscriptionStatus: 'active' });
    const { page, context } = await h.newPage(PHONE);
    const urls: string[] = [];
    page.on('request', (r) => urls.push(r.url()));
    await page.goto('/simple-auth');
    await page.getByLabel('Email').fill(m.user.email);
    await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
    await page.getByRole('heading', { name: 'Check your email' }).waitFor();
    await h.app.mailer.idle();
    const code = codeIn(lastMailTo(dataDir, m.user.email));
    await page.getByLabel('6-digit code from the email').fill(code);
    await page.getByRole('button', { name: 'Sign in with the code' }).click();
    await page.waitForURL((u) => u.pathname === '/');
    await expect.poll(async () => signedIn(`dhr_session=${(await context.cookies()).find((c) => c.name === 'dhr_session')?.value ?? ''}`)).toBe(true);
    // The code went in a POST body, never in an address.
    expect(urls.some((u) => u.includes(code))).toBe(false);
    await context.close();
  });

  it('after setting a password the member is signed in', async () => {
    const m = await createMember(h.app);
    const { page, context } = await h.newPage(PHONE);
    await page.goto('/set-password');
    await page.getByLabel('Email').fill(m.user.email);
    await page
      .getByRole('button', { name: /Send|code/i })
      .first()
      .click();
    await page.getByLabel('6-digit code from the email').waitFor();
    await h.app.mailer.idle();
    await page.getByLabel('6-digit code from the email').fill(codeIn(lastMailTo(dataDir, m.user.email)));
    await page.getByRole('button', { name: 'Verify email' }).click();
    await page.getByLabel('New password').fill('fresh-pass-1');
    await page.getByLabel('Confirm password').fill('fresh-pass-1');
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.getByText(AUTH_MESSAGES.passwordSet).waitFor();
    await page.waitForURL((u) => u.pathname === '/', { timeout: 10_000 });
    const cookie = (await context.cookies()).find((c) => c.name === 'dhr_session');
    expect(cookie && (await signedIn(`dhr_session=${cookie.value}`))).toBe(true);
    await context.close();
  });
});
