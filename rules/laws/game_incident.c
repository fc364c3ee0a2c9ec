/*
 * game_incident.c — irregularities that happen on the board, not on the
 * tablet, and that the arbiter records as events:
 *   - touch (4.3, 4.4, 4.8): the player on move touched a piece; on the
 *     opponent's claim the arbiter records it and the player is bound;
 *   - illegal_act (7.5.3, 7.5.4): the clock pressed without a move, or a
 *     move made with two hands, penalised as an illegal move (7.5.5);
 *   - displaced (7.4): pieces knocked over, re-established, with the
 *     arbiter's optional penalty (7.4.3) and restore (7.1);
 *   - setup (7.2): a wrong initial position (a new game before 10 moves
 *     each) or a board placed contrary to 2.1 (the game continues);
 *   - dead_position (5.2.2, 6.9, 7.5.5): the arbiter's ruling where
 *     canmate could not decide.
 * As everywhere in the fold, each handler decides before it changes
 * anything, so a refusal leaves the state exactly as it was.
 */
#include "game_incident.h"

#include <stdio.h>
#include <string.h>

#include "canmate.h"
#include "game_arbiter.h"

static const char *piece_word(int piece)
{
    static const char *const words[] = {"pawn", "knight", "bishop", "rook", "queen", "king"};
    return piece == PIECE_NONE ? "nothing" : words[piece_type(piece)];
}

/* ---- touch-move (4.3, 4.4, 4.8) ----------------------------------------- */

/* Whether the side to move may castle, its king going from king to dest. */
static bool castling_legal(const Board *b, int king, int dest)
{
    MoveList list;
    movegen_legal_moves(b, &list);
    for (int i = 0; i < list.count; i++)
        if (move_kind(list.moves[i]) == MOVE_CASTLING && move_from(list.moves[i]) == king &&
            move_to(list.moves[i]) == dest)
            return true;
    return false;
}

/*
 * 4.3: a player having the move who touches, with the intention of moving
 * or capturing, his own piece must move the first one touched that can be
 * moved; an opponent's piece, capture the first one touched that can be
 * captured; one of each, capture the opponent's piece with his own or, if
 * that is illegal, move or capture the first piece touched that can be.
 * 4.5: when no piece touched can be moved or captured, any legal move.
 * Touches are recorded in the order they were made: the first that binds
 * stays bound; a later touch of the other colour narrows the binding to
 * the capture of that piece by this one when it is legal (4.3.3).  A king
 * touched binds the king, castling included; the king and then a rook bind
 * to castling on that side when it is legal (4.4.1), else to another king
 * move (4.4.3); a rook and then the king bind the rook: no castling
 * (4.4.2).
 *
 * With `ply` the offender has already moved another piece and pressed: the
 * opponent's claim is heard only before he touches a piece himself (4.8),
 * which the server sees as "before his own next move": the offender's move
 * is taken back (7.1 clocks as given) and the binding applies to it.
 */
static int on_touch(GameState *st, const GameEvent *ev, GameVerdict *v)
{
    int side = ev->side, sq = ev->square;
    if (side != WHITE && side != BLACK)
        return game_state_refuse(v, GAME_E_PAYLOAD, "touch needs the side of the player bound");
    if (sq < 0 || sq > 63)
        return game_state_refuse(v, GAME_E_PAYLOAD, "touch needs the square of the piece touched");
    Board b = st->board;
    if (ev->ply >= 0) {
        if (game_arbiter_restore_check(st, ev, v))
            return v->code;
        if (ev->ply != st->nplies - 1 || st->board.side == side)
            return game_state_refuse(v, GAME_E_TOUCH,
                                     "a touch-move claim is heard only before the claimant "
                                     "touches a piece himself (4.8): the move to take back must be "
                                     "%s's last, the last of the game",
                                     game_state_side_name(side));
        game_state_position_at(st, ev->ply, &b);
    } else if (st->board.side != side) {
        return game_state_refuse(v, GAME_E_TURN,
                                 "touch-move binds the player on move (4.3): it is %s's move",
                                 game_state_side_name(st->board.side));
    }
    int piece = b.squares[sq];
    char name[3], first[3], bound_text[48];
    game_state_square_name(sq, name);
    if (piece == PIECE_NONE)
        return game_state_refuse(v, GAME_E_PAYLOAD, "there is no piece on %s", name);
    bool own = piece_color(piece) == side;
    if (ev->ply >= 0) {
        /* The arbiter's own words go with the binding, once. */
        GameEvent quiet = *ev;
        quiet.note[0] = '\0';
        game_arbiter_restore_to(st, &quiet, ev->ply);
        game_state_note(st, &quiet,
                        "%s's claim: %s had touched the %s on %s (4.3); the move made "
                        "instead is taken back",
                        game_state_side_name(!side), game_state_side_name(side), piece_word(piece),
                        name);
    }
    /* restore_to() cleared any binding: the touch is the first one. */
    const char *law;
    const char *what;
    if (st->touch_square < 0 && st->touch_capture < 0) {
        if (own && game_state_has_move(&st->board, sq, -1)) {
            st->touch_square = (int8_t)sq;
            law = "4.3.1";
            what = "it must be moved";
        } else if (!own && game_state_has_move(&st->board, -1, sq)) {
            st->touch_capture = (int8_t)sq;
            law = "4.3.2";
            what = "it must be captured";
        } else {
            law = "4.5";
            what = own ? "it cannot be moved: no binding" : "it cannot be captured: no binding";
        }
    } else if (!own && st->touch_square >= 0 && st->touch_capture < 0 &&
               game_state_has_move(&st->board, st->touch_square, sq)) {
        st->touch_capture = (int8_t)sq;
        law = "4.3.3";
        what = "the piece touched first must capture it";
    } else if (own && st->touch_capture >= 0 && st->touch_square < 0 &&
               game_state_has_move(&st->board, sq, st->touch_capture)) {
        st->touch_square = (int8_t)sq;
        law = "4.3.3";
        what = "it must capture the opponent's piece touched first";
    } else if (own && st->touch_square >= 0 && st->touch_capture < 0 && st->touch_castle < 0 &&
               piece_type(st->board.squares[st->touch_square]) == KING &&
               piece_type(piece) == ROOK) {
        /* 4.4.1 / 4.4.3: the king, then a rook: castle on that side if it
         * is legal, else another king move (the king stays bound). */
        int king = st->touch_square;
        int dest = SQ(SQ_FILE(sq) > SQ_FILE(king) ? 6 : 2, SQ_RANK(king));
        if (castling_legal(&st->board, king, dest)) {
            st->touch_castle = (int8_t)dest;
            law = "4.4.1";
            what = "he must castle on that side";
        } else {
            law = "4.4.3";
            what = "castling with it is illegal: another king move";
        }
    } else {
        int bound = st->touch_square >= 0 ? st->touch_square : st->touch_capture;
        game_state_square_name(bound, first);
        snprintf(bound_text, sizeof bound_text, "the piece touched first, on %s, binds", first);
        law = "4.3";
        what = bound_text;
    }
    st->touched = true; /* 9.4: no draw claim on this move */
    game_state_note(st, ev, "%s touched the %s%s on %s: %s (%s)", game_state_side_name(side),
                    own ? "" : "opponent's ", piece_word(piece), name, what, law);
    game_state_say(v, "touch recorded: the %s on %s, %s (%s)", piece_word(piece), name, what, law);
    return 0;
}

/* ---- a press without a move, a move with two hands (7.5.3, 7.5.4) ------- */

static int on_illegal_act(GameState *st, const GameEvent *ev, GameVerdict *v)
{
    int side = ev->side;
    if (side != WHITE && side != BLACK)
        return game_state_refuse(v, GAME_E_PAYLOAD, "illegal_act needs the offending side");
    if (st->dead_side >= 0)
        return game_state_refuse(v, GAME_E_PAYLOAD,
                                 "the arbiter has yet to decide whether the position is dead");
    const char *what;
    if (ev->kind == GAME_ACT_NO_MOVE) {
        /* The press did not switch the server's clock: the offender still
         * has the move and his clock runs on. */
        if (st->board.side != side)
            return game_state_refuse(
                v, GAME_E_TURN, "a press without a move is made by the player on move (7.5.3)");
        what = "pressed the clock without making a move (7.5.3)";
    } else if (ev->kind == GAME_ACT_TWO_HANDS) {
        /* The move stands: it was legal, only made with two hands. */
        if (st->nplies == 0 || st->board.side == side)
            return game_state_refuse(v, GAME_E_TURN,
                                     "a move with two hands is %s's last move, before the "
                                     "opponent's reply (7.5.4)",
                                     game_state_side_name(side));
        what = "made the move with two hands (7.5.4)";
    } else {
        return game_state_refuse(v, GAME_E_PAYLOAD, "unknown kind of illegal act");
    }
    game_state_note(st, ev, "%s %s: penalised as an illegal move", game_state_side_name(side),
                    what);
    game_state_illegal_penalty(st, ev, side, v);
    if (!v->ended && !v->dead_question)
        game_state_say(v, "%s %s: illegal move no. %d", game_state_side_name(side), what,
                       st->illegal_count[side]);
    return 0;
}

/* ---- displaced pieces (7.4) --------------------------------------------- */

static int on_displaced(GameState *st, const GameEvent *ev, GameVerdict *v)
{
    int side = ev->side, kind = ev->kind;
    if (side != WHITE && side != BLACK)
        return game_state_refuse(v, GAME_E_PAYLOAD, "displaced needs the side who displaced");
    if (kind >= GAME_DISPLACED_COUNT)
        return game_state_refuse(v, GAME_E_PAYLOAD, "unknown penalty for displaced pieces");
    bool timed = kind == GAME_DISPLACED_TIME_ADD || kind == GAME_DISPLACED_TIME_SUB;
    if (timed && (ev->ms == GAME_NONE || ev->ms <= 0 || ev->ms > 100LL * 86400000))
        return game_state_refuse(v, GAME_E_PAYLOAD, "a time penalty needs ms, more than 0");
    if (!timed && ev->ms != GAME_NONE)
        return game_state_refuse(v, GAME_E_PAYLOAD, "ms goes with a time penalty only");
    if (timed && st->settings.tc.untimed)
        return game_state_refuse(v, GAME_E_PAYLOAD, "this game has no clock");
    if (ev->ply >= 0 && game_arbiter_restore_check(st, ev, v))
        return v->code;
    /* 7.4 found after moves were made on a wrong position: the position
     * before the irregularity is reinstated, clocks by judgement (7.1). */
    if (ev->ply >= 0)
        game_arbiter_restore_to(st, ev, ev->ply);
    char pen[80] = "";
    switch (kind) {
    case GAME_DISPLACED_WARNING:
        st->warnings[side]++;
        snprintf(pen, sizeof pen, "; %s is warned", game_state_side_name(side));
        break;
    case GAME_DISPLACED_TIME_ADD:
        clock_add(&st->clock, !side, ev->ms);
        snprintf(pen, sizeof pen, "; %s +%lld s", game_state_side_name(!side),
                 (long long)(ev->ms / 1000));
        break;
    case GAME_DISPLACED_TIME_SUB:
        clock_take(&st->clock, side, ev->ms, ev->time_ms);
        snprintf(pen, sizeof pen, "; %s -%lld s", game_state_side_name(side),
                 (long long)(ev->ms / 1000));
        break;
    default: break;
    }
    game_state_note(st, ev,
                    "%s displaced pieces: the correct position is re-established in %s's own "
                    "time (7.4.1)%s%s",
                    game_state_side_name(side), game_state_side_name(side), pen,
                    pen[0] ? " (7.4.3)" : "");
    game_state_say(v, "displaced pieces recorded%s", pen);
    return 0;
}

/* ---- wrong initial position or board (7.2) ------------------------------ */

/*
 * 7.2.1, as this engine reads it with 7.3: a wrong initial position found
 * while either player has made fewer than 10 moves discards the game for a
 * new one; found later, the game goes on.  7.2.2: a board placed contrary
 * to 2.1 does not change the game: the position reached is transferred to
 * a correctly placed board and play goes on.
 */
static int on_setup(GameState *st, const GameEvent *ev, GameVerdict *v)
{
    if (ev->kind >= GAME_SETUP_COUNT)
        return game_state_refuse(v, GAME_E_PAYLOAD, "unknown kind of setup fault");
    int done[2];
    game_state_moves_done(st, done);
    char after[48];
    game_arbiter_moves_made(st, after, sizeof after);
    if (ev->kind == GAME_SETUP_ORIENTATION) {
        game_state_note(st, ev,
                        "7.2.2: the board was placed contrary to 2.1; found after %s, the "
                        "position reached is transferred to a correctly placed board and the "
                        "game continues",
                        after);
        game_state_say(v, "board placed wrongly: the position is transferred, the game continues");
        return 0;
    }
    if (done[WHITE] >= 10 && done[BLACK] >= 10) {
        game_state_note(st, ev,
                        "7.2.1: the initial position was incorrect; found after %s: the game "
                        "continues",
                        after);
        game_state_say(v, "wrong initial position found after %s: the game continues", after);
        return 0;
    }
    char head[160], removed[200];
    snprintf(head, sizeof head,
             "7.2.1: the initial position was incorrect; after %s a new game is played", after);
    static const char SEP[] = "; moves discarded: ";
    size_t room = sizeof st->notes[0].text - strlen(head) - (sizeof SEP - 1);
    game_arbiter_moves_text(st, removed, room < sizeof removed ? room : sizeof removed);
    game_arbiter_new_game(st, ev->time_ms);
    game_state_note(st, ev, "%s%s%s", head, removed[0] ? SEP : "", removed);
    game_state_say(v, "wrong initial position found after %s: a new game, %s's clock runs", after,
                   game_state_side_name(st->start.side));
    return 0;
}

/* ---- the arbiter's ruling on a dead position ---------------------------- */

/*
 * Where canmate answered neither "cannot mate" nor a mating line:
 *   - a flag fall (6.9) or the illegal-move limit (7.5.5) waiting for the
 *     arbiter: `dead` gives the draw, `alive` the loss;
 *   - during play: `dead` ends the game as a dead position (5.2.2), refused
 *     when canmate has a mating line for either side; `alive` records the
 *     ruling that play goes on.
 */
static int on_dead(GameState *st, const GameEvent *ev, GameVerdict *v)
{
    bool dead = ev->kind == GAME_DEAD_YES;
    if (ev->kind >= GAME_DEAD_COUNT)
        return game_state_refuse(v, GAME_E_PAYLOAD, "dead_position needs dead or alive");
    int64_t t = ev->time_ms;
    if (st->dead_side >= 0) {
        int loser = st->dead_side, end = st->dead_end;
        const char *law = end == GAME_END_TIME ? "6.9" : "7.5.5";
        game_state_end_loss(st, end, loser, t, dead);
        if (end == GAME_END_TIME)
            st->clock.main_ms[loser] = 0; /* the fallen flag reads zero, as in 6.9 */
        v->ended = true;
        game_state_note(st, ev,
                        "the arbiter decides that %s %s checkmate by any series of legal "
                        "moves: %s (%s)",
                        game_state_side_name(!loser), dead ? "cannot" : "can",
                        dead ? "draw" : "game lost", law);
        game_state_say(v, "%s (%s)", dead ? "draw: the opponent cannot checkmate" : "game lost",
                       law);
        return 0;
    }
    if (!dead) {
        game_state_note(st, ev, "the arbiter rules the position not dead: play continues (5.2.2)");
        game_state_say(v, "not a dead position: play continues");
        return 0;
    }
    for (int s = 0; s < 2; s++)
        if (game_state_can_mate(st, s) == CANMATE_YES)
            return game_state_refuse(v, GAME_E_PAYLOAD,
                                     "not a dead position: %s can still checkmate (5.2.2)",
                                     game_state_side_name(s));
    game_state_end(st, GAME_END_DEAD_POSITION, -1, 1, 1, t);
    v->ended = true;
    game_state_note(st, ev,
                    "the arbiter rules a dead position: neither player can checkmate by "
                    "any series of legal moves, draw (5.2.2)");
    game_state_say(v, "dead position: draw (5.2.2)");
    return 0;
}

int game_incident_on_event(GameState *st, const GameEvent *ev, GameVerdict *v)
{
    switch (ev->type) {
    case GAME_EV_TOUCH: return on_touch(st, ev, v);
    case GAME_EV_ILLEGAL_ACT: return on_illegal_act(st, ev, v);
    case GAME_EV_DISPLACED: return on_displaced(st, ev, v);
    case GAME_EV_SETUP: return on_setup(st, ev, v);
    case GAME_EV_DEAD: return on_dead(st, ev, v);
    default: return game_state_refuse(v, GAME_E_PAYLOAD, "unknown event type");
    }
}
