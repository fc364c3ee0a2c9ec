// Arbiter web: the desk's result entry, at the speed of a keyboard.  The
// round's pairings with a result column; one key per board sets the result
// and moves to the next board:
//   1  white wins        =  or 5  draw        0  black wins
//   +  white wins by forfeit      -  black wins by forfeit
//   arrows, Tab, Enter: the next or previous board without entering anything
// The count of results still missing stays in view.  Each key sends
// POST games/{gid}/arbiter/result at once and the cursor moves on without
// waiting, so typing is never held up by the network; a refused result puts
// the old text back and says why.  Route: #/t/ID/results[/RN].

import * as api from './api.js';
import { t } from './i18n.js';
import { html, render, $, $$, toast, errorText } from './ui.js';
import { playerIndex, pairingsList, roundPicker, defaultRound, resultCell } from './pairings-view.js';

// Key -> the body of the arbiter's result.
const KEYS = {
  1: { white: 1, black: 0 },
  '=': { white: 0.5, black: 0.5 },
  5: { white: 0.5, black: 0.5 },
  '½': { white: 0.5, black: 0.5 },
  0: { white: 0, black: 1 },
  '+': { white: 1, black: 0, forfeit: true },
  '-': { white: 0, black: 1, forfeit: true },
};

// The result string the server will store for a body, shown before it answers.
function expected(b) {
  if (b.forfeit) return b.white ? '+/-' : '-/+';
  return b.white === 1 ? '1-0' : b.white === 0 ? '0-1' : '1/2-1/2';
}

/* Draws the result entry of tournament TOUR into APP under HEAD; the
 * returned function undoes what it bound. */
export async function viewResults(app, tour, head) {
  const [rounds, byes, cross] = await Promise.all([api.get(`tournaments/${tour.id}/rounds`), api.get(`tournaments/${tour.id}/byes`),
    api.get(`tournaments/${tour.id}/crosstable?format=json`).catch(() => null)]);
  if (!rounds.length) { render(app, html`${head}<p class="muted" data-i18n="view.no_rounds"></p>`); return () => {}; }
  const asked = Number(location.hash.split('/')[4]);
  const rn = rounds.some((r) => r.number === asked) ? asked : defaultRound(rounds);
  const round = rounds.find((r) => r.number === rn);
  const index = playerIndex(cross);
  const games = new Map(round.games.map((g) => [g.id, g]));
  render(app, html`${head}<div class="toolbar results-bar">${roundPicker(rounds, rn, 're-round')}
    <strong id="re-missing" role="status" aria-live="polite"></strong></div>
    <p class="muted no-print" id="re-help" data-i18n="re.help"></p>
    ${pairingsList(round, index, { byes, points: tour.points || {}, id: 're-table', virtual: round.virtual_points,
    result: (g) => html`<input class="re-cell" data-gid="${g.id}" value="${resultCell(g.result)}" autocomplete="off" spellcheck="false"
      size="5" aria-describedby="re-help" aria-label="${t('re.cell', { board: g.board })}">` })}`);
  const cells = $$('input.re-cell', app);
  const missing = () => {
    const n = [...games.values()].filter((g) => g.result === '*').length;
    $('#re-missing').textContent = t('re.missing', { n, total: games.size });
  };
  missing();
  const move = (from, step) => {
    const i = cells.indexOf(from) + step;
    if (i >= 0 && i < cells.length) { cells[i].focus(); cells[i].select(); }
  };
  const send = async (input, body) => {
    const g = games.get(Number(input.dataset.gid));
    const before = g.result;
    g.result = expected(body);
    input.value = resultCell(g.result);
    input.classList.add('pending');
    missing();
    try {
      const res = await api.post(`games/${g.id}/arbiter/result`, body);
      const stored = res?.game?.state?.result;
      if (stored) { g.result = stored; input.value = resultCell(stored); }
    } catch (err) {
      g.result = before;
      input.value = resultCell(before);
      toast(errorText(err), 'error');
    } finally {
      input.classList.remove('pending');
      missing();
    }
  };
  const onKey = (e) => {
    const input = e.target;
    if (!input.classList || !input.classList.contains('re-cell') || e.ctrlKey || e.metaKey || e.altKey) return;
    const body = KEYS[e.key];
    if (body) { e.preventDefault(); send(input, body); move(input, 1); return; }
    if (e.key === 'ArrowDown' || e.key === 'Enter') { e.preventDefault(); move(input, 1); } else if (e.key === 'ArrowUp') { e.preventDefault(); move(input, -1); } else if (e.key.length === 1) e.preventDefault();
  };
  const onPick = (e) => { if (e.target.id === 're-round') location.hash = `#/t/${tour.id}/results/${e.target.value}`; };
  app.addEventListener('keydown', onKey);
  app.addEventListener('change', onPick);
  const first = cells.find((c) => games.get(Number(c.dataset.gid)).result === '*') || cells[0];
  first?.focus();
  return () => { app.removeEventListener('keydown', onKey); app.removeEventListener('change', onPick); };
}
