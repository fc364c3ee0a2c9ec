/*
 * bench_game.c — how long the Laws engine takes to fold a game (what
 * loading a game from its log costs), against a reference measured in the
 * same run: reading the same moves with notation_parse() and playing them
 * with board_make(), i.e. the bare move handling without the Laws.
 *
 *   bench_game [ROUNDS]
 *
 * The game is 80 plies of a Stockfish self-play game under
 * 40/5400+30:1800+30 (the period-change scenario of tests/data/laws).  The
 * difference between the two is mostly the dead-position check (5.2.2)
 * after every move.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "board.h"
#include "game.h"
#include "notation.h"

static const char *const moves =
    "g1f3 g8f6 d2d4 e7e6 g2g3 c7c5 c2c4 c5d4 f3d4 d7d5 d4c2 f8c5 f1g2 e8g8 c4d5 e6d5 b2b4 "
    "c5b6 e1g1 b8c6 b1c3 c8f5 c1b2 f8e8 c3a4 f5e4 a4b6 a7b6 b4b5 e4g2 g1g2 c6e5 c2e3 e5c4 "
    "e3c4 d5c4 d1d8 e8d8 f1c1 a8a4 b2f6 g7f6 c1c3 d8d5 a1c1 a4a2 c3c4 a2e2 c4f4 g8g7 h2h4 "
    "f6f5 f4c4 e2e7 c4c7 e7c7 c1c7 h7h5 g2f3 d5b5 c7b7 g7f6 b7c7 b5b3 f3f4 b3b4 f4e3 f5f4 "
    "g3f4 f6e6 c7c6 e6f5 f2f3 b4b1 c6h6 b1e1 e3f2 e1b1 f2g3 b6b5";

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int split(char words[][8], int max)
{
    int n = 0;
    const char *p = moves;
    int len;
    while (n < max && sscanf(p, "%7s%n", words[n], &len) == 1) {
        p += len;
        n++;
    }
    return n;
}

/* The reference: parse and play the moves. */
static int bare(char words[][8], int n)
{
    Board b;
    board_start(&b);
    for (int i = 0; i < n; i++) {
        Move m;
        if (notation_parse(&b, words[i], &m, NULL, 0))
            return -1;
        board_make(&b, m);
    }
    return b.side;
}

static int fold(char words[][8], int n)
{
    GameSettings s;
    char err[160];
    game_settings_default(&s);
    timecontrol_parse(&s.tc, "40/5400+30:1800+30", err, sizeof err);
    GameState *st = game_new(&s, err, sizeof err);
    if (!st)
        return -1;
    GameEvent ev;
    GameVerdict v;
    int rc = 0;
    for (int k = 0; k < 2; k++) {
        game_event_init(&ev, GAME_EV_CHECKIN, k, 0);
        rc |= game_apply(st, &ev, 0, &v);
    }
    game_event_init(&ev, GAME_EV_START, GAME_ACTOR_ARBITER, 0);
    rc |= game_apply(st, &ev, 0, &v);
    for (int i = 0; i < n; i++) {
        game_event_init(&ev, GAME_EV_MOVE, st->board.side, 10000LL * (i + 1));
        memcpy(ev.move, words[i], sizeof words[i]); /* both NUL-terminated, 8 <= 32 */
        rc |= game_apply(st, &ev, ev.time_ms, &v);
    }
    int plies = st->nplies;
    game_free(st);
    return rc ? -1 : plies;
}

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 20;
    if (rounds < 1)
        rounds = 1;
    char words[128][8];
    int n = split(words, 128);
    double t0 = now_s();
    int check = 0;
    for (int r = 0; r < rounds * 50; r++)
        check += bare(words, n);
    double t1 = now_s();
    for (int r = 0; r < rounds; r++)
        if (fold(words, n) != n) {
            fprintf(stderr, "bench_game: the fold refused a move\n");
            return 1;
        }
    double t2 = now_s();
    double ref = (t1 - t0) / (rounds * 50.0), laws = (t2 - t1) / rounds;
    printf("plies %d (check %d)\n", n, check % 2);
    printf("reference (parse + make):  %8.3f ms per game\n", ref * 1e3);
    printf("Laws fold (game_apply):    %8.3f ms per game, %.1f us per ply\n", laws * 1e3,
           laws * 1e6 / n);
    printf("ratio fold / reference:    %8.1f\n", laws / ref);
    return 0;
}
