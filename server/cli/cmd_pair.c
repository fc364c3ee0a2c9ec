/*
 * cmd_pair.c — `arbiter pair --dutch|--burstein FILE.trf` pairs the next
 * round of a TRF file; `arbiter check --dutch|--burstein FILE.trf` re-pairs
 * every round of a file and
 * lists the rounds whose written pairing differs (a free pairings checker,
 * as FIDE C.04.A asks of pairing programs).
 *
 * The pair output is the one of bbpPairings: the number of boards, then
 * "white black" start ranks per board, a PAB as "N 0".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "fileio.h"
#include "burstein.h"
#include "dutch.h"
#include "trf.h"

/*
 * Each player's points (cols 81-84) must be the sum of the results of the
 * rounds played, possibly with the bye written for the next round and the
 * player's acceleration included. Prints the first mismatch; returns 0 or 1.
 */
static int check_points(const Tournament *t, const char *path, const char *cmd)
{
    int next = dutch_next_round(t);
    for (int i = 0; i < t->n_players; i++) {
        const TrnPlayer *p = &t->players[i];
        TrnPoints s1 = tournament_player_score(t, p, next - 1 < p->rounds ? next - 1 : p->rounds);
        TrnPoints s2 = tournament_player_score(t, p, next < p->rounds ? next : p->rounds);
        TrnPoints acc = tournament_acceleration(t, p->id, next);
        TrnPoints v = p->points;
        if (v == s1 || v == s2 || v == s1 + acc || v == s2 + acc)
            continue;
        char a[16], b[16];
        trf_field_format_points(v, a);
        trf_field_format_points(s1, b);
        fprintf(stderr, "arbiter %s: %s:%d: player %d has %s points but the results add up to %s\n",
                cmd, path, p->line, p->id, a, b);
        return 1;
    }
    return 0;
}

/* Pairs `round` of t with the system chosen on the command line. */
static int pair_with(SwissSystem sys, const Tournament *t, int round, SwissPairing *p, char *err,
                     size_t n)
{
    if (sys == SWISS_BURSTEIN)
        return burstein_pair_round(t, round, p, err, n);
    return dutch_pair_round(t, round, p, err, n);
}

/* Parses `--dutch|--burstein FILE`; returns the tournament or NULL (exit
 * code in *rc) and the system in *sys. */
static Tournament *load(int argc, char **argv, const char *cmd, SwissSystem *sys, int *rc)
{
    const char *path = NULL;
    int systems = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--dutch") == 0) {
            *sys = SWISS_DUTCH;
            systems++;
        } else if (strcmp(argv[i], "--burstein") == 0) {
            *sys = SWISS_BURSTEIN;
            systems++;
        } else if (!path && argv[i][0] != '-')
            path = argv[i];
        else {
            fprintf(stderr, "arbiter %s: unexpected argument '%s'\n", cmd, argv[i]);
            *rc = 2;
            return NULL;
        }
    }
    if (systems != 1 || !path) {
        fprintf(stderr, "usage: arbiter %s --dutch|--burstein FILE.trf\n", cmd);
        *rc = 2;
        return NULL;
    }
    size_t len = 0;
    char ferr[512];
    char *text = file_read_all(path, &len, ferr, sizeof ferr);
    if (!text) {
        fprintf(stderr, "arbiter %s: %s\n", cmd, ferr);
        *rc = 3;
        return NULL;
    }
    Tournament *t = NULL;
    TrfError err;
    /* points may or may not include a bye already written for the round
     * to pair; check_points() accepts both */
    int r = trf_read(text, len, TRF_READ_NO_POINTS_CHECK, &t, &err);
    free(text);
    if (r) {
        if (r < 0)
            fprintf(stderr, "arbiter %s: out of memory\n", cmd);
        else
            fprintf(stderr, "arbiter %s: %s:%d:%d: %s\n", cmd, path, err.line, err.column,
                    err.message);
        *rc = 3;
        return NULL;
    }
    if (check_points(t, path, cmd)) {
        tournament_free(t);
        *rc = 3;
        return NULL;
    }
    return t;
}

static int run_pair(int argc, char **argv)
{
    int rc = 0;
    SwissSystem sys = SWISS_DUTCH;
    Tournament *t = load(argc, argv, "pair", &sys, &rc);
    if (!t)
        return rc;
    int round = dutch_next_round(t);
    if (t->n_rounds && round > t->n_rounds) {
        fprintf(stderr, "arbiter pair: all %d rounds have been paired\n", t->n_rounds);
        tournament_free(t);
        return 3;
    }
    SwissPairing p;
    char err[200];
    int r = pair_with(sys, t, round, &p, err, sizeof err);
    tournament_free(t);
    if (r == DUTCH_E_NO_PAIRING) {
        fprintf(stderr, "arbiter pair: round %d: %s\n", round, err);
        return 1;
    }
    if (r) {
        fprintf(stderr, "arbiter pair: round %d: %s\n", round, r < 0 ? "out of memory" : err);
        return 3;
    }
    printf("%d\n", p.n_pairs);
    for (int i = 0; i < p.n_pairs; i++)
        printf("%d %d\n", p.pairs[i].white, p.pairs[i].black);
    swiss_pairing_free(&p);
    return 0;
}

static int run_check(int argc, char **argv)
{
    int rc = 0;
    SwissSystem sys = SWISS_DUTCH;
    Tournament *t = load(argc, argv, "check", &sys, &rc);
    if (!t)
        return rc;
    int last = dutch_next_round(t) - 1, differ = 0;
    for (int round = 1; round <= last; round++) {
        SwissPairing p;
        char err[200];
        int r = pair_with(sys, t, round, &p, err, sizeof err);
        if (r) {
            printf("round %d: cannot pair: %s\n", round, r < 0 ? "out of memory" : err);
            differ++;
            continue;
        }
        if (!dutch_round_matches(t, round, &p)) {
            differ++;
            printf("round %d differs; the engine pairs:\n", round);
            for (int i = 0; i < p.n_pairs; i++)
                printf("  %d - %d\n", p.pairs[i].white, p.pairs[i].black);
        }
        swiss_pairing_free(&p);
    }
    printf("%d rounds checked, %d differ\n", last, differ);
    tournament_free(t);
    return differ ? 1 : 0;
}

const Command cmd_pair = {
    "pair",
    "pair the next round of a TRF file (FIDE Dutch or Burstein system)",
    "usage: arbiter pair --dutch|--burstein FILE.trf\n\n"
    "Pairs the round after the last one paired in FILE.trf with the FIDE Dutch\n"
    "system (C.04.3, rules from 1 February 2026) or the Burstein system\n"
    "(C.04.4.2). Players absent from that round are marked in its column\n"
    "(0000 - H/F/Z) or by 240/XXZ lines; 260/XXP lines forbid pairs; 152 or XXC\n"
    "gives the initial colour. Acceleration comes from 250/XXA lines, or Baku\n"
    "(C.04.7) when the 192 line names a *_BAKU system; without either the\n"
    "Burstein system uses its own (upper half +1 in rounds 1 and 2).\n\n"
    "Output: the number of boards, then one 'white black' line of start ranks per\n"
    "board; the pairing-allocated bye is 'N 0'.\n\n"
    "Exit status: 0 paired, 1 no pairing satisfies the absolute criteria,\n"
    "2 bad usage, 3 invalid file.\n",
    run_pair,
};

const Command cmd_check = {
    "check",
    "re-pair every round of a TRF file and list the rounds that differ",
    "usage: arbiter check --dutch|--burstein FILE.trf\n\n"
    "A free pairings checker (FIDE C.04.A): every round of FILE.trf is paired\n"
    "again from the rounds before it, with the absences written for it, and\n"
    "compared with the pairing in the file (colours included; a game written\n"
    "without colours matches either). Each differing round is listed with the\n"
    "engine's pairing; the last line is 'N rounds checked, M differ'.\n\n"
    "Exit status: 0 every round agrees, 1 some round differs or cannot be paired,\n"
    "2 bad usage, 3 invalid file.\n",
    run_check,
};
