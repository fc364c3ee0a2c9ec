// Arbiter web: read-only views shared by the desk and the public pages:
// standings, crosstable, pairings, board cards for the live grid, and the
// scoresheet with clock readings.

import { t, lang, localSan, formatScore, formatDecimal } from './i18n.js';
import { html, resultText } from './ui.js';
import { formatClock } from './clock.js';

export function playerName(p) {
  if (!p) return '';
  return p.title ? `${p.title} ${p.name}` : p.name;
}

export function standingsTable(rows) {
  if (!rows || !rows.length) return html`<p class="muted" data-i18n="view.no_standings"></p>`;
  const tbKeys = Object.keys(rows[0].tiebreaks || {});
  return html`<table class="standings"><caption class="sr-only" data-i18n="view.standings"></caption>
    <thead><tr><th class="num" data-i18n="view.rank"></th><th data-i18n="view.name"></th><th class="num" data-i18n="view.rating"></th>
    <th data-i18n="view.federation"></th><th class="num" data-i18n="view.points"></th><th class="num" data-i18n="view.games"></th>
    ${tbKeys.map((k) => html`<th class="num">${k}</th>`)}</tr></thead>
    <tbody>${rows.map((r) => html`<tr><td class="num">${r.rank}</td><td>${playerName(r.player)}</td>
      <td class="num">${r.player.rating || ''}</td><td>${r.player.federation || ''}</td>
      <td class="num"><strong>${formatScore(r.points)}</strong></td><td class="num">${r.games ?? ''}</td>
      ${tbKeys.map((k) => html`<td class="num">${formatDecimal(r.tiebreaks[k])}</td>`)}</tr>`)}</tbody></table>`;
}

// Results of games not played over the board (Art. 10: +/-, -/+, -/-, +/+).
const FORFEITS = new Set(['+/-', '-/+', '-/-', '+/+']);

// Points of a result string for white and black, null for an unfinished game.
export function resultPoints(r) {
  return ({
    '1-0': [1, 0], '0-1': [0, 1], '1/2-1/2': [0.5, 0.5], '1/2-0': [0.5, 0], '0-1/2': [0, 0.5], '0-0': [0, 0],
    '1-1': [1, 1], '1-1/2': [1, 0.5], '1/2-1': [0.5, 1], '+/-': [1, 0], '-/+': [0, 1], '-/-': [0, 0], '+/+': [1, 1],
  })[r] || null;
}

// Crosstable in standings order, built from every round's games, and from
// the byes (GET .../byes) the round robin games not played: + for the
// scheduled opponent of an absent player, H or − for the absent one.
export function crosstable(standings, rounds, byes = []) {
  if (!standings || !standings.length) return html`<p class="muted" data-i18n="view.no_standings"></p>`;
  const order = standings.map((s) => s.player.id);
  const idx = new Map(order.map((id, i) => [id, i]));
  const cells = order.map(() => order.map(() => []));
  for (const r of rounds || []) {
    for (const g of r.games || []) {
      const pts = resultPoints(g.result);
      const w = idx.get(g.white_id); const b = idx.get(g.black_id);
      if (w === undefined || b === undefined) continue;
      const forfeit = FORFEITS.has(g.result);
      const mark = (p) => (pts ? (forfeit ? (p ? '+' : '−') : formatScore(p) || '0') : '·');
      cells[w][b].push(pts ? mark(pts[0]) : '*');
      cells[b][w].push(pts ? mark(pts[1]) : '*');
    }
  }
  // Each side of an unplayed round robin game has its row naming the other
  // (a withdrawn player has none: the forfeit row stands for both).
  const list = byes || [];
  for (const b of list) {
    const p = idx.get(b.player_id); const o = idx.get(b.opponent_id);
    if (p === undefined || o === undefined) continue;
    cells[p][o].push(b.kind === 'forfeit' ? '+' : b.kind === 'half' ? 'H' : '−');
    if (b.kind === 'forfeit' && !list.some((x) => x.round === b.round && x.player_id === b.opponent_id)) cells[o][p].push('−');
  }
  return html`<table class="cross"><caption class="sr-only" data-i18n="view.crosstable"></caption>
    <thead><tr><th>#</th><th data-i18n="view.name"></th>${order.map((_, i) => html`<th scope="col">${i + 1}</th>`)}
    <th data-i18n="view.points"></th></tr></thead>
    <tbody>${standings.map((s, i) => html`<tr><th scope="row">${i + 1}</th><td class="left">${playerName(s.player)}</td>
      ${order.map((_, j) => (i === j ? html`<td class="self" aria-hidden="true"></td>` : html`<td>${cells[i][j].join(' ')}</td>`))}
      <td><strong>${formatScore(s.points)}</strong></td></tr>`)}</tbody></table>`;
}

// byes: the tournament's byes (GET .../byes); this round's are listed under the
// boards, so a player without a game still finds their name.
export function pairingsTable(round, { link, byes = [] } = {}) {
  const games = [...(round.games || [])].sort((a, b) => a.board - b.board);
  const idle = (byes || []).filter((b) => b.round === round.number && b.kind !== 'none');
  return html`<table class="pairings"><caption>${t('view.round_n', { n: round.number })}</caption>
    <thead><tr><th class="num" data-i18n="view.board"></th><th data-i18n="colour.white"></th><th data-i18n="view.result"></th>
    <th data-i18n="colour.black"></th>${link ? html`<th></th>` : ''}</tr></thead>
    <tbody>${games.map((g) => html`<tr><td class="num">${g.board}</td><td>${g.white_name || g.white_id}</td>
      <td>${resultText(g.result)}</td><td>${g.black_name || g.black_id}</td>
      ${link ? html`<td><a href="${link(g)}" data-i18n="view.open"></a></td>` : ''}</tr>`)}
    ${idle.map((b) => html`<tr class="bye" data-player="${b.player_id}"><td class="num"></td><td>${b.player_name || b.player_id}</td>
      <td></td><td>${t(`desk.bye_${b.kind}`)}</td>${link ? html`<td></td>` : ''}</tr>`)}</tbody></table>`;
}

// The moves and clock readings, a row per move number.
export function scoresheet(state) {
  const rows = [];
  const list = state.moves;
  const clockOf = (m, side) => (m[`${side}_ms`] === undefined ? '' : formatClock(m[`${side}_ms`]).replace(/\.\d$/, ''));
  for (let i = 0; i < list.length; i += 2) {
    const w = list[i]; const b = list[i + 1];
    rows.push(html`<tr><td class="num">${i / 2 + 1}</td><td>${localSan(w.san)}</td><td class="muted">${clockOf(w, 'white')}</td>
      <td>${b ? localSan(b.san) : ''}</td><td class="muted">${b ? clockOf(b, 'black') : ''}</td></tr>`);
  }
  return html`<table class="scoresheet"><caption class="sr-only" data-i18n="view.scoresheet"></caption>
    <thead><tr><th class="num">#</th><th data-i18n="colour.white"></th><th data-i18n="view.clock"></th>
    <th data-i18n="colour.black"></th><th data-i18n="view.clock"></th></tr></thead><tbody>${rows}</tbody></table>`;
}

// The one note the server writes itself (db/games.c), on the pause of a
// running game after the daemon stopped: said by the sentence instead.
const DOWNTIME_NOTE = 'the server stopped; clocks paused as of then';
const downtime = (e) => e.type === 'pause' && e.note === DOWNTIME_NOTE;

// Every event of the log, as the arbiter's audit trail.
// One event of the game's log as a sentence in the reader's language:
// "White played e4 and offered a draw.", "The arbiter penalised Black: warning."
export function eventSentence(e) {
  const who = t(`colour.${e.by || 'server'}`);
  const side = e.side ? t(`colour.${e.side}`) : '';
  const v = { who, side, move: e.move ? localSan(e.move) : '', ply: e.ply ?? '', moves: e.moves ?? '',
    claim: e.claim ? t(`claim.${e.claim}`) : '', penalty: e.penalty ? t(`penalty.${e.penalty}`) : '',
    white: formatScore(e.white), black: formatScore(e.black) };
  let key = `log.${e.type}`;
  if (downtime(e)) key = 'log.pause_downtime';
  else if (e.type === 'checkin' && e.by === 'arbiter' && side) key = 'log.checkin_admit';
  else if (e.type === 'move' && e.offer) key = 'log.move_offer';
  else if (e.type === 'claim' && e.move) key = 'log.claim_move';
  else if (e.type === 'flag' && side) key = 'log.flag_side';
  else if (e.type === 'result' && e.forfeit) key = 'log.result_forfeit';
  else if (e.type === 'penalty' && (e.ms || e.score !== undefined)) {
    key = 'log.penalty_amount';
    v.amount = e.ms ? formatClock(e.ms) : formatScore(e.score);
  } else if (e.type === 'adjust') {
    const parts = [];
    if (e.set_ms !== undefined) parts.push(t('log.adjust_set', { time: formatClock(e.set_ms) }));
    if (e.add_ms !== undefined) parts.push(t('log.adjust_add', { time: `${e.add_ms < 0 ? '−' : '+'}${formatClock(Math.abs(e.add_ms))}` }));
    if (e.moves !== undefined) parts.push(t('log.adjust_moves', { moves: e.moves }));
    v.what = parts.join(', ');
  }
  const text = t(key, v);
  return text === key ? `${who}: ${t(`event.${e.type}`)}.` : text;
}

export function eventLog(state) {
  const time = (ms) => (ms ? new Date(ms).toLocaleTimeString(lang, { hourCycle: 'h23' }) : '');
  return html`<table class="eventlog"><thead><tr><th class="num">#</th><th data-i18n="view.time"></th><th data-i18n="view.event"></th>
    <th data-i18n="view.details"></th></tr></thead>
    <tbody>${(state.events || []).map((e) => html`<tr data-type="${e.type}"><td class="num">${e.seq}</td>
      <td>${time(e.at_ms)}</td><td>${eventSentence(e)}</td><td>${e.note && !downtime(e) ? `“${e.note}”` : ''}</td></tr>`)}</tbody></table>`;
}

export function standingsCsv(rows) {
  const tbKeys = rows.length ? Object.keys(rows[0].tiebreaks || {}) : [];
  const q = (v) => `"${String(v ?? '').replace(/"/g, '""')}"`;
  const head = ['rank', 'name', 'title', 'rating', 'federation', 'fide_id', 'points', 'games', ...tbKeys];
  const lines = rows.map((r) => [r.rank, r.player.name, r.player.title, r.player.rating, r.player.federation, r.player.fide_id,
    r.points, r.games, ...tbKeys.map((k) => r.tiebreaks[k])].map(q).join(','));
  // The byte order mark, as on the server's CSV files: spreadsheets then read UTF-8 names right.
  return '\uFEFF' + [head.join(','), ...lines].join('\r\n') + '\r\n';
}
