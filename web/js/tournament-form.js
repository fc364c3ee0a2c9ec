// Arbiter web: the desk's form of a tournament (new or settings): name,
// system, rounds, the time control as arbiters write it (minutes, with
// presets; see time-control.js), points, tie-breaks, the Laws' settings and
// whether every tablet asks the player to confirm each move; a Swiss's
// pairing system and acceleration.

import * as api from './api.js';
import { t } from './i18n.js';
import { html, $, $$, toast, errorText } from './ui.js';
import { TC_PRESETS, parseTimeControl, formatTimeControl, timeControlCategory } from './time-control.js';

// What the typed control means: "= 5400+30 s · standard", or why it cannot be read.
function timeControlReading(text) {
  const tc = parseTimeControl(text);
  if (tc.error) return tc.error === 'empty' ? '' : t('tc.bad', { text });
  const cat = timeControlCategory(tc);
  return `= ${tc.pgn}${cat ? ` · ${t(`tc.${cat}`)}` : ''}`;
}

export function tournamentForm(tour) {
  const s = (tour && tour.settings) || {};
  const v = (x, d) => (x === undefined || x === null ? d : x);
  const opt = (val, cur, label) => html`<option value="${val}" ${String(val) === String(cur) ? html`selected` : ''}>${label}</option>`;
  return html`<form id="tform" class="form-grid">
    <label for="t-name" data-i18n="desk.name"></label><input id="t-name" name="name" required value="${tour ? tour.name : ''}">
    <label for="t-place" data-i18n="desk.place"></label><input id="t-place" name="place" value="${tour ? tour.place || '' : ''}">
    <label for="t-date" data-i18n="desk.start_date"></label><input id="t-date" name="start_date" type="date" value="${tour ? tour.start_date || '' : ''}">
    <label for="t-system" data-i18n="desk.system"></label><select id="t-system" name="system">
      ${['swiss', 'roundrobin', 'manual'].map((x) => opt(x, tour ? tour.system : 'swiss', t(`system.${x}`)))}</select>
    <label for="t-rounds" data-i18n="desk.rounds"></label><input id="t-rounds" name="rounds" type="number" min="1" max="99" value="${tour ? tour.rounds ?? '' : 9}">
    <label for="t-tc" data-i18n="desk.time_control"></label><div class="tc-field">
      <input id="t-tc" name="time_control" required aria-describedby="t-tc-read" value="${tour ? formatTimeControl(tour.time_control) : '90+30'}">
      ${TC_PRESETS.map((p) => html`<button type="button" class="tc-preset" data-tc="${p.text}">${t(`tc.${p.kind}`)} ${p.text}</button>`)}</div>
    <span class="hint"><span data-i18n="desk.time_control_hint"></span> <output id="t-tc-read" for="t-tc"></output></span>
    <label for="t-points" data-i18n="desk.points"></label>
    <input id="t-points" name="points" value="${tour && tour.points ? [tour.points.win, tour.points.draw, tour.points.loss, tour.points.bye].join(' ') : '1 0.5 0 1'}">
    <span class="hint" data-i18n="desk.points_hint"></span>
    <label for="t-tb" data-i18n="desk.tiebreaks"></label>
    <input id="t-tb" name="tiebreaks" value="${tour && tour.tiebreaks ? tour.tiebreaks.join(', ') : 'BH/C1, BH, SB, DE'}">
    <span class="hint" data-i18n="desk.tiebreaks_hint"></span>
    <fieldset class="span-all"><legend data-i18n="desk.laws"></legend><div class="form-grid">
      <label for="s-illegal" data-i18n="desk.illegal_moves_to_lose"></label>
      <input id="s-illegal" name="illegal_moves_to_lose" type="number" min="0" max="10" value="${v(s.illegal_moves_to_lose, 3)}">
      <span class="hint" data-i18n="desk.illegal_moves_hint"></span>
      <label for="s-entry" data-i18n="desk.illegal_entry"></label><select id="s-entry" name="illegal_entry">
        ${opt('penalize', v(s.illegal_entry, 'penalize'), t('desk.illegal_entry.penalize'))}${opt('reject', v(s.illegal_entry, 'penalize'), t('desk.illegal_entry.reject'))}</select>
      <label for="s-offers" data-i18n="desk.draw_offers"></label><select id="s-offers" name="draw_offers">
        ${['free', 'sofia', 'arbiter'].map((x) => opt(x, v(s.draw_offers, 'free'), t(`desk.draw_offers.${x}`)))}</select>
      <label for="s-sofia" data-i18n="desk.sofia"></label><input id="s-sofia" name="sofia_moves" type="number" min="0" max="200" value="${v(s.sofia_moves, 0)}">
      <span class="hint" data-i18n="desk.sofia_hint"></span>
      <label for="s-default" data-i18n="desk.default_time"></label><input id="s-default" name="default_time_min" type="number" min="0" step="1" value="${Math.round(v(s.default_time_ms, 0) / 60000)}">
      <span class="hint" data-i18n="desk.default_time_hint"></span>
      <label for="s-flags" data-i18n="desk.flags"></label><select id="s-flags" name="flags">
        ${opt('server', v(s.flags, 'server'), t('desk.flags.server'))}${opt('claimed', v(s.flags, 'server'), t('desk.flags.claimed'))}</select>
      <label for="s-pen" data-i18n="desk.penalty_minutes"></label><input id="s-pen" name="penalty_min" type="number" min="0" step="any" value="${v(s.penalty_ms, 0) / 60000}">
      <span class="hint" data-i18n="desk.penalty_minutes_hint"></span>
      <label for="s-sup" data-i18n="desk.supervised"></label><input id="s-sup" name="supervised" type="checkbox" ${v(s.supervised, true) ? html`checked` : ''}>
      <label for="s-confirm" data-i18n="desk.confirm_moves"></label><input id="s-confirm" name="confirm_moves" type="checkbox" aria-describedby="s-confirm-hint" ${s.confirm_moves ? html`checked` : ''}>
      <span class="hint" id="s-confirm-hint" data-i18n="desk.confirm_moves_hint"></span>
    </div></fieldset>
    ${swissFields(tour)}
    <span></span><button class="primary" data-i18n="${tour ? 'desk.save' : 'desk.create'}"></button></form>`;
}

// ---------- a Swiss's pairing system and acceleration ----------
// The Dutch (C.04.3) or Burstein (C.04.4.2) system and Baku acceleration
// (C.04.7); shown for a Swiss only.  The server pairs every later round by
// what is set when it is paired.

function swissFields(tour) {
  const choice = (name, values, cur) => values.map((x) => html`<option value="${x}" ${x === cur ? html`selected` : ''} data-i18n="desk.${name}.${x}"></option>`);
  return html`<fieldset class="span-all" id="t-swiss" ${tour && tour.system !== 'swiss' ? html`hidden` : ''}><legend data-i18n="desk.swiss_pairing"></legend><div class="form-grid">
      <label for="t-psys" data-i18n="desk.pairing_system"></label><select id="t-psys" name="pairing_system">
        ${choice('pairing_system', ['dutch', 'burstein'], (tour && tour.pairing_system) || 'dutch')}</select>
      <label for="t-accel" data-i18n="desk.acceleration"></label><select id="t-accel" name="acceleration">
        ${choice('acceleration', ['none', 'baku'], (tour && tour.acceleration) || 'none')}</select>
      <span class="hint" data-i18n="desk.acceleration_hint"></span>
    </div></fieldset>`;
}

// The pairing fields of form F for the body, a Swiss only.
function swissBody(f) {
  return f.system.value === 'swiss' ? { pairing_system: f.pairing_system.value, acceleration: f.acceleration.value } : {};
}

function bindSwissFields(f) {
  const show = () => { $('#t-swiss').hidden = f.system.value !== 'swiss'; };
  f.system.addEventListener('change', show);
  show();
}

export function bindTournamentForm(tour, onSaved) {
  $('#tform').addEventListener('submit', async (e) => {
    e.preventDefault();
    const f = e.target;
    const tc = parseTimeControl(f.time_control.value);
    if (tc.error) { toast(t('tc.bad', { text: f.time_control.value }), 'error'); f.time_control.focus(); return; }
    const body = {
      name: f.name.value.trim(), time_control: tc.pgn, system: f.system.value,
      settings: {
        illegal_moves_to_lose: Number(f.illegal_moves_to_lose.value), illegal_entry: f.illegal_entry.value,
        draw_offers: f.draw_offers.value, sofia_moves: Number(f.sofia_moves.value),
        default_time_ms: Math.round(Number(f.default_time_min.value) * 60000), flags: f.flags.value,
        penalty_ms: Math.round(Number(f.penalty_min.value) * 60000), supervised: f.supervised.checked,
        confirm_moves: f.confirm_moves.checked,
      },
    };
    if (f.rounds.value) body.rounds = Number(f.rounds.value);
    if (f.place.value) body.place = f.place.value;
    if (f.start_date.value) body.start_date = f.start_date.value;
    const [win, draw, loss, bye] = f.points.value.trim().split(/[\s,;/]+/).map(Number);
    body.points = { win, draw, loss, bye };
    body.tiebreaks = f.tiebreaks.value.split(/[\s,;]+/).filter(Boolean).join(',');
    Object.assign(body, swissBody(f));
    try {
      const saved = tour ? await api.patch(`tournaments/${tour.id}`, body) : await api.post('tournaments', body);
      toast(t(tour ? 'desk.saved' : 'desk.created'));
      location.hash = `#/t/${saved.id}/${tour ? 'settings' : 'players'}`;
      if (tour) onSaved();
    } catch (err) { toast(errorText(err), 'error'); }
  });
  bindSwissFields($('#tform'));
  const input = $('#t-tc');
  const read = () => { $('#t-tc-read').textContent = timeControlReading(input.value); };
  input.addEventListener('input', read);
  for (const b of $$('.tc-preset')) b.addEventListener('click', () => { input.value = b.dataset.tc; read(); });
  read();
}
