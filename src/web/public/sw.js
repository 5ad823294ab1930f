/* Deep House Radio service worker: the app shell starts offline; live data and audio never come from cache. */
const VERSION = 'dhr-shell-v1';
const SHELL = ['/', '/manifest.webmanifest', '/icons/icon.svg', '/icons/icon-192.png', '/icons/icon-512.png'];

self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(VERSION);
      await cache.addAll(SHELL);
      // The page's hashed scripts and styles, so the cached shell can start offline.
      const html = await (await cache.match('/')).text();
      const assets = [...new Set(html.match(/\/assets\/[^"'\s>]+/g) || [])];
      await cache.addAll(assets);
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k !== VERSION).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

/** Only same-origin GETs of the shell and its static assets; never the API, metrics, events or media. */
function isCacheable(request, url) {
  if (request.method !== 'GET' || url.origin !== self.location.origin) return false;
  if (url.pathname.startsWith('/api/') || url.pathname === '/api' || url.pathname === '/metrics') return false;
  if (request.headers.has('range')) return false;
  if (request.destination === 'audio' || request.destination === 'video') return false;
  if (url.pathname.startsWith('/media/')) return false;
  return true;
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  const url = new URL(request.url);
  if (!isCacheable(request, url)) return;

  if (request.mode === 'navigate') {
    // Pages: network first so deploys show at once; the cached shell when offline.
    event.respondWith(
      fetch(request)
        .then((response) => {
          if (response.ok && url.pathname === '/') {
            const copy = response.clone();
            void caches.open(VERSION).then((cache) => cache.put('/', copy));
          }
          return response;
        })
        .catch(() => caches.match('/').then((cached) => cached || Response.error())),
    );
    return;
  }

  if (url.pathname.startsWith('/assets/')) {
    // Hashed build files never change: cache first, keep what was fetched.
    event.respondWith(
      caches.match(request).then(
        (cached) =>
          cached ||
          fetch(request).then((response) => {
            if (response.ok) {
              const copy = response.clone();
              void caches.open(VERSION).then((cache) => cache.put(request, copy));
            }
            return response;
          }),
      ),
    );
    return;
  }

  // Icons, images, manifest: network first, cache as fallback.
  event.respondWith(
    fetch(request)
      .then((response) => {
        if (response.ok && response.type === 'basic') {
          const copy = response.clone();
          void caches.open(VERSION).then((cache) => cache.put(request, copy));
        }
        return response;
      })
      .catch(() => caches.match(request).then((cached) => cached || Response.error())),
  );
});

// The page sends the build files it loaded before this worker controlled it (lazy page chunks).
self.addEventListener('message', (event) => {
  const data = event.data;
  if (!data || data.type !== 'CACHE_ASSETS' || !Array.isArray(data.urls)) return;
  const urls = data.urls.filter((u) => typeof u === 'string' && u.startsWith('/assets/')).slice(0, 200);
  event.waitUntil(caches.open(VERSION).then((cache) => Promise.all(urls.map((u) => cache.add(u).catch(() => undefined)))));
});
