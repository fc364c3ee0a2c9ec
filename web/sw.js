// Arbiter web: the service worker of the built pages.  The build
// (web/bundle.mjs) writes its version into it and the daemon serves it as
// /sw.js; pages served from their sources do not register it.
//
// It keeps the pages' own files so that the next load does not wait for the
// network: a page (the HTML) is answered from the cache at once and fetched
// again once the page has loaded, so the load after a new build shows that build;
// the build's content-named files (/dist/) are answered from the cache, since
// they never change.  Everything else (the API, its live streams, exports,
// PGN) goes to the network untouched: live data is never served from here.
// A new build is a new version: its worker takes over at once and drops the
// old cache.

const VERSION = 'dev';
const CACHE = `arbiter-${VERSION}`;
const PAGES = ['/', '/index.html', '/board.html'];

const kept = (path) => PAGES.includes(path) || path.startsWith('/dist/');

// Where the browser knows static routes, it answers without waking this
// worker: the API and its streams go to the network, the build's files come
// from this version's cache (the network when the cache lacks one), so a
// warm load's files do not wait for the worker's turn on a busy tablet.
// Elsewhere the fetch handler below does the same.
self.addEventListener('install', (e) => {
  try {
    if (e.addRoutes && self.URLPattern) {
      const path = (pathname) => new self.URLPattern({ pathname });
      e.waitUntil(e.addRoutes([
        { condition: { urlPattern: path('/api/*') }, source: 'network' },
        { condition: { urlPattern: path('/dist/*'), requestMethod: 'GET' }, source: { cacheName: CACHE } },
      ]).catch(() => {}));
    }
  } catch { /* no routes: the fetch handler decides */ }
  self.skipWaiting();
});

self.addEventListener('activate', (e) => e.waitUntil((async () => {
  for (const name of await caches.keys()) if (name !== CACHE) await caches.delete(name);
  await self.clients.claim();
})()));

// A page names the files it loaded ({keep: [path, ...]}), once it is
// loaded (js/sw-register.js): the build's files come from the browser's HTTP
// cache, so keeping them costs no download; the page itself is fetched again
// for the next load (a new build's page), now that the page's own reads are
// done: not on the load, where it would share the venue's Wi-Fi with them.
self.addEventListener('message', (e) => {
  const paths = (e.data && Array.isArray(e.data.keep) ? e.data.keep : []).filter((p) => typeof p === 'string' && kept(p));
  e.waitUntil(caches.open(CACHE).then((cache) => Promise.all(paths.map(async (p) => {
    if (PAGES.includes(p)) await fetchPage(p).catch(() => {});
    else if (!await cache.match(p)) await cache.add(p).catch(() => {});
  }))));
});

// The page at PATH from the network, kept for the next load.
async function fetchPage(path) {
  const res = await fetch(path, { cache: 'no-cache', credentials: 'same-origin' });
  if (res.ok && res.type === 'basic') await (await caches.open(CACHE)).put(path, res.clone());
  return res;
}

// A content-named file: the kept copy, else the network (then kept).
async function file(req) {
  const cache = await caches.open(CACHE);
  const copy = await cache.match(req, { ignoreVary: true });
  if (copy) return copy;
  const res = await fetch(req);
  if (res.ok && res.type === 'basic') await cache.put(req, res.clone());
  return res;
}

self.addEventListener('fetch', (e) => {
  const req = e.request;
  if (req.method !== 'GET') return;
  const url = new URL(req.url);
  if (url.origin !== self.location.origin || !kept(url.pathname)) return;
  if (url.pathname.startsWith('/dist/')) e.respondWith(file(req));
  else if (req.mode === 'navigate') {
    // The kept page at once (the page asks for a fresh copy once loaded),
    // the network's when none is kept yet.
    e.respondWith(caches.open(CACHE).then((c) => c.match(url.pathname, { ignoreVary: true })).then((copy) => copy || fetchPage(url.pathname)));
  }
});
