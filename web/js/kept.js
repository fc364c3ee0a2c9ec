// Arbiter web: the last known state a page shows on its next load while
// its live reads are on their way: on venue Wi-Fi one round trip takes
// longer than a reader waits for a first picture.  The public page keeps the
// last view it drew (its HTML, with the address it was drawn for), and the
// tablet the last live view of its game, which js/early.js shows at once,
// before the page's module has run; the tablet also keeps its game, which
// its module draws (js/tablet.js) until the live one is in.
// A kept view is marked as not current (the "updating" banner, read out by
// screen readers) and nothing in it can be acted on (inert, no moves, no
// running clock) until the live state replaces it.  Storage may be full or
// off: then nothing is kept, and the page waits for the network as before.

import { html, render } from './ui.js';

const VIEW_KEY = 'arbiter.public.kept';
/* The tablet's view of its game, drawn last while live (js/tablet.js). */
export const TABLET_VIEW_KEY = 'arbiter.tablet.kept';
// A larger view is not kept: writing it after every redraw would cost more
// than it saves.
const VIEW_MAX = 400000;

/* The stored value of KEY (parsed JSON), or null. */
export function keptRead(key) {
  try { return JSON.parse(localStorage.getItem(key) || 'null'); } catch { return null; }
}

/* Stores VALUE (JSON) under KEY; false when storage refused it. */
export function keptWrite(key, value) {
  try { localStorage.setItem(key, JSON.stringify(value)); return true; } catch { return false; }
}

export function keptForget(key) {
  try { localStorage.removeItem(key); } catch { /* nothing kept */ }
}

/* The banner over a kept view: muted, and announced politely. */
export function keptBanner() {
  return html`<p class="banner kept" role="status" aria-live="polite" data-i18n="common.updating"></p>`;
}

/* Marks inert every element of ROOT beside the path from ROOT down to SPOT:
 * all of ROOT's view is inert but SPOT and the elements that hold it. */
function inertBeside(root, spot) {
  for (let el = spot; el !== root; el = el.parentElement) {
    for (const other of el.parentElement.children) if (other !== el) other.setAttribute('inert', '');
  }
}

/* Keeps what EL (a page's #app) shows now as the view of AT for the next
 * load, under KEY (js/early.js shows it, and the page's module draws over
 * it): a copy marked as not current (the banner, in SPOT's place, a
 * selector in EL, or above the copy without one), grey, inert and with every
 * control off.  The style attributes (the board's piece positions) are kept
 * as data-kept-style, which js/early.js sets through the CSSOM: the page's
 * policy refuses them in markup.  EXTRA: more fields of the record. */
export function keptViewSave(el, { key = VIEW_KEY, at = location.search + location.hash, spot = null, extra = {} } = {}) {
  const copy = el.cloneNode(true);
  for (const x of copy.querySelectorAll('[style]')) {
    x.dataset.keptStyle = x.getAttribute('style');
    x.removeAttribute('style');
  }
  for (const x of copy.querySelectorAll('button, input, select, textarea')) x.disabled = true;
  const banner = render(document.createElement('div'), keptBanner()).innerHTML;
  const place = spot && copy.querySelector(spot);
  let body;
  if (place) {
    place.innerHTML = banner;
    inertBeside(copy, place);
    for (const x of copy.children) x.classList.add('kept-view');
    body = copy.innerHTML;
  } else body = `${banner}<div class="kept-view" inert>${copy.innerHTML}</div>`;
  if (body.length > VIEW_MAX) { keptForget(key); return; }
  keptWrite(key, { ...extra, at, title: document.title, html: body });
}
