// Arbiter web: the first script of the public page and of the tablet.  A
// classic script at the end of the page's body: it runs as soon as the body
// is parsed, before the page's module (its largest file) is even compiled,
// and spends that time on what the first render waits for:
//   - it sends the reads the first render needs (js/api.js takes their
//     answers from window.arbiterEarly: one round trip, started early);
//   - on the public page it shows the view this address showed last, kept
//     by js/kept.js, marked as not yet current and inert, until the page's
//     module draws the live one over it.
// The reads named here are a guess made before any module runs: the page
// asks for what it needs either way, so a read that is not here only costs
// its own round trip, and one the page does not take is dropped unread.
// The build (web/bundle.mjs) writes this file into the built pages.

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

  // The tablet: who is signed in, and the game and tournament of the last load.
  if (document.body.classList.contains('tablet')) {
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

  var view = stored('arbiter.public.kept');
  var app = document.getElementById('app');
  if (view && app && !app.firstChild && view.at === location.search + location.hash && typeof view.html === 'string') {
    // HTML this page drew itself from escaped templates (js/kept.js).
    app.innerHTML = view.html;
    if (view.title) document.title = view.title;
  }
}());
