/*
 * alert_detail.c — an alert's code and parameters.  See alert_detail.h.
 *
 * Everything here is read from the event and the state the Laws engine
 * left, never from its English sentences: those may be reworded, the codes
 * are an interface the desks translate.
 */
#include "alert_detail.h"

#include <string.h>

#include "board.h"
#include "timecontrol.h"

static const char *side_text(int side)
{
    return side == WHITE ? "white" : "black";
}

/* Sets KEY to the string VAL (nothing for NULL or ""); nonzero when out of
 * memory. */
static int put_str(json_t *o, const char *key, const char *val)
{
    return val && val[0] ? json_object_set_new(o, key, json_string(val)) : 0;
}

static int put_int(json_t *o, const char *key, long long val)
{
    return json_object_set_new(o, key, json_integer(val));
}

/* The 7.5.5 / 9.5.3 penalty time in whole seconds, as the engine gives it:
 * the tournament's, or the time control's by category. */
static long long penalty_s(const GameState *st)
{
    int64_t ms = st->settings.penalty_ms > 0 ? st->settings.penalty_ms
                                             : timecontrol_penalty_ms(&st->settings.tc);
    return (long long)(ms / 1000);
}

/* The piece on square SQ and the square, as "N" and "g1". */
static int put_piece(json_t *o, const Board *b, int sq)
{
    static const char letters[] = "PNBRQK";
    int p = b->squares[sq];
    char piece[2] = {p == PIECE_NONE ? '\0' : letters[piece_type(p)], '\0'};
    char square[3] = {(char)('a' + SQ_FILE(sq)), (char)('1' + SQ_RANK(sq)), '\0'};
    return put_str(o, "piece", piece) | put_str(o, "square", square);
}

static int claim_detail(json_t *o, const GameEvent *ev, const GameVerdict *v, const GameState *st,
                        bool played)
{
    static const char *const articles[] = {"9.2", "9.3", "III.4", "III.5"};
    const char *code;
    int rc = put_str(o, "side", side_text(ev->actor)) |
             put_str(o, "claim", game_claim_name(ev->claim)) | put_str(o, "move", ev->move);
    if (ev->claim < sizeof articles / sizeof articles[0])
        rc |= put_str(o, "article", articles[ev->claim]);
    if (ev->claim == GAME_CLAIM_INCREMENT || ev->claim == GAME_CLAIM_NO_EFFORT) {
        code = "claim_waiting";
    } else if (v->claim_correct) {
        code = "claim_correct";
    } else {
        code = !ev->move[0] ? "claim_incorrect"
               : played     ? "claim_incorrect_played"
                            : "claim_incorrect_illegal";
        rc |= put_int(o, "penalty_s", penalty_s(st));
    }
    return rc | put_str(o, "code", code);
}

static int flag_detail(json_t *o, const GameVerdict *v, const GameState *st)
{
    const char *code;
    int side = -1;
    if (v->dead_question) {
        code = "flag_undecided";
        side = st->dead_side;
    } else if (st->over && st->end == GAME_END_TIME && st->end_side < 0) {
        code = "flag_both";
    } else {
        side = st->end_side;
        code = st->over && st->score[WHITE] == st->score[BLACK] ? "flag_draw" : "flag_lost";
    }
    int rc = put_str(o, "code", code) | put_str(o, "article", "6.9");
    if (side == WHITE || side == BLACK)
        rc |= put_str(o, "side", side_text(side));
    return rc;
}

static int illegal_detail(json_t *o, const GameEvent *ev, const GameVerdict *v, const GameState *st,
                          bool played)
{
    int side =
        ev->actor == GAME_ACTOR_WHITE || ev->actor == GAME_ACTOR_BLACK ? ev->actor : ev->side;
    if (side != WHITE && side != BLACK)
        return put_str(o, "code", "illegal_recorded");
    const char *code = "illegal_move", *article = "7.5.1";
    bool goes_on = !st->over && !v->dead_question;
    if (v->dead_question) {
        code = "illegal_undecided";
        article = "7.5.5";
    } else if (st->over && st->end == GAME_END_ILLEGAL_MOVES) {
        code = st->score[WHITE] == st->score[BLACK] ? "illegal_draw" : "illegal_lost";
        article = "7.5.5";
    } else if (ev->type == GAME_EV_ILLEGAL_ACT) {
        code = "illegal_act";
        article = ev->kind == GAME_ACT_NO_MOVE ? "7.5.3" : "7.5.4";
    } else if (ev->type == GAME_EV_ILLEGAL) {
        code = "illegal_recorded";
    } else if (played) {
        code = "illegal_promotion";
        article = "7.5.2";
    }
    int rc = put_str(o, "code", code) | put_str(o, "article", article) |
             put_str(o, "side", side_text(side)) | put_int(o, "count", st->illegal_count[side]) |
             put_int(o, "limit", st->settings.illegal_moves_to_lose);
    if (ev->type == GAME_EV_MOVE)
        rc |= put_str(o, "move", ev->move);
    if (ev->type == GAME_EV_ILLEGAL_ACT)
        rc |= put_str(o, "act", game_kind_name(ev->type, ev->kind));
    if (!goes_on)
        return rc;
    rc |= put_int(o, "penalty_s", penalty_s(st));
    /* 4.3 after the illegal move: the piece that must move, or the
     * opponent's piece that must be taken. */
    if (st->touch_square >= 0)
        rc |= put_str(o, "must", "move") | put_piece(o, &st->board, st->touch_square);
    else if (st->touch_capture >= 0)
        rc |= put_str(o, "must", "capture") | put_piece(o, &st->board, st->touch_capture);
    return rc;
}

json_t *alert_detail_new(const char *kind, const GameEvent *ev, const GameVerdict *v,
                         const GameState *st, bool played)
{
    json_t *o = json_object();
    if (!o)
        return NULL;
    int rc = 0;
    if (!strcmp(kind, "call")) {
        rc = put_str(o, "code", ev->note[0] ? "call_note" : "call") |
             put_str(o, "side", side_text(ev->actor)) | put_str(o, "note", ev->note);
    } else if (!strcmp(kind, "claim")) {
        rc = claim_detail(o, ev, v, st, played);
    } else if (!strcmp(kind, "flag")) {
        rc = flag_detail(o, v, st);
    } else if (!strcmp(kind, "dead_position")) {
        rc = put_str(o, "code", "dead_question") | put_str(o, "side", side_text(st->dead_side)) |
             put_str(o, "end", game_end_name(st->dead_end)) |
             put_str(o, "article", st->dead_end == GAME_END_TIME ? "6.9" : "7.5.5");
    } else if (!strcmp(kind, "illegal")) {
        rc = illegal_detail(o, ev, v, st, played);
    } else if (!strcmp(kind, "result")) {
        char buf[16];
        rc = put_str(o, "code", "result") | put_str(o, "result", game_result_text(st, buf)) |
             put_str(o, "end", game_end_name(st->end));
    } else {
        rc = put_str(o, "code", kind);
    }
    if (rc) {
        json_decref(o);
        return NULL;
    }
    return o;
}
