/*
 * game.c — the fold of a game's events: settings, names, the state's
 * storage, the common checks of every event (order, actor, time due) and the
 * events of play: start, check-in, moves (legal and illegal), offers,
 * resignation, flags, and a move whose clock press the arbiter records.
 * Claims and the arbiter's actions are in game_arbiter.c, the irregularities
 * the arbiter records from the board in game_incident.c; the state changes
 * they need (notes, ends, a move played) in game_state.c.  Calls go game.c
 * -> game_incident.c -> game_arbiter.c -> game_state.c only.
 *
 * The rule that keeps replays exact: every handler first decides whether the
 * event is acceptable, changing nothing, and only then changes the state.
 * The storage for one more ply and a few notes is reserved before any
 * handler runs, so nothing can fail half-way.
 */
#include "game.h"

#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "canmate.h"
#include "game_arbiter.h"
#include "game_incident.h"
#include "game_state.h"
#include "notation.h"

enum { PLIES_LIMIT = 12000, NOTES_LIMIT = 4000 };

/* ---- settings and names ------------------------------------------------- */

void game_settings_default(GameSettings *s)
{
    memset(s, 0, sizeof *s);
    char err[64];
    timecontrol_parse(&s->tc, "5400+30", err, sizeof err);
    s->illegal_entry = GAME_ILLEGAL_PENALIZE;
    s->illegal_moves_to_lose = 3;
    s->draw_offers = GAME_OFFERS_FREE;
    s->default_time_ms = 0;
    s->supervised = true;
    snprintf(s->start_fen, sizeof s->start_fen, "%s", BOARD_START_FEN);
}

void game_event_init(GameEvent *ev, int type, int actor, int64_t time_ms)
{
    memset(ev, 0, sizeof *ev);
    ev->type = (uint8_t)type;
    ev->actor = (uint8_t)actor;
    ev->time_ms = time_ms;
    ev->side = -1;
    ev->ms = ev->set_ms = ev->add_ms = GAME_NONE;
    ev->moves = -1;
    ev->ply = -1;
    ev->clock_ms[0] = ev->clock_ms[1] = GAME_NONE;
    ev->score[0] = ev->score[1] = -1;
    ev->square = -1;
}

static const char *const type_names[GAME_EV_COUNT] = {
    "start",
    "checkin",
    "move",
    "offer",
    "decline",
    "accept",
    "claim",
    "resign",
    "flag",
    "confirm",
    "call",
    "pause",
    "resume",
    "adjust",
    "restore",
    "illegal",
    "penalty",
    "result",
    "colours_reversed",
    "touch",
    "press",
    "illegal_act",
    "displaced",
    "setup",
    "dead_position",
};
static const char *const actor_names[] = {"white", "black", "arbiter", "server"};
static const char *const claim_names[] = {"threefold", "fifty", "increment", "no_effort"};
static const char *const end_names[GAME_END_COUNT] = {
    "",          "checkmate",     "resignation", "stalemate", "dead_position",
    "agreement", "threefold",     "fifty",       "fivefold",  "seventy_five",
    "time",      "illegal_moves", "default",     "penalty",   "arbiter",
};

static int lookup(const char *const *names, int n, const char *s)
{
    for (int i = 0; s && i < n; i++)
        if (strcmp(names[i], s) == 0)
            return i;
    return -1;
}

#define NAME_OF(arr, i) ((i) >= 0 && (size_t)(i) < sizeof arr / sizeof arr[0] ? arr[i] : "?")
#define COUNT_OF(arr)   ((int)(sizeof arr / sizeof arr[0]))

const char *game_event_type_name(int type)
{
    return NAME_OF(type_names, type);
}
int game_event_type_from_name(const char *s)
{
    return lookup(type_names, COUNT_OF(type_names), s);
}
const char *game_actor_name(int actor)
{
    return NAME_OF(actor_names, actor);
}
int game_actor_from_name(const char *s)
{
    return lookup(actor_names, COUNT_OF(actor_names), s);
}
const char *game_claim_name(int claim)
{
    return NAME_OF(claim_names, claim);
}
int game_claim_from_name(const char *s)
{
    return lookup(claim_names, COUNT_OF(claim_names), s);
}
const char *game_penalty_name(int p)
{
    return game_state_penalty_name(p);
}
int game_penalty_from_name(const char *s)
{
    return game_state_penalty_from_name(s);
}
/* The names of GameEvent.kind, by event type. */
static const char *const act_names[GAME_ACT_COUNT] = {"no_move", "two_hands"};
static const char *const setup_names[GAME_SETUP_COUNT] = {"position", "orientation"};
static const char *const dead_names[GAME_DEAD_COUNT] = {"dead", "alive"};
static const char *const displaced_names[GAME_DISPLACED_COUNT] = {"none", "warning", "time_add",
                                                                  "time_sub"};

static const char *const *kind_names(int type, int *n)
{
    switch (type) {
    case GAME_EV_ILLEGAL_ACT: *n = GAME_ACT_COUNT; return act_names;
    case GAME_EV_SETUP: *n = GAME_SETUP_COUNT; return setup_names;
    case GAME_EV_DEAD: *n = GAME_DEAD_COUNT; return dead_names;
    case GAME_EV_DISPLACED: *n = GAME_DISPLACED_COUNT; return displaced_names;
    default: *n = 0; return NULL;
    }
}

bool game_type_has_kind(int type)
{
    int n;
    return kind_names(type, &n) != NULL;
}

const char *game_kind_name(int type, int kind)
{
    int n;
    const char *const *names = kind_names(type, &n);
    return names && kind >= 0 && kind < n ? names[kind] : "?";
}

int game_kind_from_name(int type, const char *s)
{
    int n;
    const char *const *names = kind_names(type, &n);
    return names ? lookup(names, n, s) : -1;
}

const char *game_end_name(int end)
{
    return NAME_OF(end_names, end);
}

/* ---- state storage ------------------------------------------------------ */

#ifndef NDEBUG /* used by assert() alone */
/*
 * The invariants of game.h that hold after every fold step, asserted at the
 * end of game_new() and game_apply(): the ply and note counts lie within
 * their storage, the repetition key after the last ply is the current
 * board's, the side to move follows from the start side and the plies
 * played (Board.side is checked by board_make() itself), every ply came from
 * an accepted event, and the scores and the standing offer are in range
 * (scores stay -1 until the game is over).
 */
static bool state_consistent(const GameState *st)
{
    if (st->nplies < 0 || st->nplies > st->cap_plies || st->nnotes < 0 ||
        st->nnotes > st->cap_notes || st->nplies > st->nevents)
        return false;
    if (st->keys[st->nplies] != st->board.key)
        return false;
    if (st->board.side != (st->start.side ^ (st->nplies & 1)))
        return false;
    for (int s = 0; s < 2; s++)
        if (st->score[s] < -1 || st->score[s] > 2 || (!st->over && st->score[s] != -1))
            return false;
    return st->offer >= -1 && st->offer <= 1;
}
#endif

GameState *game_new(const GameSettings *s, char *err, size_t errlen)
{
    GameState *st = calloc(1, sizeof *st);
    if (!st) {
        if (err && errlen)
            snprintf(err, errlen, "out of memory");
        return NULL;
    }
    if (s)
        st->settings = *s;
    else
        game_settings_default(&st->settings);
    const char *fen = st->settings.start_fen[0] ? st->settings.start_fen : BOARD_START_FEN;
    char why[160];
    if (board_from_fen(&st->start, fen, why, sizeof why)) {
        if (err && errlen)
            snprintf(err, errlen, "bad start FEN: %s", why);
        free(st);
        return NULL;
    }
    board_to_fen(&st->start, st->settings.start_fen);
    st->board = st->start;
    clock_init(&st->clock, &st->settings.tc);
    st->score[0] = st->score[1] = -1;
    st->score_override[0] = st->score_override[1] = -1;
    st->end_side = -1;
    st->offer = -1;
    st->call_side = -1;
    st->touch_square = -1;
    st->touch_capture = -1;
    st->touch_castle = -1;
    st->iii_claim = -1;
    st->iii_side = -1;
    st->dead_side = -1;
    st->cap_plies = 128;
    /* Notes (offers, claims, penalties, arbiter actions) are few, and grow
     * by doubling: 32 of them (264 bytes each) were 8 KB of every game's
     * state, over half of it, for each of the thousands of games a server
     * keeps loaded (an Olympiad's rounds are paired and started ahead). */
    st->cap_notes = 8;
    st->plies = malloc(sizeof *st->plies * (size_t)st->cap_plies);
    st->keys = malloc(sizeof *st->keys * (size_t)(st->cap_plies + 1));
    st->notes = malloc(sizeof *st->notes * (size_t)st->cap_notes);
    if (!st->plies || !st->keys || !st->notes) {
        if (err && errlen)
            snprintf(err, errlen, "out of memory");
        game_free(st);
        return NULL;
    }
    st->keys[0] = st->board.key;
    assert(state_consistent(st));
    return st;
}

void game_free(GameState *st)
{
    if (!st)
        return;
    free(st->plies);
    free(st->keys);
    free(st->notes);
    free(st);
}

/* Room for one more ply and three more notes; 0 or a refusal code. */
static int reserve(GameState *st, GameVerdict *v)
{
    if (st->nplies + 1 >= PLIES_LIMIT || st->nnotes + 3 >= NOTES_LIMIT)
        return game_state_refuse(v, GAME_E_LIMIT, "the game has too many moves or notes");
    if (st->nplies + 1 >= st->cap_plies) {
        int cap = st->cap_plies * 2;
        GamePly *p = realloc(st->plies, sizeof *p * (size_t)cap);
        if (!p)
            return game_state_refuse(v, GAME_E_LIMIT, "out of memory");
        st->plies = p;
        uint64_t *k = realloc(st->keys, sizeof *k * (size_t)(cap + 1));
        if (!k)
            return game_state_refuse(v, GAME_E_LIMIT, "out of memory");
        st->keys = k;
        st->cap_plies = cap;
    }
    if (st->nnotes + 3 >= st->cap_notes) {
        int cap = st->cap_notes * 2;
        GameNote *n = realloc(st->notes, sizeof *n * (size_t)cap);
        if (!n)
            return game_state_refuse(v, GAME_E_LIMIT, "out of memory");
        st->notes = n;
        st->cap_notes = cap;
    }
    return 0;
}

/* ---- queries kept by game_state.c -------------------------------------- */

int game_repetitions(const GameState *st)
{
    return game_state_repetitions(st);
}

void game_position_at(const GameState *st, int ply, Board *b)
{
    game_state_position_at(st, ply, b);
}

const char *game_result_text(const GameState *st, char buf[16])
{
    return game_state_result_text(st, buf);
}

int game_side_to_move(const GameState *st)
{
    return st->board.side;
}

int64_t game_remaining(const GameState *st, int side, int64_t now)
{
    return clock_remaining(&st->clock, side, now);
}

/* Instant after which an absent player has lost by default (6.7), or
 * CLOCK_NEVER. */
static int64_t absence_deadline(const GameState *st)
{
    if (!st->started || st->over || st->settings.default_time_ms < 0)
        return CLOCK_NEVER;
    if (st->checked_in[WHITE] && st->checked_in[BLACK])
        return CLOCK_NEVER;
    return st->start_ms + st->settings.default_time_ms;
}

int game_flag_fallen(const GameState *st, int64_t now)
{
    /* A fallen flag whose verdict waits for the arbiter (dead_side) is
     * recorded already. */
    if (!st->started || st->over || st->dead_side >= 0)
        return -1;
    for (int s = 0; s < 2; s++)
        if (clock_flag_fallen(&st->clock, s, now))
            return s;
    return -1;
}

int64_t game_next_deadline(const GameState *st, int64_t now)
{
    if (!st->started || st->over || st->dead_side >= 0)
        return CLOCK_NEVER;
    int64_t d = absence_deadline(st);
    if (d != CLOCK_NEVER)
        d += 1; /* present *at* the default time is in time */
    if (!st->settings.flags_claimed) {
        int64_t f = clock_deadline(&st->clock, now);
        if (f < d)
            d = f;
        /* A waiting player's flag is down when the arbiter took all his
         * time: it is due at once, not at the running player's deadline. */
        for (int s = 0; s < 2; s++) {
            f = clock_flag_time(&st->clock, s, now);
            if (f < d)
                d = f;
        }
    }
    return d;
}

/* ---- the common checks -------------------------------------------------- */

static bool is_player(int actor)
{
    return actor == GAME_ACTOR_WHITE || actor == GAME_ACTOR_BLACK;
}

/* Before a player's (or the server's) event: has a flag fallen, or a default
 * time passed, that the log has not recorded yet? */
static int time_due(const GameState *st, const GameEvent *ev, GameVerdict *v)
{
    if (!st->started || st->over)
        return 0;
    int64_t t = ev->time_ms;
    int64_t ad = absence_deadline(st);
    if (ad != CLOCK_NEVER && t > ad) {
        int absent = !st->checked_in[WHITE] ? WHITE : BLACK;
        return game_state_refuse(v, GAME_E_FLAG_FELL,
                                 "%s was not present by the default time (%lld ms after the "
                                 "start): record a flag event first",
                                 game_state_side_name(absent),
                                 (long long)st->settings.default_time_ms);
    }
    if (!st->settings.flags_claimed) {
        int s = game_flag_fallen(st, t);
        if (s >= 0)
            return game_state_refuse(
                v, GAME_E_FLAG_FELL, "%s's flag fell at %lld: record a flag event first",
                game_state_side_name(s), (long long)clock_flag_time(&st->clock, s, t));
    }
    return 0;
}

/* Who may send what. */
static bool actor_allowed(int type, int actor)
{
    switch (type) {
    case GAME_EV_START: return actor == GAME_ACTOR_ARBITER || actor == GAME_ACTOR_SERVER;
    case GAME_EV_CHECKIN:
        return is_player(actor) || actor == GAME_ACTOR_ARBITER; /* admits a player */
    case GAME_EV_MOVE:
    case GAME_EV_OFFER:
    case GAME_EV_CLAIM:
    case GAME_EV_RESIGN:
    case GAME_EV_CONFIRM:
    case GAME_EV_CALL: return is_player(actor);
    case GAME_EV_DECLINE:
    case GAME_EV_ACCEPT: return is_player(actor) || actor == GAME_ACTOR_ARBITER;
    case GAME_EV_FLAG: return true;
    default: return actor == GAME_ACTOR_ARBITER;
    }
}

/* ---- moves ---------------------------------------------------------------- */

/* True when the piece on sq (of the side to move) has a legal move. */
static bool piece_can_move(const Board *b, int sq)
{
    return game_state_has_move(b, sq, -1);
}

/* The square of the piece an illegal move tried to move: notation's answer
 * when it gives one, else the first of two squares written in the text
 * ("e2e5", "Ng1-e3") when a piece of the side to move stands there, else
 * the only piece of the kind an English SAN letter names ("Qh9" is no move,
 * but "Qa8" with one queen is); -1 if the text does not say. */
static int illegal_from(const Board *b, const char *text, Move m)
{
    if (m != MOVE_NONE)
        return move_from(m);
    int squares[2], n = 0;
    for (const char *p = text; *p && p[1] && n < 2; p++)
        if (*p >= 'a' && *p <= 'h' && p[1] >= '1' && p[1] <= '8') {
            squares[n++] = SQ(*p - 'a', p[1] - '1');
            p++;
        }
    if (n != 2) {
        /* "Nf5" when the knight cannot go there: the piece is known when
         * the player has only one of that kind. */
        static const char letters[] = "NBRQK";
        const char *l = text[0] ? strchr(letters, text[0]) : NULL;
        if (!l)
            return -1;
        Bitboard mine = board_pieces(b, b->side, KNIGHT + (int)(l - letters));
        return mine && !bb_more_than_one(mine) ? bb_lsb(mine) : -1;
    }
    int piece = b->squares[squares[0]];
    if (piece == PIECE_NONE || piece_color(piece) != b->side)
        return -1;
    return squares[0];
}

/* The square an illegal move tried to reach: notation's answer when it
 * gives one, else the last square written in the text; -1 if none. */
static int illegal_to(const char *text, Move m)
{
    if (m != MOVE_NONE)
        return move_to(m);
    int sq = -1;
    for (const char *p = text; *p && p[1]; p++)
        if (*p >= 'a' && *p <= 'h' && p[1] >= '1' && p[1] <= '8') {
            sq = SQ(*p - 'a', p[1] - '1');
            p++;
        }
    return sq;
}

/* Whether the side to move has a legal capture on sq. */
static bool can_capture_on(const Board *b, int sq)
{
    return game_state_has_move(b, -1, sq);
}

/* Sofia rule and 5.2.3: may a draw be agreed (or offered) now?  An offer
 * made with a move comes after that move is made on the board (9.1.2.1), so
 * with_move counts it for the side to move. */
static int offer_rule(const GameState *st, bool agreeing, bool with_move, GameVerdict *v)
{
    int done[2];
    game_state_moves_done(st, done);
    if (with_move)
        done[st->board.side]++;
    int least = done[0] < done[1] ? done[0] : done[1];
    if (st->settings.draw_offers == GAME_OFFERS_SOFIA && least < st->settings.sofia_moves)
        return game_state_refuse(v, GAME_E_OFFER_RULE,
                                 "no draw offers before both players have made %d moves (9.1.1)",
                                 (int)st->settings.sofia_moves);
    if (agreeing && least < 1)
        return game_state_refuse(v, GAME_E_OFFER_RULE,
                                 "a draw may be agreed only after both players have moved (5.2.3)");
    return 0;
}

static int on_move(GameState *st, const GameEvent *ev, GameVerdict *v)
{
    int side = ev->actor;
    if (side != st->board.side)
        return game_state_refuse(v, GAME_E_TURN, "it is %s's move",
                                 game_state_side_name(st->board.side));
    if (st->clock.paused)
        return game_state_refuse(v, GAME_E_PAUSED, "the clocks are paused");
    Move m = MOVE_NONE;
    char err[NOTATION_ERR_MAX];
    int rc = notation_parse(&st->board, ev->move, &m, err, sizeof err);
    bool penalize = st->settings.illegal_entry == GAME_ILLEGAL_PENALIZE;
    if (rc == NOTATION_E_MALFORMED || rc == NOTATION_E_AMBIGUOUS || rc == NOTATION_E_LANG)
        return game_state_refuse(v, GAME_E_NOTATION, "%s", err);
    if ((rc == NOTATION_E_ILLEGAL || rc == NOTATION_E_NO_PROMOTION) && !penalize)
        return game_state_refuse(v, GAME_E_ILLEGAL, "%s", err);
    if (rc != 0 && rc != NOTATION_E_ILLEGAL && rc != NOTATION_E_NO_PROMOTION)
        return game_state_refuse(v, GAME_E_NOTATION, "%s", err[0] ? err : "not a move");
    if ((rc == 0 || rc == NOTATION_E_NO_PROMOTION) && st->touch_square >= 0 &&
        move_from(m) != st->touch_square && piece_can_move(&st->board, st->touch_square)) {
        char sq[3] = {(char)('a' + SQ_FILE(st->touch_square)),
                      (char)('1' + SQ_RANK(st->touch_square)), 0};
        return game_state_refuse(
            v, GAME_E_TOUCH,
            "the piece on %s must be moved: it was touched (4.3) or moved illegally (7.5.1)", sq);
    }
    if ((rc == 0 || rc == NOTATION_E_NO_PROMOTION) && st->touch_capture >= 0 &&
        move_to(m) != st->touch_capture && can_capture_on(&st->board, st->touch_capture)) {
        char sq[3] = {(char)('a' + SQ_FILE(st->touch_capture)),
                      (char)('1' + SQ_RANK(st->touch_capture)), 0};
        return game_state_refuse(v, GAME_E_TOUCH,
                                 "the piece on %s must be captured: it was touched (4.3) or "
                                 "an illegal move tried to take it (7.5.1, 4.3.3)",
                                 sq);
    }
    if ((rc == 0 || rc == NOTATION_E_NO_PROMOTION) && st->touch_castle >= 0 &&
        !(move_kind(m) == MOVE_CASTLING && move_to(m) == st->touch_castle))
        return game_state_refuse(v, GAME_E_TOUCH,
                                 "the king and a rook were touched: castle on that side (4.4.1)");
    if (ev->offer && offer_rule(st, false, rc == 0 || rc == NOTATION_E_NO_PROMOTION, v))
        return v->code;
    if (rc == 0) {
        game_state_play(st, ev, m, false, ev->offer, v);
        if (!st->over)
            game_state_say(v, "%s", ev->offer ? "move made, draw offered" : "move made");
        if (ev->offer)
            game_state_note(st, ev, "(=) %s offers a draw", game_state_side_name(side));
        return 0;
    }
    if (rc == NOTATION_E_NO_PROMOTION) {
        /* 7.5.2: an illegal move; the pawn becomes a queen.  Should the
         * queen end the game, that ending stands and the offence is only
         * counted. */
        game_state_play(st, ev, m, true, ev->offer, v);
        if (ev->offer)
            game_state_note(st, ev, "(=) %s offers a draw", game_state_side_name(side));
        if (st->over) {
            st->illegal_count[side]++;
            v->illegal = true;
            return 0;
        }
        game_state_illegal_penalty(st, ev, side, v);
        if (!v->ended && !v->dead_question)
            game_state_say(v, "pawn to the last rank without a piece: illegal, it becomes a queen "
                              "(7.5.2)");
        return 0;
    }
    /* A completed illegal move (7.5.1): the position stands, the clock runs
     * on for the offender, who must move the same piece if it can. */
    game_state_illegal_penalty(st, ev, side, v);
    if (v->dead_question) {
        /* 7.5.5 reached, the loss undecided: the arbiter's verdict next. */
    } else if (!st->over) {
        /* 9.1.2.1: touching a piece with the intention of moving it rejects
         * the opponent's offer; a completed illegal move did more than that. */
        if (st->offer == !side) {
            st->offer = -1;
            st->offer_agreed = false;
            game_state_note(st, ev, "%s's draw offer lapses: %s touched a piece (9.1.2.1)",
                            game_state_side_name(!side), game_state_side_name(side));
        }
        int from = illegal_from(&st->board, ev->move, m);
        int to = illegal_to(ev->move, m);
        /* 4.3: the first piece touched binds.  A player already bound on
         * this move (a touch the arbiter recorded, or an earlier illegal
         * move) stays bound to it whatever piece the illegal move named. */
        bool bound = st->touch_square >= 0 || st->touch_capture >= 0 || st->touch_castle >= 0;
        st->touched = true;
        if (!bound && from >= 0 && piece_can_move(&st->board, from)) {
            st->touch_square = (int8_t)from;
        } else if (!bound && to >= 0 && st->board.squares[to] != PIECE_NONE &&
                   piece_color(st->board.squares[to]) != side && can_capture_on(&st->board, to)) {
            /* 4.3.3: the own piece touched cannot move, so the opponent's
             * piece the illegal move tried to take must be captured. */
            st->touch_capture = (int8_t)to;
        }
        game_state_say(v, "illegal move: %s", err);
        if (ev->offer) {
            st->offer = (int8_t)side;
            game_state_note(st, ev, "(=) %s offers a draw", game_state_side_name(side));
        }
    } else {
        game_state_say(v, "illegal move no. %d: %s", st->illegal_count[side], err);
    }
    return 0;
}

/* ---- other events of play ----------------------------------------------- */

static int on_start(GameState *st, const GameEvent *ev, GameVerdict *v)
{
    if (st->started)
        return game_state_refuse(v, GAME_E_STARTED, "the game has already started");
    st->started = true;
    st->start_ms = ev->time_ms;
    if (!st->over)
        clock_start(&st->clock, st->board.side, ev->time_ms);
    game_state_say(v, "started: %s's clock runs", game_state_side_name(st->board.side));
    return 0;
}

static int on_checkin(GameState *st, const GameEvent *ev, GameVerdict *v)
{
    int side = ev->actor;
    if (ev->actor == GAME_ACTOR_ARBITER) {
        /* 6.7.1: "unless the arbiter decides otherwise". */
        side = ev->side;
        if (side != WHITE && side != BLACK)
            return game_state_refuse(v, GAME_E_PAYLOAD, "the arbiter's checkin needs the side");
        game_state_note(st, ev, "the arbiter admits %s to the game (6.7)",
                        game_state_side_name(side));
    }
    st->checked_in[side] = true;
    st->checkin_ms[side] = ev->time_ms;
    game_state_say(v, "%s is present", game_state_side_name(side));
    return 0;
}

static int on_offer(GameState *st, const GameEvent *ev, GameVerdict *v)
{
    int side = ev->actor;
    if (st->offer == !side)
        return game_state_refuse(v, GAME_E_OFFER_RULE, "%s's offer stands: accept or decline it",
                                 game_state_side_name(!side));
    if (st->offer == side)
        return game_state_refuse(v, GAME_E_OFFER_RULE, "your draw offer already stands");
    if (offer_rule(st, false, false, v))
        return v->code;
    st->offer = (int8_t)side;
    game_state_note(st, ev, "(=) %s offers a draw", game_state_side_name(side));
    game_state_say(v, "draw offered");
    return 0;
}

static int on_decline(GameState *st, const GameEvent *ev, GameVerdict *v)
{
    if (ev->actor == GAME_ACTOR_ARBITER && st->iii_claim >= 0)
        return game_arbiter_iii_decide(st, ev, false, v);
    if (st->offer < 0)
        return game_state_refuse(v, GAME_E_NO_OFFER, "there is no draw offer");
    if (ev->actor == GAME_ACTOR_ARBITER) {
        if (!st->offer_agreed)
            return game_state_refuse(v, GAME_E_NO_OFFER, "no agreed draw awaits the arbiter");
        game_state_note(st, ev, "the arbiter refuses the agreed draw");
    } else {
        if (ev->actor == st->offer)
            return game_state_refuse(v, GAME_E_ACTOR, "a draw offer cannot be withdrawn (9.1.2)");
        game_state_note(st, ev, "%s declines the draw offer", game_state_side_name(ev->actor));
    }
    st->offer = -1;
    st->offer_agreed = false;
    game_state_say(v, "draw offer declined");
    return 0;
}

static int on_accept(GameState *st, const GameEvent *ev, GameVerdict *v)
{
    if (ev->actor == GAME_ACTOR_ARBITER && st->iii_claim >= 0)
        return game_arbiter_iii_decide(st, ev, true, v);
    if (st->offer < 0)
        return game_state_refuse(v, GAME_E_NO_OFFER, "there is no draw offer");
    if (ev->actor == GAME_ACTOR_ARBITER) {
        if (!st->offer_agreed)
            return game_state_refuse(v, GAME_E_NO_OFFER,
                                     "the players have not agreed a draw to consent to");
    } else {
        if (ev->actor == st->offer)
            return game_state_refuse(v, GAME_E_ACTOR, "one cannot accept one's own offer");
        if (offer_rule(st, true, false, v))
            return v->code;
        if (st->settings.draw_offers == GAME_OFFERS_ARBITER) {
            st->offer_agreed = true;
            game_state_note(st, ev, "%s accepts the draw offer; awaiting the arbiter",
                            game_state_side_name(ev->actor));
            game_state_say(v, "draw agreed, awaiting the arbiter's consent");
            return 0;
        }
    }
    game_state_end(st, GAME_END_AGREEMENT, -1, 1, 1, ev->time_ms);
    v->ended = true;
    game_state_note(st, ev, "draw agreed");
    game_state_say(v, "draw agreed");
    return 0;
}

static int on_resign(GameState *st, const GameEvent *ev, GameVerdict *v)
{
    int side = ev->actor;
    bool draw = game_state_cannot_mate(st, !side);
    game_state_end_loss(st, GAME_END_RESIGNATION, side, ev->time_ms, draw);
    v->ended = true;
    game_state_note(st, ev, "%s resigns%s", game_state_side_name(side),
                    draw ? "; the opponent cannot checkmate: draw (5.1.2)" : "");
    game_state_say(v, "%s resigns: %s", game_state_side_name(side),
                   draw ? "draw, the opponent could not checkmate (5.1.2)" : "game lost");
    return 0;
}

static int on_flag(GameState *st, const GameEvent *ev, GameVerdict *v)
{
    if (st->dead_side >= 0)
        return game_state_refuse(v, GAME_E_NO_FLAG,
                                 "the arbiter has yet to decide whether the position is dead");
    int64_t t = ev->time_ms;
    int64_t ad = absence_deadline(st);
    if (ad != CLOCK_NEVER && t > ad && (ev->side < 0 || !st->checked_in[ev->side])) {
        bool w = !st->checked_in[WHITE], b = !st->checked_in[BLACK];
        clock_stop(&st->clock, t); /* readings as at the check */
        game_state_end(st, GAME_END_DEFAULT,
                       w && !b   ? WHITE
                       : b && !w ? BLACK
                                 : -1,
                       w ? 0 : 2, b ? 0 : 2, ad);
        st->forfeit = true;
        v->ended = true;
        game_state_note(st, ev, "%s not present by the default time: forfeit (6.7)",
                        w && b ? "neither player" : game_state_side_name(w ? WHITE : BLACK));
        game_state_say(v, "forfeit: %s absent",
                       w && b ? "both players" : game_state_side_name(w ? WHITE : BLACK));
        return 0;
    }
    if (st->settings.flags_claimed && ev->actor == GAME_ACTOR_SERVER)
        return game_state_refuse(v, GAME_E_ACTOR,
                                 "flags must be claimed by the players here (A.5)");
    int flagged = -1;
    int64_t when = CLOCK_NEVER;
    for (int s = 0; s < 2; s++) {
        if (ev->side >= 0 && s != ev->side)
            continue;
        if (is_player(ev->actor) && s == ev->actor)
            continue; /* a player claims the opponent's flag, not his own */
        int64_t f = clock_flag_time(&st->clock, s, t);
        if (f != CLOCK_NEVER && f < when) {
            when = f;
            flagged = s;
        }
    }
    if (flagged < 0)
        return game_state_refuse(v, GAME_E_NO_FLAG, "no flag has fallen");
    if (is_player(ev->actor) && clock_flag_fallen(&st->clock, ev->actor, t)) {
        /* Flags claimed by the players: the claimant's own flag is down
         * too, so nobody's claim holds: a draw (both flags fallen). */
        clock_stop(&st->clock, t);
        game_state_end(st, GAME_END_TIME, -1, 1, 1, t);
        st->clock.main_ms[WHITE] = st->clock.main_ms[BLACK] = 0;
        v->ended = true;
        game_state_note(st, ev, "%s claims on time, but both flags have fallen: draw",
                        game_state_side_name(ev->actor));
        game_state_say(v, "both flags have fallen: draw");
        return 0;
    }
    int can = game_state_can_mate(st, !flagged);
    if (can == CANMATE_UNKNOWN) {
        /* 6.9 needs "cannot checkmate" decided; a loss is not given on an
         * unproven answer, nor a draw: the arbiter decides. */
        game_state_ask_dead(st, ev, flagged, GAME_END_TIME, t, v);
        st->clock.main_ms[flagged] = 0;
        return 0;
    }
    bool draw = can == CANMATE_NO;
    /* The other clock (claimed flags: it may have run since) reads as at
     * the check; the game ends at the instant the flag fell. */
    clock_stop(&st->clock, t);
    game_state_end_loss(st, GAME_END_TIME, flagged, when, draw);
    /* The readings stay at zero, not at the instant of the check. */
    st->clock.main_ms[flagged] = 0;
    v->ended = true;
    game_state_note(st, ev, "%s's flag fell%s", game_state_side_name(flagged),
                    draw ? "; the opponent cannot checkmate: draw (6.9)" : "");
    game_state_say(v, "%s's flag fell: %s", game_state_side_name(flagged),
                   draw ? "draw, the opponent cannot checkmate (6.9)" : "game lost");
    return 0;
}

static int on_confirm(GameState *st, const GameEvent *ev, GameVerdict *v)
{
    if (!st->over)
        return game_state_refuse(v, GAME_E_NOT_OVER, "the game has not ended");
    st->confirmed[ev->actor] = true;
    game_state_say(v, "%s confirms the result", game_state_side_name(ev->actor));
    return 0;
}

/* 6.2.1, 6.2.2: a player made his move on the board and did not press his
 * clock (he may press it even after the opponent's reply); the arbiter
 * records the move as the player's, completed now: the clock switches at
 * this instant, his time having run until then. */
static int on_press(GameState *st, const GameEvent *ev, GameVerdict *v)
{
    int side = ev->side;
    if (side != WHITE && side != BLACK)
        return game_state_refuse(v, GAME_E_PAYLOAD, "press needs the side who forgot to press");
    if (!ev->move[0])
        return game_state_refuse(v, GAME_E_PAYLOAD, "press needs the move made on the board");
    GameEvent mv = *ev;
    mv.type = GAME_EV_MOVE;
    mv.actor = (uint8_t)side;
    mv.offer = false;
    mv.note[0] = '\0';
    if (time_due(st, &mv, v) || on_move(st, &mv, v))
        return v->code;
    game_state_note(st, ev,
                    "%s did not press the clock after %s (6.2.1); the arbiter switches it now "
                    "(6.2.2)",
                    game_state_side_name(side), ev->move);
    return 0;
}

/* ---- dispatch ----------------------------------------------------------- */

int game_apply(GameState *st, const GameEvent *ev, int64_t now_ms, GameVerdict *v)
{
    memset(v, 0, sizeof *v);
    if (ev->type >= GAME_EV_COUNT)
        return game_state_refuse(v, GAME_E_PAYLOAD, "unknown event type");
    if (ev->actor > GAME_ACTOR_SERVER)
        return game_state_refuse(v, GAME_E_PAYLOAD, "unknown actor");
    if (!memchr(ev->move, '\0', sizeof ev->move) || !memchr(ev->note, '\0', sizeof ev->note))
        return game_state_refuse(v, GAME_E_PAYLOAD, "move or note text is not terminated");
    if (ev->time_ms < st->last_ms)
        return game_state_refuse(v, GAME_E_ORDER,
                                 "event time %lld is before the previous event (%lld)",
                                 (long long)ev->time_ms, (long long)st->last_ms);
    if (ev->time_ms > now_ms)
        return game_state_refuse(v, GAME_E_ORDER, "event time %lld is in the future (now %lld)",
                                 (long long)ev->time_ms, (long long)now_ms);
    if (!actor_allowed(ev->type, ev->actor))
        return game_state_refuse(v, GAME_E_ACTOR, "%s may not send '%s'",
                                 game_actor_name(ev->actor), game_event_type_name(ev->type));
    if (reserve(st, v))
        return v->code;
    int type = ev->type;
    bool after_end_ok = type == GAME_EV_CONFIRM || type == GAME_EV_RESULT ||
                        type == GAME_EV_PENALTY || type == GAME_EV_CALL || type == GAME_EV_CHECKIN;
    if (st->over && !after_end_ok)
        return game_state_refuse(v, GAME_E_OVER, "the game has ended (%s)", game_end_name(st->end));
    bool before_start_ok = type == GAME_EV_START || type == GAME_EV_CHECKIN ||
                           type == GAME_EV_RESULT || type == GAME_EV_PENALTY ||
                           type == GAME_EV_ADJUST;
    if (!st->started && !before_start_ok)
        return game_state_refuse(v, GAME_E_NOT_STARTED, "the round has not been started");
    if (ev->actor != GAME_ACTOR_ARBITER && type != GAME_EV_FLAG && time_due(st, ev, v))
        return v->code;
    int rc;
    switch (type) {
    case GAME_EV_START: rc = on_start(st, ev, v); break;
    case GAME_EV_CHECKIN: rc = on_checkin(st, ev, v); break;
    case GAME_EV_MOVE: rc = on_move(st, ev, v); break;
    case GAME_EV_OFFER: rc = on_offer(st, ev, v); break;
    case GAME_EV_DECLINE: rc = on_decline(st, ev, v); break;
    case GAME_EV_ACCEPT: rc = on_accept(st, ev, v); break;
    case GAME_EV_CLAIM: rc = game_arbiter_on_claim(st, ev, v); break;
    case GAME_EV_RESIGN: rc = on_resign(st, ev, v); break;
    case GAME_EV_FLAG: rc = on_flag(st, ev, v); break;
    case GAME_EV_CONFIRM: rc = on_confirm(st, ev, v); break;
    case GAME_EV_PRESS: rc = on_press(st, ev, v); break;
    case GAME_EV_TOUCH:
    case GAME_EV_ILLEGAL_ACT:
    case GAME_EV_DISPLACED:
    case GAME_EV_SETUP:
    case GAME_EV_DEAD: rc = game_incident_on_event(st, ev, v); break;
    default: rc = game_arbiter_on_arbiter(st, ev, v); break;
    }
    if (rc == 0) {
        st->last_ms = ev->time_ms;
        st->nevents++;
        if (is_player(ev->actor) && !st->checked_in[ev->actor]) {
            st->checked_in[ev->actor] = true;
            st->checkin_ms[ev->actor] = ev->time_ms;
        }
    }
    assert(state_consistent(st));
    return rc;
}
