// Arbiter web: the on-screen crosstable, as on the printed one.  A Swiss in
// the form chess-results made familiar: a row per player in standings order,
// a cell per round with the opponent's start number, the colour and the
// result ("12w1", "7b½", "3w+", "PAB"), then points and tie-breaks.  A round
// robin is the player-by-player grid (views.js).  The Swiss cells are the
// server's own (GET .../crosstable?format=json), so screen and paper agree.

import * as api from './api.js';
import { formatScore, formatDecimal } from './i18n.js';
import { html } from './ui.js';
import { crosstable, playerName } from './views.js';

/* The Swiss crosstable of the server's JSON (rows in standings order). */
export function swissCrosstable(cross) {
  const rows = (cross && cross.rows) || [];
  if (!rows.length) return html`<p class="muted" data-i18n="view.no_standings"></p>`;
  const nr = Math.max(cross.after_round || 0, ...rows.map((r) => Math.max(0, ...(r.results || []).map((c) => c.round))));
  const tbs = cross.tiebreaks || [];
  const cell = (r, n) => (r.results || []).find((c) => c.round === n);
  return html`<table class="cross swiss"><caption class="sr-only" data-i18n="view.crosstable"></caption>
    <thead><tr><th class="num" data-i18n="view.rank"></th><th class="num" data-i18n="view.tpn"></th><th data-i18n="view.name"></th>
    <th class="num" data-i18n="view.rating"></th><th data-i18n="view.federation"></th>
    ${Array.from({ length: nr }, (_, i) => html`<th scope="col" class="num">${i + 1}</th>`)}
    <th class="num" data-i18n="view.points"></th>${tbs.map((k) => html`<th class="num">${k}</th>`)}</tr></thead>
    <tbody>${rows.map((r) => html`<tr><td class="num">${r.rank}</td><td class="num">${r.tpn ?? ''}</td><td class="left">${playerName(r.player)}</td>
      <td class="num">${r.player.rating || ''}</td><td>${r.player.federation || ''}</td>
      ${Array.from({ length: nr }, (_, i) => { const c = cell(r, i + 1); return html`<td class="rc ${c ? c.kind : ''}">${c ? c.text : ''}</td>`; })}
      <td class="num"><strong>${formatScore(r.points) || '0'}</strong></td>
      ${tbs.map((k) => html`<td class="num">${formatDecimal(r.tiebreaks?.[k])}</td>`)}</tr>`)}</tbody></table>`;
}

/* The crosstable of TOUR as the page shows it: the grid for a round robin,
 * the Swiss form otherwise. */
export async function crosstableFor(tour) {
  const tid = tour.id;
  if (tour.system === 'roundrobin') {
    const [rows, rounds, byes] = await Promise.all([api.get(`tournaments/${tid}/standings`), api.get(`tournaments/${tid}/rounds`),
      api.get(`tournaments/${tid}/byes`)]);
    return crosstable(rows, rounds, byes);
  }
  return swissCrosstable(await api.get(`tournaments/${tid}/crosstable?format=json`));
}
