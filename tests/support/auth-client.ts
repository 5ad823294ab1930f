import type { FastifyInstance, LightMyRequestResponse } from 'fastify';

let ipCounter = 0;
/** A fresh client address, so each scenario starts with empty per-IP rate-limit buckets. */
export function freshIp(): string {
  ipCounter += 1;
  return `10.${(ipCounter >> 16) & 255}.${(ipCounter >> 8) & 255}.${ipCounter & 255}`;
}

let emailCounter = 0;
export function freshEmail(tag = 'user'): string {
  emailCounter += 1;
  return `${tag}-${Date.now().toString(36)}-${emailCounter}@example.test`;
}

/** The dhr_session cookie a reply set, as a Cookie header value ('' when none). */
export function sessionCookie(res: LightMyRequestResponse): string {
  const c = res.cookies.find((x) => x.name === 'dhr_session');
  return c && c.value ? `dhr_session=${c.value}` : '';
}

export interface Client {
  ip: string;
  post(url: string, payload?: unknown, cookie?: string): Promise<LightMyRequestResponse>;
  get(url: string, cookie?: string): Promise<LightMyRequestResponse>;
}

/**
 * Requests from one client address. Each call also waits for the mail the request queued (mail goes
 * out after the reply), so a test can read the outbox right after.
 */
export function client(app: FastifyInstance, ip = freshIp()): Client {
  const settled = async (res: LightMyRequestResponse) => {
    await app.mailer.idle();
    return res;
  };
  return {
    ip,
    post: (url, payload, cookie) =>
      app
        .inject({
          method: 'POST',
          url,
          remoteAddress: ip,
          ...(payload === undefined ? {} : { payload: payload as object }),
          headers: cookie ? { cookie } : {},
        })
        .then(settled),
    get: (url, cookie) => app.inject({ method: 'GET', url, remoteAddress: ip, headers: cookie ? { cookie } : {} }).then(settled),
  };
}

/** Registers and signs in through the API; returns the session cookie. */
export async function registerAndLogin(app: FastifyInstance, email = freshEmail(), password = 'deep-house-1') {
  const c = client(app);
  const reg = await c.post('/api/auth/register', { email, password, username: email.split('@')[0] });
  if (reg.statusCode !== 201) throw new Error(`register failed: ${reg.body}`);
  const login = await c.post('/api/auth/email-login-secure', { email, password });
  if (login.statusCode !== 200) throw new Error(`login failed: ${login.body}`);
  return { email, password, cookie: sessionCookie(login), user: login.json().user as { id: string } };
}
