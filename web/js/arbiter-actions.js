// Arbiter web: the arbiter's actions for what happens on the board rather than
// on the tablet: a touched piece on a claim (4.3, 4.8), a forgotten clock press
// (6.2.2), a press without a move or a move with two hands (7.5.3, 7.5.4),
// displaced pieces (7.4), a wrong initial position or board (7.2); and the
// "dead position? decide" alert of a game that waits for the arbiter, with the
// two rulings.  Each action asks first, with a note for the log, and is sent
// to POST games/{gid}/arbiter/<action>; the server's Laws engine decides.

import * as api from './api.js';
import { t, lang } from './i18n.js';
import { html, render, $, $$, ask, toast, errorText } from './ui.js';
import { normalize } from './state.js';

const ACTIONS = ['touch', 'press', 'illegal_act', 'displaced', 'setup', 'dead_position'];

// Only where the Laws let the action apply: all of them need a game in play,
// and the dead-position ruling during play is the one the alert does not offer.
function applies(action, s) {
  const live = !s.over && (s.status === 'running' || s.status === 'paused');
  if (action === 'dead_position') return live && !s.dead_position;
  if (action === 'press') return live && !s.dead_position;
  return live;
}

function forms(s) {
  const sideOpts = [['white', t('colour.white')], ['black', t('colour.black')]];
  const onMove = { name: 'side', label: t('desk.side'), type: 'select', options: sideOpts, value: s.to_move };
  const note = { name: 'note', label: t('desk.note'), value: '' };
  return {
    touch: [onMove, { name: 'square', label: t('arb.square'), value: '' },
      { name: 'ply', label: t('arb.touch_ply'), type: 'number', value: '' }, note],
    press: [onMove, { name: 'move', label: t('arb.move'), value: '' }, note],
    illegal_act: [onMove, { name: 'kind', label: t('arb.what'), type: 'select',
      options: ['no_move', 'two_hands'].map((k) => [k, t(`arb.act.${k}`)]) }, note],
    displaced: [onMove, { name: 'kind', label: t('desk.penalty_kind'), type: 'select',
      options: ['none', 'warning', 'time_add', 'time_sub'].map((k) => [k, k === 'none' ? t('arb.no_penalty') : t(`penalty.${k}`)]) },
    { name: 'minutes', label: t('desk.minutes'), type: 'number', value: '', step: 'any' },
    { name: 'ply', label: t('desk.ply'), type: 'number', value: '' }, note],
    setup: [{ name: 'kind', label: t('arb.what'), type: 'select',
      options: ['position', 'orientation'].map((k) => [k, t(`arb.setup.${k}`)]) }, note],
    dead_position: [note],
  };
}

// The request body of an action from the dialog's answers.
function body(action, r, kind) {
  const b = {};
  if (r.note) b.note = r.note.slice(0, 190);
  const num = (x) => (x === undefined || String(x).trim() === '' ? undefined : Number(x));
  if (r.side) b.side = r.side;
  if (kind) b.kind = kind;
  else if (r.kind) b.kind = r.kind;
  if (action === 'touch') b.square = String(r.square || '').trim().toLowerCase();
  if (action === 'press') b.move = String(r.move || '').trim();
  if ((action === 'touch' || action === 'displaced') && num(r.ply) !== undefined) b.ply = num(r.ply);
  if (action === 'displaced' && num(r.minutes) !== undefined) b.ms = Math.round(num(r.minutes) * 60000);
  return b;
}

async function send(gid, action, b, s, show) {
  try {
    const res = await api.post(`games/${gid}/arbiter/${action}`, b);
    show(normalize(res.game, s));
    // The verdict's reason is the server's English sentence: for English readers only.
    const said = lang === 'en' && res.verdict && res.verdict.reason;
    toast(said || t('desk.done', { what: t(`arb.${action}`) }), res.verdict && res.verdict.ok === false ? 'error' : 'info');
  } catch (err) { toast(errorText(err), 'error'); }
}

// kind: the alert's ruling (dead / alive); the dead-position button of a game
// in play declares the position dead.
async function act(action, gid, s, show, kind) {
  const key = kind ? `arb.dead.${kind}` : `arb.${action}`;
  const r = await ask({ title: t(key), message: t(`${key}.help`), fields: forms(s)[action], ok: t('desk.confirm_action'),
    danger: action !== 'touch' });
  if (!r) return;
  const ruling = kind || (action === 'dead_position' ? 'dead' : undefined);
  await send(gid, action, body(action, r === true ? {} : r, ruling), s, show);
}

// Draws the buttons and the dead-position alert into el.  getState gives the
// game's normalised state, show draws a new one.  Returns update(state), to
// call with every new state.
export function mountArbiterActions(el, gid, getState, show) {
  render(el, html`<div class="banner alert hidden" role="alert" id="arb-dead">
      <span id="arb-dead-text"></span>
      <span class="actions no-print"><button type="button" data-ruling="dead" data-i18n="arb.dead.dead"></button>
      <button type="button" data-ruling="alive" data-i18n="arb.dead.alive"></button></span></div>
    <h3 data-i18n="arb.title"></h3><div class="laws-actions no-print">
      ${ACTIONS.map((a) => html`<button type="button" data-arb="${a}" data-i18n="arb.${a}"></button>`)}</div>`);
  $$('[data-arb]', el).forEach((b) => b.addEventListener('click', () => act(b.dataset.arb, gid, getState(), show)));
  $$('[data-ruling]', el).forEach((b) => b.addEventListener('click', () => act('dead_position', gid, getState(), show, b.dataset.ruling)));
  return (s) => {
    for (const b of $$('[data-arb]', el)) b.disabled = !applies(b.dataset.arb, s);
    const q = s.dead_position;
    $('#arb-dead', el).classList.toggle('hidden', !q);
    if (q) {
      $('#arb-dead-text', el).textContent = t('arb.dead.waiting', {
        side: t(`colour.${q.side}`), other: t(`colour.${q.side === 'white' ? 'black' : 'white'}`), end: t(`reason.${q.end}`) });
    }
  };
}
