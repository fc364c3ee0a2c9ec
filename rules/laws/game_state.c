/*
 * game_state.c — the changes of a game's state that more than one kind of
 * event makes: verdict reasons, scoresheet notes, the end of the game, a
 * move played with its automatic ends, the 7.5.5 penalty; and the queries
 * they need (repetitions, a past position, the result text).
 *
 * Layering: game.c (the fold and the events of play) and game_arbiter.c
 * (claims and the arbiter's actions) both sit above this file; game.c calls
 * game_arbiter.c, never the other way.  Nothing here can fail: the room for
 * the ply and notes was reserved by game_apply() before any handler ran.
 */
#include "game_state.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "canmate.h"

/* ---- names -------------------------------------------------------------- */

static const char *const penalty_names[GAME_PENALTY_COUNT] = {
    "warning", "time_add", "time_sub", "score_up", "score_down", "loss", "exclusion",
};

#define COUNT_OF(arr) ((int)(sizeof arr / sizeof arr[0]))

const char *game_state_penalty_name(int p)
{
    return p >= 0 && p < COUNT_OF(penalty_names) ? penalty_names[p] : "?";
}

int game_state_penalty_from_name(const char *s)
{
    for (int i = 0; s && i < COUNT_OF(penalty_names); i++)
        if (strcmp(penalty_names[i], s) == 0)
            return i;
    return -1;
}

/* ---- verdicts, notes and ends ------------------------------------------- */

int game_state_refuse(GameVerdict *v, int code, const char *fmt, ...)
{
    v->code = code;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(v->reason, sizeof v->reason, fmt, ap);
    va_end(ap);
    return code;
}

void game_state_say(GameVerdict *v, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(v->reason, sizeof v->reason, fmt, ap);
    va_end(ap);
}

void game_state_note(GameState *st, const GameEvent *ev, const char *fmt, ...)
{
    GameNote *n = &st->notes[st->nnotes++];
    memset(n, 0, sizeof *n);
    n->ply = st->nplies;
    n->time_ms = ev->time_ms;
    n->type = ev->type;
    n->actor = ev->actor;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(n->text, sizeof n->text, fmt, ap);
    va_end(ap);
    if (ev->note[0]) {
        size_t len = strlen(n->text);
        snprintf(n->text + len, sizeof n->text - len, "%s(%s)", len ? " " : "", ev->note);
    }
}

const char *game_state_side_name(int side)
{
    return side == WHITE ? "White" : "Black";
}

void game_state_moves_done(const GameState *st, int out[2])
{
    int first = st->start.side;
    out[first] = (st->nplies + 1) / 2;
    out[!first] = st->nplies / 2;
}

int64_t game_state_penalty_time(const GameState *st)
{
    return st->settings.penalty_ms > 0 ? st->settings.penalty_ms
                                       : timecontrol_penalty_ms(&st->settings.tc);
}

/* The one door to "can this side still checkmate by any series of legal
 * moves?" (5.1.2, 5.2.2, 6.9, 7.5.5): only canmate's proven NO may turn a
 * loss into a draw or end a game as dead; UNKNOWN counts as "can mate". */
bool game_state_cannot_mate(const GameState *st, int winner)
{
    return canmate_analyse(&st->board, winner) == CANMATE_NO;
}

int game_state_can_mate(const GameState *st, int winner)
{
    return (int)canmate_analyse(&st->board, winner);
}

void game_state_ask_dead(GameState *st, const GameEvent *ev, int loser, int end, int64_t t,
                         GameVerdict *v)
{
    if (!st->clock.paused)
        clock_pause(&st->clock, t);
    st->dead_side = (int8_t)loser;
    st->dead_end = (uint8_t)end;
    st->offer = -1;
    st->offer_agreed = false;
    v->dead_question = true;
    const char *law = end == GAME_END_TIME ? "6.9" : "7.5.5";
    game_state_note(st, ev,
                    "%s %s: can %s still checkmate by any series of legal moves (%s)? Not "
                    "decided: the clocks are paused, the arbiter decides",
                    game_state_side_name(loser),
                    end == GAME_END_TIME ? "lost on time" : "reached the illegal move limit",
                    game_state_side_name(!loser), law);
    game_state_say(v,
                   "dead position? decide: %s %s, and whether %s can still mate is "
                   "undecided (%s); clocks paused for the arbiter",
                   game_state_side_name(loser),
                   end == GAME_END_TIME ? "lost on time" : "reached the illegal move limit",
                   game_state_side_name(!loser), law);
}

void game_state_clear_touch(GameState *st)
{
    st->touch_square = -1;
    st->touch_capture = -1;
    st->touch_castle = -1;
    st->touched = false;
}

void game_state_end(GameState *st, int end, int side, int white, int black, int64_t t)
{
    st->over = true;
    st->end = (uint8_t)end;
    st->end_side = (int8_t)side;
    st->end_ms = t;
    st->score[WHITE] = (int8_t)white;
    st->score[BLACK] = (int8_t)black;
    for (int s = 0; s < 2; s++)
        if (st->score_override[s] >= 0)
            st->score[s] = st->score_override[s];
    /* 10.2: a score raised during play (12.9) and an ending that gives the
     * offender points too would make the game worth more than one point:
     * the side without a 12.9 score keeps only what is left (a draw after
     * the opponent's score was raised to 1 is 1-0, not 1-1/2).  Both
     * overrides together never exceed it: the penalty was refused. */
    for (int s = 0; s < 2; s++)
        if (st->score_override[s] >= 0 && st->score_override[!s] < 0 &&
            st->score[s] + st->score[!s] > 2)
            st->score[!s] = (int8_t)(2 - st->score[s]);
    st->offer = -1;
    st->offer_agreed = false;
    game_state_clear_touch(st);
    st->iii_claim = -1;
    st->dead_side = -1;
    clock_stop(&st->clock, t);
}

void game_state_end_loss(GameState *st, int end, int loser, int64_t t, bool draw)
{
    if (draw)
        game_state_end(st, end, loser, 1, 1, t);
    else
        game_state_end(st, end, loser, loser == WHITE ? 0 : 2, loser == WHITE ? 2 : 0, t);
}

bool game_state_has_move(const Board *b, int from, int to)
{
    MoveList list;
    movegen_legal_moves(b, &list);
    for (int i = 0; i < list.count; i++) {
        Move m = list.moves[i];
        if (from >= 0 && move_from(m) != from)
            continue;
        if (to >= 0 && (move_to(m) != to || move_kind(m) == MOVE_CASTLING))
            continue;
        return true;
    }
    return false;
}

const char *game_state_square_name(int sq, char out[3])
{
    out[0] = (char)('a' + SQ_FILE(sq));
    out[1] = (char)('1' + SQ_RANK(sq));
    out[2] = '\0';
    return out;
}

int game_state_repetitions(const GameState *st)
{
    uint64_t key = st->keys[st->nplies];
    int n = 0;
    int from = st->nplies - st->board.halfmove;
    if (from < 0)
        from = 0;
    for (int i = st->nplies; i >= from; i -= 2)
        if (st->keys[i] == key)
            n++;
    return n;
}

void game_state_position_at(const GameState *st, int ply, Board *b)
{
    *b = st->start;
    for (int i = 0; i < ply && i < st->nplies; i++)
        board_make(b, st->plies[i].move);
}

const char *game_state_result_text(const GameState *st, char buf[16])
{
    if (!st->over) {
        snprintf(buf, 16, "*");
        return buf;
    }
    int w = st->score[WHITE], b = st->score[BLACK];
    if (st->forfeit) {
        snprintf(buf, 16, "%c/%c",
                 w == 2   ? '+'
                 : w == 1 ? '='
                          : '-',
                 b == 2   ? '+'
                 : b == 1 ? '='
                          : '-');
        return buf;
    }
    static const char *const half[] = {"0", "1/2", "1"};
    if (w == 2 && b == 0)
        snprintf(buf, 16, "1-0");
    else if (w == 0 && b == 2)
        snprintf(buf, 16, "0-1");
    else if (w == 1 && b == 1)
        snprintf(buf, 16, "1/2-1/2");
    else
        snprintf(buf, 16, "%s-%s", half[w < 0 || w > 2 ? 0 : w], half[b < 0 || b > 2 ? 0 : b]);
    return buf;
}

/* ---- a move played ----------------------------------------------------- */

/* The automatic ends after a move (5.1.1, 5.2.1, 5.2.2, 9.6). */
static void after_move(GameState *st, const GameEvent *ev, GameVerdict *v)
{
    const Board *b = &st->board;
    int mover = !b->side;
    int64_t t = ev->time_ms;
    MoveList list;
    int n = movegen_legal_moves(b, &list);
    if (n == 0 && board_in_check(b)) {
        game_state_end_loss(st, GAME_END_CHECKMATE, b->side, t, false);
        game_state_say(v, "checkmate: %s wins", game_state_side_name(mover));
    } else if (n == 0) {
        game_state_end(st, GAME_END_STALEMATE, -1, 1, 1, t);
        game_state_say(v, "stalemate: draw");
    } else if (game_state_repetitions(st) >= 5) {
        game_state_end(st, GAME_END_FIVEFOLD, -1, 1, 1, t);
        game_state_say(v, "the same position for the fifth time: draw (9.6.1)");
    } else if (b->halfmove >= 150) {
        game_state_end(st, GAME_END_SEVENTY_FIVE, -1, 1, 1, t);
        game_state_say(v, "75 moves each without a pawn move or capture: draw (9.6.2)");
    } else if (canmate_is_dead(b)) {
        game_state_end(st, GAME_END_DEAD_POSITION, -1, 1, 1, t);
        game_state_say(v, "dead position, neither side can checkmate: draw (5.2.2)");
    }
    if (st->over)
        v->ended = true;
}

void game_state_play(GameState *st, const GameEvent *ev, Move m, bool forced_queen, bool offer,
                     GameVerdict *v)
{
    int mover = st->board.side;
    int64_t t = ev->time_ms;
    GamePly *p = &st->plies[st->nplies];
    memset(p, 0, sizeof *p);
    p->move = m;
    p->time_ms = t;
    board_make(&st->board, m);
    st->nplies++;
    st->keys[st->nplies] = st->board.key;
    game_state_clear_touch(st);
    /* 9.1.2: the opponent's offer lapses when this player moves instead. */
    if (st->offer == !mover) {
        st->offer = -1;
        st->offer_agreed = false;
    }
    if (offer) {
        st->offer = (int8_t)mover;
        p->flags |= GAME_PLY_OFFER;
    }
    if (forced_queen)
        p->flags |= GAME_PLY_PROMO_FORCED;
    after_move(st, ev, v);
    /* 6.2.1.1: a move that ends the game (5.1.1, 5.2.1, 5.2.2, 9.6.1,
     * 9.6.2) is completed without a press: game_state_end() stopped the clock at
     * the instant it was made, with no increment. */
    if (!st->over)
        clock_press(&st->clock, t, forced_queen);
    p->clock_ms[WHITE] = clock_remaining(&st->clock, WHITE, t);
    p->clock_ms[BLACK] = clock_remaining(&st->clock, BLACK, t);
}

/* 7.5.5 for side's completed illegal move: count it, give the opponent the
 * penalty time, and end the game on the limit. */
void game_state_illegal_penalty(GameState *st, const GameEvent *ev, int side, GameVerdict *v)
{
    int64_t t = ev->time_ms;
    int64_t pen = game_state_penalty_time(st);
    st->illegal_count[side]++;
    v->illegal = true;
    int limit = st->settings.illegal_moves_to_lose;
    if (limit && st->illegal_count[side] >= limit) {
        int can = game_state_can_mate(st, !side);
        if (can == CANMATE_UNKNOWN) {
            game_state_note(st, ev, "%s's illegal move no. %d (7.5.5)", game_state_side_name(side),
                            st->illegal_count[side]);
            game_state_ask_dead(st, ev, side, GAME_END_ILLEGAL_MOVES, t, v);
            return;
        }
        bool draw = can == CANMATE_NO;
        game_state_end_loss(st, GAME_END_ILLEGAL_MOVES, side, t, draw);
        v->ended = true;
        game_state_note(st, ev, "%s's illegal move no. %d: %s (7.5.5)", game_state_side_name(side),
                        st->illegal_count[side],
                        draw ? "draw, the opponent cannot checkmate" : "game lost");
        return;
    }
    clock_add(&st->clock, !side, pen);
    game_state_note(st, ev, "%s's illegal move no. %d: %s +%lld s (7.5.5)",
                    game_state_side_name(side), st->illegal_count[side],
                    game_state_side_name(!side), (long long)(pen / 1000));
}
