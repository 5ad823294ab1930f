import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { AUTH_MESSAGES } from '../../src/contracts/auth';
import { users } from '../../src/server/db/schema';
import { memberWithRole } from '../support/app';
import { canRunBrowser, PHONE, startBrowserHarness } from '../support/browser';
import { lastMailTo, linkIn, tempDataDir } from '../support/outbox';

// The browser logs the 401 of a deliberately wrong sign-in, and 503 from the radio's now-playing
// call (no Icecast runs in this suite); nothing else may be logged.
const unexpected = (errors: string[]) => errors.filter((e) => !/status of (401|503)/.test(e));

describe.skipIf(!canRunBrowser)('accounts in the browser', async () => {
  const dataDir = tempDataDir();
  const h = await startBrowserHarness({ DATA_DIR: dataDir });
  const email = `listener-${Date.now().toString(36)}@example.test`;
  const password = 'deep-house-42';
  const newPassword = 'deep-house-43';

  it('creates an account on /auth (mismatched passwords first), signs in, and meets the DHR1 gate', async () => {
    const { page, context, errors } = await h.newPage();
    await page.goto('/auth');
    await page.getByRole('tab', { name: 'Create Account' }).click();
    const submit = page.locator('form').getByRole('button', { name: 'Create Account' });
    await expect(submit.isDisabled()).resolves.toBe(true);
    await page.getByLabel('Username').fill('Night Listener');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByLabel('Confirm password').fill('something-else');
    await submit.click();
    await page.getByText(AUTH_MESSAGES.passwordsDoNotMatch).waitFor();

    await page.getByLabel('Confirm password').fill(password);
    await submit.click();
    await page.getByText(AUTH_MESSAGES.registrationSuccess).waitFor();
    await confirmEmailFromMail(email, password);
    // Back in sign-in mode with the email kept.
    await expect(page.getByRole('tab', { name: 'Sign In' }).getAttribute('aria-selected')).resolves.toBe('true');

    await page.getByLabel('Password', { exact: true }).fill('wrong-password');
    await page.locator('form').getByRole('button', { name: 'Sign In' }).click();
    await page.getByText(AUTH_MESSAGES.invalidCredentials).waitFor();

    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.locator('form').getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL((u) => u.pathname === '/');
    await page.getByRole('button', { name: 'MEMBER' }).first().waitFor();
    const cookie = (await context.cookies()).find((c) => c.name === 'dhr_session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax' });

    await page.goto('/dhr1');
    await page.getByRole('heading', { name: 'DHR1 Subscription Required' }).waitFor();
    expect(unexpected(errors)).toEqual([]);
    await context.close();
  });

  /** Follows the registration mail's link in a fresh browser: the page confirms on a press, with the password. */
  async function confirmEmailFromMail(address: string, accountPassword: string) {
    await h.app.mailer.idle();
    const link = new URL(linkIn(lastMailTo(dataDir, address), '/verify-email'));
    const { page, context, errors } = await h.newPage(PHONE);
    await page.goto(`${link.pathname}${link.hash}`);
    const confirm = page.getByRole('button', { name: 'Confirm my email' });
    await confirm.waitFor();
    expect(new URL(page.url()).hash).toBe('');
    const [row] = await h.app.database.db.select().from(users).where(eq(users.email, address));
    expect(row?.emailVerifiedAt).toBeNull();
    await page.getByLabel('Your account password').fill(accountPassword);
    await confirm.click();
    await page.getByText(AUTH_MESSAGES.emailConfirmed).waitFor();
    const [after] = await h.app.database.db.select().from(users).where(eq(users.email, address));
    expect(after?.emailVerifiedAt).toBeInstanceOf(Date);
    expect(unexpected(errors)).toEqual([]);
    await context.close();
  }

  it('opens /dhr1 but not /dhr2 after an admin assigns dhr1', async () => {
    const admin = await memberWithRole(h.app, 'admin');
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/admin/assign-tier',
      headers: { cookie: admin.cookie },
      payload: { email, tier: 'DHR1', expiryDays: 30 },
    });
    expect(res.statusCode).toBe(200);

    const { page, context, errors } = await h.newPage(PHONE);
    await page.goto('/auth');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.locator('form').getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL((u) => u.pathname === '/');

    await page.goto('/dhr1');
    await page.getByRole('heading', { level: 1, name: /DHR1/ }).waitFor();
    expect(await page.getByText('Subscription Required').count()).toBe(0);

    await page.goto('/dhr2');
    await page.getByRole('heading', { name: 'DHR2 Subscription Required' }).waitFor();

    // /auth shows who is signed in and the tier.
    await page.goto('/auth');
    await page.getByText(email).waitFor();
    await page.locator('dd', { hasText: /^DHR1$/ }).waitFor();
    expect(unexpected(errors)).toEqual([]);
    await context.close();
  });

  it('signs in through the legacy sign-in modal with the spec messages', async () => {
    const { page, context } = await h.newPage(PHONE);
    await page.goto('/simple-auth');
    await page.getByRole('button', { name: 'Sign in with a password' }).click();
    const dialog = page.getByRole('dialog', { name: 'Sign In to DHR' });
    await dialog.getByText('Sign in with your subscription email to access premium content').waitFor();
    await dialog.getByLabel('Email').fill(email);
    await dialog.getByLabel('Password').fill('not-the-password');
    await dialog.getByRole('button', { name: 'Sign In' }).click();
    await dialog.getByText('Invalid credentials. Please check your email and password.').waitFor();
    await dialog.getByLabel('Password').fill(password);
    await dialog.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL((u) => u.pathname === '/');
    await page.getByRole('button', { name: 'MEMBER' }).first().waitFor();
    await context.close();
  });

  it('shows Login Required on /admin, and the DHR1 wall on /dhr1, to anonymous visitors', async () => {
    const { page, context } = await h.newPage();
    await page.goto('/admin');
    await page.getByRole('heading', { name: 'Login Required' }).waitFor();
    await page.getByRole('main').getByRole('link', { name: 'Sign In' }).click();
    await page.waitForURL((u) => u.pathname === '/simple-auth');
    await page.goto('/dhr1');
    await page.getByRole('heading', { name: 'DHR1 Subscription Required' }).waitFor();
    await context.close();
  });

  it('shows an expired member their real state on /auth and on the upgrade screen', async () => {
    const expired = await memberWithRole(h.app, 'expired-vip');
    const { page, context, errors } = await h.newPage(PHONE);
    await context.addCookies([{ name: 'dhr_session', value: expired.cookie.split('=')[1] ?? '', url: h.baseUrl }]);
    await page.goto('/auth');
    await page.getByText(expired.user.email).waitFor();
    await page.getByText('VIP (Expired)').waitFor();
    expect(await page.getByTestId('membership-status').textContent()).toBe('active(Expired)');
    await page.getByText('Your subscription has expired.').waitFor();
    await page.getByRole('link', { name: 'Upgrade on Patreon' }).waitFor();
    await page.getByRole('link', { name: 'Support via Buy Me a Coffee' }).waitFor();

    // The gate refuses them as the API does, with the one upgrade screen: benefits, tier, status, expiry, platforms.
    await page.goto('/dhr1');
    const gate = page.getByRole('main');
    await gate.getByRole('heading', { name: 'DHR1 Subscription Required' }).waitFor();
    await gate.getByText('Premium channel at 320kbps').waitFor();
    await gate.getByText('VIP (Expired)').waitFor();
    await gate.getByText('Expired', { exact: true }).waitFor();
    await gate.getByRole('link', { name: 'Upgrade on Patreon' }).waitFor();
    await gate.getByRole('link', { name: 'Support via Buy Me a Coffee' }).waitFor();
    expect(unexpected(errors)).toEqual([]);
    await context.close();
  });

  it('gates a channel page by the tier the channel requires in GET /api/channels', async () => {
    const dhr1 = await memberWithRole(h.app, 'dhr1');
    const { page, context } = await h.newPage();
    await context.addCookies([{ name: 'dhr_session', value: dhr1.cookie.split('=')[1] ?? '', url: h.baseUrl }]);
    await page.goto('/dhr2');
    await page.getByRole('heading', { name: 'DHR2 Subscription Required' }).waitFor();
    // The operator opens DHR2 to DHR1 members: the same page now plays for them.
    await page.route('**/api/channels', async (route) => {
      const list = (await (await route.fetch()).json()) as { id: string; requiredTier: string }[];
      await route.fulfill({ json: list.map((c) => (c.id === 'dhr2' ? { ...c, requiredTier: 'dhr1' } : c)) });
    });
    await page.reload();
    await page.getByRole('heading', { level: 1, name: /DHR2/ }).waitFor();
    expect(await page.getByText('Subscription Required').count()).toBe(0);
    await context.close();
  });

  it('shows Admin Access Required to a free member on /user-management', async () => {
    const free = await memberWithRole(h.app, 'free');
    const { page, context } = await h.newPage(PHONE);
    await context.addCookies([{ name: 'dhr_session', value: free.cookie.split('=')[1] ?? '', url: h.baseUrl }]);
    await page.goto('/user-management');
    await page.getByRole('heading', { name: 'Admin Access Required' }).waitFor();
    await page.getByRole('link', { name: 'Return Home' }).click();
    await page.waitForURL((u) => u.pathname === '/');
    await context.close();
  });

  it('signs in by emailed link on /simple-auth, then MEMBER signs out and clears browser storage', async () => {
    const m = await memberWithRole(h.app, 'dhr2');
    const { page, context, errors } = await h.newPage();
    await page.goto('/simple-auth');
    await page.getByLabel('Email').fill(m.user.email);
    await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
    await page.getByRole('heading', { name: 'Check your email' }).waitFor();

    await h.app.mailer.idle();
    const link = new URL(linkIn(lastMailTo(dataDir, m.user.email), '/simple-auth/link'));
    await page.goto(`${link.pathname}${link.hash}`);
    // Opening the link signs nobody in: the page names the account and waits for the press.
    const button = page.getByRole('button', { name: `Sign in as ${m.user.email}` });
    await button.waitFor();
    expect(new URL(page.url()).hash).toBe('');
    expect((await context.cookies()).find((c) => c.name === 'dhr_session')).toBeUndefined();
    await button.click();
    await page.waitForURL((u) => u.pathname === '/');
    await page.evaluate(() => {
      localStorage.setItem('dhr-test', '1');
      sessionStorage.setItem('dhr-test', '1');
    });

    // The link was single use.
    const again = await context.newPage();
    await again.goto(`${link.pathname}${link.hash}`);
    await again.getByText('This sign-in link has expired or was already used').waitFor();
    await again.close();

    await page.getByRole('button', { name: 'MEMBER' }).first().click();
    await page.getByRole('region', { name: 'Your account' }).getByRole('button', { name: 'Profile' }).click();
    const dialog = page.getByRole('dialog', { name: 'Your profile' });
    await dialog.getByText(m.user.email).waitFor();
    await dialog.getByRole('button', { name: 'Sign Out' }).click();
    await page.getByRole('link', { name: 'Sign In' }).first().waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    // (The router may write its own scroll positions again on the way out; the member's data is gone.)
    expect(await page.evaluate(() => [localStorage.getItem('dhr-test'), sessionStorage.getItem('dhr-test')])).toEqual([null, null]);
    expect((await context.cookies()).find((c) => c.name === 'dhr_session')).toBeUndefined();
    expect(unexpected(errors)).toEqual([]);
    await context.close();
  });

  it('sets a password with the emailed code on /set-password and is signed in with it', async () => {
    const m = await memberWithRole(h.app, 'vip');
    const { page, context } = await h.newPage(PHONE);
    await page.goto('/set-password');
    await page.getByLabel('Email').fill(m.user.email);
    await page.getByRole('button', { name: 'Send verification code' }).click();
    await page.getByLabel('6-digit code from the email').waitFor();
    await h.app.mailer.idle();
    const code = /Your code: (\d{6})/.exec(lastMailTo(dataDir, m.user.email).body)?.[1] ?? '';
    await page.getByLabel('6-digit code from the email').fill(code);
    await page.getByRole('button', { name: 'Verify email' }).click();
    await page.getByText(AUTH_MESSAGES.emailVerified).waitFor();
    await page.getByLabel('New password').fill('vip-pass-1');
    await page.getByLabel('Confirm password').fill('vip-pass-2');
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.getByText(AUTH_MESSAGES.passwordsDoNotMatch).waitFor();
    await page.getByLabel('Confirm password').fill('vip-pass-1');
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.getByText(AUTH_MESSAGES.passwordSet).waitFor();
    // Signed in with the new password, not sent to the email-link page (tests/e2e/account-security.test.ts).
    await page.waitForURL((u) => u.pathname === '/', { timeout: 5000 });
    expect((await context.cookies()).some((c) => c.name === 'dhr_session' && c.value !== '')).toBe(true);
    await context.close();
  });

  // Last: it changes the password the tests above sign in with.
  it('resets a forgotten password through the emailed link page', async () => {
    const { page, context, errors } = await h.newPage(PHONE);
    await page.goto('/forgot-password');
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByRole('heading', { name: 'Check your email' }).waitFor();
    await h.app.mailer.idle();
    const link = new URL(linkIn(lastMailTo(dataDir, email), '/reset-password'));
    expect(link.search).toBe('');
    await page.goto(`${link.pathname}${link.hash}`);
    await page.getByLabel('New password').waitFor();
    expect(new URL(page.url()).hash).toBe('');
    await page.getByLabel('New password').fill(newPassword);
    await page.getByLabel('Confirm password').fill(newPassword);
    await page.getByRole('button', { name: 'Save new password' }).click();
    await page.getByText(AUTH_MESSAGES.passwordReset).waitFor();

    await page.goto('/auth');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(newPassword);
    await page.locator('form').getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL((u) => u.pathname === '/');
    expect(unexpected(errors)).toEqual([]);
    await context.close();
  });
});
