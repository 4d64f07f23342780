// Cinn's service worker (docs/phone-app.md): static files cache-first by the binary's version, pages network-first
// with the last copy of each page shown when the server cannot be reached, marked as such. The API, log-in and account
// pages and downloads are never cached; logging out forgets every cached page. The server fills in VERSION and
// PRECACHE (the versioned addresses of the style sheet, scripts and icons) when it serves this file.
const VERSION = '__VERSION__';
const PRECACHE = __PRECACHE__;
const STATIC = 'cinn-static-' + VERSION;
const PAGES = 'cinn-pages';

self.addEventListener('install', event => {
  event.waitUntil(caches.open(STATIC).then(cache => cache.addAll(PRECACHE)).then(() => self.skipWaiting()));
});

self.addEventListener('activate', event => {
  event.waitUntil((async () => {
    const names = await caches.keys();
    // A new binary: its static files replace the old ones, and pages that named the old ones go with them.
    const replaced = names.some(name => name.startsWith('cinn-static-') && name !== STATIC);
    await Promise.all(names.filter(name => name.startsWith('cinn-static-') && name !== STATIC).map(name => caches.delete(name)));
    if (replaced) await caches.delete(PAGES);
    await self.clients.claim();
  })());
});

// Addresses never cached: the API, Nightscout's, log-in and the account, operations, the worker itself, downloads.
const NEVER = [/^\/api\//, /^\/nightscout\//, /^\/login/, /^\/signup/, /^\/logout/, /^\/account/, /^\/invite/,
  /^\/(health|ready|metrics|sw\.js)$/, /\.(svg|csv|json|yaml|png)$/];

self.addEventListener('fetch', event => {
  const request = event.request, url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method === 'POST' && url.pathname === '/logout') {
    // The next person on this device sees none of this person's pages.
    event.respondWith(caches.delete(PAGES).then(() => fetch(request)));
    return;
  }
  if (request.method !== 'GET') return;
  if (url.pathname.startsWith('/static/')) {
    event.respondWith(staticFile(request));
    return;
  }
  if (NEVER.some(pattern => pattern.test(url.pathname)) || request.mode !== 'navigate') return;
  event.respondWith(page(request));
});

// A static file: this version's copy, else the server's, kept for the next time.
async function staticFile(request) {
  const cached = await caches.match(request, { cacheName: STATIC });
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok) await (await caches.open(STATIC)).put(request, response.clone());
  return response;
}

// A page from the server, its copy kept; when the server cannot be reached, the copy, marked with its time.
async function page(request) {
  try {
    const response = await fetch(request);
    const type = response.headers.get('Content-Type') || '';
    if (response.ok && !response.redirected && type.startsWith('text/html')) {
      const copy = new Headers(response.headers);
      copy.set('Cinn-Cached-At', new Date().toISOString());
      const body = await response.clone().arrayBuffer();
      const cache = await caches.open(PAGES);
      await cache.put(request.url, new Response(body, { status: response.status, headers: copy }));
    }
    return response;
  } catch (error) {
    const cached = await caches.match(request.url, { cacheName: PAGES });
    return cached ? offline(cached) : notYetSeen();
  }
}

function offline(cached) {
  const at = new Date(cached.headers.get('Cinn-Cached-At') || Date.now());
  const time = at.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  const day = at.toDateString() === new Date().toDateString() ? '' : ' on ' + at.toLocaleDateString([], { day: 'numeric', month: 'short' });
  const mark = '<p class="card offline-mark" role="status" id="offline-mark">Offline — as of ' + time + day +
    '. This is the last copy of this page on this device; it updates when Cinn can be reached again.</p>';
  return cached.text().then(html => new Response(html.replace('<main id="main">', '<main id="main">' + mark), {
    headers: { 'Content-Type': 'text/html; charset=utf-8' },
  }));
}

function notYetSeen() {
  const html = '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">' +
    '<title>Offline · Cinn</title><link rel="stylesheet" href="' + PRECACHE[0] + '"></head><body><main id="main">' +
    '<h1>Offline</h1><p class="card offline-mark" id="offline-mark">Cinn cannot be reached, and this page has not been opened on this device ' +
    'yet. Pages you have opened are here while you are offline.</p><p><a class="button" href="/">The dashboard</a></p></main></body></html>';
  return new Response(html, { status: 503, headers: { 'Content-Type': 'text/html; charset=utf-8' } });
}
