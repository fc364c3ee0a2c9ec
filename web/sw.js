// Arbiter web: the service worker of the built pages.  The build
// (web/bundle.mjs) writes its version into it and the daemon serves it as
// /sw.js; pages served from their sources do not register it.
//
// It keeps the pages' own files so that the next load does not wait for the
// network: a page (the HTML) is answered from the cache at once and fetched
// again in the background, so the load after a new build shows that build;
// the build's content-named files (/dist/) are answered from the cache, since
// they never change.  Everything else (the API, its live streams, exports,
// PGN) goes to the network untouched: live data is never served from here.
// A new build is a new version: its worker takes over at once and drops the
// old cache.

const VERSION = 'dev';
const CACHE = `arbiter-${VERSION}`;
const PAGES = ['/', '/index.html', '/board.html'];

const kept = (path) => PAGES.includes(path) || path.startsWith('/dist/');

// The API and its streams go past this worker altogether where the browser
// knows static routes: a read never waits for the worker to wake up and
// look at it (elsewhere the fetch handler below lets it through).
self.addEventListener('install', (e) => {
  try {
    if (e.addRoutes && self.URLPattern) {
      e.waitUntil(e.addRoutes([{ condition: { urlPattern: new self.URLPattern({ pathname: '/api/*' }) }, source: 'network' }]).catch(() => {}));
    }
  } catch { /* no routes: the fetch handler decides */ }
  self.skipWaiting();
});

self.addEventListener('activate', (e) => e.waitUntil((async () => {
  for (const name of await caches.keys()) if (name !== CACHE) await caches.delete(name);
  await self.clients.claim();
})()));

// A page names the files it loaded ({keep: [path, ...]}): they come from the
// browser's HTTP cache, so keeping them costs no download.
self.addEventListener('message', (e) => {
  const paths = (e.data && Array.isArray(e.data.keep) ? e.data.keep : []).filter((p) => typeof p === 'string' && kept(p));
  e.waitUntil(caches.open(CACHE).then((cache) => Promise.all(paths.map(async (p) => {
    if (!await cache.match(p)) await cache.add(p).catch(() => {});
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
    // The kept page at once, the network's for the next load (or now, when
    // none is kept yet).
    const fresh = fetchPage(url.pathname);
    e.waitUntil(fresh.catch(() => {}));
    e.respondWith(caches.open(CACHE).then((c) => c.match(url.pathname, { ignoreVary: true })).then((copy) => copy || fresh));
  }
});
