// Arbiter web: what the player's tablet shows around the board: a header
// naming the tournament, round and board; the players with title and rating;
// a full-screen button; and the optional "confirm move" step, where a move
// made on the board waits for the player's Confirm (or Take back) before it
// is sent.  The step is on when the tournament's settings ask for it
// (settings.confirm_moves) or when the player turns it on for this tablet.

import * as api from './api.js';
import { t } from './i18n.js';
import { html, render, $ } from './ui.js';

const tours = new Map();
/* The tournament of TID (fetched once per page), or null. */
export async function tournamentOf(tid) {
  if (!tours.has(tid)) tours.set(tid, await api.get(`tournaments/${tid}`).catch(() => null));
  return tours.get(tid);
}

/* Remembers TOUR as its tournament's latest (a change the stream brought). */
export function tournamentSeen(tour) { tours.set(tour.id, tour); }

/* "GM Name · 2600" for a player object of the game state. */
export function playerLabel(p) {
  if (!p) return '';
  return `${p.title ? `${p.title} ` : ''}${p.name || ''}${p.rating ? ` · ${p.rating}` : ''}`;
}

/* The header's text: "Tournament · Round 2 · Board 3". */
export function headText(tour, game) {
  return [tour && tour.name, game && game.round ? t('view.round_n', { n: game.round }) : '',
    game && game.board ? t('view.board_n', { n: game.board }) : ''].filter(Boolean).join(' · ');
}

const LOCAL_KEY = 'arbiter.confirmMoves';
/* True when a move must be confirmed before it is sent. */
export function confirmMoves(tour) {
  return Boolean(tour && tour.settings && tour.settings.confirm_moves) || localStorage.getItem(LOCAL_KEY) === '1';
}

/* The full-screen button and the tablet's own confirm-move switch, into BOX. */
export function tabletTools(box, tour) {
  const forced = Boolean(tour && tour.settings && tour.settings.confirm_moves);
  render(box, html`${document.fullscreenEnabled ? html`<button type="button" id="b-full" data-i18n="tablet.fullscreen"></button>` : ''}
    <label class="confirm-switch"><input type="checkbox" id="confirm-moves" ${confirmMoves(tour) ? html`checked` : ''} ${forced ? html`disabled` : ''}>
    <span data-i18n="tablet.confirm_moves"></span></label>`);
  $('#b-full', box)?.addEventListener('click', () => {
    if (document.fullscreenElement) document.exitFullscreen().catch(() => {});
    else document.documentElement.requestFullscreen({ navigationUI: 'hide' }).catch(() => {});
  });
  $('#confirm-moves', box).addEventListener('change', (e) => localStorage.setItem(LOCAL_KEY, e.target.checked ? '1' : '0'));
}

/* Shows "Play MOVE?" with Confirm and Take back in BOX; resolves true or false. */
export function askMove(box, text) {
  return new Promise((resolve) => {
    render(box, html`<div class="banner info confirm-move" role="alertdialog" aria-labelledby="cm-text">
      <span id="cm-text">${t('tablet.confirm_q', { move: text })}</span>
      <span class="actions"><button type="button" class="primary" id="b-move-ok" data-i18n="tablet.confirm_ok"></button>
      <button type="button" id="b-move-back" data-i18n="tablet.confirm_back"></button></span></div>`);
    const done = (ok) => { box.innerHTML = ''; resolve(ok); };
    $('#b-move-ok', box).addEventListener('click', () => done(true));
    $('#b-move-back', box).addEventListener('click', () => done(false));
    $('#b-move-ok', box).focus();
  });
}
