// Arbiter web: one reading of the server's game documents.  GameState (from
// GET /games/{gid}, an ActionResult's "game", or the stream's first "state"
// event) and GameUpdate (each later stream event) are turned into the single
// shape every page draws from, so the pages never dig into the Laws engine's
// "state" object themselves:
//   {game, white, black, fen, ply, to_move, legal, events,
//    clocks: {white_ms, black_ms, running, paused}, over, result, reason,
//    status, draw_offer, illegal: {white, black}, confirmed: {white, black},
//    call_pending, offer_awaits_arbiter, claim_awaits_arbiter, must_move_from, must_capture_on,
//    dead_position: {side, end} | null, checked_in: {white, black},
//    moves: [{san, uci, white_ms, black_ms}], event_id}
// event_id is the newest event the state is the game after (see olderThan).
// The engine's state object is described in docs/events.md ("State").

const SIDES = ['white', 'black'];

// 'white' | 'black' | null from any of the engine's spellings.
export function sideName(v) {
  if (v === 0 || v === 'white' || v === 'w' || v === 'W') return 'white';
  if (v === 1 || v === 'black' || v === 'b' || v === 'B') return 'black';
  return null;
}

// A per-side value given as [w, b], {white, black} or {w, b}.
function perSide(x, side) {
  if (x === null || x === undefined) return undefined;
  if (Array.isArray(x)) return x[side === 'white' ? 0 : 1];
  if (typeof x === 'object') return x[side] ?? x[side[0]];
  return undefined;
}

function first(...xs) { return xs.find((x) => x !== undefined && x !== null); }

function resultFromScores(w, b, forfeit) {
  if (w === undefined || b === undefined || w === null || b === null || w < 0 || b < 0) return null;
  if (forfeit) return ({ '1,0': '+/-', '0,1': '-/+', '0,0': '-/-', '1,1': '+/+' })[`${w},${b}`] || null;
  const f = (x) => (x === 0.5 ? '1/2' : String(x));
  return `${f(w)}-${f(b)}`;
}

function normMove(m) {
  if (typeof m === 'string') return { san: m, uci: /^[a-h][1-8][a-h][1-8][qrbn]?$/.test(m) ? m : null };
  const clocks = m.clock_ms || m.clocks;
  return {
    san: first(m.san, m.move, m.text, ''),
    uci: first(m.uci, m.lan, null),
    white_ms: first(m.white_ms, perSide(clocks, 'white')),
    black_ms: first(m.black_ms, perSide(clocks, 'black')),
  };
}

export function normEvent(e) {
  return { ...e, by: first(e.by, e.actor), at_ms: first(e.at_ms, e.time_ms), side: sideName(e.side) || e.side };
}

// raw: a GameState, or a GameUpdate together with the previous normalised state.
export function normalize(raw, prev = null) {
  const st = raw.state || {};
  const game = raw.game || (prev && prev.game) || {};
  const ck = first(st.clock, st.clocks, raw.clocks, {});
  const remaining = first(ck.remaining_ms, ck.remaining, ck.ms);
  const clocks = {
    white_ms: first(ck.white_ms, perSide(remaining, 'white')),
    black_ms: first(ck.black_ms, perSide(remaining, 'black')),
    running: sideName(first(ck.running, ck.side, ck.turn)),
    paused: !!first(ck.paused, st.paused, false),
  };
  const score = first(st.score, st.scores, st.result && typeof st.result === 'object' ? st.result : undefined);
  const over = !!first(st.over, st.ended, st.finished, game.result && game.result !== '*');
  let result = typeof st.result === 'string' ? st.result : null;
  if (!result && over) result = resultFromScores(perSide(score, 'white'), perSide(score, 'black'), st.forfeit);
  if (!result) result = over ? (game.result || '*') : '*';
  let events = (raw.events || []).map(normEvent);
  if (!raw.events && prev) {
    // A stream update carries one new event, not the whole scoresheet.
    events = prev.events.slice();
    if (raw.event && !events.some((e) => e.id === raw.event.id)) events.push(normEvent(raw.event));
  }
  // A whole state is the game after its newest event; an update, after its
  // own event, whatever the list it was merged into holds (an answer that
  // comes after the stream's next update is merged into a newer list); an
  // answer that recorded nothing ("already recorded") cannot be placed.
  const eventId = raw.events
    ? events.reduce((m, e) => Math.max(m, e.id || 0), 0)
    : (first(raw.event && raw.event.id, raw.id) ?? null);
  const movesRaw = first(st.moves, st.plies, raw.moves);
  const moves = Array.isArray(movesRaw) ? movesRaw.map(normMove) : movesFromEvents(events);
  // The engine lists SAN in "moves" and the same moves in UCI in "uci".
  if (Array.isArray(st.uci)) st.uci.forEach((u, i) => { if (moves[i] && !moves[i].uci) moves[i].uci = u; });
  const reason = first(st.termination, st.end_reason, typeof st.end === 'string' ? st.end : undefined, null);
  const started = first(st.started, game.status !== 'pending');
  const status = over ? 'finished' : !started ? 'pending' : clocks.paused || st.call_pending ? 'paused' : 'running';
  const counts = first(st.illegal_count, st.illegal_counts, st.illegal, st.illegal_moves);
  return {
    game: { ...game, result: over ? result : (game.result || '*') },
    white: raw.white || (prev && prev.white) || null,
    black: raw.black || (prev && prev.black) || null,
    fen: raw.fen, ply: raw.ply, to_move: sideName(raw.to_move) || 'white', legal: raw.legal || {},
    events, clocks, over, result, reason: reason === 'none' ? null : reason, status,
    draw_offer: sideName(first(st.offer, st.draw_offer, raw.draw_offer)),
    illegal: Object.fromEntries(SIDES.map((s) => [s, Number(perSide(counts, s) || 0)])),
    confirmed: Object.fromEntries(SIDES.map((s) => [s, !!perSide(st.confirmed, s) || events.some((e) => e.type === 'confirm' && e.by === s)])),
    call_pending: !!(st.call_pending || sideName(st.arbiter_called)),
    offer_awaits_arbiter: !!st.offer_awaits_arbiter,
    claim_awaits_arbiter: !!st.claim_awaits_arbiter,
    checked_in: Object.fromEntries(SIDES.map((x) => [x, !!perSide(st.checked_in, x)])),
    must_move_from: st.must_move_from || null,
    must_capture_on: st.must_capture_on || null,
    dead_position: st.dead_position_awaits_arbiter || null,
    start_fen: st.start_fen || (prev && prev.start_fen) || null,
    moves,
    event_id: eventId,
  };
}

// Whether S is an older picture of PREV's game than PREV: drawn over it, a
// late answer would take the game back (a check-in's answer coming after
// the stream's start, a move's after the opponent's reply), and nothing
// would bring it forward again until the next event.  A state that cannot
// be placed is not older.
export function olderThan(s, prev) {
  return Boolean(prev && s && s.game.id === prev.game.id && s.event_id !== null && prev.event_id !== null &&
    s.event_id < prev.event_id);
}

// Without the engine's move list, the scoresheet is what the move events say.
function movesFromEvents(events) {
  const list = [];
  for (const e of events) {
    if (e.type === 'restore' || (e.type === 'illegal' && e.ply !== undefined)) list.length = Math.min(list.length, e.ply ?? list.length);
    else if (e.type === 'move' && !e.illegal) list.push(normMove(e));
  }
  return list;
}
