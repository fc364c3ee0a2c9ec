// Arbiter web: what the desk's pages share: the main element they draw in,
// the connection badge, the tournament's tab bar, what the current page must
// close when the reader leaves it, and the queue of routes that draws the page
// the address names.  desk.js names the function that draws it (setRouter); a
// view that has changed something calls route() to draw its page again.

import { html, render, $, connectionBadge } from './ui.js';

export const app = $('#app');
export const conn = connectionBadge();
let cleanup = [];         // what the current view must close when we leave it
const TABS = ['players', 'rounds', 'results', 'live', 'standings', 'crosstable', 'ratings', 'exports', 'settings', 'office', 'teams'];

// Has FN run when the reader leaves the page being drawn.
export function onLeave(fn) {
  cleanup.push(fn);
}

// Closes what the page being left opened (its streams, its listeners).
export function leave() {
  for (const fn of cleanup) { try { fn(); } catch { /* already gone */ } }
  cleanup = [];
}

// The tab bar of tournament TID with TAB current; none without TID.
export function setNav(tid, tab) {
  const nav = $('#nav');
  if (!tid) { nav.innerHTML = ''; return; }
  render(nav, html`${TABS.map((x) => html`<a href="#/t/${tid}/${x}" ${x === tab ? html`aria-current="page"` : ''} data-i18n="desk.tab.${x}"></a>`)}`);
}

// Routes run one after the other: a slow view finishing late must not draw
// over the page the reader has moved on to.  A route reads the address when
// it starts, so one waiting route serves every change made meanwhile: a
// second one would draw the same page again over what the reader has begun
// to type in it.
let showRoute = async () => {};
let routing = Promise.resolve();
let waiting = null;

// SHOW draws the page of the address (desk.js); route() runs it.
export function setRouter(show) {
  showRoute = show;
}

// Draws the page of the address once the routes before it are done; the
// promise settles when it is drawn.
export function route() {
  if (waiting) return waiting;
  const run = () => { waiting = null; return showRoute(); };
  waiting = routing = routing.then(run, run);
  return routing;
}
