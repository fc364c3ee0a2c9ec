// Arbiter web: the desk's rounds tab: every round's pairings, newest first;
// pairing the next round; for a pending round the report of the pairing rules
// it breaks, the hand edits (a board changed or added, two players swapped, a
// bye), its draft or published state and its start; pausing and resuming a
// whole round; and each round's printable lists (desk-exports.js).

import * as api from './api.js';
import { t } from './i18n.js';
import { html, $, ask, toast, errorText, render } from './ui.js';
import { pairingsTable, playerName } from './views.js';
import { roundState, roundStateAct } from './office-view.js';
import { app, onLeave, route } from './desk-page.js';
import { roundExports } from './desk-exports.js';

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

// The rounds tab of tournament TOUR under the tab bar HEAD.
export async function viewRounds(tour, head) {
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
  onLeave(() => app.removeEventListener('click', onClick));
}
