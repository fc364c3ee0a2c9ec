// Arbiter web: the arbiter's desk.  Tournaments, players, rounds, the live grid
// with alerts that cannot be missed, the game view with every action the Laws
// give the arbiter (each confirmed first; the server writes it to the game's
// log), standings, crosstable and exports.  Routes live in the hash:
//   #/  #/login  #/t/ID/(players|rounds|live|standings|crosstable|exports|settings)  #/g/GID
// This module is the page's entry: sign-in, the tournament list and the
// router; each tab is drawn by its own module (desk-*.js, office-view.js,
// results-entry.js, ratings-view.js), which share the page through
// desk-page.js.

import * as api from './api.js';
import { initI18n, t, languagePicker, onLanguageChange } from './i18n.js';
import { LiveGrid } from './live-grid.js';
import { html, render, $, errorText } from './ui.js';
import { ratingsView } from './ratings-view.js';
import { viewOffice, importTrfSection, bindImportTrf } from './office-view.js';
import { tournamentForm, bindTournamentForm } from './tournament-form.js';
import { viewResults } from './results-entry.js';
import { formatTimeControl } from './time-control.js';
import { startAlerts, stopAlerts, renderAlerts, setTitle, alertingGame, onAlertsChange } from './alert-queue.js';
import { app, conn, onLeave, leave, setNav, setRouter, route } from './desk-page.js';
import { viewPlayers } from './desk-players.js';
import { viewRounds } from './desk-rounds.js';
import { viewStandings, viewCrosstable, viewExports } from './desk-exports.js';
import { viewTeams } from './desk-teams.js';
import { showGame } from './desk-game.js';

let me = null;

async function start() {
  await initI18n();
  $('#lang').append(languagePicker());
  $('#conn').append(conn.el);
  setRouter(showRoute);
  onLanguageChange(() => { renderAlerts(); route(); });
  $('#logout').addEventListener('click', async () => { await api.logout().catch(() => {}); location.hash = '#/login'; });
  window.addEventListener('hashchange', route);
  route();
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
  const views = { players: viewPlayers, rounds: viewRounds, results: async (x, h) => onLeave(await viewResults(app, x, h)), live: viewLive, standings: viewStandings, crosstable: viewCrosstable,
    ratings: async (tour, head) => render(app, html`${head}${await ratingsView(tour.id)}`), exports: viewExports, settings: viewSettings,
    office: viewOffice, teams: viewTeams };
  await (views[tab] || viewLive)(tour, head);
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
  onLeave(() => { grid.close(); onAlertsChange(null); });
}

// The settings tab: the form the tournament was made with.  A redraw of the
// same tab (a route queued meanwhile) leaves a form the arbiter has begun to
// change alone; saving it draws the stored values again.
async function viewSettings(tour, head) {
  const open = $('#tform');
  if (open && open.dataset.tid === String(tour.id) && open.dataset.changed) return;
  render(app, html`${head}${tournamentForm(tour)}`);
  const form = $('#tform');
  form.dataset.tid = String(tour.id);
  const changed = () => { form.dataset.changed = '1'; };
  form.addEventListener('input', changed);
  form.addEventListener('change', changed);
  form.addEventListener('submit', () => { delete form.dataset.changed; }, true);
  bindTournamentForm(tour, route);
}

start();
