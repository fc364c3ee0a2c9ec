/*
 * test_pairing_check.c — the criteria report of a proposed round.
 *
 * Cases: tests/data/pairing_check/NAME.case, each naming a TRF history
 * (NAME.trf in the same folder), the round, the proposal and exactly the
 * codes (with the start ranks) the report must list; every code has a case
 * that triggers it and one that does not (see the README there).
 *
 * Outside truth: the rounds of the committed Dutch corpus
 * (tests/data/dutch/corpus/, paired by bbpPairings, which our engine
 * reproduces) must show no absolute violation, and a sample of them must
 * equal the engine's own pairing.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pairing_check.h"
#include "testutil.h"
#include "trf.h"

static int cmp_int(const void *a, const void *b)
{
    return *(const int *)a - *(const int *)b;
}

/* "CODE id id ..." with the ids sorted */
static void item_key(const PairingCheckItem *it, char *out, size_t cap)
{
    int ids[PAIRING_CHECK_MAX_ITEM_PLAYERS];
    memcpy(ids, it->players, sizeof ids);
    qsort(ids, (size_t)it->n_players, sizeof *ids, cmp_int);
    size_t n = (size_t)snprintf(out, cap, "%s", it->code);
    for (int i = 0; i < it->n_players && n < cap; i++)
        n += (size_t)snprintf(out + n, cap - n, " %d", ids[i]);
}

enum { MAX_EXPECT = 32 };

static int run_case(const char *name)
{
    size_t len = 0;
    char *text = testutil_load("pairing_check", name, &len);
    char file[128] = "", expect[MAX_EXPECT][128], at_code[MAX_EXPECT][16];
    double at_points[MAX_EXPECT];
    int ne = 0, nat = 0, round = 0, compare = 0, rr = 0, failures = 0;
    PairingCheckBoard boards[64];
    PairingCheckBye byes[16];
    bool withdrawn[64] = {0};
    PairingCheckProposal prop = {0, boards, 0, byes};
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        int a, b;
        char word[32];
        if (line[0] == '#')
            continue;
        if (sscanf(line, "file %127s", file) == 1)
            continue;
        if (sscanf(line, "round %d", &round) == 1)
            continue;
        if (sscanf(line, "system %31s", word) == 1) {
            rr = strcmp(word, "rr") == 0;
            continue;
        }
        if (sscanf(line, "compare %31s", word) == 1) {
            compare = strcmp(word, "yes") == 0;
            continue;
        }
        if (sscanf(line, "withdrawn %d", &a) == 1 && a > 0 && a < 64) {
            withdrawn[a] = true;
            continue;
        }
        if (sscanf(line, "pair %d %d", &a, &b) == 2 && prop.n_boards < 64) {
            boards[prop.n_boards] = (PairingCheckBoard){prop.n_boards + 1, a, b};
            prop.n_boards++;
            continue;
        }
        if (sscanf(line, "forfeit %d", &a) == 1 && prop.n_byes < 16) {
            byes[prop.n_byes++] = (PairingCheckBye){a, TRN_RES_FORFEIT_WIN};
            continue;
        }
        if (sscanf(line, "bye %d", &a) == 1 && prop.n_byes < 16) {
            byes[prop.n_byes++] = (PairingCheckBye){a, TRN_RES_PAB};
            continue;
        }
        if (strncmp(line, "expect ", 7) == 0 && ne < MAX_EXPECT) {
            snprintf(expect[ne++], sizeof expect[0], "%s", line + 7);
            continue;
        }
        if (nat < MAX_EXPECT && sscanf(line, "at %15s %lf", at_code[nat], &at_points[nat]) == 2) {
            nat++;
            continue;
        }
        ck_abort_msg("%s: cannot read line '%s'", name, line);
    }
    char trfname[160];
    snprintf(trfname, sizeof trfname, "%s.trf", file);
    Tournament *t = testutil_trf_load("pairing_check", trfname, TRF_READ_NO_POINTS_CHECK);
    PairingCheckOptions opt = {rr ? PAIRING_CHECK_ROUNDROBIN : PAIRING_CHECK_SWISS,
                               0,
                               compare,
                               withdrawn,
                               64,
                               SWISS_DUTCH};
    PairingCheckReport rep;
    char err[200] = "";
    int rc = pairing_check_round(t, round, &prop, &opt, &rep, err, sizeof err);
    ck_assert_msg(rc == 0, "%s: %s", name, err);
    bool used[MAX_EXPECT] = {0};
    for (int i = 0; i < rep.n_items; i++) {
        char key[256];
        item_key(&rep.items[i], key, sizeof key);
        int hit = -1;
        for (int k = 0; k < ne && hit < 0; k++)
            if (!used[k] &&
                (strcmp(expect[k], key) == 0 ||
                 (!strchr(expect[k], ' ') && strcmp(expect[k], rep.items[i].code) == 0)))
                hit = k;
        if (hit < 0) {
            fprintf(stderr, "%s: unexpected %s (%s)\n", name, key, rep.items[i].message);
            failures++;
        } else {
            used[hit] = true;
        }
    }
    for (int k = 0; k < ne; k++)
        if (!used[k]) {
            fprintf(stderr, "%s: missing %s\n", name, expect[k]);
            failures++;
        }
    /* the bracket, in the item's field and in its message */
    for (int k = 0; k < nat; k++) {
        const PairingCheckItem *it = NULL;
        for (int i = 0; i < rep.n_items && !it; i++)
            if (strcmp(rep.items[i].code, at_code[k]) == 0)
                it = &rep.items[i];
        TrnPoints want = (TrnPoints)(at_points[k] * TRN_POINT + 0.5);
        char phrase[64];
        snprintf(phrase, sizeof phrase, "in the %g-point bracket", at_points[k]);
        if (!it || !it->in_bracket || it->bracket != want || !strstr(it->message, phrase)) {
            fprintf(stderr, "%s: %s not reported %s (%s)\n", name, at_code[k], phrase,
                    it ? it->message : "no such item");
            failures++;
        }
    }
    pairing_check_report_free(&rep);
    tournament_free(t);
    free(text);
    return failures;
}

START_TEST(cases)
{
    char dir[512], **names;
    testutil_data_path(dir, sizeof dir, "pairing_check", "");
    int n = testutil_list(dir, ".case", &names), failures = 0;
    for (int i = 0; i < n; i++)
        failures += run_case(names[i]);
    testutil_list_free(names, n);
    ck_assert_int_ge(n, 20);
    ck_assert_msg(failures == 0, "%d mismatches in %d cases", failures, n);
}
END_TEST

/* Every code of pairing_check.h is triggered by some case and absent from
 * some other case. */
START_TEST(every_code_has_both_cases)
{
    static const char *const codes[] = {
        "DUP", "PLAYER", "UNPAIRED", "WITHDRAWN", "ABSENT", "C1",  "FORBIDDEN", "C2",  "PAB",
        "C3",  "BERGER", "C5",       "C9",        "C6",     "C7",  "C8",        "C10", "C11",
        "C12", "C13",    "C14",      "C15",       "C16",    "C19", "ENGINE"};
    char dir[512], **names;
    testutil_data_path(dir, sizeof dir, "pairing_check", "");
    int n = testutil_list(dir, ".case", &names);
    for (size_t c = 0; c < sizeof codes / sizeof codes[0]; c++) {
        int with = 0, without = 0;
        for (int i = 0; i < n; i++) {
            char *text = testutil_load("pairing_check", names[i], NULL);
            char needle[32];
            snprintf(needle, sizeof needle, "\nexpect %s", codes[c]);
            char *p = strstr(text, needle);
            bool has = p && (p[strlen(needle)] == ' ' || p[strlen(needle)] == '\n');
            with += has;
            without += !has;
            free(text);
        }
        ck_assert_msg(with > 0 && without > 0, "%s: %d cases trigger it, %d do not", codes[c], with,
                      without);
    }
    testutil_list_free(names, n);
}
END_TEST

/* The corpus rounds are bbpPairings' pairings: nothing absolute may show. */
START_TEST(corpus_has_no_absolute_violation)
{
    char dir[512], **names;
    testutil_data_path(dir, sizeof dir, "dutch", "corpus");
    int nn = testutil_list(dir, ".trf", &names);
    ck_assert_int_ge(nn, 40);
    int rounds = 0, bad = 0, compared = 0;
    for (int i = 0; i < nn; i++) {
        char rel[600];
        snprintf(rel, sizeof rel, "corpus/%s", names[i]);
        Tournament *t = testutil_trf_load("dutch", rel, TRF_READ_NO_POINTS_CHECK);
        int last = dutch_next_round(t) - 1;
        for (int r = 1; r <= last; r++) {
            PairingCheckProposal prop;
            ck_assert_int_eq(pairing_check_proposal_from_round(t, r, &prop), 0);
            /* the engine is re-run on every fourth tournament only
             * (test_dutch re-pairs them all) */
            PairingCheckOptions opt = {PAIRING_CHECK_SWISS, 0, i % 4 == 0, NULL, 0, SWISS_DUTCH};
            PairingCheckReport rep;
            char err[200];
            ck_assert_int_eq(pairing_check_round(t, r, &prop, &opt, &rep, err, sizeof err), 0);
            rounds++;
            for (int k = 0; k < rep.n_items; k++) {
                fprintf(stderr, "%s round %d: %s %s\n", names[i], r, rep.items[k].code,
                        rep.items[k].message);
                bad++;
            }
            if (opt.compare_engine) {
                ck_assert_msg(rep.engine_run && !rep.engine_differs,
                              "%s round %d differs from the engine", names[i], r);
                compared++;
            }
            pairing_check_report_free(&rep);
            pairing_check_proposal_free(&prop);
        }
        tournament_free(t);
    }
    testutil_list_free(names, nn);
    fprintf(stderr, "pairing check: %d corpus rounds, %d compared with the engine, %d items\n",
            rounds, compared, bad);
    ck_assert_int_eq(bad, 0);
}
END_TEST

/* bbpPairings' pairings of the next round of histories with forbidden
 * pairs, absences, byes and acceleration (tests/data/dutch/{special,baku,
 * bbp}/NAME.input and .output.expected): no absolute violation either. */
START_TEST(bbp_next_rounds_have_no_absolute_violation)
{
    static const char *const dirs[] = {"special", "baku", "bbp"};
    int files = 0, bad = 0;
    for (int d = 0; d < 3; d++) {
        char dir[512], **names;
        testutil_data_path(dir, sizeof dir, "dutch", dirs[d]);
        int nn = testutil_list(dir, ".input", &names);
        for (int f = 0; f < nn; f++) {
            char rel[600], name[300];
            snprintf(name, sizeof name, "%.*s", (int)(strlen(names[f]) - 6), names[f]);
            snprintf(rel, sizeof rel, "%s/%s.input", dirs[d], name);
            Tournament *t = testutil_trf_load("dutch", rel, TRF_READ_NO_POINTS_CHECK);
            snprintf(rel, sizeof rel, "%s/%s.output.expected", dirs[d], name);
            char *out = testutil_load("dutch", rel, NULL);
            PairingCheckBoard boards[600];
            PairingCheckBye byes[8];
            PairingCheckProposal prop = {0, boards, 0, byes};
            char *p = out;
            long n = strtol(p, &p, 10);
            for (long i = 0; i < n && prop.n_boards < 600 && prop.n_byes < 8; i++) {
                int w = (int)strtol(p, &p, 10), b = (int)strtol(p, &p, 10);
                if (b) {
                    boards[prop.n_boards] = (PairingCheckBoard){prop.n_boards + 1, w, b};
                    prop.n_boards++;
                } else {
                    byes[prop.n_byes++] = (PairingCheckBye){w, TRN_RES_PAB};
                }
            }
            PairingCheckOptions opt = {PAIRING_CHECK_SWISS, 0, false, NULL, 0, SWISS_DUTCH};
            PairingCheckReport rep;
            char err[200];
            int round = dutch_next_round(t);
            ck_assert_int_eq(pairing_check_round(t, round, &prop, &opt, &rep, err, sizeof err), 0);
            for (int k = 0; k < rep.n_items; k++) {
                fprintf(stderr, "%s/%s round %d: %s %s\n", dirs[d], name, round, rep.items[k].code,
                        rep.items[k].message);
                bad++;
            }
            files++;
            pairing_check_report_free(&rep);
            free(out);
            tournament_free(t);
        }
        testutil_list_free(names, nn);
    }
    ck_assert_int_ge(files, 15);
    ck_assert_int_eq(bad, 0);
}
END_TEST

/* True when player ID took part in round R of T (an opponent or the PAB). */
static bool took_part(const Tournament *t, int id, int r)
{
    const TrnPlayer *p = tournament_player(t, id);
    return p && r <= p->rounds &&
           (p->games[r - 1].opponent || p->games[r - 1].result == TRN_RES_PAB);
}

/* Players the special history marks absent in round R (240 or H/F/Z in the
 * round's column) whom the original round R paired. */
static int absent_but_paired(const Tournament *t, const Tournament *orig, int r)
{
    int n = 0;
    for (int i = 0; i < t->n_players; i++) {
        const TrnPlayer *p = &t->players[i];
        bool marked = r <= p->rounds && !p->games[r - 1].opponent &&
                      strchr("HFZ", p->games[r - 1].result ? p->games[r - 1].result : '?');
        for (int k = 0; k < t->n_byes; k++)
            marked |= t->byes[k].player == p->id && t->byes[k].round == r;
        n += marked && took_part(orig, p->id, r);
    }
    return n;
}

/* The special cases name, as forbidden pairs or absences, players of
 * bbpPairings' pairing of that round in the corpus (xxp, 260: three of its
 * boards; abs, 240: players who may or may not have played it).  That
 * original round, checked against the special history, must show exactly
 * those: three FORBIDDEN, or one ABSENT per marked player it paired; besides,
 * only UNPAIRED for players the original round left out (absent later than
 * the cut history says). */
START_TEST(special_cases_flag_the_original_round)
{
    char dir[512], **names;
    testutil_data_path(dir, sizeof dir, "dutch", "special");
    int nn = testutil_list(dir, ".input", &names);
    int files = 0, flagged = 0;
    for (int f = 0; f < nn; f++) {
        int seed, cut;
        char kind[8];
        if (sscanf(names[f], "seed%d_%d_%7[a-z0-9]", &seed, &cut, kind) != 3)
            continue;
        char rel[600];
        snprintf(rel, sizeof rel, "special/%s", names[f]);
        Tournament *t = testutil_trf_load("dutch", rel, TRF_READ_NO_POINTS_CHECK);
        snprintf(rel, sizeof rel, "corpus/seed%04d.trf", seed);
        Tournament *orig = testutil_trf_load("dutch", rel, TRF_READ_NO_POINTS_CHECK);
        int r = cut + 1;
        bool forbidden = strcmp(kind, "xxp") == 0 || strcmp(kind, "260") == 0;
        int want = forbidden ? 3 : absent_but_paired(t, orig, r);
        const char *code = forbidden ? "FORBIDDEN" : "ABSENT";
        PairingCheckProposal prop;
        ck_assert_int_eq(pairing_check_proposal_from_round(orig, r, &prop), 0);
        PairingCheckOptions opt = {PAIRING_CHECK_SWISS, 0, false, NULL, 0, SWISS_DUTCH};
        PairingCheckReport rep;
        char err[200];
        ck_assert_int_eq(pairing_check_round(t, r, &prop, &opt, &rep, err, sizeof err), 0);
        int hits = 0;
        for (int i = 0; i < rep.n_items; i++) {
            const PairingCheckItem *it = &rep.items[i];
            if (strcmp(it->code, code) == 0)
                hits++;
            else
                ck_assert_msg(strcmp(it->code, "UNPAIRED") == 0 &&
                                  !took_part(orig, it->players[0], r),
                              "%s: %s %s", names[f], it->code, it->message);
        }
        ck_assert_msg(hits == want, "%s: %d %s, expected %d", names[f], hits, code, want);
        flagged += hits;
        files++;
        pairing_check_report_free(&rep);
        pairing_check_proposal_free(&prop);
        tournament_free(orig);
        tournament_free(t);
    }
    testutil_list_free(names, nn);
    ck_assert_int_ge(files, 9);
    ck_assert_int_ge(flagged, 12); /* the four forbidden-pair cases and some absences */
    fprintf(stderr, "pairing check: %d special cases, %d items as their files say\n", files,
            flagged);
}
END_TEST

/* A single round robin of six (tests/data/pairing_check/rr6.trf, the
 * C.05 Annex 1 table 1-6 2-5 3-4 / 6-4 5-3 1-2 / 2-6 3-1 4-5) as the
 * report writes absences: in round 2 player 4 asked for a zero-point bye
 * (- and + linked, no colours), in round 3 for a half-point bye (H, and +
 * without opponent for player 5).  Each round as written is the table's:
 * nothing to report. */
START_TEST(round_robin_absences_as_written)
{
    Tournament *t = testutil_trf_load("pairing_check", "rr6.trf", TRF_READ_NO_POINTS_CHECK);
    for (int r = 1; r <= 3; r++) {
        PairingCheckProposal prop;
        ck_assert_int_eq(pairing_check_proposal_from_round(t, r, &prop), 0);
        PairingCheckOptions opt = {PAIRING_CHECK_ROUNDROBIN, 0, false, NULL, 0, SWISS_DUTCH};
        PairingCheckReport rep;
        char err[200];
        ck_assert_int_eq(pairing_check_round(t, r, &prop, &opt, &rep, err, sizeof err), 0);
        for (int k = 0; k < rep.n_items; k++)
            fprintf(stderr, "rr6 round %d: %s %s\n", r, rep.items[k].code, rep.items[k].message);
        ck_assert_msg(rep.n_items == 0, "round %d: %d items", r, rep.n_items);
        pairing_check_report_free(&rep);
        pairing_check_proposal_free(&prop);
    }
    tournament_free(t);
}
END_TEST

/* Edits board B of every STEP-th board of each round past the first of the
 * corpus tournaments NAMES (EDIT is its own inverse and needs B + SPAN on
 * the round), checks each edited round and hands the report to SEE.
 * Returns how many edited rounds were checked. */
typedef void (*CorpusEdit)(PairingCheckProposal *prop, int b);
typedef void (*CorpusSee)(const char *name, int round, int board, const PairingCheckReport *rep,
                          void *ctx);

static int each_corpus_edit(const char *const *names, size_t n, int step, int span, CorpusEdit edit,
                            CorpusSee see, void *ctx)
{
    int edits = 0;
    for (size_t i = 0; i < n; i++) {
        char rel[64];
        snprintf(rel, sizeof rel, "corpus/%s", names[i]);
        Tournament *t = testutil_trf_load("dutch", rel, TRF_READ_NO_POINTS_CHECK);
        int last = dutch_next_round(t) - 1;
        for (int r = 2; r <= last; r++) {
            PairingCheckProposal prop;
            ck_assert_int_eq(pairing_check_proposal_from_round(t, r, &prop), 0);
            for (int b = 0; b + span < prop.n_boards; b += step) {
                edit(&prop, b);
                PairingCheckOptions opt = {PAIRING_CHECK_SWISS, 0, true, NULL, 0, SWISS_DUTCH};
                PairingCheckReport rep;
                char err[200];
                ck_assert_int_eq(pairing_check_round(t, r, &prop, &opt, &rep, err, sizeof err), 0);
                see(names[i], r, prop.boards[b].board, &rep, ctx);
                pairing_check_report_free(&rep);
                edit(&prop, b);
                edits++;
            }
            pairing_check_proposal_free(&prop);
        }
        tournament_free(t);
    }
    return edits;
}

static void reverse_colours(PairingCheckProposal *prop, int b)
{
    int w = prop->boards[b].white;
    prop->boards[b].white = prop->boards[b].black;
    prop->boards[b].black = w;
}

static void see_colour_items(const char *name, int r, int board, const PairingCheckReport *rep,
                             void *ctx)
{
    int *colour_items = ctx;
    bool at = false;
    TrnPoints bracket = 0;
    for (int k = 0; k < rep->n_items; k++) {
        const PairingCheckItem *it = &rep->items[k];
        ck_assert_msg(strcmp(it->code, "ENGINE") == 0 || strcmp(it->code, "C3") == 0 ||
                          strcmp(it->code, "C10") == 0 || strcmp(it->code, "C11") == 0 ||
                          strcmp(it->code, "C12") == 0 || strcmp(it->code, "C13") == 0,
                      "%s round %d board %d: %s %s", name, r, board, it->code, it->message);
        if (it->kind != PAIRING_CHECK_QUALITY)
            continue;
        ck_assert(it->in_bracket);
        ck_assert_msg(!at || it->bracket == bracket, "%s round %d: two brackets", name, r);
        at = true;
        bracket = it->bracket;
        (*colour_items)++;
    }
}

/* Reversing the colours of one board of a corpus round moves nobody into
 * another bracket: the report may name colours (C3 absolute, C10, C12, C13,
 * all in that board's bracket) but never a float criterion (C5-C8). */
START_TEST(colour_swap_names_no_float)
{
    static const char *const names[] = {"seed0001.trf", "seed0005.trf", "seed0009.trf",
                                        "seed0013.trf"};
    int colour_items = 0;
    int rounds = each_corpus_edit(names, sizeof names / sizeof names[0], 8, 0, reverse_colours,
                                  see_colour_items, &colour_items);
    fprintf(stderr,
            "pairing check: %d rounds with one board's colours reversed, %d colour "
            "items\n",
            rounds, colour_items);
    ck_assert_int_ge(rounds, 20);
    ck_assert_int_ge(colour_items, 1);
}
END_TEST

static void exchange_blacks(PairingCheckProposal *prop, int b)
{
    int x = prop->boards[b].black;
    prop->boards[b].black = prop->boards[b + 2].black;
    prop->boards[b + 2].black = x;
}

static void see_top_down(const char *name, int r, int board, const PairingCheckReport *rep,
                         void *ctx)
{
    int *items = ctx;
    (void)board;
    TrnPoints prev = 1 << 30;
    for (int k = 0; k < rep->n_items; k++) {
        const PairingCheckItem *it = &rep->items[k];
        if (it->kind != PAIRING_CHECK_QUALITY || strcmp(it->code, "C5") == 0 ||
            strcmp(it->code, "C9") == 0)
            continue;
        ck_assert_msg(it->in_bracket && it->bracket <= prev, "%s round %d: %s %s", name, r,
                      it->code, it->message);
        prev = it->bracket;
        (*items)++;
    }
}

/* Opponents exchanged between two boards of a corpus round (floats may
 * change): the quality items come C5 first, then bracket by bracket from
 * the top, each past C5 naming its bracket. */
START_TEST(exchanges_report_from_the_top)
{
    static const char *const names[] = {"seed0002.trf", "seed0006.trf"};
    int items = 0;
    int edits = each_corpus_edit(names, sizeof names / sizeof names[0], 9, 2, exchange_blacks,
                                 see_top_down, &items);
    fprintf(stderr, "pairing check: %d corpus rounds with opponents exchanged, %d quality items\n",
            edits, items);
    ck_assert_int_ge(edits, 20);
    ck_assert_int_ge(items, 20);
}
END_TEST

START_TEST(bad_input)
{
    Tournament *t = testutil_trf_load("pairing_check", "base8.trf", TRF_READ_NO_POINTS_CHECK);
    PairingCheckProposal prop = {0};
    PairingCheckOptions opt = {PAIRING_CHECK_SWISS, 0, false, NULL, 0, SWISS_DUTCH};
    PairingCheckReport rep;
    char err[200] = "";
    ck_assert_int_eq(pairing_check_round(t, 0, &prop, &opt, &rep, err, sizeof err),
                     PAIRING_CHECK_E_INPUT);
    ck_assert(strstr(err, "round") != NULL);
    opt.system = (PairingCheckSystem)7;
    ck_assert_int_eq(pairing_check_round(t, 3, &prop, &opt, &rep, err, sizeof err),
                     PAIRING_CHECK_E_INPUT);
    /* an empty proposal: everybody present is unpaired */
    opt.system = PAIRING_CHECK_SWISS;
    ck_assert_int_eq(pairing_check_round(t, 3, &prop, &opt, &rep, err, sizeof err), 0);
    ck_assert_int_eq(rep.n_items, 8);
    ck_assert(pairing_check_report_has_absolute(&rep));
    pairing_check_report_free(&rep);
    pairing_check_report_free(NULL);
    pairing_check_proposal_free(NULL);
    tournament_free(t);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("pairing_check");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, cases);
    tcase_add_test(tc, every_code_has_both_cases);
    tcase_add_test(tc, corpus_has_no_absolute_violation);
    tcase_add_test(tc, bbp_next_rounds_have_no_absolute_violation);
    tcase_add_test(tc, special_cases_flag_the_original_round);
    tcase_add_test(tc, round_robin_absences_as_written);
    tcase_add_test(tc, colour_swap_names_no_float);
    tcase_add_test(tc, exchanges_report_from_the_top);
    tcase_add_test(tc, bad_input);
    suite_add_tcase(s, tc);
    return testutil_run(s);
}
