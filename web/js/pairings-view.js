// Arbiter web: a round's pairings as chess players read them, for the desk's
// result entry and the public pages: board, start number (TPN), title, name,
// rating and the points each player had before the round (with the
// virtual points of an accelerated round, where the desk asks for them), a
// result column, and the round's byes in the same list.  The players' numbers and points
// come from the crosstable's JSON (one request gives every player's start
// number and every round's cell), so nothing here recounts the rules.

import { t, formatScore } from './i18n.js';
import { html } from './ui.js';
import { resultPoints } from './views.js';

/* Per player id: { tpn, name, title, rating, cells } from the crosstable
 * JSON (GET .../crosstable?format=json), or an empty map without one. */
export function playerIndex(cross) {
  const map = new Map();
  for (const row of (cross && cross.rows) || []) {
    const p = row.player || {};
    map.set(p.id, { tpn: row.tpn ?? p.tpn, name: p.name, title: p.title || '', rating: p.rating || 0, cells: row.results || [] });
  }
  return map;
}

// Points of one crosstable cell under the tournament's scoring.
function cellPoints(c, pts) {
  const win = pts.win ?? 1; const draw = pts.draw ?? 0.5; const loss = pts.loss ?? 0;
  switch (c.kind) {
    case 'pab': return pts.bye ?? win;
    case 'hpb': return draw;
    case 'fpb': return win;
    case 'zpb': return 0;
    default: return c.result === '1' || c.result === '+' ? win : c.result === '½' ? draw : c.result === '0' || c.result === '-' ? loss : 0;
  }
}

/* The points player PID had before round RN (the rounds before it only). */
export function pointsBefore(index, pid, rn, points = {}) {
  const p = index.get(pid);
  if (!p) return 0;
  return p.cells.filter((c) => c.round < rn).reduce((acc, c) => acc + cellPoints(c, points), 0);
}

/* A <select> of the rounds, labelled for screen readers; ID names it. */
export function roundPicker(rounds, current, id) {
  return html`<label for="${id}" data-i18n="view.round"></label><select id="${id}" class="round-picker">
    ${rounds.map((r) => html`<option value="${r.number}" ${r.number === current ? html`selected` : ''}>${t('view.round_n', { n: r.number })}</option>`)}</select>`;
}

/* The round to show first: the first with a result still missing, else the last. */
export function defaultRound(rounds) {
  const open = rounds.find((r) => (r.games || []).some((g) => g.result === '*'));
  return (open || rounds[rounds.length - 1] || { number: 0 }).number;
}

const who = (p, fallback) => (p ? `${p.title ? `${p.title} ` : ''}${p.name}` : fallback);

/* The points cell: the points before the round and, under acceleration,
 * the virtual points the pairing counted, "3 (+1)". */
function pointsCell(before, virt) {
  const text = formatScore(before) || '0';
  if (!virt) return html`<td class="num pts">${text}</td>`;
  const v = formatScore(virt);
  return html`<td class="num pts" data-virtual="${virt}">${text} <span class="virt" title="${t('view.virtual_title', { n: v })}">(+${v})</span></td>`;
}

/* The pairings table of ROUND.  index: playerIndex(); byes: the tournament's
 * byes; points: the tournament's scoring; result(g): the result cell's
 * content (default: the result as text); link(g): a game's address;
 * virtual: the round's virtual_points ([{player_id, points}]), shown next
 * to the points by the desk's pairing views (acceleration forms the score
 * groups only: standings never show them). */
export function pairingsList(round, index, { byes = [], points = {}, result, link, id = '', virtual = [] } = {}) {
  const games = [...(round.games || [])].sort((a, b) => a.board - b.board);
  const idle = (byes || []).filter((b) => b.round === round.number && b.kind !== 'none');
  const virt = new Map((virtual || []).map((v) => [v.player_id, v.points]));
  const side = (pid, name) => {
    const p = index.get(pid);
    return html`<td class="num tpn">${p ? p.tpn ?? '' : ''}</td><td class="name">${who(p, name || pid)}</td>
      <td class="num rtg">${p && p.rating ? p.rating : ''}</td>${pointsCell(pointsBefore(index, pid, round.number, points), virt.get(pid))}`;
  };
  return html`<table class="pairings pairings-full" ${id ? html`id="${id}"` : ''}><caption>${t('view.round_n', { n: round.number })}</caption>
    <thead><tr><th class="num" data-i18n="view.board"></th>
    <th class="num" data-i18n="view.tpn"></th><th data-i18n="colour.white"></th><th class="num rtg" data-i18n="view.rating"></th><th class="num pts" data-i18n="view.points"></th>
    <th data-i18n="view.result"></th>
    <th class="num" data-i18n="view.tpn"></th><th data-i18n="colour.black"></th><th class="num rtg" data-i18n="view.rating"></th><th class="num pts" data-i18n="view.points"></th>
    ${link ? html`<th class="open"><span class="sr-only" data-i18n="view.open"></span></th>` : ''}</tr></thead>
    <tbody>${games.map((g) => html`<tr data-gid="${g.id}" data-board="${g.board}"><td class="num">${g.board}</td>
      ${side(g.white_id, g.white_name)}<td class="res">${result ? result(g) : link ? html`<a href="${link(g)}">${resultCell(g.result) || '–'}</a>` : resultCell(g.result)}</td>${side(g.black_id, g.black_name)}
      ${link ? html`<td class="open"><a href="${link(g)}" data-i18n="view.open"></a></td>` : ''}</tr>`)}
    ${idle.map((b) => html`<tr class="bye" data-player="${b.player_id}"><td class="num"></td>${side(b.player_id, b.player_name)}
      <td class="res">${byeText(b)}</td><td></td><td></td><td class="rtg"></td><td></td>${link ? html`<td class="open"></td>` : ''}</tr>`)}</tbody>
    ${virt.size ? html`<tfoot><tr><td colspan="${link ? 11 : 10}" class="muted virt-note" data-i18n="view.virtual_note"></td></tr></tfoot>` : ''}</table>`;
}

// A bye's text in the result column: its points and its kind.
function byeText(b) {
  return t(`desk.bye_${b.kind}`);
}

/* The result as a reader writes it: "1–0", "½–½", "+ –", "*" when missing. */
export function resultCell(r) {
  if (!r || r === '*') return '';
  const pts = resultPoints(r);
  if (!pts) return r;
  if (['+/-', '-/+', '-/-', '+/+'].includes(r)) return r.replace('/', ' – ');
  return `${formatScore(pts[0]) || '0'}–${formatScore(pts[1]) || '0'}`;
}
