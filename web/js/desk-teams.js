// Arbiter web: the desk's teams tab.  An individual event can be made a
// team competition here; then it shows the teams and their rosters, each
// team's line-up for the next or pending round, pairing the next team round,
// and the matches of the newest round (start, forfeit of a whole match).

import * as api from './api.js';
import { t } from './i18n.js';
import { html, render, $, ask, toast, errorText } from './ui.js';
import { teamSettings, isTeamEvent, matchesTable } from './teams-view.js';
import { app, route } from './desk-page.js';

// The teams tab of tournament TOUR under the tab bar HEAD.
export async function viewTeams(tour, head) {
  const ts = await teamSettings(tour.id);
  if (!isTeamEvent(ts)) {
    render(app, html`${head}<form id="tm-make" class="stack"><label><span data-i18n="team.boards"></span>
      <input name="boards" type="number" min="1" max="16" value="4"></label>
      <button type="submit" class="primary" data-i18n="team.make_team_event"></button></form>`);
    $('#tm-make').addEventListener('submit', async (e) => {
      e.preventDefault();
      try {
        await api.patch(`tournaments/${tour.id}/team-settings`, { kind: 'team', boards: Number(e.target.boards.value) });
        route();
      } catch (err) { toast(errorText(err), 'error'); }
    });
    return;
  }
  const [teams, rounds] = await Promise.all([api.get(`tournaments/${tour.id}/teams`), api.get(`tournaments/${tour.id}/rounds`)]);
  const last = rounds[rounds.length - 1];
  const matches = last ? await api.get(`tournaments/${tour.id}/rounds/${last.number}/matches`) : [];
  const lineups = last && last.status === 'pending' ? await Promise.all(teams.map((tm) => api.get(`tournaments/${tour.id}/teams/${tm.id}/lineup`)))
    : [];
  const canPair = !last || last.status === 'finished';
  render(app, html`${head}
    <div class="toolbar no-print"><button type="button" id="tm-pair" class="primary" ${canPair ? '' : html`disabled`} data-i18n="team.pair_next"></button>
      ${last && last.status === 'pending' ? html`<button type="button" id="tm-start" data-i18n="desk.start_round"></button>` : ''}</div>
    ${last ? html`<section class="round" data-rn="${last.number}"><h2>${t('view.round_n', { n: last.number })}</h2>
      ${matchesTable(matches, { link: (gid) => `#/g/${gid}` })}</section>` : ''}
    <h2 data-i18n="team.teams"></h2>
    ${teams.length ? html`<table id="teams"><thead><tr><th class="num">#</th><th data-i18n="team.team"></th><th data-i18n="view.federation"></th>
      <th class="num" data-i18n="team.rating_average"></th><th data-i18n="team.members"></th><th data-i18n="team.lineup"></th></tr></thead>
      <tbody>${teams.map((tm, i) => html`<tr data-team="${tm.id}"><td class="num">${tm.pairing_number || ''}</td><td>${tm.name}</td>
        <td>${tm.federation}</td><td class="num">${tm.rating_average}</td>
        <td>${tm.members.map((p) => `${p.player_id} ${p.name}${p.reserve ? ' (R)' : ''}`).join(', ')}</td>
        <td>${lineups[i] ? html`<form class="tm-lineup" data-team="${tm.id}"><input name="players" aria-label="${t('team.lineup_hint')}"
          value="${lineups[i].players.map((p) => p.player_id).join(',')}"><button type="submit" data-i18n="desk.save"></button></form>` : ''}</td></tr>`)}</tbody></table>`
      : html`<p class="muted" data-i18n="team.no_teams"></p>`}
    ${rounds.length ? '' : html`<details class="no-print"><summary data-i18n="team.add_team"></summary><form id="tm-add" class="stack">
      <label><span data-i18n="desk.name"></span><input name="name" required maxlength="100"></label>
      <label><span data-i18n="view.federation"></span><input name="federation" maxlength="3"></label>
      <label><span data-i18n="team.members"></span><input name="members" placeholder="12, 14, 15, 19"></label>
      <button type="submit" class="primary" data-i18n="desk.add"></button></form></details>`}`);
  const ids = (text) => text.split(/[\s,;]+/).filter(Boolean).map(Number);
  const add = $('#tm-add');
  if (add) {
    add.addEventListener('submit', async (e) => {
      e.preventDefault();
      const f = e.target;
      try {
        await api.post(`tournaments/${tour.id}/teams`, { name: f.name.value, federation: f.federation.value,
          members: ids(f.members.value).map((id) => ({ player_id: id })) });
        toast(t('team.team_added'));
        route();
      } catch (err) { toast(errorText(err), 'error'); }
    });
  }
  $('#tm-pair').addEventListener('click', async () => {
    const n = (last ? last.number : 0) + 1;
    if (!await ask({ title: t('team.pair_next'), message: t('desk.pair_confirm', { n }) })) return;
    try {
      await api.post(`tournaments/${tour.id}/matches`, {});
      toast(t('desk.paired', { n }));
      route();
    } catch (err) { toast(errorText(err), 'error'); }
  });
  const start = $('#tm-start');
  if (start) {
    start.addEventListener('click', async () => {
      if (!await ask({ title: t('desk.start_round'), message: t('desk.start_confirm', { n: last.number }) })) return;
      try {
        await api.post(`tournaments/${tour.id}/rounds/${last.number}/start`, {});
        toast(t('desk.started', { n: last.number }));
        route();
      } catch (err) { toast(errorText(err), 'error'); }
    });
  }
  for (const form of app.querySelectorAll('form.tm-lineup')) {
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      try {
        await api.post(`tournaments/${tour.id}/teams/${form.dataset.team}/lineup`, { round: last.number, players: ids(form.players.value) });
        toast(t('team.lineup_saved'));
        route();
      } catch (err) { toast(errorText(err), 'error'); }
    });
  }
}
