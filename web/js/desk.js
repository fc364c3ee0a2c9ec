// Arbiter web: the arbiter's desk.  Tournaments, players, rounds, the live grid
// with alerts that cannot be missed, the game view with every action the Laws
// give the arbiter (each confirmed first; the server writes it to the game's
// log), standings, crosstable and exports.  Routes live in the hash:
//   #/  #/login  #/t/ID/(players|rounds|live|standings|crosstable|exports|settings)  #/g/GID

import * as api from './api.js';
import { initI18n, t, lang, languagePicker, onLanguageChange } from './i18n.js';
import { formatClock } from './clock.js';
import { GameView } from './game-view.js';
import { LiveGrid } from './live-grid.js';
import { html, render, $, $$, ask, toast, errorText, connectionBadge, download } from './ui.js';
import { normalize } from './state.js';
import { parsePlayers, rowToPlayer, FIELDS } from './player-import.js';
import { standingsTable, pairingsTable, scoresheet, eventLog, standingsCsv, playerName } from './views.js';
import { ratingsView } from './ratings-view.js';
import { teamSettings, isTeamEvent, matchesTable } from './teams-view.js';
import { mountArbiterActions } from './arbiter-actions.js';
import { viewOffice, roundState, roundStateAct, importTrfSection, bindImportTrf } from './office-view.js';
import { tournamentForm, bindTournamentForm } from './tournament-form.js';
import { viewResults } from './results-entry.js';
import { formatTimeControl } from './time-control.js';
import { crosstableFor } from './crosstable-view.js';
import { issueSlips } from './pin-slips.js';
import { startAlerts, stopAlerts, renderAlerts, setTitle, alertingGame, onAlertsChange } from './alert-queue.js';

const app = $('#app');
const conn = connectionBadge();
let me = null;
let cleanup = [];         // what the current view must close when we leave it
const TABS = ['players', 'rounds', 'results', 'live', 'standings', 'crosstable', 'ratings', 'exports', 'settings', 'office', 'teams'];

async function start() {
  await initI18n();
  $('#lang').append(languagePicker());
  $('#conn').append(conn.el);
  onLanguageChange(() => { renderAlerts(); route(); });
  $('#logout').addEventListener('click', async () => { await api.logout().catch(() => {}); location.hash = '#/login'; });
  window.addEventListener('hashchange', route);
  route();
}

function leave() {
  for (const fn of cleanup) { try { fn(); } catch { /* already gone */ } }
  cleanup = [];
}

// Routes run one after the other: a slow view finishing late must not draw
// over the page the reader has moved on to.  A route reads the address when
// it starts, so one waiting route serves every change made meanwhile: a
// second one would draw the same page again over what the reader has begun
// to type in it.
let routing = Promise.resolve();
let waiting = null;
function route() {
  if (waiting) return waiting;
  const run = () => { waiting = null; return showRoute(); };
  waiting = routing = routing.then(run, run);
  return routing;
}

async function showRoute() {
  leave();
  // The address is read before anything is awaited: a change made meanwhile
  // has its own route queued behind this one.
  const parts = location.hash.replace(/^#\/?/, '').split('/').filter(Boolean);
  try { me = await api.whoami(); } catch { me = { role: 'anonymous' }; }
  $('#logout').classList.toggle('hidden', me.role !== 'arbiter');
  if (me.role !== 'arbiter') { setNav(null); stopAlerts(); return showLogin(); }
  try {
    if (parts[0] === 't' && parts[1]) {
      const tid = Number(parts[1]);
      setNav(tid, parts[2] || 'live');
      startAlerts(tid);
      return await showTournament(tid, parts[2] || 'live');
    }
    if (parts[0] === 'g' && parts[1]) return await showGame(Number(parts[1]));
    setNav(null);
    stopAlerts();
    return await showHome();
  } catch (e) {
    render(app, html`<p class="banner alert" role="alert">${errorText(e)}</p>`);
  }
}

function setNav(tid, tab) {
  const nav = $('#nav');
  if (!tid) { nav.innerHTML = ''; return; }
  render(nav, html`${TABS.map((x) => html`<a href="#/t/${tid}/${x}" ${x === tab ? html`aria-current="page"` : ''} data-i18n="desk.tab.${x}"></a>`)}`);
}

// ---------- login ----------
function showLogin() {
  render(app, html`<form id="login" class="form-grid narrow">
    <h2 class="span-all" data-i18n="desk.login"></h2>
    <label for="user" data-i18n="desk.username"></label><input id="user" name="username" autocomplete="username" required>
    <label for="pass" data-i18n="desk.password"></label><input id="pass" name="password" type="password" autocomplete="current-password" required>
    <span></span><button class="primary" data-i18n="desk.login"></button>
    <p id="login-msg" class="banner alert hidden span-all" role="alert"></p></form>`);
  $('#login').addEventListener('submit', async (e) => {
    e.preventDefault();
    try {
      await api.login($('#user').value, $('#pass').value);
      if (!location.hash || location.hash === '#/login') location.hash = '#/';
      else route();
    } catch (err) {
      const m = $('#login-msg');
      m.textContent = err.status === 401 ? t('desk.bad_login') : errorText(err);
      m.classList.remove('hidden');
    }
  });
  $('#user').focus();
}

// ---------- player import: preview, column mapping, per-row errors ----------
function bindImport(tour, add, clean) {
  let parsed = null;
  const rowsOf = () => parsed.rows.map((row) => ({ row, ...rowToPlayer(row, parsed.columns) }));
  const draw = () => {
    const rows = rowsOf();
    const ok = rows.filter((r) => !r.errors.length).length;
    const width = Math.max(parsed.columns.length, ...parsed.rows.map((r) => r.length));
    const cols = Array.from({ length: width }, (_, i) => parsed.columns[i] || '');
    render($('#pimport-table'), html`<div class="scroll-x"><table id="pimport-rows"><thead><tr><th class="num">#</th>
      ${cols.map((f, i) => html`<th><label class="sr-only" for="pcol-${i}">${t('desk.import_column', { n: i + 1 })}</label><select id="pcol-${i}" data-col="${i}">
        <option value="" ${f ? '' : html`selected`}>${t('desk.import_ignore')}</option>
        ${FIELDS.map((x) => html`<option value="${x}" ${x === f ? html`selected` : ''}>${t(`desk.import_field.${x}`)}</option>`)}</select></th>`)}
      <th data-i18n="desk.import_problems"></th></tr></thead>
      <tbody>${rows.map((r, n) => html`<tr class="${r.errors.length ? 'bad' : ''}"><td class="num">${n + 1}</td>${cols.map((_, i) => html`<td>${r.row[i] ?? ''}</td>`)}
        <td class="err">${r.errors.map((e) => t(`desk.import_err.${e.field}`, { value: e.value ?? '' })).join('; ')}</td></tr>`)}</tbody></table></div>
      <p class="toolbar"><button type="button" class="primary" id="pimport-go" ${ok ? '' : html`disabled`}>${t('desk.import_go', { n: ok })}</button>
      <span class="muted">${t('desk.import_summary', { rows: rows.length, bad: rows.length - ok })}</span></p>`);
    $$('#pimport-rows select').forEach((sel) => sel.addEventListener('change', () => {
      const i = Number(sel.dataset.col);
      while (parsed.columns.length <= i) parsed.columns.push('');
      if (sel.value) parsed.columns = parsed.columns.map((f) => (f === sel.value ? '' : f));
      parsed.columns[i] = sel.value;
      draw();
    }));
    $('#pimport-go').addEventListener('click', async () => {
      let n = 0; const failed = [];
      for (const r of rowsOf()) {
        if (r.errors.length) continue;
        try { await add(clean(r.player)); n++; } catch (err) { failed.push(`${r.player.name}: ${errorText(err)}`); }
      }
      toast(t('desk.imported', { n }));
      for (const f of failed) toast(f, 'error');
      route();
    });
  };
  const preview = () => {
    parsed = parsePlayers($('#pimport').value);
    draw();
  };
  $('#pimport-preview').addEventListener('click', preview);
  $('#pimport-file').addEventListener('change', async (e) => {
    const file = e.target.files[0];
    if (!file) return;
    $('#pimport').value = await file.text();
    preview();
  });
}

// ---------- tournaments ----------
async function showHome() {
  const list = await api.get('tournaments');
  render(app, html`<h2 data-i18n="desk.tournaments"></h2>
    <table><thead><tr><th data-i18n="desk.name"></th><th data-i18n="desk.system"></th><th data-i18n="desk.rounds"></th>
    <th data-i18n="desk.time_control"></th><th data-i18n="desk.status"></th></tr></thead>
    <tbody>${list.map((x) => html`<tr><td><a href="#/t/${x.id}/live">${x.name}</a></td><td>${t(`system.${x.system || 'swiss'}`)}</td>
      <td>${x.rounds ?? ''}</td><td>${formatTimeControl(x.time_control)}</td><td><span class="pill ${x.status}">${t(`status.${x.status}`)}</span></td></tr>`)}</tbody></table>
    ${importTrfSection()}
    <h2 data-i18n="desk.new_tournament"></h2>${tournamentForm(null)}`);
  bindTournamentForm(null, route);
  bindImportTrf();
}

async function showTournament(tid, tab) {
  const tour = await api.get(`tournaments/${tid}`);
  setTitle(`${tour.name} — Arbiter`);
  const head = html`<h2>${tour.name} <span class="pill ${tour.status}">${t(`status.${tour.status}`)}</span>
    <span class="muted">${t(`system.${tour.system || 'swiss'}`)} · ${formatTimeControl(tour.time_control)}</span></h2>`;
  const views = { players: viewPlayers, rounds: viewRounds, results: async (x, h) => cleanup.push(await viewResults(app, x, h)), live: viewLive, standings: viewStandings, crosstable: viewCrosstable,
    ratings: async (tour, head) => render(app, html`${head}${await ratingsView(tour.id)}`), exports: viewExports, settings: viewSettings,
    office: viewOffice, teams: viewTeams };
  await (views[tab] || viewLive)(tour, head);
}

// ---------- players ----------
function pinStore(tid) {
  const key = `arbiter.pins.${tid}`;
  return {
    all: () => JSON.parse(sessionStorage.getItem(key) || '{}'),
    put(pid, pin) { const a = this.all(); a[pid] = pin; sessionStorage.setItem(key, JSON.stringify(a)); },
  };
}

async function viewPlayers(tour, head) {
  const players = await api.get(`tournaments/${tour.id}/players`);
  const pins = pinStore(tour.id);
  const known = pins.all();
  // Forbidden pairs: players the pairing must never put on one board.
  const forbidden = await api.get(`tournaments/${tour.id}/forbidden`).catch(() => []);
  // The server's pairing numbers (C.04.2), shown in the # column.
  players.sort((a, b) => (a.tpn ?? Infinity) - (b.tpn ?? Infinity) || a.id - b.id);
  render(app, html`${head}
    <div class="toolbar no-print"><button type="button" id="p-print" data-i18n="desk.print_pins"></button>
      <button type="button" id="p-slips" class="primary" data-i18n="slips.issue"></button></div><section id="pin-slips"></section>
    <table id="players"><thead><tr><th class="num">#</th><th data-i18n="view.name"></th><th data-i18n="desk.title_col"></th>
    <th class="num" data-i18n="view.rating"></th><th data-i18n="view.federation"></th><th data-i18n="desk.fide_id"></th>
    <th data-i18n="desk.status"></th><th data-i18n="desk.pin"></th><th class="no-print"></th></tr></thead>
    <tbody>${players.map((p, i) => html`<tr data-pid="${p.id}"><td class="num">${p.tpn ?? i + 1}</td><td>${p.name}</td><td>${p.title || ''}</td>
      <td class="num">${p.rating || ''}</td><td>${p.federation || ''}</td><td>${p.fide_id || ''}</td>
      <td><span class="pill ${p.status || 'active'}">${t(`pstatus.${p.status || 'active'}`)}</span></td>
      <td class="pin"><code>${known[p.id] || '••••'}</code></td>
      <td class="no-print"><button type="button" data-act="edit" data-i18n="desk.edit"></button>
      <button type="button" data-act="pin" data-i18n="desk.new_pin"></button>
      <button type="button" data-act="status" data-i18n="${p.status === 'withdrawn' ? 'desk.reinstate' : 'desk.withdraw'}"></button>
      <button type="button" data-act="bye" data-i18n="desk.bye"></button></td></tr>`)}</tbody></table>
    <h2 class="no-print" data-i18n="desk.add_player"></h2>
    <form id="padd" class="toolbar no-print" autocomplete="off">
      <label for="pa-name" class="sr-only" data-i18n="view.name"></label><input id="pa-name" name="name" required data-i18n-attr="placeholder:view.name">
      <label for="pa-title" class="sr-only" data-i18n="desk.title_col"></label><input id="pa-title" name="title" size="4" data-i18n-attr="placeholder:desk.title_col">
      <label for="pa-rating" class="sr-only" data-i18n="view.rating"></label><input id="pa-rating" name="rating" type="number" min="0" max="4000" class="w-6" data-i18n-attr="placeholder:view.rating">
      <label for="pa-fed" class="sr-only" data-i18n="view.federation"></label><input id="pa-fed" name="federation" size="4" data-i18n-attr="placeholder:view.federation">
      <label for="pa-fide" class="sr-only" data-i18n="desk.fide_id"></label><input id="pa-fide" name="fide_id" size="9" data-i18n-attr="placeholder:desk.fide_id">
      <button class="primary" data-i18n="desk.add"></button></form>
    <details class="no-print" id="pimport-box"><summary data-i18n="desk.import"></summary>
      <p class="muted" data-i18n="desk.import_hint"></p>
      <textarea id="pimport" class="w-full" rows="6" data-i18n-attr="aria-label:desk.import"></textarea>
      <div class="toolbar"><label for="pimport-file" data-i18n="desk.import_file"></label><input id="pimport-file" type="file" accept=".csv,.tsv,.txt,text/csv,text/plain">
      <button type="button" id="pimport-preview" data-i18n="desk.import_preview"></button></div>
      <div id="pimport-table"></div></details>
    <section id="forbidden" class="no-print"><h2 data-i18n="desk.forbidden"></h2>
      <p class="muted" data-i18n="desk.forbidden_hint"></p>
      ${forbidden.length ? html`<ul id="fb-list">${forbidden.map((f) => html`<li data-a="${f.players[0]}" data-b="${f.players[1]}">${f.names[0]} – ${f.names[1]}
        ${f.first_round || f.last_round ? html`<span class="muted">(${t('desk.forbidden_rounds', { from: f.first_round || 1, to: f.last_round || '…' })})</span>` : ''}
        <button type="button" data-act="fb-remove" data-i18n="desk.forbidden_remove"></button></li>`)}</ul>`
    : html`<p class="muted" data-i18n="desk.forbidden_none"></p>`}
      <form id="fb-add" class="toolbar" autocomplete="off">
        <label for="fb-a" class="sr-only" data-i18n="desk.forbidden_player1"></label><select id="fb-a" name="a" required>${players.map((p) => html`<option value="${p.id}">${p.name}</option>`)}</select>
        <label for="fb-b" class="sr-only" data-i18n="desk.forbidden_player2"></label><select id="fb-b" name="b" required>${players.map((p, i) => html`<option value="${p.id}" ${i === 1 ? html`selected` : ''}>${p.name}</option>`)}</select>
        <button class="primary" data-i18n="desk.forbidden_add"></button></form></section>`);
  const names = (ids) => ids.map((id) => (players.find((p) => p.id === id) || { name: `#${id}` }).name);
  $('#fb-add').addEventListener('submit', async (e) => {
    e.preventDefault();
    const ids = [Number(e.target.a.value), Number(e.target.b.value)];
    try {
      await api.post(`tournaments/${tour.id}/forbidden`, { players: ids });
      const [a, b] = names(ids);
      toast(t('desk.forbidden_added', { a, b }));
      route();
    } catch (err) { toast(errorText(err), 'error'); }
  });
  $('#forbidden').addEventListener('click', async (e) => {
    if (e.target.dataset.act !== 'fb-remove') return;
    const li = e.target.closest('li');
    const ids = [Number(li.dataset.a), Number(li.dataset.b)];
    try {
      await api.post(`tournaments/${tour.id}/forbidden/remove`, { players: ids });
      const [a, b] = names(ids);
      toast(t('desk.forbidden_removed', { a, b }));
      route();
    } catch (err) { toast(errorText(err), 'error'); }
  });
  const add = async (body) => {
    const r = await api.post(`tournaments/${tour.id}/players`, body);
    pins.put(r.player.id, r.credentials.pin);
    return r;
  };
  const clean = (o) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== '' && v !== undefined && !Number.isNaN(v)));
  $('#padd').addEventListener('submit', async (e) => {
    e.preventDefault();
    const f = e.target;
    try {
      const r = await add(clean({ name: f.name.value.trim(), title: f.title.value.trim(), rating: f.rating.value ? Number(f.rating.value) : undefined, federation: f.federation.value.trim(), fide_id: f.fide_id.value.trim() }));
      toast(t('desk.player_added', { name: r.player.name, pin: r.credentials.pin }));
      route();
    } catch (err) { toast(errorText(err), 'error'); }
  });
  bindImport(tour, add, clean);
  $('#p-print').addEventListener('click', () => { document.body.classList.remove('printing-slips'); window.print(); });
  $('#p-slips').addEventListener('click', async () => issueSlips(tour, await api.get(`tournaments/${tour.id}/rounds`), $('#pin-slips'), (pid, pin) => {
    pins.put(pid, pin);
    const cell = $(`#players tr[data-pid="${pid}"] .pin code`);
    if (cell) cell.textContent = pin;
  }));
  $('#players').addEventListener('click', async (e) => {
    const act = e.target.dataset.act;
    if (!act) return;
    const pid = Number(e.target.closest('tr').dataset.pid);
    const p = players.find((x) => x.id === pid);
    try {
      if (act === 'edit') {
        const r = await ask({ title: t('desk.edit'), fields: [
          { name: 'name', label: t('view.name'), value: p.name, required: true }, { name: 'title', label: t('desk.title_col'), value: p.title },
          { name: 'rating', label: t('view.rating'), type: 'number', value: p.rating }, { name: 'federation', label: t('view.federation'), value: p.federation },
          { name: 'fide_id', label: t('desk.fide_id'), value: p.fide_id },
          { name: 'rating_estimate', label: t('desk.estimate'), type: 'number', value: p.rating_estimate || '' }] });
        if (!r) return;
        await api.patch(`tournaments/${tour.id}/players/${pid}`, { ...r, rating: r.rating ? Number(r.rating) : 0, rating_estimate: r.rating_estimate ? Number(r.rating_estimate) : 0 });
      } else if (act === 'pin') {
        if (!await ask({ title: t('desk.new_pin'), message: t('desk.new_pin_confirm', { name: p.name }) })) return;
        const c = await api.post(`tournaments/${tour.id}/players/${pid}/credentials`, {});
        pins.put(pid, c.pin);
        toast(t('desk.pin_is', { name: p.name, pin: c.pin }));
      } else if (act === 'status') {
        const to = p.status === 'withdrawn' ? 'active' : 'withdrawn';
        if (!await ask({ title: t(to === 'withdrawn' ? 'desk.withdraw' : 'desk.reinstate'), message: p.name, danger: to === 'withdrawn' })) return;
        await api.patch(`tournaments/${tour.id}/players/${pid}`, { status: to });
      } else if (act === 'bye') {
        const rounds = await api.get(`tournaments/${tour.id}/rounds`);
        const r = await ask({ title: t('desk.bye'), message: p.name, fields: [
          { name: 'round', label: t('desk.bye_round'), type: 'number', value: rounds.length + 1, required: true },
          { name: 'kind', label: t('desk.bye_kind'), type: 'select', value: 'half',
            options: [['half', t('desk.bye_half')], ['zero', t('desk.bye_zero')], ['none', t('desk.bye_cancel')]] }] });
        if (!r) return;
        await api.post(`tournaments/${tour.id}/players/${pid}/byes`, { round: Number(r.round), kind: r.kind });
        toast(t(r.kind === 'none' ? 'desk.bye_cancelled' : 'desk.bye_done', { name: p.name, n: Number(r.round) }));
      }
      route();
    } catch (err) { toast(errorText(err), 'error'); }
  });
}

// ---------- rounds ----------
// The server's report of the pairing rules a pending round breaks
// (GET /rounds/{rn}/check), translated by code; the API's English message
// is the fallback for a code this page does not know.
function checkBanners(check, players) {
  if (!check) return '';
  const byId = new Map(players.map((p) => [p.id, p]));
  const names = (ids) => ids.map((id) => byId.get(id)?.name || `#${id}`).join(', ');
  const byes = (check.byes || []).map((b) => `${names([b.player_id])} (${t(`desk.bye_${b.kind}`)})`);
  const items = check.violations.map((v) => {
    const key = `check.${v.code}`;
    const text = t(key, { names: names(v.players), value: v.value, engine: v.engine_value, bracket: v.bracket,
      where: v.board ? `${t('view.board_n', { n: v.board })}: ` : '' });
    const cls = v.kind === 'absolute' ? 'warn' : 'info';
    return html`<p class="banner ${cls}" data-code="${v.code}">${text === key ? v.message : text}</p>`;
  });
  return html`<div class="check" data-rn="${check.round}">
    ${byes.length ? html`<p class="muted">${t('check.byes', { list: byes.join('; ') })}</p>` : ''}
    ${items.length ? items : html`<p class="muted">${t('check.none')}</p>`}</div>`;
}

async function viewRounds(tour, head) {
  const [rounds, players, byes] = await Promise.all([api.get(`tournaments/${tour.id}/rounds`), api.get(`tournaments/${tour.id}/players`),
    api.get(`tournaments/${tour.id}/byes`)]);
  const last = rounds[rounds.length - 1];
  // Not past the last round: the planned rounds are paired, or the server says the event is over.
  const allPaired = tour.status === 'finished' || (tour.rounds > 0 && rounds.length >= tour.rounds);
  const canPair = !allPaired && (!last || last.status === 'finished' || (last.status !== 'pending' && last.games.every((g) => g.result !== '*')));
  const opts = players.map((p) => [p.id, playerName(p)]);
  const pending = rounds.find((r) => r.status === 'pending');
  const check = pending ? await api.get(`tournaments/${tour.id}/rounds/${pending.number}/check`).catch(() => null) : null;
  render(app, html`${head}
    <div class="toolbar no-print">
      <button type="button" id="r-pair" class="primary" ${canPair ? '' : html`disabled`} data-i18n="desk.pair_next"></button>
      <button type="button" id="r-print" data-i18n="desk.print_pairings"></button></div>
    ${[...rounds].reverse().map((r) => html`<section class="round" data-rn="${r.number}">
      ${pairingsTable(r, { link: (g) => `#/g/${g.id}`, byes })}
      ${r.status === 'pending' ? html`${checkBanners(check && check.round === r.number ? check : null, players)}
        <div class="toolbar no-print">
        <button type="button" data-act="edit" data-i18n="desk.edit_pairing"></button>
        <button type="button" data-act="add" data-i18n="desk.add_pairing"></button>
        <button type="button" data-act="swap" data-i18n="desk.swap"></button>
        <button type="button" data-act="bye" data-i18n="desk.round_bye"></button>
        <button type="button" data-act="start" class="primary" data-i18n="desk.start_round"></button>
        ${roundState(r)}</div>` : ''}
      ${r.status === 'running' ? html`<div class="toolbar no-print"><button type="button" data-act="pause" data-i18n="desk.pause_all"></button></div>` : ''}
      ${r.status === 'paused' ? html`<div class="toolbar no-print"><button type="button" data-act="resume" class="primary" data-i18n="desk.resume_all"></button></div>` : ''}
      </section>`)}`);
  $('#r-print').addEventListener('click', () => window.print());
  roundExports(tour);
  $('#r-pair').addEventListener('click', async () => {
    const n = (last ? last.number : 0) + 1;
    if (!await ask({ title: t('desk.pair_next'), message: t('desk.pair_confirm', { n }) })) return;
    try {
      // Swiss (Dutch) and round robin (Berger tables) are paired by the server.
      const body = tour.system === 'manual' ? { pairings: [] } : {};
      const round = await api.post(`tournaments/${tour.id}/rounds`, body);
      toast(t(round.games.length || tour.system === 'manual' ? 'desk.paired' : 'desk.not_paired', { n }), round.games.length ? 'info' : 'error');
      route();
    } catch (err) { toast(errorText(err), 'error'); }
  });
  const onClick = async (e) => {
    const act = e.target.dataset.act;
    const sec = e.target.closest('section.round');
    if (!act || !sec) return;
    const rn = Number(sec.dataset.rn);
    const round = rounds.find((r) => r.number === rn);
    try {
      if (act === 'start') {
        if (!await ask({ title: t('desk.start_round'), message: t('desk.start_confirm', { n: rn }) })) return;
        await api.post(`tournaments/${tour.id}/rounds/${rn}/start`, {});
        toast(t('desk.started', { n: rn }));
      } else if (act === 'publish' || act === 'unpublish') {
        await roundStateAct(tour, rn, act);
      } else if (act === 'pause' || act === 'resume') {
        if (!await ask({ title: t(`desk.${act}_all`), message: t('view.round_n', { n: rn }) })) return;
        await api.post(`tournaments/${tour.id}/rounds/${rn}/${act}`, {});
      } else if (act === 'add' || act === 'edit') {
        const games = round.games;
        const fields = [];
        if (act === 'edit') fields.push({ name: 'game', label: t('view.board'), type: 'select', options: games.map((g) => [g.id, `${g.board}: ${g.white_name} – ${g.black_name}`]) });
        fields.push({ name: 'board', label: t('view.board'), type: 'number', value: act === 'add' ? games.length + 1 : '' },
          { name: 'white_id', label: t('colour.white'), type: 'select', options: opts },
          { name: 'black_id', label: t('colour.black'), type: 'select', options: opts });
        const r = await ask({ title: t(`desk.${act}_pairing`), fields });
        if (!r) return;
        const body = { white_id: Number(r.white_id), black_id: Number(r.black_id) };
        if (r.board) body.board = Number(r.board);
        if (act === 'add') await api.post(`tournaments/${tour.id}/rounds/${rn}/games`, body);
        else await api.patch(`games/${r.game}`, body);
      } else if (act === 'swap') {
        const r = await ask({ title: t('desk.swap'), message: t('desk.swap_help'), fields: [
          { name: 'first_id', label: t('desk.swap_first'), type: 'select', options: opts },
          { name: 'second_id', label: t('desk.swap_second'), type: 'select', options: opts }] });
        if (!r) return;
        await api.post(`tournaments/${tour.id}/rounds/${rn}/swap`, { first_id: Number(r.first_id), second_id: Number(r.second_id) });
      } else if (act === 'bye') {
        const kinds = ['pab', 'half', 'zero', 'none'].concat(tour.system === 'roundrobin' ? ['free'] : []);
        const r = await ask({ title: t('desk.round_bye'), message: t('desk.round_bye_help'), fields: [
          { name: 'player_id', label: t('desk.side'), type: 'select', options: opts },
          { name: 'kind', label: t('desk.bye_kind'), type: 'select', value: 'pab', options: kinds.map((k) => [k, t(`desk.bye_${k}`)]) }] });
        if (!r) return;
        await api.post(`tournaments/${tour.id}/rounds/${rn}/byes`, { player_id: Number(r.player_id), kind: r.kind });
      }
      route();
    } catch (err) { toast(errorText(err), 'error'); }
  };
  app.addEventListener('click', onClick);
  cleanup.push(() => app.removeEventListener('click', onClick));
}

// ---------- live grid and alerts ----------
async function viewLive(tour, head) {
  render(app, html`${head}<div id="grid"></div>`);
  const grid = new LiveGrid($('#grid'), tour.id, {
    link: (gid) => `#/g/${gid}`,
    onStatus: (s) => conn.set(s),
    alerting: alertingGame,
  });
  onAlertsChange(() => grid.markAlerts());
  cleanup.push(() => { grid.close(); onAlertsChange(null); });
}

// ---------- standings, crosstable, exports, settings ----------
// Links to the server's printable (HTML, new tab) and downloadable (CSV, JSON) lists.
const exportHref = (path, format) => `${api.BASE}/${path}${path.includes('?') ? '&' : '?'}format=${format}${
  format === 'html' ? `&lang=${document.documentElement.lang || 'en'}` : ''}`;
const printLink = (path, key) => html`<a class="button" href="${exportHref(path, 'html')}" target="_blank" rel="noopener" data-i18n="${key}"></a>`;
const fileLink = (path, format, key) => html`<a class="button" href="${exportHref(path, format)}" download data-i18n="${key}"></a>`;

// The hall documents' paper: US Letter where that is the usual size.
const hallPaper = /-(US|CA)$/.test(navigator.language) ? 'letter' : 'a4';

// Each round's pairing lists, below its table (by board, alphabetical, CSV),
// and its hall documents.
function roundExports(tour) {
  for (const sec of $$('section.round', app)) {
    const path = `tournaments/${tour.id}/rounds/${sec.dataset.rn}/pairings`;
    const bar = document.createElement('div');
    bar.className = 'toolbar no-print round-exports';
    render(bar, html`${printLink(path, 'desk.pairings_board')}${printLink(`${path}?order=alpha`, 'desk.pairings_alpha')}
      ${fileLink(path, 'csv', 'desk.pairings_csv')}${['board', 'alpha', 'cards', 'slips'].map((d) =>
        printLink(`tournaments/${tour.id}/rounds/${sec.dataset.rn}/hall?paper=${hallPaper}&doc=${d}`, `hall.link_${d}`))}`);
    const table = $('table', sec);
    if (table) table.after(bar); else sec.append(bar);
  }
}

async function viewStandings(tour, head) {
  const rows = await api.get(`tournaments/${tour.id}/standings`);
  const path = `tournaments/${tour.id}/standings`;
  render(app, html`${head}<div class="toolbar no-print"><button type="button" id="print" data-i18n="desk.print"></button>
    ${printLink(path, 'desk.export_print')}${fileLink(path, 'csv', 'desk.export_csv_file')}</div>${standingsTable(rows)}`);
  $('#print').addEventListener('click', () => window.print());
}

async function viewCrosstable(tour, head) {
  const table = await crosstableFor(tour);
  const path = `tournaments/${tour.id}/crosstable`;
  render(app, html`${head}<div class="toolbar no-print"><button type="button" id="print" data-i18n="desk.print"></button>
    ${printLink(path, 'desk.export_print')}${fileLink(path, 'csv', 'desk.export_csv_file')}${fileLink(path, 'json', 'desk.export_json_file')}</div><div class="scroll-x">${table}</div>`);
  $('#print').addEventListener('click', () => window.print());
}

async function viewExports(tour, head) {
  render(app, html`${head}<ul class="exports">
    <li><a href="${api.BASE}/tournaments/${tour.id}/pgn" download="tournament-${tour.id}.pgn" data-i18n="desk.export_pgn"></a></li>
    <li><a href="${api.BASE}/tournaments/${tour.id}/trf" download="tournament-${tour.id}.trf" data-i18n="desk.export_trf"></a></li>
    <li><button type="button" id="csv" data-i18n="desk.export_csv"></button></li>
    <li><a href="${exportHref(`tournaments/${tour.id}/standings`, 'html')}" target="_blank" rel="noopener" data-i18n="desk.export_html"></a></li>
    <li><a href="${exportHref(`tournaments/${tour.id}/crosstable`, 'html')}" target="_blank" rel="noopener" data-i18n="desk.export_crosstable_html"></a></li>
    <li><a href="${exportHref(`tournaments/${tour.id}/crosstable`, 'csv')}" download data-i18n="desk.export_crosstable_csv"></a></li>
    <li>${printLink(`tournaments/${tour.id}/hall?paper=${hallPaper}`, 'hall.link_wall')}</li></ul>`);
  $('#csv').addEventListener('click', async () => {
    download(`standings-${tour.id}.csv`, standingsCsv(await api.get(`tournaments/${tour.id}/standings`)), 'text/csv');
  });
}

async function viewSettings(tour, head) {
  render(app, html`${head}${tournamentForm(tour)}`);
  bindTournamentForm(tour, route);
}

// ---------- teams ----------
// The team competition: its settings, the teams and their rosters, each
// team's line-up for the next or pending round, pairing the next team round,
// and the matches of the newest round (start, forfeit of a whole match).
async function viewTeams(tour, head) {
  const ts = await teamSettings(tour.id);
  if (!isTeamEvent(ts)) {
    render(app, html`${head}<form id="tm-make" class="stack"><label><span data-i18n="team.boards"></span>
      <input name="boards" type="number" min="1" max="16" value="4"></label>
      <button type="submit" class="primary" data-i18n="team.make_team_event"></button></form>`);
    $('#tm-make').addEventListener('submit', async (e) => {
      e.preventDefault();
      try {
        await api.patch(`tournaments/${tour.id}/team-settings`, { kind: 'team', boards: Number(e.target.boards.value) });
        route();
      } catch (err) { toast(errorText(err), 'error'); }
    });
    return;
  }
  const [teams, rounds] = await Promise.all([api.get(`tournaments/${tour.id}/teams`), api.get(`tournaments/${tour.id}/rounds`)]);
  const last = rounds[rounds.length - 1];
  const matches = last ? await api.get(`tournaments/${tour.id}/rounds/${last.number}/matches`) : [];
  const lineups = last && last.status === 'pending' ? await Promise.all(teams.map((tm) => api.get(`tournaments/${tour.id}/teams/${tm.id}/lineup`)))
    : [];
  const canPair = !last || last.status === 'finished';
  render(app, html`${head}
    <div class="toolbar no-print"><button type="button" id="tm-pair" class="primary" ${canPair ? '' : html`disabled`} data-i18n="team.pair_next"></button>
      ${last && last.status === 'pending' ? html`<button type="button" id="tm-start" data-i18n="desk.start_round"></button>` : ''}</div>
    ${last ? html`<section class="round" data-rn="${last.number}"><h2>${t('view.round_n', { n: last.number })}</h2>
      ${matchesTable(matches, { link: (gid) => `#/g/${gid}` })}</section>` : ''}
    <h2 data-i18n="team.teams"></h2>
    ${teams.length ? html`<table id="teams"><thead><tr><th class="num">#</th><th data-i18n="team.team"></th><th data-i18n="view.federation"></th>
      <th class="num" data-i18n="team.rating_average"></th><th data-i18n="team.members"></th><th data-i18n="team.lineup"></th></tr></thead>
      <tbody>${teams.map((tm, i) => html`<tr data-team="${tm.id}"><td class="num">${tm.pairing_number || ''}</td><td>${tm.name}</td>
        <td>${tm.federation}</td><td class="num">${tm.rating_average}</td>
        <td>${tm.members.map((p) => `${p.player_id} ${p.name}${p.reserve ? ' (R)' : ''}`).join(', ')}</td>
        <td>${lineups[i] ? html`<form class="tm-lineup" data-team="${tm.id}"><input name="players" aria-label="${t('team.lineup_hint')}"
          value="${lineups[i].players.map((p) => p.player_id).join(',')}"><button type="submit" data-i18n="desk.save"></button></form>` : ''}</td></tr>`)}</tbody></table>`
      : html`<p class="muted" data-i18n="team.no_teams"></p>`}
    ${rounds.length ? '' : html`<details class="no-print"><summary data-i18n="team.add_team"></summary><form id="tm-add" class="stack">
      <label><span data-i18n="desk.name"></span><input name="name" required maxlength="100"></label>
      <label><span data-i18n="view.federation"></span><input name="federation" maxlength="3"></label>
      <label><span data-i18n="team.members"></span><input name="members" placeholder="12, 14, 15, 19"></label>
      <button type="submit" class="primary" data-i18n="desk.add"></button></form></details>`}`);
  const ids = (text) => text.split(/[\s,;]+/).filter(Boolean).map(Number);
  const add = $('#tm-add');
  if (add) {
    add.addEventListener('submit', async (e) => {
      e.preventDefault();
      const f = e.target;
      try {
        await api.post(`tournaments/${tour.id}/teams`, { name: f.name.value, federation: f.federation.value,
          members: ids(f.members.value).map((id) => ({ player_id: id })) });
        toast(t('team.team_added'));
        route();
      } catch (err) { toast(errorText(err), 'error'); }
    });
  }
  $('#tm-pair').addEventListener('click', async () => {
    const n = (last ? last.number : 0) + 1;
    if (!await ask({ title: t('team.pair_next'), message: t('desk.pair_confirm', { n }) })) return;
    try {
      await api.post(`tournaments/${tour.id}/matches`, {});
      toast(t('desk.paired', { n }));
      route();
    } catch (err) { toast(errorText(err), 'error'); }
  });
  const start = $('#tm-start');
  if (start) {
    start.addEventListener('click', async () => {
      if (!await ask({ title: t('desk.start_round'), message: t('desk.start_confirm', { n: last.number }) })) return;
      try {
        await api.post(`tournaments/${tour.id}/rounds/${last.number}/start`, {});
        toast(t('desk.started', { n: last.number }));
        route();
      } catch (err) { toast(errorText(err), 'error'); }
    });
  }
  for (const form of app.querySelectorAll('form.tm-lineup')) {
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      try {
        await api.post(`tournaments/${tour.id}/teams/${form.dataset.team}/lineup`, { round: last.number, players: ids(form.players.value) });
        toast(t('team.lineup_saved'));
        route();
      } catch (err) { toast(errorText(err), 'error'); }
    });
  }
}

// ---------- one game ----------
async function showGame(gid) {
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
  cleanup.push(() => view.close());
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

start();
