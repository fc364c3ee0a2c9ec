/*
 * fuzz_events.c — event logs under arbitrary text: the JSON codec of
 * db/event_json and the Laws engine's fold.
 *
 * The input is a log: JSON lines, the first of which may be the settings.
 * Each line must parse or be refused with a message; what parses formats to
 * canonical text that parses back to the same event.  Each event is then
 * applied (at its own time): a refused event must leave the state exactly as
 * it was, and replaying only the accepted events into a new game must give
 * the same state as the one that saw everything; the game's PGN reads back
 * with the same moves.  Logs are cut at 64 lines
 * and 16 KB to keep each input well under the time budget.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "event_json.h"
#include "game.h"
#include "game_pgn.h"
#include "pgn.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { MAX_LINES = 64, MAX_BYTES = 16384 };

static bool same_board(const Board *a, const Board *b)
{
    return board_same_position(a, b) && a->key == b->key && a->halfmove == b->halfmove &&
           a->fullmove == b->fullmove;
}

static bool same_clock(const Clock *a, const Clock *b)
{
    for (int s = 0; s < 2; s++)
        if (a->main_ms[s] != b->main_ms[s] || a->moves[s] != b->moves[s] ||
            a->period[s] != b->period[s] || a->flag_ms[s] != b->flag_ms[s])
            return false;
    return timecontrol_equal(&a->tc, &b->tc) && a->running == b->running &&
           a->paused == b->paused && a->turn_before_ms == b->turn_before_ms &&
           a->seg_start_ms == b->seg_start_ms;
}

/* Every field of the state, arrays up to their counts; nevents and the
 * capacities are left out (they count attempts, not the game). */
static bool same_state(const GameState *a, const GameState *b)
{
    if (!same_board(&a->start, &b->start) || !same_board(&a->board, &b->board) ||
        !same_clock(&a->clock, &b->clock))
        return false;
    for (int s = 0; s < 2; s++)
        if (a->checked_in[s] != b->checked_in[s] || a->checkin_ms[s] != b->checkin_ms[s] ||
            a->score[s] != b->score[s] || a->confirmed[s] != b->confirmed[s] ||
            a->illegal_count[s] != b->illegal_count[s] ||
            a->score_override[s] != b->score_override[s] || a->warnings[s] != b->warnings[s] ||
            a->excluded[s] != b->excluded[s])
            return false;
    if (a->started != b->started || a->start_ms != b->start_ms || a->last_ms != b->last_ms ||
        a->over != b->over || a->forfeit != b->forfeit || a->end != b->end ||
        a->end_side != b->end_side || a->end_ms != b->end_ms || a->offer != b->offer ||
        a->offer_agreed != b->offer_agreed || a->call_pending != b->call_pending ||
        a->call_side != b->call_side || a->touch_square != b->touch_square ||
        a->nplies != b->nplies || a->nnotes != b->nnotes)
        return false;
    for (int i = 0; i < a->nplies; i++) {
        const GamePly *x = &a->plies[i], *y = &b->plies[i];
        if (x->move != y->move || x->flags != y->flags || x->time_ms != y->time_ms ||
            x->clock_ms[0] != y->clock_ms[0] || x->clock_ms[1] != y->clock_ms[1])
            return false;
    }
    for (int i = 0; i <= a->nplies; i++)
        if (a->keys[i] != b->keys[i])
            return false;
    for (int i = 0; i < a->nnotes; i++) {
        const GameNote *x = &a->notes[i], *y = &b->notes[i];
        if (x->ply != y->ply || x->time_ms != y->time_ms || x->type != y->type ||
            x->actor != y->actor || strcmp(x->text, y->text) != 0)
            return false;
    }
    return true;
}

/* A snapshot of a state that owns copies of its arrays. */
static GameState *snapshot(const GameState *st)
{
    GameState *c = malloc(sizeof *c);
    if (!c)
        abort();
    *c = *st;
    c->plies = malloc(((size_t)st->nplies + 1) * sizeof *c->plies);
    c->keys = malloc(((size_t)st->nplies + 1) * sizeof *c->keys);
    c->notes = malloc(((size_t)st->nnotes + 1) * sizeof *c->notes);
    if (!c->plies || !c->keys || !c->notes)
        abort();
    memcpy(c->plies, st->plies, (size_t)st->nplies * sizeof *c->plies);
    memcpy(c->keys, st->keys, ((size_t)st->nplies + 1) * sizeof *c->keys);
    memcpy(c->notes, st->notes, (size_t)st->nnotes * sizeof *c->notes);
    return c;
}

static void snapshot_free(GameState *c)
{
    free(c->plies);
    free(c->keys);
    free(c->notes);
    free(c);
}

/* parse(format(ev)) == ev, and formatting is canonical. */
static void check_codec(const GameEvent *ev)
{
    char err[256];
    char *text = event_json_format(ev);
    if (!text)
        abort();
    GameEvent again;
    if (event_json_parse(text, &again, err, sizeof err) != 0)
        abort();
    char *text2 = event_json_format(&again);
    if (!text2 || strcmp(text, text2) != 0)
        abort();
    free(text);
    free(text2);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > MAX_BYTES)
        return 0;
    char *text = malloc(size + 1);
    GameEvent *accepted = malloc(MAX_LINES * sizeof *accepted);
    if (!text || !accepted)
        abort();
    memcpy(text, data, size);
    text[size] = '\0';

    GameSettings settings;
    game_settings_default(&settings);
    GameState *st = NULL;
    int naccepted = 0, nlines = 0;
    char err[256];
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line && nlines < MAX_LINES;
         line = strtok_r(NULL, "\n", &save), nlines++) {
        if (nlines == 0 && strstr(line, "\"settings\"")) {
            err[0] = '\0';
            if (event_json_settings_parse(line, &settings, err, sizeof err) != 0) {
                if (err[0] == '\0')
                    abort();
                game_settings_default(&settings);
            } else {
                char *s = event_json_settings_format(&settings);
                GameSettings again;
                if (!s || event_json_settings_parse(s, &again, err, sizeof err) != 0)
                    abort();
                char *s2 = event_json_settings_format(&again);
                if (!s2 || strcmp(s, s2) != 0)
                    abort();
                free(s);
                free(s2);
            }
            continue;
        }
        if (!st) {
            st = game_new(&settings, err, sizeof err);
            if (!st)
                break; /* a start FEN the engine refuses */
        }
        GameEvent ev;
        err[0] = '\0';
        if (event_json_parse(line, &ev, err, sizeof err) != 0) {
            if (err[0] == '\0')
                abort();
            continue;
        }
        check_codec(&ev);
        GameState *before = snapshot(st);
        GameVerdict v;
        int rc = game_apply(st, &ev, ev.time_ms, &v);
        if (rc != v.code || rc < 0)
            abort();
        if (rc == GAME_OK)
            accepted[naccepted++] = ev;
        else if (!same_state(before, st) || v.reason[0] == '\0')
            abort();
        snapshot_free(before);
        json_t *js = event_json_state_to_json(st, st->last_ms);
        json_t *jv = event_json_verdict_to_json(&v);
        if (!js || !jv)
            abort();
        json_decref(js);
        json_decref(jv);
    }
    if (st) {
        GameState *replay = game_new(&settings, err, sizeof err);
        if (!replay)
            abort();
        for (int i = 0; i < naccepted; i++) {
            GameVerdict v;
            if (game_apply(replay, &accepted[i], accepted[i].time_ms, &v) != GAME_OK)
                abort();
        }
        if (!same_state(st, replay))
            abort();
        game_free(replay);
        /* The scoresheet exports to PGN that reads back with every move. */
        char *pgn = NULL;
        PgnGame *games = NULL;
        int count = 0;
        if (game_pgn(st, NULL, &pgn, err, sizeof err) != 0 ||
            pgn_read(pgn, strlen(pgn), &games, &count, err, sizeof err) != 0 || count != 1 ||
            games[0].nplies != st->nplies)
            abort();
        for (int i = 0; i < st->nplies; i++)
            if (games[0].plies[i].move != st->plies[i].move)
                abort();
        pgn_games_free(games, count);
        free(pgn);
        game_free(st);
    }
    free(accepted);
    free(text);
    return 0;
}
