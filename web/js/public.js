// Arbiter web: the public pages, read-only and phone-friendly: tournaments,
// pairings, standings, crosstable, live boards and PGN downloads; for a team
// competition also the team standings, the matches and each team's page.
//   #/  #/t/ID/(live|pairings|standings|crosstable|teams|matches)  #/t/ID/team/TEAM  #/g/GID
// Under a broadcast delay (settings.public_delay) the server's streams and
// reads show the games as they were that long ago, so the same streams are
// followed; the page says how late it is.
// A table drawn is kept for the next load of its address (js/kept.js), which
// shows it, marked as not current, until the live one is drawn.
// The boards (the live grid, a game) and their library are loaded with the
// first view that shows one: the tables and the list of tournaments, most
// readers' first view, do without them (web/bundle.mjs puts them in a
// second bundle, which js/early.js fetches at once for an address with
// boards).

import * as api from './api.js';
import { LiveStream } from './sse.js';
import { initI18n, t, languagePicker, onLanguageChange } from './i18n.js';
import { html, render, $, errorText, connectionBadge } from './ui.js';
import { normalize } from './state.js';
import { standingsTable, scoresheet } from './views.js';
import { pairingsList, playerIndex, roundPicker } from './pairings-view.js';
import { crosstableFor } from './crosstable-view.js';
import { ratingsView } from './ratings-view.js';
import { teamSettings, isTeamEvent, teamStandingsView, roundsMatchesView, teamView } from './teams-view.js';
import { officeSummary } from './office-view.js';
import { bindStepper } from './move-stepper.js';
import { keptViewSave } from './kept.js';

const app = $('#app');
const conn = connectionBadge();
const TABS = ['live', 'pairings', 'standings', 'crosstable', 'ratings'];
const TEAM_TABS = ['teams', 'matches'];
let cleanup = [];

async function start() {
  await initI18n();
  $('#lang').append(languagePicker());
  $('#conn').append(conn.el);
  onLanguageChange(() => route());
  window.addEventListener('hashchange', route);
  route();
}

// Routes run one after the other: a slow view finishing late must not draw
// over the page the reader has moved on to.
let routing = Promise.resolve();
function route() {
  routing = routing.then(showRoute, showRoute);
  return routing;
}

async function showRoute() {
  for (const fn of cleanup) fn();
  cleanup = [];
  const [kind, id, tab = 'live', sub] = location.hash.replace(/^#\/?/, '').split('/');
  try {
    if (kind === 't' && id) return await showTournament(Number(id), tab, Number(sub));
    if (kind === 'g' && id) return await showGame(Number(id));
    setNav(null);
    return await showHome();
  } catch (e) {
    render(app, html`<p class="banner alert" role="alert">${errorText(e)}</p>`);
  }
}

function setNav(tid, tab, team = false) {
  if (!tid) { $('#nav').innerHTML = ''; return; }
  render($('#nav'), html`${(team ? TABS.concat(TEAM_TABS) : TABS).map((x) => html`<a href="#/t/${tid}/${x}" ${x === tab ? html`aria-current="page"` : ''} data-i18n="public.tab.${x}"></a>`)}
    <a href="${api.BASE}/tournaments/${tid}/pgn" download="tournament-${tid}.pgn" data-i18n="public.pgn"></a>`);
}

async function showHome() {
  const list = await api.get('tournaments');
  document.title = `${t('public.tournaments')} — Arbiter`;
  render(app, html`<h2 data-i18n="public.tournaments"></h2>${list.length ? html`<ul class="tournaments">${list.map((x) => html`<li>
    <a href="#/t/${x.id}/live">${x.name}</a> <span class="pill ${x.status}">${t(`status.${x.status}`)}</span>
    <span class="muted">${x.place || ''} ${x.start_date || ''}</span></li>`)}</ul>` : html`<p class="muted" data-i18n="public.none"></p>`}`);
}

// The notice of a tournament's broadcast delay, or nothing when live.
function delayNote(tour) {
  const sec = Number(tour?.settings?.public_delay) || 0;
  if (sec <= 0) return '';
  const text = sec % 60 ? t('public.delay_seconds', { n: sec }) : t('public.delay_minutes', { n: sec / 60 });
  return html`<p class="banner info" role="note">${text}</p>`;
}

async function showTournament(tid, tab, sub) {
  setNav(tid, tab);
  // The boards' code comes while the tournament's reads are on their way.
  const boards = tab === 'live' ? import('./live-grid.js') : null;
  boards?.catch(() => {}); // reported where it is awaited
  // The tab's first reads go out with the tournament's, not after them: one
  // round trip less before the first table on a slow network.
  // js/early.js sends the same reads as the page starts.
  const reads = () => {
    if (tab === 'pairings') {
      return Promise.all([api.get(`tournaments/${tid}/rounds`), api.get(`tournaments/${tid}/byes`),
        api.get(`tournaments/${tid}/crosstable?format=json`).catch(() => null)]);
    }
    return tab === 'standings' ? api.get(`tournaments/${tid}/standings`) : null;
  };
  let early = reads();
  early?.catch(() => {}); // reported where it is awaited
  const [tour, ts] = await Promise.all([api.get(`tournaments/${tid}`), teamSettings(tid)]);
  if (isTeamEvent(ts)) setNav(tid, tab, true);
  document.title = `${tour.name} · ${t(`public.tab.${tab}`)} — Arbiter`;
  const head = html`<h2>${tour.name}</h2>${delayNote(tour)}${officeSummary(tour)}`;
  if (tab === 'live') {
    const { LiveGrid } = await boards;
    render(app, html`${head}<div id="grid"></div>`);
    const grid = new LiveGrid($('#grid'), tid, { link: (gid) => `#/g/${gid}`, onStatus: (s) => conn.set(s) });
    cleanup.push(() => grid.close());
    return;
  }
  // The static tables follow the tournament stream too, fetching again at most
  // every two seconds; a fetch that returns after the reader left draws nothing.
  let gone = false;
  const table = async () => {
    const got = early || reads();
    early = null;
    if (tab === 'pairings') {
      const [rounds, byes, cross] = await got;
      if (!rounds.length) return html`<p class="muted" data-i18n="view.no_rounds"></p>`;
      // One round at a time, the latest unless the reader picked another.
      const asked = Number(location.hash.split('/')[4]);
      const r = rounds.find((x) => x.number === asked) || rounds[rounds.length - 1];
      return html`<div class="toolbar">${roundPicker(rounds, r.number, 'p-round')}
        <a class="button" href="${api.BASE}/tournaments/${tid}/rounds/${r.number}/pgn" download="round-${r.number}.pgn">PGN</a></div>
        <div class="scroll-x">${pairingsList(r, playerIndex(cross), { byes, points: tour.points || {}, link: (g) => `#/g/${g.id}` })}</div>`;
    }
    if (tab === 'standings') return standingsTable(await got);
    if (tab === 'ratings') return ratingsView(tid);
    if (tab === 'teams') return teamStandingsView(tid, (team) => `#/t/${tid}/team/${team}`);
    if (tab === 'matches') return roundsMatchesView(tid, (gid) => `#/g/${gid}`);
    if (tab === 'team') return teamView(tid, sub);
    return html`<div class="scroll-x">${await crosstableFor(tour)}</div>`;
  };
  const onPick = (e) => { if (e.target.id === 'p-round') location.hash = `#/t/${tid}/pairings/${e.target.value}`; };
  app.addEventListener('change', onPick);
  cleanup.push(() => app.removeEventListener('change', onPick));
  // A redraw that changes nothing (the stream's first resync, most often)
  // leaves the page alone: no flicker, no lost scroll or focus.
  let drawn = null;
  const draw = async () => {
    const tpl = await table();
    const page = html`${head}${tpl}`;
    if (gone || page.__raw === drawn) return;
    drawn = page.__raw;
    render(app, page);
    keptViewSave(app);
  };
  await draw();
  let timer = null;
  const stream = new LiveStream(`${api.BASE}/tournaments/${tid}/stream`, {
    types: ['game', 'round'],
    onOpen: () => draw().catch(() => {}),
    onEvent: () => { if (!timer) timer = setTimeout(() => { timer = null; draw().catch(() => {}); }, 2000); },
    onStatus: (s) => conn.set(s),
  });
  cleanup.push(() => { gone = true; stream.close(); clearTimeout(timer); });
}

async function showGame(gid) {
  const board = import('./game-view.js');
  board.catch(() => {}); // reported where it is awaited
  const first = normalize(await api.get(`games/${gid}`));
  const tid = first.game.tournament_id;
  setNav(tid, null);
  const tour = await api.get(`tournaments/${tid}`).catch(() => null);
  const { GameView } = await board;
  render(app, html`<p><a href="#/t/${tid}/live" data-i18n="public.back"></a> ·
    <a href="${api.BASE}/games/${gid}/pgn" download="game-${gid}.pgn">PGN</a></p>${delayNote(tour)}
    <div class="game-layout"><div><div id="g-main"></div><div id="g-step"></div></div><div id="g-sheet"></div></div>`);
  const view = new GameView($('#g-main'), gid, {
    onStatus: (s) => conn.set(s),
    onState: (s) => render($('#g-sheet'), scoresheet(s)),
  });
  view.show(first);
  cleanup.push(bindStepper($('#g-step'), view));
  cleanup.push(() => view.close());
  const title = (s) => `${s.white?.name || s.game.white_name || ''} – ${s.black?.name || s.game.black_name || ''}`;
  document.title = `${title(first)} · ${t('view.round_n', { n: first.game.round })} — Arbiter`;
}

start();
