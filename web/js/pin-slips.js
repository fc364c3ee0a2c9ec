// Arbiter web: PIN slips in bulk.  PINs are stored only hashed, so a slip
// can be printed only when its PIN is issued: one confirmation issues fresh
// PINs for every player (or for one round's boards) with a single request
// (POST tournaments/{tid}/credentials) and prints the slips in the same step,
// one per player with the tournament, board and colour, and where to sign in.

import * as api from './api.js';
import { t } from './i18n.js';
import { html, render, ask, toast, errorText } from './ui.js';

function slipsHtml(tour, slips, rn) {
  const where = `${location.origin}/board.html?t=${tour.id}`;
  return html`<h2 class="no-print">${t('slips.title', { n: slips.length })}</h2>
    <button type="button" class="no-print" id="slips-print" data-i18n="desk.print"></button>
    <div class="slips">${slips.map((s) => html`<article class="slip" data-pid="${s.player_id}">
      <p class="slip-event">${tour.name}${rn ? ` · ${t('view.round_n', { n: rn })}` : ''}</p>
      <p class="slip-name">${s.title ? `${s.title} ` : ''}${s.name}${s.tpn ? html` <span class="muted">(${s.tpn})</span>` : ''}</p>
      ${s.board ? html`<p>${t('view.board_n', { n: s.board })} · ${t(`colour.${s.colour}`)}</p>` : ''}
      <p class="slip-pin">${t('desk.pin')}: <code>${s.pin}</code></p>
      <p class="slip-where">${where}</p></article>`)}</div>`;
}

/* Asks which players, issues their PINs and prints the slips into BOX.
 * ROUNDS: the tournament's rounds (for the choice); REMEMBER(pid, pin)
 * keeps each PIN for the players' table of this tab. */
export async function issueSlips(tour, rounds, box, remember) {
  const options = [['', t('slips.all')], ...rounds.map((r) => [r.number, t('slips.round', { n: r.number })])];
  const r = await ask({ title: t('slips.issue'), message: t('slips.confirm'), danger: true, ok: t('slips.issue'),
    fields: [{ name: 'round', label: t('slips.who'), type: 'select', options, value: rounds.length ? rounds[rounds.length - 1].number : '' }] });
  if (!r) return null;
  try {
    const rn = r.round ? Number(r.round) : 0;
    const res = await api.post(`tournaments/${tour.id}/credentials`, rn ? { round: rn } : {});
    for (const s of res.slips) remember(s.player_id, s.pin);
    render(box, slipsHtml(tour, res.slips, rn));
    box.querySelector('#slips-print').addEventListener('click', () => window.print());
    document.body.classList.add('printing-slips');
    toast(t('slips.done', { n: res.slips.length }));
    window.print();
    return res.slips;
  } catch (err) { toast(errorText(err), 'error'); return null; }
}
