// Arbiter web: the first script of the public page and of the tablet.  A
// classic script at the top of the page's head: it runs before anything
// else is fetched, and long before the page's module (its largest file)
// has run, and spends that time on what the first render waits for:
//   - it sends the reads the first render needs (js/api.js takes their
//     answers from window.arbiterEarly: one round trip, started early);
//   - on the public page it shows the view this address showed last, kept
//     by js/kept.js, marked as not yet current and inert, as soon as the
//     page is parsed (before its module runs), until the module draws the
//     live one over it.
// The reads named here are a guess made before any module runs: the page
// asks for what it needs either way, so a read that is not here only costs
// its own round trip, and one the page does not take is dropped unread.
// The build (web/bundle.mjs) writes this file into the built pages, where it
// also runs the page's module (named by <link rel="modulepreload" data-main>)
// as soon as the page is parsed: its first step waits for its language file,
// which lets the frame that shows a kept view be drawn (held back until after
// that frame, it drew the tablet's live game later and its kept view no
// sooner).

(function () {
  var sent = {};
  window.arbiterEarly = sent;
  function read(path) {
    var res = fetch('/api/v1/' + path, { headers: { Accept: 'application/json' }, credentials: 'same-origin', cache: 'no-store' });
    res.catch(function () {}); // reported to the read that takes it
    sent[path] = { res: res, at: Date.now() };
  }
  function stored(key) {
    try { return JSON.parse(localStorage.getItem(key) || 'null'); } catch { return null; }
  }

  var view = null; // the kept view of this address (js/kept.js)
  var boards = false; // whether this address of the public page shows boards

  // Parsed, and the module not run yet: the page's elements are there.
  document.addEventListener('readystatechange', function () {
    if (document.readyState !== 'interactive') return;
    var app = document.getElementById('app');
    var shown = Boolean(view && app && !app.firstChild);
    if (shown) {
      // HTML this page drew itself from escaped templates (js/kept.js).
      app.innerHTML = view.html;
      if (view.title) document.title = view.title;
    }
    var main = document.querySelector('link[rel="modulepreload"][data-main]');
    if (main) import(main.href); // else the page's sources: the module runs by itself
    // The public page's boards come in a bundle of their own (js/public.js),
    // fetched with the module where this address shows some.
    var later = document.querySelector('meta[name="arbiter-later"]');
    if (boards && later) {
      var link = document.createElement('link');
      link.rel = 'modulepreload';
      link.href = later.content;
      document.head.appendChild(link);
    }
  });

  // The tablet: who is signed in, and the game and tournament of the last load.
  if (/\/board\.html$/.test(location.pathname)) {
    read('auth/me');
    var last = stored('arbiter.tablet.last');
    if (last && last.game) {
      read('games/' + last.game);
      if (last.tournament) read('tournaments/' + last.tournament);
    }
    return;
  }

  // The public page, by address (js/public.js reads the same).
  var h = location.hash.replace(/^#\/?/, '').split('/');
  if (h[0] === 't' && /^\d+$/.test(h[1])) {
    var t = 'tournaments/' + h[1];
    read(t);
    read(t + '/team-settings');
    if (h[2] === 'pairings') {
      read(t + '/rounds');
      read(t + '/byes');
      read(t + '/crosstable?format=json');
    } else if (h[2] === 'standings') read(t + '/standings');
  } else if (h[0] === 'g' && /^\d+$/.test(h[1])) read('games/' + h[1]);
  else if (!h[0]) read('tournaments');
  boards = (h[0] === 't' && (!h[2] || h[2] === 'live')) || h[0] === 'g';

  view = stored('arbiter.public.kept');
  if (!view || view.at !== location.search + location.hash || typeof view.html !== 'string') view = null;
}());
