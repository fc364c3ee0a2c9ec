// Arbiter web: one game watched live, for the desk and the public page: the
// board, both clocks, a status line, and whatever the page adds beside it
// (onState is called with every new state).  The stream's updates are drawn at
// once; pages that show the full event log (needEvents) fetch it after each.

import * as api from './api.js';
import { LiveStream } from './sse.js';
import { t } from './i18n.js';
import { ClockPair } from './clock.js';
import { BoardView } from './board-view.js';
import { normalize, olderThan } from './state.js';
import { html, render, resultText } from './ui.js';
import { playerName } from './views.js';

export function statusText(s) {
  const parts = [t(`status.${s.status}`), resultText(s.result)];
  if (s.reason) parts.push(t(`reason.${s.reason}`));
  if (s.draw_offer) parts.push(t('view.draw_offered', { side: t(`colour.${s.draw_offer}`) }));
  for (const c of ['white', 'black']) if (s.illegal[c]) parts.push(`${t(`colour.${c}`)}: ${t('tablet.illegal_count', { n: s.illegal[c] })}`);
  if (s.call_pending) parts.push(t('alert.call'));
  if (s.over) parts.push(confirmations(s));
  return parts.join(' · ');
}

// Art. 8.7: which players have confirmed the result on their tablets.  A
// forfeit (+/-, -/+, -/-: a game not played) has nothing to confirm.
export function confirmations(s) {
  if (/^[-+]\/[-+]$/.test(s.result || '')) return t('view.forfeit_no_confirm');
  const who = ['white', 'black'].filter((c) => s.confirmed[c]).map((c) => t(`colour.${c}`));
  return who.length ? t('view.confirmed_by', { who: who.join(', ') }) : t('view.not_confirmed');
}

export class GameView {
  // el: where the board column goes; opts: {onState(s), onStatus(live), needEvents}.
  constructor(el, gid, { onState, onStatus, needEvents = false } = {}) {
    Object.assign(this, { el, gid, onState, needEvents });
    render(el, html`<h2 class="g-title"></h2>
      <div class="player-line"><span class="g-black"></span><span class="clock g-bclock" role="timer"></span></div>
      <div class="big g-board"></div>
      <div class="player-line"><span class="g-white"></span><span class="clock g-wclock" role="timer"></span></div>
      <p class="status-line g-status" role="status" aria-live="polite"></p>`);
    const q = (c) => el.querySelector(c);
    this.board = new BoardView(q('.g-board'));
    this.clocks = new ClockPair({ white: q('.g-wclock'), black: q('.g-bclock') });
    this.stream = new LiveStream(`${api.BASE}/games/${gid}/stream`, {
      types: ['state', 'game'],
      onOpen: () => this.refresh(),
      onEvent: (type, d) => {
        if (d && d.state) this.show(normalize(d, type === 'game' ? this.state : null));
        if (type === 'game' && this.needEvents) this.refresh();
      },
      onStatus,
    });
  }

  async refresh() {
    let s;
    try { s = normalize(await api.get(`games/${this.gid}`)); } catch { return; /* the next event tries again */ }
    if (!this.closed) this.show(s);
  }

  // The clock readings after each move come from the PGN's [%clk] comments
  // (the live state carries the moves without them); fetched once things settle.
  loadClocks() {
    clearTimeout(this.clkTimer);
    this.clkTimer = setTimeout(async () => {
      try {
        const pgn = await api.get(`games/${this.gid}/pgn`);
        this.clk = [...String(pgn).matchAll(/\[%clk\s+(\d+):(\d\d):(\d\d(?:\.\d+)?)\]/g)]
          .map((m) => Math.round(((Number(m[1]) * 60 + Number(m[2])) * 60 + Number(m[3])) * 1000));
        if (this.state && !this.closed) this.onState?.(this.withClocks(this.state));
      } catch { /* the scoresheet shows the moves without readings */ }
    }, 400);
  }

  withClocks(s) {
    if (!this.clk) return s;
    const moves = s.moves.map((m, i) => (this.clk[i] === undefined ? m : { ...m, [i % 2 ? 'black_ms' : 'white_ms']: this.clk[i] }));
    return { ...s, moves };
  }

  show(s) {
    // A late answer (a read, an action's) must not take the game back.
    if (olderThan(s, this.state)) return;
    this.state = s;
    const q = (c) => this.el.querySelector(c);
    q('.g-title').textContent = `${t('view.round_n', { n: s.game.round })}, ${t('view.board_n', { n: s.game.board })}`;
    q('.g-white').textContent = `○ ${playerName(s.white) || s.game.white_name || ''}`;
    q('.g-black').textContent = `● ${playerName(s.black) || s.game.black_name || ''}`;
    // A reader stepping through the moves (move-stepper.js) keeps the position chosen.
    if (this.stepping) this.onStep?.(); else this.board.show(s, null);
    this.clocks.update({ ...s.clocks, running: s.status === 'running' ? s.clocks.running : null });
    q('.g-status').textContent = statusText(s);
    this.onState?.(this.withClocks(s));
    if (!this.clk || this.clk.length !== s.moves.length) this.loadClocks();
  }

  close() { this.closed = true; clearTimeout(this.clkTimer); this.stream.close(); this.board.destroy(); this.clocks.stop(); }
}
