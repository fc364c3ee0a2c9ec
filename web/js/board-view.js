// Arbiter web: a chessground board fed from a game state (state.js).  The page
// never judges legality itself: the destinations shown are the server's
// "legal" map, and a move made on the board is only a request to the server.

import { Chessground } from 'chessground';

const PROMO = ['q', 'r', 'b', 'n'];

export class BoardView {
  // el: the container; opts: {interactive, orientation, onMove(orig, dest)}.
  constructor(el, { interactive = false, orientation = 'white', onMove, coordinates = true } = {}) {
    this.onMove = onMove;
    this.cg = Chessground(el, {
      orientation,
      coordinates,
      viewOnly: !interactive,
      animation: { enabled: true, duration: 150 },
      movable: { free: false, color: undefined, showDests: true, events: { after: (o, d) => this.onMove?.(o, d) } },
      premovable: { enabled: false },
      draggable: { enabled: interactive, showGhost: true },
      selectable: { enabled: interactive },
      drawable: { enabled: false },
      highlight: { lastMove: true, check: true },
      disableContextMenu: true,
      blockTouchScroll: true,
    });
    // chessground remembers where the board is; a board that moves without
    // resizing (a banner appears above it, the tablet rotates) would take
    // touches for the wrong squares.  Forget that before every touch, and
    // redraw when the board changes size.
    const forget = () => this.cg.state.dom.bounds.clear();
    for (const type of ['mousedown', 'touchstart']) el.addEventListener(type, forget, { capture: true, passive: true });
    this.resizer = new ResizeObserver(() => this.cg.redrawAll());
    this.resizer.observe(el);
  }

  // state: GameState; mover: the colour allowed to move here, or null.
  show(state, mover = null) {
    const last = state.moves[state.moves.length - 1];
    const uci = last && last.uci;
    const san = (last && last.san) || '';
    const dests = new Map();
    // After an illegal move the piece touched must move if it can (4.3, 7.5.1).
    const must = state.must_move_from && state.legal && (state.legal[state.must_move_from] || []).length ? state.must_move_from : null;
    if (mover && mover === state.to_move && state.legal) {
      for (const [from, tos] of Object.entries(state.legal)) {
        if (tos.length && (!must || from === must)) dests.set(from, tos.map((x) => x.slice(0, 2)));
      }
    }
    this.cg.set({
      fen: state.fen.split(' ')[0],
      turnColor: state.to_move,
      lastMove: uci ? [uci.slice(0, 2), uci.slice(2, 4)] : undefined,
      check: /[+#]$/.test(san) ? state.to_move : false,
      movable: { color: dests.size ? mover : undefined, dests },
      highlight: { custom: must ? new Map([[must, 'must-move']]) : new Map() },
    });
  }

  orient(colour) { this.cg.set({ orientation: colour }); }

  // Is orig->dest a pawn reaching the last rank (so a piece must be chosen)?
  isPromotion(orig, dest) {
    const piece = this.cg.state.pieces.get(dest) || this.cg.state.pieces.get(orig);
    return !!piece && piece.role === 'pawn' && (dest[1] === '8' || dest[1] === '1');
  }

  // Put the board back to the state it was given (after a refused move).
  redraw(state, mover) { this.show(state, mover); }

  destroy() { this.resizer.disconnect(); this.cg.destroy(); }
}

export { PROMO };
