// Arbiter web: the "Ratings" view of the desk and the public pages — each
// player's FIDE rating change (GET .../ratings) with the norm status on the
// player's line (GET .../norms), and links to the printable list, the CSV
// and each norm certificate the server prints.

import { t, formatScore, lang } from './i18n.js';
import { html } from './ui.js';
import * as api from './api.js';

// A signed change for people: "+7,6", "−1.8", "0".
function signed(x) {
  if (x === null || x === undefined) return '';
  const s = String(Math.round(x * 100) / 100).replace('.', lang === 'en' ? '.' : ',');
  return x > 0 ? `+${s}` : s.replace('-', '−');
}

// The norm check that says the most about a player: a norm made, else one
// still possible, else none (out of reach is not news on the player's line).
function bestNorm(row) {
  const norms = (row && row.norms) || [];
  return norms.find((c) => c.norm && !c.remaining) || norms.find((c) => c.possible && c.need !== null) || null;
}

function normStatus(c) {
  if (!c) return '';
  if (c.norm && !c.remaining) return `${c.title}: ${t('print.norm_made')}`;
  if (c.remaining > 0) return `${c.title}: ${t('print.norm_need', { p: formatScore(c.need), n: c.remaining })}`;
  return `${c.title}: ${t('print.norm_possible')}`;
}

const href = (tid, what, query) => `${api.BASE}/tournaments/${tid}/${what}?${query}`;

// The view's template for tournament TID.
export async function ratingsView(tid) {
  const [rows, norms] = await Promise.all([api.get(`tournaments/${tid}/ratings`), api.get(`tournaments/${tid}/norms`)]);
  if (!rows.length) return html`<p class="muted" data-i18n="view.no_standings"></p>`;
  const byRank = new Map((norms.players || []).map((p) => [p.start_rank, p]));
  const l = lang || 'en';
  return html`<div class="toolbar no-print">
      <a class="button" href="${href(tid, 'ratings', `format=html&lang=${l}`)}" target="_blank" rel="noopener" data-i18n="view.ratings"></a>
      <a class="button" href="${href(tid, 'ratings', 'format=csv')}" download>CSV</a>
      <a class="button" href="${href(tid, 'norms', `format=html&lang=${l}`)}" target="_blank" rel="noopener" data-i18n="view.norms"></a></div>
    <div class="scroll-x"><table class="standings ratings"><caption class="sr-only" data-i18n="view.ratings"></caption>
    <thead><tr><th class="num" data-i18n="print.no"></th><th data-i18n="print.name"></th><th class="num" data-i18n="print.rating"></th>
    <th class="num" data-i18n="print.k"></th><th class="num" data-i18n="print.rated_games"></th><th class="num" data-i18n="print.score"></th>
    <th class="num" data-i18n="print.expected"></th><th class="num" data-i18n="print.change"></th><th class="num" data-i18n="print.new_rating"></th>
    <th data-i18n="print.norm"></th></tr></thead>
    <tbody>${rows.map((r) => {
    const c = bestNorm(byRank.get(r.start_rank));
    const rated = r.rating > 0;
    return html`<tr><td class="num">${r.start_rank}</td><td>${r.name}</td><td class="num">${r.rating || ''}</td>
      <td class="num">${rated ? r.k : ''}</td><td class="num">${r.rated_games}</td><td class="num">${formatScore(r.score)}</td>
      <td class="num">${rated ? formatScore(r.expected) : ''}</td><td class="num"><strong>${rated ? signed(r.rating_change) : ''}</strong></td>
      <td class="num">${rated ? r.new_rating : (r.initial_rating || '')}</td>
      <td>${normStatus(c)}${c && c.norm && !c.remaining ? html` <a href="${href(tid, 'norms', `format=html&lang=${l}&player=${r.player_id}&title=${c.title}`)}"
        target="_blank" rel="noopener" data-i18n="print.certificate"></a>` : ''}</td></tr>`;
  })}</tbody></table></div>
    <p class="muted" data-i18n="print.legend_ratings"></p>`;
}
