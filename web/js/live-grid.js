// Arbiter web: the live grid of every board of the current round, for the
// desk (with alerts) and the public page.  One tournament stream feeds it; an
// event names its game when it can, and that game alone is fetched again.
// In a team competition the boards are grouped by match under the match's
// score, which is fetched again when a board's result comes.

import * as api from './api.js';
import { LiveStream } from './sse.js';
import { t } from './i18n.js';
import { ClockPair } from './clock.js';
import { BoardView } from './board-view.js';
import { html, render, resultText } from './ui.js';
import { normalize, olderThan } from './state.js';
import { confirmations } from './game-view.js';
import { teamSettings, isTeamEvent, matchTitle } from './teams-view.js';

export function currentRound(rounds) {
  if (!rounds || !rounds.length) return null;
  const live = rounds.filter((r) => r.status === 'running' || r.status === 'paused');
  return live.length ? live[live.length - 1] : rounds[rounds.length - 1];
}

// The game an event is about, if it says.
export function eventGameId(data) {
  if (!data || typeof data !== 'object') return null;
  return data.game_id ?? data.gid ?? (data.game && data.game.id) ?? null;
}

export class LiveGrid {
  // el: container; tid; link(gid): href of a game; onStatus(state); alerting(gid): bool.
  constructor(el, tid, { link, onStatus, alerting } = {}) {
    Object.assign(this, { el, tid, link, alerting });
    this.cards = new Map();
    this.stream = new LiveStream(`${api.BASE}/tournaments/${tid}/stream`, {
      types: ['game', 'round'],
      onOpen: () => this.reload(),
      onEvent: (type, data) => this.onEvent(type, data),
      onStatus,
    });
    this.reload();
  }

  async reload() {
    clearTimeout(this.reloadTimer);
    let rounds;
    try { rounds = await api.get(`tournaments/${this.tid}/rounds`); } catch { return; }
    if (this.closed) return;
    const round = currentRound(rounds);
    this.round = round;
    const games = round ? [...round.games].sort((a, b) => a.board - b.board) : [];
    if (this.team === undefined) this.team = isTeamEvent(await teamSettings(this.tid));
    const matches = this.team && round ? await this.loadMatches() : null;
    const key = games.map((g) => g.id).join(',') + (matches ? `:${matches.map((m) => m.id).join(',')}` : '');
    if (key !== this.key) {
      this.key = key;
      for (const c of this.cards.values()) { c.board.destroy(); c.clocks.stop(); }
      this.cards.clear();
      render(this.el, round
        ? html`<h2>${t('view.round_n', { n: round.number })} <span class="pill ${round.status}">${t(`status.${round.status}`)}</span></h2>
          ${matches ? this.matchGroups(matches, games) : html`<div class="grid-boards">${games.map((g) => this.cardHtml(g))}</div>`}`
        : html`<p class="muted" data-i18n="view.no_rounds"></p>`);
      for (const g of games) {
        const card = this.el.querySelector(`#card-${g.id}`);
        this.cards.set(g.id, {
          el: card,
          board: new BoardView(card.querySelector('.mini'), { coordinates: false }),
          clocks: new ClockPair({ white: card.querySelector('.clock.white'), black: card.querySelector('.clock.black') }),
        });
      }
    }
    await Promise.all(games.map((g) => this.refreshGame(g.id)));
  }

  cardHtml(g) {
    return html`<article class="board-card" id="card-${g.id}" aria-labelledby="card-${g.id}-title">
      <div class="row"><strong id="card-${g.id}-title">${t('view.board_n', { n: g.board })}</strong><span class="result" aria-live="polite"></span></div>
      <div class="row names"><span>● ${g.black_name || ''}</span><span class="clock black"></span></div>
      <div class="mini"></div>
      <div class="row names"><span>○ ${g.white_name || ''}</span><span class="clock white"></span></div>
      <div class="row"><span class="note"></span>${this.link ? html`<a href="${this.link(g.id)}" data-i18n="view.open"></a>` : ''}</div>
      </article>`;
  }

  async loadMatches() {
    try { return await api.get(`tournaments/${this.tid}/rounds/${this.round.number}/matches`); } catch { return null; }
  }

  // The boards of each match under its title and score.
  matchGroups(matches, games) {
    const byId = new Map(games.map((g) => [g.id, g]));
    return html`${matches.map((m) => html`<section class="match" data-mid="${m.id}"><h3 class="match-title">${matchTitle(m)}</h3>
      <div class="grid-boards">${m.boards.map((b) => byId.get(b.game_id)).filter(Boolean).map((g) => this.cardHtml(g))}</div></section>`)}`;
  }

  // The match scores again, after a board's result.
  async refreshMatches() {
    if (!this.team || !this.round) return;
    const matches = await this.loadMatches();
    for (const m of matches || []) {
      const h = this.el.querySelector(`section.match[data-mid="${m.id}"] .match-title`);
      if (h) render(h, matchTitle(m));
    }
  }

  async refreshGame(gid) {
    const card = this.cards.get(gid);
    if (!card) return;
    let s;
    try { s = normalize(await api.get(`games/${gid}`)); } catch { return; /* the next event tries again */ }
    if (this.cards.get(gid) === card) this.showGame(card, s);
  }

  showGame(card, s) {
    // A late read must not take the game back past the stream's last update.
    if (olderThan(s, card.state)) return;
    if (s.over && !(card.state && card.state.over)) {
      clearTimeout(this.matchTimer);
      this.matchTimer = setTimeout(() => this.refreshMatches(), 300);
    }
    card.state = s;
    card.board.show(s, null);
    const over = s.over;
    const paused = s.status === 'paused';
    card.clocks.update({ ...s.clocks, running: s.status === 'running' ? s.clocks.running : null });
    card.el.querySelector('.result').textContent = over ? resultText(s.result) : (paused ? t('status.paused') : '');
    const notes = [];
    if (s.draw_offer) notes.push(t('view.draw_offered', { side: t(`colour.${s.draw_offer}`) }));
    if (over) notes.push(confirmations(s));
    if (s.status === 'pending') {
      // Before the start: who has sat down at the board (Art. 6.7).
      for (const c of ['white', 'black']) notes.push(`${t(`colour.${c}`)}: ${t(s.checked_in[c] ? 'view.present' : 'view.absent')}`);
    }
    card.el.querySelector('.note').textContent = notes.join(' · ');
    card.el.classList.toggle('alerting', !!(this.alerting && this.alerting(s.game.id)));
  }

  markAlerts() {
    for (const [gid, c] of this.cards) c.el.classList.toggle('alerting', !!(this.alerting && this.alerting(gid)));
  }

  onEvent(type, data) {
    const gid = eventGameId(data);
    const card = gid && this.cards.get(gid);
    if (type === 'game' && card && card.state && data.state) return this.showGame(card, normalize(data, card.state));
    if (type === 'game' && card) return this.refreshGame(gid);
    // A new round, a start, or an event we cannot place: look at everything again, once.
    clearTimeout(this.reloadTimer);
    this.reloadTimer = setTimeout(() => this.reload(), 250);
  }

  close() {
    this.closed = true;
    clearTimeout(this.reloadTimer);
    clearTimeout(this.matchTimer);
    this.stream.close();
    for (const c of this.cards.values()) { c.board.destroy(); c.clocks.stop(); }
    this.cards.clear();
  }
}
