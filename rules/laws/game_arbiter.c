/*
 * game_arbiter.c — draw claims (9.2, 9.3, 9.5) and the arbiter's actions:
 * the player's call (6.11), pause, resume, clock adjustments (6.10, 7.1),
 * restoring a position (7.1, 7.5.1, 7.6), an illegal move found on the
 * board (7.5), 12.9 penalties, a result set directly and a game found to
 * have begun with colours reversed (7.3).
 *
 * As in game.c, each handler decides before it changes anything.
 */
#include <stdio.h>
#include <string.h>

#include "game_arbiter.h"
#include "notation.h"

/* How often the position after m would have occurred, itself included. */
static int repetitions_after(const GameState *st, Move m, Board *after)
{
    *after = st->board;
    board_make(after, m);
    int n = 1;
    int from = st->nplies + 1 - after->halfmove;
    if (from < 0)
        from = 0;
    for (int i = st->nplies; i >= from; i--)
        if (st->keys[i] == after->key)
            n++;
    return n;
}

static void fmt_ms(char *out, size_t cap, int64_t ms)
{
    const char *sign = ms < 0 ? "-" : "";
    if (ms < 0)
        ms = -ms;
    int64_t s = ms / 1000;
    if (ms % 1000)
        snprintf(out, cap, "%s%lld:%02lld:%02lld.%03lld", sign, (long long)(s / 3600),
                 (long long)(s / 60 % 60), (long long)(s % 60), (long long)(ms % 1000));
    else
        snprintf(out, cap, "%s%lld:%02lld:%02lld", sign, (long long)(s / 3600),
                 (long long)(s / 60 % 60), (long long)(s % 60));
}

/* ---- claims ------------------------------------------------------------- */

/* Guidelines III (games without increment, when announced): a player on
 * move with less than two minutes asks for a 5 s increment for both (III.4,
 * which is also a draw offer) or claims that the opponent cannot win by
 * normal means or makes no effort (III.5).  The arbiter decides with
 * accept / decline. */
static int iii_claim(GameState *st, const GameEvent *ev, GameVerdict *v)
{
    int side = ev->actor;
    bool inc = ev->claim == GAME_CLAIM_INCREMENT;
    if (!st->settings.guidelines_iii || st->settings.tc.untimed)
        return game_state_refuse(v, GAME_E_PAYLOAD,
                                 "Guidelines III were not announced for this game");
    /* III.2.2: "These Guidelines shall apply only to standard chess and
     * rapidplay games without increment and not to blitz games." */
    if (timecontrol_category(&st->settings.tc) == TC_BLITZ)
        return game_state_refuse(v, GAME_E_PAYLOAD,
                                 "Guidelines III do not apply to blitz games (III.2.2)");
    const TcPeriod *pd = &st->settings.tc.side[side].periods[st->clock.period[side]];
    if (pd->bonus != TC_BONUS_NONE)
        return game_state_refuse(
            v, GAME_E_PAYLOAD, "Guidelines III apply only to a period without increment or delay");
    if (ev->move[0])
        return game_state_refuse(v, GAME_E_PAYLOAD, "this claim has no intended move");
    if (st->iii_claim >= 0)
        return game_state_refuse(v, GAME_E_PAYLOAD,
                                 "a Guidelines III claim already awaits the arbiter");
    if (clock_remaining(&st->clock, side, ev->time_ms) >= 120000)
        return game_state_refuse(
            v, GAME_E_PAYLOAD,
            "a player may ask this only with less than two minutes left (III.4, "
            "III.5)");
    st->iii_claim = (int8_t)ev->claim;
    st->iii_side = (int8_t)side;
    if (inc) {
        st->offer = (int8_t)side; /* III.4: it is a draw offer too */
        game_state_note(st, ev, "(=) %s asks for a 5 s increment for both players (III.4)",
                        game_state_side_name(side));
        game_state_say(v,
                       "increment asked for: a draw offer; the arbiter decides if it is refused");
    } else {
        clock_pause(&st->clock, ev->time_ms);
        game_state_note(st, ev,
                        "%s claims a draw: the opponent cannot win by normal means or makes "
                        "no effort (III.5)",
                        game_state_side_name(side));
        game_state_say(v, "claim recorded, clocks paused: the arbiter decides");
    }
    return 0;
}

int game_arbiter_iii_decide(GameState *st, const GameEvent *ev, bool grant, GameVerdict *v)
{
    int side = st->iii_side;
    int64_t t = ev->time_ms;
    int claim = st->iii_claim;
    st->iii_claim = -1;
    st->iii_side = -1;
    if (claim == GAME_CLAIM_NO_EFFORT) {
        if (grant) {
            game_state_end(st, GAME_END_ARBITER, side, 1, 1, t);
            v->ended = true;
            game_state_note(st, ev, "the arbiter grants %s's claim: draw (III.5)",
                            game_state_side_name(side));
            game_state_say(v, "claim granted: draw");
            return 0;
        }
        clock_add(&st->clock, !side, 120000);
        clock_resume(&st->clock, t);
        game_state_note(st, ev, "the arbiter rejects %s's claim: %s +120 s (III.5.3)",
                        game_state_side_name(side), game_state_side_name(!side));
        game_state_say(v, "claim rejected: the opponent gets two minutes");
        return 0;
    }
    if (grant) {
        /* III.4: the rest of the game with 5 s added after every move, for
         * both; the opponent gets two minutes. */
        for (int s = 0; s < 2; s++) {
            TcSide *ts = &st->clock.tc.side[s];
            for (int i = st->clock.period[s]; i < ts->nperiods; i++) {
                ts->periods[i].bonus = TC_BONUS_FISCHER;
                ts->periods[i].bonus_ms = 5000;
            }
        }
        clock_add(&st->clock, !side, 120000);
        if (st->offer == side)
            st->offer = -1;
        game_state_note(st, ev, "the arbiter grants a 5 s increment for both; %s +120 s (III.4)",
                        game_state_side_name(!side));
        game_state_say(v, "increment granted");
        return 0;
    }
    game_state_note(st, ev, "the arbiter refuses the increment (III.4)");
    game_state_say(v, "increment refused");
    return 0;
}

int game_arbiter_on_claim(GameState *st, const GameEvent *ev, GameVerdict *v)
{
    int side = ev->actor;
    if (side != st->board.side)
        return game_state_refuse(
            v, GAME_E_TURN, "only the player on move may claim a draw (9.2, 9.3): it is %s's move",
            game_state_side_name(st->board.side));
    if (ev->claim == GAME_CLAIM_INCREMENT || ev->claim == GAME_CLAIM_NO_EFFORT)
        return iii_claim(st, ev, v);
    if (ev->claim != GAME_CLAIM_THREEFOLD && ev->claim != GAME_CLAIM_FIFTY)
        return game_state_refuse(v, GAME_E_PAYLOAD, "unknown claim");
    if (st->touched)
        return game_state_refuse(v, GAME_E_TOUCH,
                                 "after touching a piece (4.3, or by the illegal move) the right "
                                 "to claim a draw on this move is lost (9.4)");
    Move m = MOVE_NONE;
    bool intended = ev->move[0] != '\0';
    bool intended_illegal = false;
    char err[NOTATION_ERR_MAX] = "";
    if (intended) {
        int rc = notation_parse(&st->board, ev->move, &m, err, sizeof err);
        if (rc == NOTATION_E_ILLEGAL || rc == NOTATION_E_NO_PROMOTION)
            intended_illegal = true;
        else if (rc != 0)
            return game_state_refuse(v, GAME_E_NOTATION, "intended move: %s", err);
    }
    bool threefold = ev->claim == GAME_CLAIM_THREEFOLD;
    bool correct;
    if (threefold)
        correct = game_state_repetitions(st) >= 3;
    else
        correct = st->board.halfmove >= 100;
    if (!correct && intended && !intended_illegal) {
        Board after;
        int reps = repetitions_after(st, m, &after);
        correct = threefold ? reps >= 3 : after.halfmove >= 100;
    }
    const char *what = threefold ? "threefold repetition (9.2)" : "the 50-move rule (9.3)";
    char with[GAME_MOVE_TEXT_MAX + 40] = "";
    if (intended)
        snprintf(with, sizeof with, " with the intended move %s", ev->move);
    if (correct) {
        game_state_end(st, threefold ? GAME_END_THREEFOLD : GAME_END_FIFTY, side, 1, 1,
                       ev->time_ms);
        v->ended = true;
        v->claim_correct = true;
        game_state_note(st, ev, "%s claims a draw by %s%s: correct, draw",
                        game_state_side_name(side), what, with);
        game_state_say(v, "the claim is correct: draw by %s", what);
        return 0;
    }
    /* 9.5.3: incorrect.  The opponent gets the penalty time, the claim
     * stands as a draw offer (9.5.1), and the intended move is played. */
    int64_t pen = game_state_penalty_time(st);
    clock_add(&st->clock, !side, pen);
    game_state_note(st, ev, "%s claims a draw by %s%s: incorrect%s, %s +%lld s (9.5.3)",
                    game_state_side_name(side), what, with,
                    intended_illegal ? " (the intended move is illegal)" : "",
                    game_state_side_name(!side), (long long)(pen / 1000));
    st->offer = (int8_t)side;
    if (intended && !intended_illegal) {
        game_state_play(st, ev, m, false, false, v);
        if (st->over)
            return 0;
        game_state_say(v, "the claim is incorrect: %s gets %lld s and the move %s is played",
                       game_state_side_name(!side), (long long)(pen / 1000), ev->move);
    } else if (intended_illegal) {
        game_state_say(v,
                       "the claim is incorrect, the intended move is illegal (%s): %s gets %lld s",
                       err, game_state_side_name(!side), (long long)(pen / 1000));
    } else {
        game_state_say(v, "the claim is incorrect: %s gets %lld s", game_state_side_name(!side),
                       (long long)(pen / 1000));
    }
    return 0;
}

/* ---- clock actions ------------------------------------------------------ */

static int on_call(GameState *st, const GameEvent *ev, GameVerdict *v)
{
    int side = ev->actor;
    if (!st->over) {
        clock_pause(&st->clock, ev->time_ms);
        st->call_pending = true;
        st->call_side = (int8_t)side;
    }
    game_state_note(st, ev, "%s calls the arbiter", game_state_side_name(side));
    game_state_say(v, "arbiter called%s", st->over ? "" : "; clocks paused");
    return 0;
}

static int on_pause(GameState *st, const GameEvent *ev, GameVerdict *v)
{
    if (st->clock.paused)
        return game_state_refuse(v, GAME_E_PAUSED, "the clocks are already paused");
    clock_pause(&st->clock, ev->time_ms);
    game_state_note(st, ev, "the arbiter pauses the clocks");
    game_state_say(v, "clocks paused");
    return 0;
}

static int on_resume(GameState *st, const GameEvent *ev, GameVerdict *v)
{
    if (!st->clock.paused)
        return game_state_refuse(v, GAME_E_PAYLOAD, "the clocks are not paused");
    if (st->dead_side >= 0)
        return game_state_refuse(v, GAME_E_PAYLOAD,
                                 "dead position? decide: send dead_position (dead: a draw, %s "
                                 "cannot checkmate by any series of legal moves; alive: the "
                                 "loss stands) or set the result",
                                 game_state_side_name(!st->dead_side));
    clock_resume(&st->clock, ev->time_ms);
    st->call_pending = false;
    st->call_side = -1;
    game_state_note(st, ev, "the arbiter restarts the clocks");
    game_state_say(v, "clocks restarted");
    return 0;
}

static int on_adjust(GameState *st, const GameEvent *ev, GameVerdict *v)
{
    int side = ev->side;
    if (side != WHITE && side != BLACK)
        return game_state_refuse(v, GAME_E_PAYLOAD, "adjust needs the side");
    if (ev->set_ms == GAME_NONE && ev->add_ms == GAME_NONE && ev->moves < 0)
        return game_state_refuse(v, GAME_E_PAYLOAD, "adjust needs set_ms, add_ms or moves");
    if (ev->set_ms != GAME_NONE && (ev->set_ms < 0 || ev->set_ms > 100LL * 86400000))
        return game_state_refuse(v, GAME_E_PAYLOAD, "set_ms must be from 0 to 100 days");
    if (ev->add_ms != GAME_NONE &&
        (ev->add_ms < -100LL * 86400000 || ev->add_ms > 100LL * 86400000))
        return game_state_refuse(v, GAME_E_PAYLOAD, "add_ms must be within 100 days");
    if (st->settings.tc.untimed && ev->moves < 0)
        return game_state_refuse(v, GAME_E_PAYLOAD, "this game has no clock");
    char text[160] = "";
    size_t n = 0;
    if (ev->moves >= 0) {
        clock_set_moves(&st->clock, side, ev->moves);
        n += (size_t)snprintf(text + n, sizeof text - n, " moves %d", (int)ev->moves);
    }
    if (ev->set_ms != GAME_NONE) {
        char t[32];
        fmt_ms(t, sizeof t, ev->set_ms);
        clock_set(&st->clock, side, ev->set_ms, ev->time_ms);
        n += (size_t)snprintf(text + n, sizeof text - n, " set to %s", t);
    }
    if (ev->add_ms != GAME_NONE) {
        char t[32];
        fmt_ms(t, sizeof t, ev->add_ms < 0 ? -ev->add_ms : ev->add_ms);
        if (ev->add_ms < 0)
            clock_take(&st->clock, side, -ev->add_ms, ev->time_ms);
        else
            clock_add(&st->clock, side, ev->add_ms);
        n += (size_t)snprintf(text + n, sizeof text - n, " %s%s", ev->add_ms < 0 ? "-" : "+", t);
    }
    game_state_note(st, ev, "the arbiter adjusts %s's clock:%s", game_state_side_name(side), text);
    game_state_say(v, "%s's clock adjusted", game_state_side_name(side));
    return 0;
}

/* The plies [from, nplies) as the scoresheet reads them, "1. e4 e5 2. Nf3"
 * or "2... Nc6 3. Bb5", into out; when they do not all fit, as many whole
 * moves as do, then " ...". */
static void moves_text(const GameState *st, int from, char *out, size_t cap)
{
    size_t n = 0;
    Board b;
    game_state_position_at(st, from, &b);
    out[0] = '\0';
    for (int i = from; i < st->nplies; i++) {
        char san[NOTATION_SAN_MAX], num[16] = "", piece[48];
        if (notation_san(&b, st->plies[i].move, san))
            board_move_to_uci(st->plies[i].move, san);
        if (b.side == WHITE || i == from)
            snprintf(num, sizeof num, b.side == WHITE ? "%d. " : "%d... ", (int)b.fullmove);
        size_t len = (size_t)snprintf(piece, sizeof piece, "%s%s%s", n ? " " : "", num, san);
        bool last = i + 1 == st->nplies;
        if (n + len + (last ? 0 : 4) >= cap) {
            if (n + 4 < cap)
                snprintf(out + n, cap - n, " ...");
            return;
        }
        memcpy(out + n, piece, len + 1);
        n += len;
        board_make(&b, st->plies[i].move);
    }
}

/* ---- restoring a position ----------------------------------------------- */

int game_arbiter_restore_check(const GameState *st, const GameEvent *ev, GameVerdict *v)
{
    if (ev->ply < 0 || ev->ply > st->nplies)
        return game_state_refuse(v, GAME_E_PAYLOAD, "ply must be from 0 to %d", (int)st->nplies);
    for (int s = 0; s < 2; s++)
        if (ev->clock_ms[s] != GAME_NONE &&
            (ev->clock_ms[s] < 0 || ev->clock_ms[s] > 100LL * 86400000))
            return game_state_refuse(v, GAME_E_PAYLOAD,
                                     "clock readings must be from 0 to 100 days");
    return 0;
}

void game_arbiter_restore_to(GameState *st, const GameEvent *ev, int ply)
{
    int64_t t = ev->time_ms;
    char removed[200];
    moves_text(st, ply, removed, sizeof removed);
    /* The move counters go back by the moves taken back, so that an
     * arbiter's earlier correction of them (6.10) stands. */
    int back[2] = {0, 0};
    for (int i = ply; i < st->nplies; i++)
        back[st->start.side ^ (i & 1)]++;
    bool paused = st->clock.paused;
    clock_stop(&st->clock, t);
    st->nplies = ply;
    game_state_position_at(st, ply, &st->board);
    for (int s = 0; s < 2; s++) {
        clock_take_back(&st->clock, s, back[s]);
        if (ev->clock_ms[s] != GAME_NONE)
            clock_set(&st->clock, s, ev->clock_ms[s], t);
    }
    if (st->started) {
        clock_start(&st->clock, st->board.side, t);
        if (paused) {
            st->clock.paused = true;
            st->clock.seg_start_ms = t;
        }
    }
    st->offer = -1;
    st->offer_agreed = false;
    game_state_clear_touch(st);
    for (int i = 0; i < st->nnotes; i++)
        if (st->notes[i].ply > ply)
            st->notes[i].ply = ply;
    game_state_note(st, ev, "the arbiter restores the position after %d plies%s%s", ply,
                    removed[0] ? "; moves taken back: " : "", removed);
}

static int on_restore(GameState *st, const GameEvent *ev, GameVerdict *v)
{
    if (game_arbiter_restore_check(st, ev, v))
        return v->code;
    game_arbiter_restore_to(st, ev, ev->ply);
    game_state_say(v, "position restored to ply %d", (int)ev->ply);
    return 0;
}

static int on_illegal(GameState *st, const GameEvent *ev, GameVerdict *v)
{
    int side = ev->side;
    if (side != WHITE && side != BLACK)
        return game_state_refuse(v, GAME_E_PAYLOAD, "illegal needs the offending side");
    if (ev->ply >= 0 && game_arbiter_restore_check(st, ev, v))
        return v->code;
    if (!st->settings.supervised) {
        /* A.5.2: only before the opponent's next move, i.e. the offender's
         * move is the last one. */
        bool last_is_his = st->nplies > 0 && st->board.side != side;
        if (!last_is_his || (ev->ply >= 0 && ev->ply != st->nplies - 1))
            return game_state_refuse(v, GAME_E_PAYLOAD,
                                     "without supervision an illegal move can be punished only "
                                     "before the opponent's next move (A.5.2)");
    }
    if (ev->ply >= 0)
        game_arbiter_restore_to(st, ev, ev->ply);
    game_state_illegal_penalty(st, ev, side, v);
    if (!st->over)
        game_state_say(v, "illegal move by %s recorded (%d)", game_state_side_name(side),
                       st->illegal_count[side]);
    else
        game_state_say(v, "illegal move no. %d by %s: game over", st->illegal_count[side],
                       game_state_side_name(side));
    return 0;
}

/* ---- penalties and results ---------------------------------------------- */

static int on_penalty(GameState *st, const GameEvent *ev, GameVerdict *v)
{
    int side = ev->side;
    int kind = ev->penalty;
    if (side != WHITE && side != BLACK)
        return game_state_refuse(v, GAME_E_PAYLOAD, "penalty needs the offending side");
    if (kind >= GAME_PENALTY_COUNT)
        return game_state_refuse(v, GAME_E_PAYLOAD, "unknown penalty");
    bool timed = kind == GAME_PENALTY_TIME_ADD || kind == GAME_PENALTY_TIME_SUB;
    bool scored = kind == GAME_PENALTY_SCORE_UP || kind == GAME_PENALTY_SCORE_DOWN;
    if (timed && (ev->ms == GAME_NONE || ev->ms <= 0 || ev->ms > 100LL * 86400000))
        return game_state_refuse(v, GAME_E_PAYLOAD, "this penalty needs ms, more than 0");
    if (timed && st->over)
        return game_state_refuse(v, GAME_E_OVER, "the game has ended: no time to add or take");
    if (timed && st->settings.tc.untimed)
        return game_state_refuse(v, GAME_E_PAYLOAD, "this game has no clock");
    if (scored && (ev->score[0] < 0 || ev->score[0] > 2))
        return game_state_refuse(v, GAME_E_PAYLOAD, "this penalty needs score: 0, 0.5 or 1");
    if (scored && st->over && !st->forfeit) {
        int target = kind == GAME_PENALTY_SCORE_UP ? !side : side;
        int other = st->score[!target] < 0 ? 0 : st->score[!target];
        if (ev->score[0] + other > 2)
            return game_state_refuse(v, GAME_E_SCORE, "%s",
                                     "no game is worth more than one point: the two scores "
                                     "would add up to more (10.2); set the result instead");
    }
    if (scored && !st->over) {
        /* During play the other side's 12.9 score, if any, is final too:
         * together they may not exceed one point (10.2). */
        int target = kind == GAME_PENALTY_SCORE_UP ? !side : side;
        if (st->score_override[!target] >= 0 && ev->score[0] + st->score_override[!target] > 2)
            return game_state_refuse(v, GAME_E_SCORE, "%s",
                                     "no game is worth more than one point: with the other "
                                     "player's 12.9 score the two would add up to more (10.2)");
    }
    const char *who = game_state_side_name(side), *opp = game_state_side_name(!side);
    static const char *const half[] = {"0", "1/2", "1"};
    int8_t before[2] = {st->score[0], st->score[1]};
    switch (kind) {
    case GAME_PENALTY_WARNING:
        st->warnings[side]++;
        game_state_note(st, ev, "penalty: %s is warned (12.9)", who);
        break;
    case GAME_PENALTY_TIME_ADD:
        clock_add(&st->clock, !side, ev->ms);
        game_state_note(st, ev, "penalty on %s: %s +%lld s (12.9)", who, opp,
                        (long long)(ev->ms / 1000));
        break;
    case GAME_PENALTY_TIME_SUB:
        clock_take(&st->clock, side, ev->ms, ev->time_ms);
        game_state_note(st, ev, "penalty: %s -%lld s (12.9)", who, (long long)(ev->ms / 1000));
        break;
    case GAME_PENALTY_SCORE_UP:
    case GAME_PENALTY_SCORE_DOWN: {
        int target = kind == GAME_PENALTY_SCORE_UP ? !side : side;
        st->score_override[target] = ev->score[0];
        if (st->over)
            st->score[target] = ev->score[0];
        game_state_note(st, ev, "penalty on %s: %s's score in this game set to %s (12.9)", who,
                        game_state_side_name(target), half[ev->score[0]]);
        break;
    }
    case GAME_PENALTY_LOSS:
    case GAME_PENALTY_EXCLUSION:
        if (kind == GAME_PENALTY_EXCLUSION)
            st->excluded[side] = true;
        st->score_override[side] = -1;
        if (!st->over) {
            game_state_end_loss(st, GAME_END_PENALTY, side, ev->time_ms, false);
            v->ended = true;
        } else {
            st->score[side] = 0;
        }
        game_state_note(st, ev, "penalty: %s %s (12.9)", who,
                        kind == GAME_PENALTY_LOSS ? "loses the game" : "is excluded: game lost");
        break;
    }
    /* 8.7: the players confirmed a result this penalty has changed, so
     * they confirm again, as after a result the arbiter sets. */
    if (st->score[0] != before[0] || st->score[1] != before[1])
        st->confirmed[0] = st->confirmed[1] = false;
    game_state_say(v, "penalty recorded: %s", game_state_penalty_name(kind));
    return 0;
}

static int on_result(GameState *st, const GameEvent *ev, GameVerdict *v)
{
    for (int s = 0; s < 2; s++)
        if (ev->score[s] < 0 || ev->score[s] > 2)
            return game_state_refuse(v, GAME_E_PAYLOAD,
                                     "result needs each side's score: 0, 0.5 or 1");
    /* 10.2: "The total score of any game can never exceed the maximum score
     * normally given for that game."  A game not played (+/+) is no game. */
    if (!ev->forfeit && ev->score[WHITE] + ev->score[BLACK] > 2)
        return game_state_refuse(v, GAME_E_SCORE, "%s",
                                 "no game is worth more than one point: the two scores add up "
                                 "to more (10.2)");
    st->score_override[0] = st->score_override[1] = -1;
    bool was_over = st->over;
    game_state_end(st, GAME_END_ARBITER, -1, ev->score[WHITE], ev->score[BLACK],
                   was_over ? st->end_ms : ev->time_ms);
    if (!was_over)
        st->end_ms = ev->time_ms;
    st->forfeit = ev->forfeit;
    st->confirmed[0] = st->confirmed[1] = false;
    v->ended = !was_over;
    char buf[16];
    game_state_note(st, ev, "the arbiter sets the result %s", game_state_result_text(st, buf));
    game_state_say(v, "result set: %s", game_state_result_text(st, buf));
    return 0;
}

/* ---- colours reversed (7.3) --------------------------------------------- */

void game_arbiter_new_game(GameState *st, int64_t t)
{
    /* A new game: the position, the clocks (each side's first period in
     * full, no moves, no increment granted by III.4), and everything the
     * discarded game left pending or counted. */
    st->nplies = 0;
    st->board = st->start;
    st->keys[0] = st->start.key;
    clock_init(&st->clock, &st->settings.tc);
    clock_start(&st->clock, st->start.side, t);
    st->offer = -1;
    st->offer_agreed = false;
    st->call_pending = false;
    st->call_side = -1;
    game_state_clear_touch(st);
    st->iii_claim = -1;
    st->iii_side = -1;
    st->colours_reversed = false;
    for (int s = 0; s < 2; s++) {
        st->illegal_count[s] = 0;
        st->warnings[s] = 0;
    }
    for (int i = 0; i < st->nnotes; i++)
        st->notes[i].ply = 0;
}

void game_arbiter_moves_made(const GameState *st, char *out, size_t cap)
{
    int done[2];
    game_state_moves_done(st, done);
    if (done[WHITE] == done[BLACK])
        snprintf(out, cap, "%d move%s", done[WHITE], done[WHITE] == 1 ? "" : "s");
    else
        snprintf(out, cap, "%d moves by White and %d by Black", done[WHITE], done[BLACK]);
}

void game_arbiter_moves_text(const GameState *st, char *out, size_t cap)
{
    moves_text(st, 0, out, cap);
}

/* 7.3: "if less than 10 moves have been made by both players, the game
 * shall be discontinued and a new game played with the correct colours.
 * After 10 moves or more, the game shall continue."  Read as: the game
 * goes on only when each player has made 10 moves or more; while either
 * has made fewer (10 and 9, say), both have not yet made 10, and a new
 * game is played.  The moves counted are those on the scoresheet
 * (game_moves_done), not the clock's counters an arbiter may have set. */
static int on_colours(GameState *st, const GameEvent *ev, GameVerdict *v)
{
    int64_t t = ev->time_ms;
    int done[2];
    game_state_moves_done(st, done);
    char after[48];
    game_arbiter_moves_made(st, after, sizeof after);
    if (done[WHITE] >= 10 && done[BLACK] >= 10) {
        /* The game continues as played; the pairing's colours follow what
         * was played (the store swaps the players), so nothing on the
         * board or the clocks changes. */
        st->colours_reversed = !st->colours_reversed;
        v->colours_swapped = true;
        game_state_note(st, ev, "7.3: colours reversed found after %s: the game continues", after);
        game_state_say(v,
                       "colours reversed after %s: the game continues; the players' colours are "
                       "recorded as played",
                       after);
        return 0;
    }
    /* The discarded moves go on the note as far as it holds them after
     * the words (at most 19 plies: 10 moves by one side, 9 by the other). */
    char head[160], removed[200];
    snprintf(head, sizeof head,
             "7.3: the game began with colours reversed; after %s a new game "
             "with the correct colours",
             after);
    static const char SEP[] = "; moves discarded: ";
    size_t room = sizeof st->notes[0].text - strlen(head) - (sizeof SEP - 1);
    moves_text(st, 0, removed, room < sizeof removed ? room : sizeof removed);
    game_arbiter_new_game(st, t);
    /* What belongs to a person, not to the pieces he pushed, changes side
     * with him: the player who was at White's pieces now plays Black.  A
     * 12.9 score decision stays with the player it was given to. */
    bool ci = st->checked_in[WHITE];
    st->checked_in[WHITE] = st->checked_in[BLACK];
    st->checked_in[BLACK] = ci;
    int64_t cm = st->checkin_ms[WHITE];
    st->checkin_ms[WHITE] = st->checkin_ms[BLACK];
    st->checkin_ms[BLACK] = cm;
    int8_t so = st->score_override[WHITE];
    st->score_override[WHITE] = st->score_override[BLACK];
    st->score_override[BLACK] = so;
    game_state_note(st, ev, "%s%s%s", head, removed[0] ? SEP : "", removed);
    game_state_say(v,
                   "colours reversed after %s: a new game with the correct colours, %s's clock "
                   "runs",
                   after, game_state_side_name(st->start.side));
    return 0;
}

int game_arbiter_on_arbiter(GameState *st, const GameEvent *ev, GameVerdict *v)
{
    switch (ev->type) {
    case GAME_EV_CALL: return on_call(st, ev, v);
    case GAME_EV_PAUSE: return on_pause(st, ev, v);
    case GAME_EV_RESUME: return on_resume(st, ev, v);
    case GAME_EV_ADJUST: return on_adjust(st, ev, v);
    case GAME_EV_RESTORE: return on_restore(st, ev, v);
    case GAME_EV_ILLEGAL: return on_illegal(st, ev, v);
    case GAME_EV_PENALTY: return on_penalty(st, ev, v);
    case GAME_EV_RESULT: return on_result(st, ev, v);
    case GAME_EV_COLOURS: return on_colours(st, ev, v);
    default: return game_state_refuse(v, GAME_E_PAYLOAD, "unknown event type");
    }
}
