// Arbiter web: registers the pages' service worker (web/sw.js) and hands it
// the files this page loaded, to keep for the next load.  The build
// (web/bundle.mjs) adds this module to every page's bundle; the pages served
// from their sources do not load it.  Service workers need a secure context
// (HTTPS, or the server on this machine): elsewhere the browser's HTTP cache
// does the work alone.

function keepShell(reg) {
  const files = performance.getEntriesByType('resource').map((r) => new URL(r.name))
    .filter((u) => u.origin === location.origin && u.pathname.startsWith('/dist/')).map((u) => u.pathname);
  reg.active?.postMessage({ keep: [location.pathname, ...files] });
}

function register() {
  navigator.serviceWorker.register('/sw.js').then(() => navigator.serviceWorker.ready).then(keepShell).catch(() => {});
}

if ('serviceWorker' in navigator && window.isSecureContext) {
  // After the page's own files: the worker's download never competes with
  // them.  A built page's module may run after the load (js/early.js).
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register);
}
