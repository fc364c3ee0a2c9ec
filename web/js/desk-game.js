// Arbiter web: one game at the desk (#/g/GID): the board and clocks, the
// scoresheet and the game's event log, and every action the Laws give the
// arbiter, each offered only where it can apply and confirmed first; the
// server writes it to the game's log.

import * as api from './api.js';
import { t, lang } from './i18n.js';
import { formatClock } from './clock.js';
import { GameView } from './game-view.js';
import { html, render, $, $$, ask, toast, errorText } from './ui.js';
import { normalize } from './state.js';
import { scoresheet, eventLog } from './views.js';
import { mountArbiterActions } from './arbiter-actions.js';
import { startAlerts } from './alert-queue.js';
import { app, conn, onLeave, setNav } from './desk-page.js';

// The page of game GID; the tab bar and the alerts are its tournament's.
export async function showGame(gid) {
  const first = normalize(await api.get(`games/${gid}`));
  const tid = first.game.tournament_id;
  setNav(tid, null);
  startAlerts(tid);
  render(app, html`<p class="no-print"><a href="#/t/${tid}/live" data-i18n="desk.back_live"></a></p>
    <div class="game-layout"><div id="g-main"></div>
    <div><h3 data-i18n="desk.laws_actions"></h3><div class="laws-actions no-print">
      ${['pause', 'resume', 'adjust', 'restore', 'illegal', 'penalty', 'result', 'accept', 'decline', 'colours'].map((a) => html`<button type="button" data-law="${a}" data-i18n="law.${a}"></button>`)}
      <a class="button" href="${api.BASE}/games/${gid}/pgn" download="game-${gid}.pgn">PGN</a></div>
      <div id="g-board-actions"></div>
      <h3 data-i18n="view.scoresheet"></h3><div id="g-sheet"></div>
      <h3 data-i18n="desk.event_log"></h3><div id="g-log"></div></div></div>`);
  let view = null;
  const boardActions = mountArbiterActions($('#g-board-actions'), gid, () => view.state, (s) => view.show(s));
  view = new GameView($('#g-main'), gid, {
    needEvents: true,
    onStatus: (s) => conn.set(s),
    onState: (s) => { render($('#g-sheet'), scoresheet(s)); render($('#g-log'), eventLog(s)); lawButtons(s); boardActions(s); },
  });
  view.show(first);
  onLeave(() => view.close());
  $$('[data-law]').forEach((b) => b.addEventListener('click', () => lawAction(b.dataset.law, gid, view.state, (s) => view.show(s))));
}

// Each arbiter action only where the Laws let it apply, so the desk offers
// no button that can only be refused (accepting with no offer waiting ...).
function lawApplies(law, s) {
  const live = s.status === 'running' || s.status === 'paused';
  switch (law) {
    case 'pause': return s.status === 'running';
    case 'resume': return s.status === 'paused';
    case 'accept': case 'decline': return !s.over && (s.offer_awaits_arbiter || s.claim_awaits_arbiter);
    case 'restore': case 'illegal': return s.moves.length > 0;
    case 'colours': return live;
    case 'adjust': return !s.over;
    default: return true;
  }
}
function lawButtons(s) {
  for (const b of $$('[data-law]')) b.disabled = !lawApplies(b.dataset.law, s);
}

const msField = (name, label, ms) => ({ name, label, value: ms === undefined || ms === null ? '' : formatClock(Math.max(0, ms)).replace(/\.\d$/, '') });
// "1:30:00", "90:00" or "45" (seconds) -> milliseconds; empty -> undefined.
function parseClock(text) {
  if (text === undefined || String(text).trim() === '') return undefined;
  const parts = String(text).trim().split(':').map(Number);
  if (parts.some((x) => Number.isNaN(x) || x < 0)) throw new Error(t('desk.bad_clock', { text }));
  return Math.round(parts.reduce((acc, x) => acc * 60 + x, 0) * 1000);
}

// Every arbiter action asks first, shows what it will send, and gives a note for the log.
async function lawAction(law, gid, s, show) {
  const sideOpts = [['white', t('colour.white')], ['black', t('colour.black')]];
  const scoreOpts = [['1', '1'], ['0.5', '½'], ['0', '0']];
  const note = { name: 'note', label: t('desk.note'), value: '' };
  const forms = {
    pause: [note], resume: [note], accept: [note], decline: [note], colours: [note],
    adjust: [{ name: 'side', label: t('desk.side'), type: 'select', options: sideOpts },
      { name: 'set', label: t('desk.set_clock'), value: '' }, { name: 'add', label: t('desk.add_seconds'), type: 'number', value: '' },
      { name: 'moves', label: t('desk.moves_done'), type: 'number', value: '' }, note],
    restore: [{ name: 'ply', label: t('desk.ply'), type: 'number', value: s.ply }, msField('white', t('desk.white_clock'), s.clocks.white_ms),
      msField('black', t('desk.black_clock'), s.clocks.black_ms), note],
    illegal: [{ name: 'side', label: t('desk.offender'), type: 'select', options: sideOpts }, { name: 'ply', label: t('desk.ply_illegal'), type: 'number', value: '' },
      msField('white', t('desk.white_clock'), undefined), msField('black', t('desk.black_clock'), undefined), note],
    penalty: [{ name: 'side', label: t('desk.offender'), type: 'select', options: sideOpts },
      { name: 'penalty', label: t('desk.penalty_kind'), type: 'select', options: ['warning', 'time_add', 'time_sub', 'score_up', 'score_down', 'loss', 'exclusion'].map((k) => [k, t(`penalty.${k}`)]) },
      { name: 'minutes', label: t('desk.minutes'), type: 'number', value: '', step: 'any' },
      { name: 'score', label: t('desk.score'), type: 'select', options: [['', '—'], ...scoreOpts] }, note],
    result: [{ name: 'white', label: t('colour.white'), type: 'select', options: scoreOpts, value: '1' },
      { name: 'black', label: t('colour.black'), type: 'select', options: scoreOpts, value: '0' },
      { name: 'forfeit', label: t('desk.forfeit'), type: 'select', options: [['no', t('desk.no')], ['yes', t('desk.yes')]] }, note],
  };
  const r = await ask({ title: t(`law.${law}`), message: t(`law.${law}.help`), fields: forms[law], ok: t('desk.confirm_action'),
    danger: ['illegal', 'penalty', 'result', 'restore', 'colours'].includes(law) });
  if (!r) return;
  try {
    const body = {};
    if (r.note) body.note = r.note.slice(0, 190);
    const num = (x) => (x === undefined || x === '' ? undefined : Number(x));
    const put = (k, v) => { if (v !== undefined && !Number.isNaN(v)) body[k] = v; };
    if (law === 'adjust') {
      body.side = r.side;
      put('set_ms', parseClock(r.set));
      put('add_ms', num(r.add) === undefined ? undefined : Math.round(num(r.add) * 1000));
      put('moves', num(r.moves));
    }
    if (law === 'restore' || law === 'illegal') {
      put('ply', num(r.ply));
      put('white_ms', parseClock(r.white));
      put('black_ms', parseClock(r.black));
    }
    if (law === 'illegal') body.side = r.side;
    if (law === 'penalty') {
      body.side = r.side; body.penalty = r.penalty;
      put('ms', num(r.minutes) === undefined ? undefined : Math.round(num(r.minutes) * 60000));
      put('score', num(r.score));
    }
    if (law === 'result') { body.white = Number(r.white); body.black = Number(r.black); if (r.forfeit === 'yes') body.forfeit = true; }
    const res = await api.post(`games/${gid}/arbiter/${law}`, body);
    // 7.3 may swap the players' colours: the names come with the whole game.
    show(law === 'colours' ? normalize(await api.get(`games/${gid}`)) : normalize(res.game, s));
    // The verdict's reason is the server's English sentence: for English readers only.
    const said = lang === 'en' && res.verdict && res.verdict.reason;
    toast(said || t('desk.done', { what: t(`law.${law}`) }), res.verdict && res.verdict.ok === false ? 'error' : 'info');
  } catch (err) { toast(errorText(err), 'error'); }
}
