// Arbiter web: the views of a team competition shared by the desk and the
// public pages: team standings, the matches of a round with their boards,
// one team's page (roster and its matches round by round).

import * as api from './api.js';
import { t, formatScore, formatDecimal } from './i18n.js';
import { html, resultText } from './ui.js';

// The team settings of a tournament ({kind, boards, ...}), or null.
export async function teamSettings(tid) {
  try { return await api.get(`tournaments/${tid}/team-settings`); } catch { return null; }
}

export const isTeamEvent = (settings) => !!settings && settings.kind === 'team';

const score = (a, b) => `${formatScore(a)} : ${formatScore(b)}`;

export function teamStandingsTable(st, link) {
  if (!st || !st.rows || !st.rows.length) return html`<p class="muted" data-i18n="view.no_standings"></p>`;
  return html`<table class="standings team-standings"><caption class="sr-only" data-i18n="team.standings"></caption>
    <thead><tr><th class="num" data-i18n="view.rank"></th><th data-i18n="team.team"></th>
    <th class="num" data-i18n="team.mp"></th><th class="num" data-i18n="team.gp"></th>
    ${st.tiebreaks.map((k) => html`<th class="num">${k}</th>`)}</tr></thead>
    <tbody>${st.rows.map((r) => html`<tr><td class="num">${r.rank}</td>
      <td>${link ? html`<a href="${link(r.team_id)}">${r.name}</a>` : r.name}</td>
      <td class="num"><strong>${formatScore(r.match_points)}</strong></td><td class="num">${formatScore(r.game_points)}</td>
      ${r.values.map((v) => html`<td class="num">${formatDecimal(v)}</td>`)}</tr>`)}</tbody></table>`;
}

// The heading of a match: table, teams and the score so far.
export function matchTitle(m) {
  if (!m.team_b) return html`<span>${t('team.table_n', { n: m.table })}: ${m.team_a.name} — ${t('team.bye')}</span>`;
  return html`<span>${t('team.table_n', { n: m.table })}: ${m.team_a.name} – ${m.team_b.name}</span>
    <strong class="match-score">${score(m.score.game_a, m.score.game_b)}</strong>${m.forfeit ? html` <span class="pill">${t('team.forfeit')}</span>` : ''}`;
}

// The matches of a round with their boards (the first-named team's player first).
export function matchesTable(matches, { link } = {}) {
  if (!matches || !matches.length) return html`<p class="muted" data-i18n="view.no_rounds"></p>`;
  return html`${matches.map((m) => html`<section class="match" data-mid="${m.id}"><h3>${matchTitle(m)}</h3>
    ${m.team_b ? html`<table class="pairings"><thead><tr><th class="num" data-i18n="view.board"></th>
      <th>${m.team_a.name}</th><th>${m.team_b.name}</th><th data-i18n="view.result"></th></tr></thead>
      <tbody>${m.boards.map((g) => {
        const aw = g.colour_a === 'white';
        return html`<tr><td class="num">${g.board}</td>
          <td>${aw ? '○' : '●'} ${aw ? g.white_name : g.black_name}</td><td>${aw ? '●' : '○'} ${aw ? g.black_name : g.white_name}</td>
          <td>${link ? html`<a href="${link(g.game_id)}">${resultText(g.result)}</a>` : resultText(g.result)}</td></tr>`;
      })}</tbody></table>` : ''}</section>`)}`;
}

// One team: its roster and its row of the crosstable.
export function teamPage(team, cross) {
  const row = cross && cross.teams.find((x) => x.team_id === team.id);
  return html`<h3>${team.name} <span class="muted">${team.federation || ''} ${team.club || ''}</span></h3>
    ${team.captain ? html`<p>${t('team.captain')}: ${team.captain}</p>` : ''}
    <table><thead><tr><th class="num" data-i18n="view.board"></th><th data-i18n="view.name"></th><th class="num" data-i18n="view.rating"></th><th></th></tr></thead>
    <tbody>${team.members.map((p) => html`<tr><td class="num">${p.board_order}</td><td>${p.name}</td><td class="num">${p.rating || ''}</td>
      <td>${p.reserve ? t('team.reserve') : ''}</td></tr>`)}</tbody></table>
    ${row ? html`<h3 data-i18n="team.matches"></h3><table><thead><tr><th class="num">#</th><th data-i18n="print.opponent"></th>
      <th data-i18n="print.colour"></th><th class="num" data-i18n="team.gp"></th><th class="num" data-i18n="team.mp"></th></tr></thead>
      <tbody>${row.rounds.map((c) => {
        const opp = c.opponent && cross.teams.find((x) => x.pairing_number === c.opponent);
        return html`<tr><td class="num">${c.round}</td><td>${opp ? opp.name : t('team.bye')}</td><td>${c.colour ? t(`colour.${c.colour}`) : ''}</td>
          <td class="num">${score(c.game_points, c.opponent_game_points)}</td><td class="num">${formatScore(c.match_points)}</td></tr>`;
      })}</tbody></table>` : ''}`;
}

// The team standings, the crosstable row links, and the matches of every round.
export async function teamStandingsView(tid, link) {
  return teamStandingsTable(await api.get(`tournaments/${tid}/team-standings`), link);
}

export async function roundsMatchesView(tid, link) {
  const rounds = await api.get(`tournaments/${tid}/rounds`);
  const all = await Promise.all(rounds.map((r) => api.get(`tournaments/${tid}/rounds/${r.number}/matches`)));
  if (!rounds.length) return html`<p class="muted" data-i18n="view.no_rounds"></p>`;
  return html`${[...rounds].reverse().map((r) => html`<section class="round"><h2>${t('view.round_n', { n: r.number })}</h2>
    ${matchesTable(all[r.number - 1], { link })}</section>`)}`;
}

export async function teamView(tid, team) {
  const [tm, cross] = await Promise.all([api.get(`tournaments/${tid}/teams/${team}`), api.get(`tournaments/${tid}/team-crosstable`)]);
  return teamPage(tm, cross);
}
