// Arbiter web: the player's tablet.  One tablet per board, signed in with the
// player's tournament PIN; the board turns to the player's colour.  Every move
// goes to the server with the ply it is meant for, so a retry after a dropped
// connection can never play twice; the live stream tells us when to fetch the
// state again, and every fetched state replaces whatever the page believed.
// A tablet that comes back (a reload, the browser woken up) first shows the
// game it showed last (js/kept.js), marked as not current, with no move,
// offer, claim or running clock until the server's state is in.

import * as api from './api.js';
import { LiveStream } from './sse.js';
import { initI18n, t, lang, languagePicker, localSan, typedToSan, onLanguageChange } from './i18n.js';
import { ClockPair } from './clock.js';
import { BoardView, PROMO } from './board-view.js';
import { normalize, olderThan } from './state.js';
import { html, render, $, ask, toast, errorText, connectionBadge, resultText } from './ui.js';
import { tournamentOf, tournamentSeen, playerLabel, headText, confirmMoves, tabletTools, askMove } from './tablet-head.js';
import { keptRead, keptWrite, keptForget, keptBanner } from './kept.js';

const app = document.getElementById('app');
let me = null;        // the Session
let state = null;     // the last GameState from the server
let board = null;
let clocks = null;
let stream = null;
let sending = false;  // a move is on its way: the board waits
let offerArmed = false;   // a draw offer to send with the next move
let checkinFor = null;    // the game this tablet has checked in to
let illegalNotice = null; // {side, ply}: the last illegal move, shown until the next move
let tour = null;          // the tournament of the open game (name, settings)
let tourLoad = null;      // its fetch: a move made before it answers waits for its settings
let tourLive = false;     // tour is the server's (not the kept one)
let openId = null;        // the game on the board
let openColour = null;    // the colour it is drawn for
let keptState = false;    // state is the kept one, not the server's
let meLive = false;       // me is the server's answer, not the kept one

// The game this tablet showed last, for the next load (js/early.js reads
// its ids): {game, tournament, colour, player, tour, state}.
const LAST = 'arbiter.tablet.last';

// Only the server's state, for a session the server confirmed, can be acted on.
const isLive = () => Boolean(state && !keptState && meLive);

// The piece (K Q R B N P, either colour) on SQUARE ("g1") of FEN's board, or null.
function pieceAt(fen, square) {
  if (!fen || !/^[a-h][1-8]$/.test(square || '')) return null;
  const rank = fen.split(' ')[0].split('/')[8 - Number(square[1])] || '';
  let file = 0;
  for (const c of rank) {
    if (/\d/.test(c)) file += Number(c);
    else if (file++ === square.charCodeAt(0) - 97) return c.toUpperCase();
  }
  return null;
}
const conn = connectionBadge();

// Resolves once the next frame is drawn (at most 100 ms: a hidden tab draws none).
const afterFrame = () => new Promise((done) => {
  requestAnimationFrame(() => setTimeout(done, 0));
  setTimeout(done, 100);
});

const opposite = (c) => (c === 'white' ? 'black' : 'white');

async function start() {
  // Who signed in, and the game and tournament of the last load (a guess,
  // used only if it still holds), went out already (js/early.js).
  const last = keptRead(LAST);
  await initI18n();
  onLanguageChange(() => { if (state) renderGame(); else route(); });
  if (last && last.state && last.colour) {
    me = { role: 'player', game_id: last.game, colour: last.colour, player: last.player, tournament_id: last.tournament };
    openGame(last.game, last);
  }
  route();
}

async function route() {
  try {
    me = await api.whoami();
  } catch {
    me = { role: 'anonymous' };
  }
  // The kept game is this session's game still: it goes on, live from now.
  if (openId && !meLive && me.role === 'player' && me.game_id === openId && me.colour === openColour) {
    meLive = true;
    renderGame();
    checkinIfDue();
    return;
  }
  // A link with the player's token (e.g. from a printed slip) signs in at once.
  const token = new URLSearchParams(location.search).get('token');
  if (token && me.role !== 'player') {
    history.replaceState(null, '', location.pathname);
    try { me = await api.playerLogin(null, null, token); } catch { return showSignIn(t('tablet.bad_pin')); }
  }
  if (me.role !== 'player') return showSignIn();
  if (!me.game_id) return showWaiting();
  return openGame(me.game_id);
}

// ---------- sign-in ----------
async function showSignIn(message) {
  closeGame();
  keptForget(LAST);
  let tournaments = [];
  try { tournaments = (await api.get('tournaments')).filter((x) => x.status !== 'finished'); } catch { /* offline: typed id */ }
  const pre = new URLSearchParams(location.search).get('t') || (tournaments[0] && tournaments[0].id) || '';
  render(app, html`<form class="tablet-signin" id="signin" autocomplete="off">
    <div class="toolbar"><h1 data-i18n="tablet.signin_title"></h1><span id="lang"></span></div>
    <label for="tid" data-i18n="tablet.tournament"></label>
    <select id="tid" name="tid" required>${tournaments.map((x) => html`<option value="${x.id}">${x.name}</option>`)}</select>
    <label for="pin" data-i18n="tablet.pin"></label>
    <input id="pin" name="pin" inputmode="numeric" pattern="[0-9]{4,12}" maxlength="12" required autocomplete="off">
    <div class="keypad" aria-hidden="true">${[1, 2, 3, 4, 5, 6, 7, 8, 9].map((d) => html`<button type="button" tabindex="-1" data-d="${d}">${d}</button>`)}
      <button type="button" tabindex="-1" data-d="del">⌫</button><button type="button" tabindex="-1" data-d="0">0</button>
      <button type="submit" tabindex="-1" class="primary">✓</button></div>
    <button type="submit" class="primary" data-i18n="tablet.signin"></button>
    <p class="banner alert ${message ? '' : 'hidden'}" id="signin-msg" role="alert">${message || ''}</p>
  </form>`);
  $('#lang').append(languagePicker());
  if (!tournaments.length) {
    $('#tid').replaceWith(Object.assign(document.createElement('input'), { id: 'tid', name: 'tid', inputMode: 'numeric', required: true, value: pre }));
  } else $('#tid').value = String(pre);
  const pin = $('#pin');
  app.querySelector('.keypad').addEventListener('click', (e) => {
    const d = e.target.dataset.d;
    if (!d) return;
    pin.value = d === 'del' ? pin.value.slice(0, -1) : (pin.value + d).slice(0, 12);
  });
  $('#signin').addEventListener('submit', async (e) => {
    e.preventDefault();
    try {
      me = await api.playerLogin($('#tid').value, pin.value);
      route();
    } catch (err) {
      const msg = $('#signin-msg');
      msg.textContent = err.status === 401 ? t('tablet.bad_pin') : playerError(err);
      msg.classList.remove('hidden');
      pin.value = '';
    }
  });
}

// ---------- waiting for a pairing ----------
function showWaiting() {
  closeGame();
  keptForget(LAST);
  render(app, html`<div class="tablet-signin">
    <div class="toolbar"><h1>${me.player ? me.player.name : ''}</h1><span id="conn"></span><span id="lang"></span></div>
    <p class="banner info" data-i18n="tablet.waiting"></p>
    <button type="button" id="signout" data-i18n="tablet.signout"></button></div>`);
  $('#conn').append(conn.el);
  $('#lang').append(languagePicker());
  $('#signout').addEventListener('click', signOut);
  const tid = me.player && me.player.tournament_id;
  if (tid) {
    stream = new LiveStream(`${api.BASE}/tournaments/${tid}/stream`, {
      types: ['round'], onEvent: () => recheckPairing(), onStatus: (s) => conn.set(s),
    });
  }
  clearInterval(showWaiting.timer);
  showWaiting.timer = setInterval(recheckPairing, 15000);
}

async function recheckPairing() {
  try {
    const m = await api.whoami();
    if (m.role !== 'player') { clearInterval(showWaiting.timer); return showSignIn(); }
    if (m.game_id) { clearInterval(showWaiting.timer); me = m; openGame(m.game_id); }
  } catch { /* try again later */ }
}

async function signOut() {
  const ok = await ask({ title: t('tablet.signout'), message: t('tablet.signout_confirm') });
  if (!ok) return;
  try { await api.logout(); } catch { /* the cookie goes anyway */ }
  keptForget(LAST);
  me = null;
  showSignIn();
}

function closeGame() {
  stream?.close(); stream = null;
  clocks?.stop(); clocks = null;
  board?.destroy(); board = null;
  clearInterval(openGame.flagTimer);
  clearInterval(openGame.nextTimer);
  clearInterval(showWaiting.timer);
  state = null;
  keptState = false;
  openId = null;
}

// ---------- the game ----------
// KEPT: the record of the last load (LAST), drawn until the server's
// state and session are in; without it the game opens for the session in me.
async function openGame(gid, kept = null) {
  closeGame();
  meLive = !kept;
  openId = gid;
  openColour = me.colour || 'white';
  if (!kept) keptWrite(LAST, { game: gid, tournament: me.player?.tournament_id ?? me.tournament_id });
  render(app, html`<div class="tablet-game">
    <div class="board-area" id="board-area"><div id="board" class="fill" tabindex="0"
      role="application" data-i18n-attr="aria-label:tablet.board_label"></div></div>
    <div class="player-line opp"><span class="name" id="opp-name"></span><span class="penalties" id="opp-pen"></span>
      <div class="clock" id="opp-clock" role="timer" aria-live="off"></div></div>
    <div class="player-line me"><span class="name" id="my-name"></span><span class="penalties" id="my-pen"></span>
      <div class="clock" id="my-clock" role="timer" aria-live="off"></div></div>
    <div class="side">
      <p class="tablet-head" id="t-head"></p>
      <div id="confirm-box"></div>
      <div id="status" class="status-line" role="status" aria-live="polite"></div>
      <div id="notices"></div>
      <div class="moves" id="moves" role="region" data-i18n-attr="aria-label:tablet.moves"></div>
      <form class="keyentry" id="keyentry" autocomplete="off">
        <label class="sr-only" for="typed" data-i18n="tablet.type_move"></label>
        <input id="typed" autocapitalize="off" spellcheck="false" data-i18n-attr="placeholder:tablet.type_move_ph">
        <button type="submit" data-i18n="tablet.send"></button></form>
      <div class="actions" id="actions">
        <button type="button" id="b-offer" data-i18n="tablet.offer"></button>
        <button type="button" id="b-claim" data-i18n="tablet.claim"></button>
        <button type="button" id="b-resign" data-i18n="tablet.resign"></button>
        <button type="button" id="b-call" data-i18n="tablet.call"></button>
      </div>
      <div id="announce" class="sr-only" aria-live="assertive"></div>
      <div class="toolbar"><span id="conn"></span><span id="lang"></span>
        <button type="button" id="b-signout" data-i18n="tablet.signout"></button><span id="t-tools" class="toolbar"></span></div>
    </div></div>`);
  $('#conn').append(conn.el);
  $('#lang').append(languagePicker());
  const mine = me.colour || 'white';
  board = new BoardView($('#board'), { interactive: true, orientation: mine, onMove: onBoardMove });
  clocks = new ClockPair({ [mine]: $('#my-clock'), [opposite(mine)]: $('#opp-clock') });
  $('#keyentry').addEventListener('submit', onTypedMove);
  $('#b-offer').addEventListener('click', onOffer);
  $('#b-claim').addEventListener('click', onClaim);
  $('#b-resign').addEventListener('click', onResign);
  $('#b-call').addEventListener('click', onCall);
  $('#b-signout').addEventListener('click', signOut);
  // The header and the tools come with the tournament, without holding the board up.
  tour = kept?.tour || null;
  tourLive = false;
  if (kept) {
    showKept(kept);
    // The kept game is seen first: what the live state needs (its reads
    // left already, js/early.js) is set up after the frame that shows it.
    await afterFrame();
    if (openId !== gid) return;
  }
  tourLoad = tournamentOf(me.player?.tournament_id ?? me.tournament_id);
  tourLoad.then((x) => {
    if (!$('#t-tools') || openId !== gid) return;
    if (x) { tour = x; tourLive = true; }
    tabletTools($('#t-tools'), tour);
    renderGame();
  });
  stream = new LiveStream(`${api.BASE}/games/${gid}/stream`, {
    types: ['state', 'game', 'tournament'],
    onOpen: () => refresh(),
    onEvent: onLive,
    onStatus: (s) => conn.set(s),
  });
  clearInterval(openGame.flagTimer);
  openGame.flagTimer = setInterval(checkFlag, 1000);
  // Once this game is over, the next round's pairing takes the tablet to the next game.
  clearInterval(openGame.nextTimer);
  openGame.nextTimer = setInterval(checkNextGame, 15000);
  await refresh();
}

// The kept game, drawn as it was: the clocks stand still and renderGame()
// lets nothing be played until apply() has the server's state.
function showKept(kept) {
  state = kept.state;
  keptState = true;
  if (tour) tabletTools($('#t-tools'), tour);
  clocks.update({ ...state.clocks, running: null });
  renderGame();
}

let refreshing = null;
async function refresh() {
  if (!me || !me.game_id) return;
  if (refreshing) return refreshing;
  refreshing = (async () => {
    try {
      apply(normalize(await api.get(`games/${me.game_id}`)));
    } catch (e) {
      if (e.status === 401 || e.status === 403) return showSignIn(t('tablet.session_lost'));
    } finally { refreshing = null; }
  })();
  return refreshing;
}

// The stream: first the whole state, then one update per stored event; and
// the tournament again whenever the desk changes it (its settings: the
// confirm step).
function onLive(type, data) {
  if (!data || typeof data !== 'object') return refresh();
  if (type === 'tournament') return onTournament(data);
  if (data.event && data.event.type === 'colours_reversed') checkColour();
  if (type === 'state' && data.state) return apply(normalize(data));
  if (type === 'game' && data.state && state && data.game_id === state.game.id) return apply(normalize(data, state));
  return refresh();
}

function onTournament(x) {
  const tid = me.player?.tournament_id ?? me.tournament_id;
  if (x.id !== tid) return;
  tour = x;
  tourLive = true;
  tournamentSeen(x);
  if ($('#t-tools')) tabletTools($('#t-tools'), tour);
  renderGame();
}

function apply(s) {
  if (!s || !s.game || (s.game.id !== undefined && s.game.id !== openId)) return;
  // A late answer must not roll the board back past what we already saw
  // (the check-in's answer after the stream's start would show the game
  // as not started until the next move); a kept state is no measure of
  // what is new.
  if (keptState) { state = null; keptState = false; }
  if (olderThan(s, state)) return;
  if (state && s.game.id === state.game.id) {
    for (const side of ['white', 'black']) {
      if (s.illegal[side] > state.illegal[side]) {
        illegalNotice = { side, ply: s.ply };
        navigator.vibrate?.([80, 60, 80]);
      }
    }
  }
  if (illegalNotice && illegalNotice.ply !== s.ply) illegalNotice = null;
  // Screen readers hear each new move; nobody needs to look at the board.
  if (state && s.moves.length > state.moves.length) {
    const m = s.moves[s.moves.length - 1];
    const side = s.moves.length % 2 ? 'white' : 'black';
    announce(`${t(`colour.${side}`)}: ${localSan(m.san)}`);
  }
  state = s;
  checkinIfDue();
  keepAwake();
  // Only fresh server figures move the clocks; a redraw must not rewind them.
  clocks?.update({ ...s.clocks, running: s.status === 'running' ? s.clocks.running : null });
  renderGame();
  // Of the player only what the kept game needs: the rest stays with the server.
  const player = me.player && { tournament_id: me.player.tournament_id, name: me.player.name };
  if (meLive) keptWrite(LAST, { game: openId, tournament: me.player?.tournament_id ?? me.tournament_id, colour: openColour, player, tour, state });
}

// Art. 6.7: presence at the board is the tablet signed in to this game.
function checkinIfDue() {
  const s = state;
  if (!isLive() || s.over || s.checked_in[myColour()] || checkinFor === s.game.id) return;
  checkinFor = s.game.id;
  act('checkin', {}, { quiet: true });
}

// 7.3: when the game goes on after colours reversed were found, the players
// swap colours; the tablet turns to the colour its player now has.
async function checkColour() {
  try {
    const m = await api.whoami();
    if (m.role === 'player' && m.game_id === me?.game_id && m.colour && m.colour !== me.colour) { me = m; openGame(m.game_id); }
  } catch { /* the next event asks again */ }
}

async function checkNextGame() {
  if (!state || !state.over) return;
  try {
    const m = await api.whoami();
    if (m.role === 'player' && m.game_id && m.game_id !== state.game.id) { me = m; openGame(m.game_id); }
  } catch { /* asked again later */ }
}

function announce(text) {
  const el = $('#announce');
  if (el) el.textContent = text;
}

// Flags claimed by the players (A.5): offer the claim once the opponent's time is gone.
function checkFlag() {
  if (!isLive() || !clocks || state.over) return;
  const opp = opposite(myColour());
  const gone = (clocks.remaining(opp) ?? 1) < -1500;
  const box = $('#flag-claim');
  if (gone && !box) {
    const b = document.createElement('button');
    b.id = 'flag-claim'; b.type = 'button'; b.className = 'danger';
    b.textContent = t('tablet.claim_flag');
    b.addEventListener('click', () => act('flag', { ply: state.ply }));
    $('#notices')?.prepend(b);
  } else if (!gone && box) box.remove();
}

function myColour() { return me.colour || 'white'; }

function counts(colour) {
  return { illegal: state.illegal[colour], pens: state.events.filter((e) => e.type === 'penalty' && e.side === colour) };
}

// The last claim, while no move has been made since (the engine judges it at once).
function lastClaim() {
  for (let i = state.events.length - 1; i >= 0; i--) {
    const e = state.events[i];
    if (e.type === 'claim') return e;
    if (e.type === 'move' || e.type === 'restore') return null;
  }
  return null;
}

const confirmedBy = (colour) => state.confirmed[colour];

function renderGame() {
  if (!state || !board) return;
  const mine = myColour();
  const opp = opposite(mine);
  const s = state;
  const over = s.over;
  const player = (c) => s[c] || { name: s.game[`${c}_name`] };
  $('#my-name').textContent = `${mine === 'white' ? '○' : '●'} ${playerLabel(player(mine))}`;
  $('#opp-name').textContent = `${opp === 'white' ? '○' : '●'} ${playerLabel(player(opp))}`;
  $('#t-head').textContent = headText(tour, s.game);
  for (const [c, id] of [[mine, '#my-pen'], [opp, '#opp-pen']]) {
    const { illegal, pens } = counts(c);
    const parts = [];
    if (illegal) parts.push(t('tablet.illegal_count', { n: illegal }));
    if (pens.length) parts.push(t('tablet.penalty_count', { n: pens.length }));
    $(id).textContent = parts.join(' · ');
  }
  const paused = s.status === 'paused';
  const live = isLive();
  const canMove = live && !over && !paused && !sending && s.to_move === mine && s.status !== 'pending';
  board.show(s, canMove ? mine : null);
  renderStatus(mine, over, paused);
  renderNotices(mine, opp, over);
  renderMoves();
  // Before the round starts there is no game to offer, claim or resign
  // yet; in a kept state nothing is acted on.
  const before = s.status === 'pending' || !live;
  $('#b-offer').disabled = over || before || s.draw_offer === mine;
  $('#b-offer').setAttribute('aria-pressed', String(offerArmed && s.to_move === mine));
  $('#b-claim').disabled = over || before || s.to_move !== mine;
  $('#b-resign').disabled = over || before;
  $('#b-call').disabled = !live || (over && confirmedBy(mine));
  $('#typed').disabled = !canMove;
}

function renderStatus(mine, over, paused) {
  const s = state;
  let text;
  if (over) text = `${t('tablet.game_over')}: ${resultText(s.result)}${s.reason ? ` (${t(`reason.${s.reason}`)})` : ''}`;
  else if (s.call_pending) text = t('tablet.arbiter_called');
  else if (s.status === 'pending') text = t('tablet.not_started');
  else if (paused) text = t('tablet.paused');
  else if (sending) text = t('tablet.sending');
  else text = s.to_move === mine ? t('tablet.your_move') : t('tablet.their_move');
  $('#status').textContent = text;
}

function renderNotices(mine, opp, over) {
  const s = state;
  const box = $('#notices');
  const parts = [];
  // A kept state: marked so, and no answer to an offer or a result from it.
  if (!isLive()) {
    render(box, keptBanner());
    return;
  }
  if (!over && s.draw_offer === opp) {
    parts.push(html`<div class="banner warn" role="alert"><span data-i18n="tablet.offer_received"></span>
      <span class="actions"><button type="button" id="n-accept" class="primary" data-i18n="tablet.accept"></button>
      <button type="button" id="n-decline" data-i18n="tablet.decline"></button></span></div>`);
  } else if (!over && s.draw_offer === mine) {
    parts.push(html`<div class="banner info" data-i18n="${s.offer_awaits_arbiter ? 'tablet.offer_awaits_arbiter' : 'tablet.offer_sent'}"></div>`);
  } else if (!over && offerArmed && s.to_move === mine) {
    parts.push(html`<div class="banner info" data-i18n="tablet.offer_armed"></div>`);
  }
  const claim = !over && lastClaim();
  if (claim) {
    const kind = t(`claim.${claim.claim || 'threefold'}`);
    parts.push(html`<div class="banner warn" role="alert">${t(claim.by === mine ? 'tablet.claim_yours' : 'tablet.claim_theirs', { kind })}</div>`);
  }
  if (illegalNotice && !over) {
    // 4.3: name the piece that must move now (the server marks its square).
    const piece = pieceAt(state.fen, state.must_move_from);
    const side = t(`colour.${illegalNotice.side}`);
    parts.push(html`<div class="banner alert" role="alert">${piece
      ? t('tablet.illegal_notice_piece', { side, piece: t(`piece.name.${piece}`).toLowerCase(), square: state.must_move_from })
      : t('tablet.illegal_notice', { side })}</div>`);
  }
  if (over) {
    const mineDone = confirmedBy(mine);
    parts.push(html`<div class="banner ${mineDone ? 'info' : 'warn'}" role="alert">
      <span>${t('tablet.result_is', { result: resultText(s.result) })}</span>
      ${mineDone ? html`<span data-i18n="tablet.confirmed"></span>` : html`<span class="actions">
      <button type="button" id="n-confirm" class="primary" data-i18n="tablet.confirm"></button></span>`}</div>`);
  }
  render(box, html`${parts}`);
  $('#n-accept')?.addEventListener('click', () => act('accept', { ply: s.ply }));
  $('#n-decline')?.addEventListener('click', () => act('decline', { ply: s.ply }));
  $('#n-confirm')?.addEventListener('click', onConfirm);
}

function renderMoves() {
  const list = state.moves;
  const items = [];
  for (let i = 0; i < list.length; i += 2) {
    items.push(html`<li><span class="n">${i / 2 + 1}.</span> ${localSan(list[i].san)}${list[i + 1] ? html` ${localSan(list[i + 1].san)}` : ''}</li>`);
  }
  const box = $('#moves');
  render(box, html`<ol>${items}</ol>`);
  box.scrollTop = box.scrollHeight;
}

// ---------- acting ----------
// A refusal for the player: in their language only; the server's own
// (English) words are added for English readers alone.
function playerError(e) { return errorText(e, lang === 'en'); }

// The verdict's reason is the server's English sentence: English readers see
// it; others see an illegal move named in their language, and learn the rest
// (an offer, a claim's fate) from the status and notices drawn from the state.
function verdictToast(v, kind) {
  if (!v || !v.reason) return;
  if (lang === 'en') toast(v.reason, kind);
  else if (v.illegal) toast(t('error.illegal_move'), 'error');
}

// A game action; the answer is {verdict, event, game}.  A refused verdict is
// explained to the player in the server's words.
async function act(what, body, { quiet = false } = {}) {
  if (!isLive()) return false;
  try {
    const r = await api.post(`games/${me.game_id}/${what}`, body, { retry: 3 });
    // An answer that recorded nothing (a retry of one that did) cannot be
    // placed among the stream's updates: the game is read again instead.
    if (r.event) apply(normalize(r.game, state)); else await refresh();
    if (!quiet) verdictToast(r.verdict, r.verdict && r.verdict.ok === false ? 'error' : 'info');
    return r.verdict ? r.verdict.ok !== false : true;
  } catch (e) {
    if (!quiet) toast(playerError(e), 'error');
    await refresh();
    return false;
  }
}

// Whether this move must be confirmed: the tournament may require it, so a
// move made before its settings arrived waits for them.
const mustConfirm = async () => {
  if (!tourLive) await tourLoad;
  return confirmMoves(tour);
};

async function onBoardMove(orig, dest) {
  let uci = orig + dest;
  if (board.isPromotion(orig, dest)) {
    const piece = await pickPromotion();
    if (!piece) { board.redraw(state, myColour()); return; }
    uci += piece;
  }
  if (await mustConfirm() && !await askMove($('#confirm-box'), `${orig}–${dest}`)) { board.redraw(state, myColour()); return; }
  sendMove(uci);
}

async function onTypedMove(e) {
  e.preventDefault();
  const input = $('#typed');
  const text = typedToSan(input.value);
  if (!text) return;
  if (await mustConfirm() && !await askMove($('#confirm-box'), input.value.trim())) return;
  if (await sendMove(text) !== null) input.value = '';
}

// The move carries the ply it answers; the server plays it once however many
// times it arrives, so we keep retrying through a dropped connection.
// Result: true played, false a completed illegal move, null not accepted at all.
async function sendMove(move) {
  if (sending || !isLive()) return null;
  sending = true;
  const ply = state.ply;
  renderGame();
  let ok = null;
  try {
    const body = offerArmed ? { ply, move, offer: true } : { ply, move };
    const r = await api.post(`games/${me.game_id}/move`, body, { retry: 30 });
    apply(normalize(r.game, state));
    ok = !r.verdict || (r.verdict.ok !== false && !r.verdict.illegal);
    if (ok) offerArmed = false;
    if (ok) navigator.vibrate?.(30);
    else verdictToast(r.verdict, 'error');
  } catch (e) {
    // A stale ply means the position moved on meanwhile: the refresh below shows it.
    if (e.code !== 'stale_ply') toast(playerError(e), 'error');
    // The rules refused the offer armed with the move (e.g. the Sofia rule):
    // disarm it, so the move made again goes without it.
    if (e.code === 'offer_not_allowed') offerArmed = false;
  } finally {
    sending = false;
  }
  await refresh();
  renderGame();
  return ok;
}

function pickPromotion() {
  return new Promise((resolve) => {
    const colour = myColour();
    const area = $('#board-area');
    const box = document.createElement('div');
    box.className = 'promo cg-wrap';
    box.setAttribute('role', 'dialog');
    box.setAttribute('aria-label', t('tablet.promote'));
    const roles = { q: 'queen', r: 'rook', b: 'bishop', n: 'knight' };
    for (const p of PROMO) {
      const b = document.createElement('button');
      b.type = 'button';
      b.innerHTML = `<piece class="${roles[p]} ${colour}"></piece>`;
      b.setAttribute('aria-label', t(`piece.name.${p.toUpperCase()}`));
      b.addEventListener('click', () => { box.remove(); resolve(p); });
      box.append(b);
    }
    const cancel = (e) => { if (e.target === box) { box.remove(); resolve(null); } };
    box.addEventListener('click', cancel);
    area.append(box);
    box.querySelector('button').focus();
  });
}

// Art. 9.1.2: the offer is made with one's own move.  On move, the button
// arms an offer that goes with the next move; otherwise (just moved) it is sent now.
async function onOffer() {
  if (state.to_move === myColour()) {
    offerArmed = !offerArmed;
    renderGame();
    return;
  }
  const ok = await ask({ title: t('tablet.offer'), message: t('tablet.offer_confirm') });
  if (ok) act('offer', { ply: state.ply });
}

async function onClaim() {
  const r = await ask({
    title: t('tablet.claim'), message: t('tablet.claim_help'),
    fields: [
      { name: 'kind', label: t('tablet.claim_kind'), type: 'select', options: [['threefold', t('claim.threefold')], ['fifty', t('claim.fifty')]] },
      { name: 'move', label: t('tablet.intended_move'), value: '' },
    ],
    ok: t('tablet.claim'),
  });
  if (!r) return;
  const body = { ply: state.ply, claim: r.kind };
  const mv = typedToSan(r.move || '');
  if (mv) body.move = mv;
  act('claim', body);
}

async function onResign() {
  const ok = await ask({ title: t('tablet.resign'), message: t('tablet.resign_confirm'), ok: t('tablet.resign'), danger: true });
  if (ok) act('resign', { ply: state.ply });
}

async function onCall() {
  const r = await ask({ title: t('tablet.call'), message: t('tablet.call_help'), fields: [{ name: 'reason', label: t('tablet.reason'), value: '' }], ok: t('tablet.call') });
  if (!r) return;
  if (await act('call', r.reason ? { note: r.reason.slice(0, 190) } : {}, { quiet: true })) toast(t('tablet.call_sent'));
}

async function onConfirm() {
  const ok = await ask({ title: t('tablet.confirm'), message: t('tablet.confirm_help', { result: resultText(state.result) }) });
  if (ok) act('confirm', { ply: state.ply }, { quiet: true });
}

// Typing a letter, a digit or O while the board has the focus starts a typed move.
document.addEventListener('keydown', (e) => {
  const typed = $('#typed');
  if (!typed || typed.disabled || e.ctrlKey || e.metaKey || e.altKey || e.key.length !== 1) return;
  if (document.activeElement && /INPUT|SELECT|TEXTAREA|BUTTON/.test(document.activeElement.tagName)) return;
  if (!/[a-hKQRBNO0-9КрФЛСЦДТО]/i.test(e.key)) return;
  typed.focus();
});

// Rotation and resizing: chessground measures its bounds; tell it they changed.
window.addEventListener('resize', () => board?.cg.redrawAll());
window.addEventListener('orientationchange', () => setTimeout(() => board?.cg.redrawAll(), 200));
// A tablet must not fall asleep during a game: hold a screen wake lock while
// a game is open (the browser drops it when the page is hidden; take it again).
let wakeLock = null;
async function keepAwake() {
  if (!state || state.over || wakeLock || !navigator.wakeLock || document.hidden) return;
  try {
    wakeLock = await navigator.wakeLock.request('screen');
    wakeLock.addEventListener('release', () => { wakeLock = null; });
  } catch { /* not allowed here (no HTTPS, battery saver): the screen may dim */ }
}

document.addEventListener('visibilitychange', () => { if (!document.hidden) { refresh(); keepAwake(); } });

start();
