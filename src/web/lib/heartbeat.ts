import { isPagePath } from '../../contracts/routes';
import { ANONYMOUS_ID_KEY, HEARTBEAT_ACTIVITY_MIN_MS, HEARTBEAT_INTERVAL_MS, HEARTBEAT_PATH, PAGE_MAX } from '../../contracts/live-values';

/**
 * The live monitor's heartbeat: every page says where the visitor is every 90 s, after user
 * activity at most once per 30 s, and when the page changes. Plain fetch, no libraries: it rides on
 * every page, so it stays a few hundred bytes and starts only once the page has loaded and the
 * browser is idle. A member is known by the session cookie; an anonymous visitor by a random id this
 * tab keeps in session storage (no cookie).
 */
let page = '/';
let lastSent = 0;
let started = false;
let fallbackId = '';

function randomId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}

function anonymousId(): string {
  try {
    let id = sessionStorage.getItem(ANONYMOUS_ID_KEY);
    if (!id) {
      id = randomId();
      sessionStorage.setItem(ANONYMOUS_ID_KEY, id);
    }
    return id;
  } catch {
    // Storage refused (private mode settings): an id for this page's life.
    fallbackId ||= randomId();
    return fallbackId;
  }
}

function send() {
  lastSent = Date.now();
  void fetch(HEARTBEAT_PATH, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ page, anonymousId: anonymousId() }),
  })
    // The small reply is read to its end: a response left unread stays open in the browser's network
    // log, and the page never counts as network-idle.
    .then((res) => res.text())
    .catch(() => undefined);
}

function onActivity() {
  if (Date.now() - lastSent >= HEARTBEAT_ACTIVITY_MIN_MS) send();
}

/** The page path as the server accepts it: a page of the app, no query or fragment (else the home page). */
export function heartbeatPage(pathname: string): string {
  const clean = pathname.slice(0, PAGE_MAX);
  return /^\/[A-Za-z0-9/_-]*$/.test(clean) && isPagePath(clean) ? clean : '/';
}

/** Tells the heartbeat the visitor is now on `pathname` (sent at once when the heartbeat runs). */
export function reportPage(pathname: string): void {
  const next = heartbeatPage(pathname);
  if (next === page && started) return;
  page = next;
  if (started) send();
}

/** Starts the heartbeat once, after the page has loaded and the browser has a quiet moment. */
export function startHeartbeat(): void {
  const begin = () => {
    if (started) return;
    started = true;
    send();
    setInterval(send, HEARTBEAT_INTERVAL_MS);
    for (const type of ['pointerdown', 'keydown', 'scroll', 'touchstart'] as const) {
      window.addEventListener(type, onActivity, { passive: true, capture: true });
    }
  };
  const whenIdle = () => (typeof requestIdleCallback === 'function' ? requestIdleCallback(begin, { timeout: 3000 }) : setTimeout(begin, 1000));
  if (document.readyState === 'complete') whenIdle();
  else window.addEventListener('load', whenIdle, { once: true });
}
