// Arbiter web: the last known state a page shows on its next load while
// its live reads are on their way: on venue Wi-Fi one round trip takes
// longer than a reader waits for a first picture.  The public page keeps the
// last view it drew (its HTML, with the address it was drawn for), which
// js/early.js shows at once; the tablet keeps its game (js/tablet.js).
// A kept view is marked as not current (the "updating" banner, read out by
// screen readers) and nothing in it can be acted on (inert, no moves, no
// running clock) until the live state replaces it.  Storage may be full or
// off: then nothing is kept, and the page waits for the network as before.

import { t } from './i18n.js';
import { html, esc } from './ui.js';

const VIEW_KEY = 'arbiter.public.kept';
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

/* Keeps what EL (the public page's #app) shows now as this address's view
 * for the next load: the banner and an inert copy, without style
 * attributes (the page's policy refuses them in markup). */
export function keptViewSave(el) {
  const copy = el.cloneNode(true);
  for (const x of copy.querySelectorAll('[style]')) x.removeAttribute('style');
  const body = copy.innerHTML;
  if (body.length > VIEW_MAX) { keptForget(VIEW_KEY); return; }
  keptWrite(VIEW_KEY, {
    at: location.search + location.hash,
    title: document.title,
    html: `<p class="banner kept" role="status" aria-live="polite">${esc(t('common.updating'))}</p><div class="kept-view" inert>${body}</div>`,
  });
}
