// Arbiter web: stepping through a watched game's moves (buttons and the
// arrow keys: ← → one move, Home/End the start and the live position) and
// turning the board ("f").  The positions are replayed from the game's
// start and its moves in UCI, moving pieces only: the server has judged
// every move already, so castling, en passant and promotion are all the
// replay needs to know.  At the last move the board follows the game live.

import { t } from './i18n.js';
import { html, render, $ } from './ui.js';

const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR';

function readBoard(fen) {
  const sq = new Map();
  (fen || START).split(' ')[0].split('/').forEach((row, r) => {
    let f = 0;
    for (const ch of row) {
      if (/\d/.test(ch)) f += Number(ch);
      else { sq.set(`${'abcdefgh'[f]}${8 - r}`, ch); f++; }
    }
  });
  return sq;
}

function writeBoard(sq) {
  const rows = [];
  for (let r = 8; r >= 1; r--) {
    let row = ''; let empty = 0;
    for (const f of 'abcdefgh') {
      const p = sq.get(`${f}${r}`);
      if (!p) { empty++; continue; }
      if (empty) { row += empty; empty = 0; }
      row += p;
    }
    rows.push(row + (empty || ''));
  }
  return rows.join('/');
}

/* The board part of the FEN after each ply: [start, after move 1, ...]. */
export function replay(startFen, ucis) {
  const sq = readBoard(startFen);
  const out = [writeBoard(sq)];
  for (const u of ucis) {
    if (!u) break;
    const from = u.slice(0, 2); const to = u.slice(2, 4); const promo = u[4];
    const p = sq.get(from);
    if (!p) break;
    const pawn = p.toLowerCase() === 'p'; const king = p.toLowerCase() === 'k';
    if (pawn && from[0] !== to[0] && !sq.get(to)) sq.delete(`${to[0]}${from[1]}`);
    if (king && Math.abs(from.charCodeAt(0) - to.charCodeAt(0)) === 2) {
      const rank = from[1]; const short = to[0] === 'g';
      const rf = `${short ? 'h' : 'a'}${rank}`; const rt = `${short ? 'f' : 'd'}${rank}`;
      sq.set(rt, sq.get(rf)); sq.delete(rf);
    }
    sq.delete(from);
    sq.set(to, promo ? (p === 'P' ? promo.toUpperCase() : promo.toLowerCase()) : p);
    out.push(writeBoard(sq));
  }
  return out;
}

/* Adds the stepping buttons to BOX for the GameView VIEW; returns a function
 * that undoes the key binding. */
export function bindStepper(box, view) {
  let at = null; // the ply shown, or null: live
  render(box, html`<div class="stepper toolbar" role="group" data-i18n-attr="aria-label:step.moves">
    <button type="button" data-step="start" data-i18n-attr="aria-label:step.start">⏮</button>
    <button type="button" data-step="back" data-i18n-attr="aria-label:step.back">◀</button>
    <button type="button" data-step="next" data-i18n-attr="aria-label:step.next">▶</button>
    <button type="button" data-step="end" data-i18n-attr="aria-label:step.end">⏭</button>
    <button type="button" data-step="flip" data-i18n="step.flip"></button>
    <span class="step-at muted" aria-live="polite"></span></div>`);
  const draw = () => {
    const s = view.state;
    if (!s) return;
    const n = s.moves.length;
    if (at !== null && at >= n) at = null;
    view.stepping = at !== null;
    $('.step-at', box).textContent = at === null ? '' : t('step.at', { ply: at, n });
    if (at === null) { view.board.show(s, null); return; }
    const fens = replay(s.start_fen, s.moves.map((m) => m.uci));
    const m = s.moves[at - 1];
    view.board.cg.set({ fen: fens[Math.min(at, fens.length - 1)], lastMove: m && m.uci ? [m.uci.slice(0, 2), m.uci.slice(2, 4)] : undefined, check: false });
  };
  const go = (what) => {
    const n = view.state ? view.state.moves.length : 0;
    const cur = at === null ? n : at;
    if (what === 'flip') { view.flipped = !view.flipped; view.board.orient(view.flipped ? 'black' : 'white'); return; }
    const next = { start: 0, back: Math.max(0, cur - 1), next: cur + 1, end: n }[what];
    at = next >= n ? null : next;
    draw();
  };
  box.addEventListener('click', (e) => { const b = e.target.closest('[data-step]'); if (b) go(b.dataset.step); });
  const keys = { ArrowLeft: 'back', ArrowRight: 'next', Home: 'start', End: 'end', f: 'flip' };
  const onKey = (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey || /^(INPUT|SELECT|TEXTAREA)$/.test(e.target.tagName)) return;
    if (keys[e.key]) { e.preventDefault(); go(keys[e.key]); }
  };
  document.addEventListener('keydown', onKey);
  view.onStep = draw;
  return () => document.removeEventListener('keydown', onKey);
}
