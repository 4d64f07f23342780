// Cinn's service worker (docs/phone-app.md): static files cache-first by the binary's version, pages network-first
// with the last copy of each page shown when the server cannot be reached, marked as such. The API, log-in and account
// pages and downloads are never cached; logging out forgets every cached page. Entries posted while the server cannot
// be reached are kept on the device and sent later, in order, each with its form's key, so each is stored once. The
// server fills in VERSION and PRECACHE (the versioned addresses of the style sheet, scripts and icons) when it serves
// this file.
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
  if (request.method === 'POST' && request.mode === 'navigate' && QUEUED.some(pattern => pattern.test(url.pathname))) {
    event.respondWith(sendOrKeep(request, event));
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
  // Each form gets a new key: two entries made on this copy are two entries, not one sent twice.
  return cached.text().then(html => new Response(
    html.replace('<main id="main">', '<main id="main">' + mark).replace(/name="key" value="[0-9a-f-]{36}"/g, () => 'name="key" value="' + newKey() + '"'),
    { headers: { 'Content-Type': 'text/html; charset=utf-8' } }));
}

// The entry could not be kept on this device (its storage is full or refused): said, so that it is not thought sent.
function notKept() {
  return unreachable('Not sent', 'Cinn cannot be reached, and this device would not keep the entry to send later (its ' +
    'storage is full or turned off). Go back, and send it again when Cinn can be reached.', '');
}

function notYetSeen() {
  return unreachable('Offline', 'Cinn cannot be reached, and this page has not been opened on this device yet. Pages ' +
    'you have opened are here while you are offline.', '<p><a class="button" href="/">The dashboard</a></p>');
}

// A short page of the worker's own (503) when the server cannot be reached: a heading, what happened, and `more`.
function unreachable(title, text, more) {
  const html = '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">' +
    '<title>' + title + ' · Cinn</title><link rel="stylesheet" href="' + PRECACHE[0] + '"></head><body><main id="main">' +
    '<h1>' + title + '</h1><p class="card offline-mark" id="offline-mark">' + text + '</p>' + more + '</main></body></html>';
  return new Response(html, { status: 503, headers: { 'Content-Type': 'text/html; charset=utf-8' } });
}

// Sending entries: the forms whose posts are kept when the server cannot be reached (each carries a key).
const QUEUED = [/^\/weigh-ins$/, /^\/food\/quick$/, /^\/food\/log\/[0-9a-f-]{36}$/, /^\/food\/presets\/[0-9a-f-]{36}\/log$/,
  /^\/workouts\/[0-9a-f-]{36}\/sets$/, /^\/glucose\/(readings|insulin|meal-events)$/];
// What a proxy answers for a server that is not running.
const UNREACHABLE = [502, 503, 504];

// A post sent to the server, unless entries made before it are still waiting: then it joins them, in order. When the
// server cannot be reached it is kept with the account of the page it came from, and the browser goes back to that
// page (its kept copy, which shows what is waiting).
async function sendOrKeep(request, event) {
  const body = await request.clone().text();
  if (!new URLSearchParams(body).get('key')) return fetch(request);
  let before = [];
  try {
    before = await queue('readonly', entries => entries.getAll());
  } catch (error) {
    // No queue on this device (storage refused): posts go straight on.
    return fetch(request);
  }
  if (!before.some(entry => entry.state === 'waiting')) {
    try {
      const response = await fetch(request);
      if (!UNREACHABLE.includes(response.status)) return response;
    } catch (error) {
      // Not sent: kept below.
    }
  }
  const url = new URL(request.url);
  const back = request.referrer && new URL(request.referrer).origin === self.location.origin ? request.referrer : '/';
  const copy = await caches.match(back, { cacheName: PAGES }), account = accountIn(copy ? await copy.text() : '');
  try {
    await queue('readwrite', entries => entries.add({
      path: url.pathname, body, what: describe(url.pathname, body), at: Date.now(), state: 'waiting', account,
    }));
  } catch (error) {
    return notKept();
  }
  if (self.registration.sync) self.registration.sync.register('cinn-send').catch(() => {});
  event.waitUntil(sendWaiting());
  return Response.redirect(back, 303);
}

// The queue: one IndexedDB store of entries in the order they were made.
function queue(mode, work) {
  return new Promise((resolve, reject) => {
    const opening = indexedDB.open('cinn-queue', 1);
    opening.onupgradeneeded = () => opening.result.createObjectStore('entries', { keyPath: 'id', autoIncrement: true });
    opening.onerror = () => reject(opening.error);
    opening.onsuccess = () => {
      const database = opening.result, transaction = database.transaction('entries', mode);
      const request = work(transaction.objectStore('entries'));
      transaction.oncomplete = () => { database.close(); resolve(request.result); };
      transaction.onerror = () => { database.close(); reject(transaction.error); };
    };
  });
}

let sending = null;
// Sends every waiting entry, in order, one at a time; one run at once. Answers whether the server could be reached.
function sendWaiting() {
  sending = sending || sendAll().finally(() => { sending = null; });
  return sending;
}

async function sendAll() {
  let sent = 0, reached = true, session;
  const current = () => (session = session || currentSession());
  for (const entry of await queue('readonly', entries => entries.getAll())) {
    if (entry.state !== 'waiting' && entry.state !== 'login' && entry.state !== 'account') continue;
    let outcome;
    try {
      outcome = await send(entry, current);
    } catch (error) {
      reached = false;
      break;
    }
    if (outcome.sent) {
      await queue('readwrite', entries => entries.delete(entry.id));
      sent += 1;
      continue;
    }
    await queue('readwrite', entries => entries.put(Object.assign(entry, outcome.kept)));
    if (outcome.stop) break;
  }
  await tell(sent);
  return reached;
}

// One entry posted again as it was made (its key with it): sent; kept waiting for a log-in or its own account; or
// refused, with the server's words. Throws when the server cannot be reached.
async function send(entry, current) {
  for (let attempt = 0; ; attempt += 1) {
    const response = await fetch(entry.path, {
      method: 'POST', body: entry.body, credentials: 'same-origin', redirect: 'follow',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    if (new URL(response.url).pathname === '/login') return { kept: { state: 'login' }, stop: true };
    if (response.status >= 500) throw new Error('Cinn cannot be reached');
    if (response.ok) return { sent: true };
    const html = await response.text();
    if (response.status === 403 && attempt === 0) {
      // The form's token is not this session's: sent again with the session's, when it is the same account's.
      const session = await current();
      if (!session) return { kept: { state: 'login' }, stop: true };
      if (session.account !== entry.account) return { kept: { state: 'account' } };
      const fields = new URLSearchParams(entry.body);
      fields.set('_csrf', session.token);
      entry.body = fields.toString();
      continue;
    }
    return { kept: { state: /name="confirm" value="true"/.test(html) ? 'confirm' : 'refused', message: alertIn(html) ||
      'Cinn did not take this entry (' + response.status + ').' } };
  }
}

// Who is logged in on this device now, and the token of that session's forms; null when no one is.
async function currentSession() {
  const response = await fetch('/more', { credentials: 'same-origin' });
  if (!response.ok || new URL(response.url).pathname === '/login') return null;
  const html = await response.text(), token = html.match(/name="_csrf" value="([^"]+)"/);
  return token ? { token: unescape(token[1]), account: accountIn(html) } : null;
}

function accountIn(html) {
  const found = html.match(/<meta name="cinn-account" content="([^"]*)">/);
  return found ? unescape(found[1]) : '';
}

// The text of the first alert on a page the server answered (a form's error, a typo to confirm).
function alertIn(html) {
  const found = html.match(/role="alert"[^>]*>([\s\S]*?)<\/(p|div)>/);
  return found ? unescape(found[1].replace(/<[^>]+>/g, ' ')).replace(/\s+/g, ' ').trim() : '';
}

function unescape(text) {
  const entities = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };
  return text.replace(/&(amp|lt|gt|quot|#39);/g, entity => entities[entity]);
}

// What an entry is, in a few words, from its form's fields.
function describe(path, body) {
  const fields = new URLSearchParams(body), field = name => (fields.get(name) || '').trim();
  const at = field('date') || field('time').replace('T', ' ');
  const when = at ? ' · ' + at : '';
  if (path === '/weigh-ins') return 'Weigh-in ' + field('weight') + when;
  if (path === '/food/quick') return 'Quick add: ' + [field('name'), field('energy')].filter(Boolean).join(', ') + when;
  if (path.startsWith('/food/presets/')) return 'A preset × ' + (field('times') || '1') + when;
  if (path.startsWith('/food/log/')) return 'Food: ' + (field('servings') || '1') + ' × ' + field('serving') + when;
  if (path.startsWith('/workouts/')) return field('exercise') + ': ' + field('weight') + ' × ' + field('reps');
  if (path === '/glucose/readings') return 'Glucose ' + field('value') + when;
  if (path === '/glucose/insulin') return 'Insulin ' + field('units') + ' U' + when;
  return 'A meal eaten' + when;
}

// Tells every open page what is waiting, and how many entries were just sent.
async function tell(sent) {
  const entries = (await queue('readonly', store => store.getAll())).map(entry => (
    { id: entry.id, what: entry.what, at: entry.at, state: entry.state, message: entry.message, account: entry.account }));
  for (const client of await self.clients.matchAll({ type: 'window' })) client.postMessage({ type: 'queue', sent, entries });
}

self.addEventListener('message', event => {
  const { type, id } = event.data || {};
  if (type === 'send') event.waitUntil(sendWaiting());
  if (type === 'remove') event.waitUntil(queue('readwrite', entries => entries.delete(id)).then(() => tell(0)));
  if (type === 'confirm') event.waitUntil(confirmed(id).then(sendWaiting));
});

// "Send it as it is" after the typo guard asked: the entry waits again, confirmed.
async function confirmed(id) {
  const entry = await queue('readonly', entries => entries.get(id));
  if (!entry || entry.state !== 'confirm') return;
  const fields = new URLSearchParams(entry.body);
  fields.set('confirm', 'true');
  await queue('readwrite', entries => entries.put(Object.assign(entry, { state: 'waiting', message: '', body: fields.toString() })));
}

self.addEventListener('sync', event => {
  if (event.tag === 'cinn-send') {
    event.waitUntil(sendWaiting().then(reached => { if (!reached) throw new Error('Cinn cannot be reached'); }));
  }
});

// A form key made on the device: a UUIDv7, as the server makes them.
function newKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  let time = Date.now();
  for (let index = 5; index >= 0; index -= 1) {
    bytes[index] = time % 256;
    time = Math.floor(time / 256);
  }
  bytes[6] = 0x70 | (bytes[6] & 0x0f);
  bytes[8] = 0x80 | (bytes[8] & 0x3f);
  const hex = Array.from(bytes, byte => byte.toString(16).padStart(2, '0')).join('');
  return [hex.slice(0, 8), hex.slice(8, 12), hex.slice(12, 16), hex.slice(16, 20), hex.slice(20)].join('-');
}
