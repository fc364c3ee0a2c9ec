/*
 * bench_canmate_stages.c — where the schedule of canmate_search() spends
 * its time on the labelled positions, and what it would cost if it knew
 * in advance which of its searches succeeds.
 *
 *   bench_canmate_stages [FILE] [--verbose] [--matrix]
 *   bench_canmate_stages --case FEN white|black
 *
 * For every side-case of the labelled file (default
 * tests/data/canmate/d3-test-vector.txt, as bench_canmate) the quick test
 * and canmate_search_prelude() run first; where they leave the case open,
 * every stage of the menu runs alone (canmate_stage_run) and its CPU time
 * and answer are kept.  From those, per case of the whole file:
 *   - schedule: the stages in canmate_search()'s order up to the first
 *     that answers, a walk stage counting only the time it adds to the
 *     walk stages before it (in the schedule it carries on from them);
 *     this is bench_canmate's mean, rebuilt from the stages;
 *   - oracle: the cheapest single stage that answers; where none does,
 *     every stage (an undecided case runs them all);
 *   - for each kind of search, the time the schedule spends in its
 *     stages that answer and in those that fail;
 *   - carried: the schedule if every stage carried on from the stages of
 *     its kind and corner before it, as the walk does (it would add only
 *     what it takes beyond the longest of them): a bound on what resuming
 *     the other searches could win.
 * The gap between schedule and oracle is what any order of these stages
 * could still win; the oracle is what only faster searches can lower.
 * With --verbose, a line per case that reaches the stages: the oracle's
 * stage and both costs.
 *
 * With --matrix, a line per such case with every stage's answer and time
 * (in menu order) and the schedule's order there, for trying other orders
 * offline:
 *   matrix: FEN | side | before US | order I,J,... | ANSWER US ...
 * where ANSWER is Y, N or U for yes, no and unknown.
 *
 * With --case, one position and the side asked about: the stages in the
 * order the schedule runs them there, each with its CPU time alone, what
 * it answers and the schedule's running cost, to see where that case's
 * time goes.  Each stage runs twice and the second run is timed, so that
 * the tables' first touch is not counted (bench_canmate reuses them from
 * case to case).
 *
 * Every stage runs to its full budget where it fails, so a run takes a few
 * minutes.  Times are CPU time of the process.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "board.h"
#include "canmate.h"
#include "testutil.h"

enum { STAGES_MAX = 64, KINDS_MAX = 16 };

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

/* Totals over the file, in microseconds. */
typedef struct Totals {
    int cases, staged, undecided;
    double schedule, oracle, carried;
    const char *kind[KINDS_MAX];
    int nkinds;
    int won[KINDS_MAX], lost[KINDS_MAX];
    double won_us[KINDS_MAX], lost_us[KINDS_MAX];
} Totals;

static int kind_index(Totals *t, const char *kind)
{
    for (int i = 0; i < t->nkinds; i++)
        if (strcmp(t->kind[i], kind) == 0)
            return i;
    if (t->nkinds == KINDS_MAX)
        return KINDS_MAX - 1;
    t->kind[t->nkinds] = kind;
    return t->nkinds++;
}

/* The quick test, then what canmate_search() settles before its stages,
 * as canmate_search() runs them; their CPU time into *us. */
static CanMate before_stages(const Board *b, int winner, CanMateScratch *scratch, double *us)
{
    double t0 = now_us();
    CanMate r = canmate_quick(b, winner);
    if (r == CANMATE_UNKNOWN)
        r = canmate_search_prelude(b, winner, scratch);
    *us = now_us() - t0;
    return r;
}

/* What stage st, taking `us` alone, costs in the schedule: a walk stage
 * carries on from the walk stages before it (the longest of them took
 * *walked), so it adds only its growth. */
static double schedule_cost(const CanMateStage *st, double us, double *walked)
{
    if (!st->resumes)
        return us;
    if (us <= *walked)
        return 0;
    double c = us - *walked;
    *walked = us;
    return c;
}

/* What stage st, taking `us` alone, would add if it carried on from the
 * stages of its kind and corner before it: runs[0..*n) hold the longest
 * time of each kind and corner so far. */
typedef struct Run {
    const char *kind;
    int corner;
    double us;
} Run;

static double carried_cost(const CanMateStage *st, double us, Run *runs, int *n)
{
    for (int i = 0; i < *n; i++) {
        if (strcmp(runs[i].kind, st->kind) != 0 || runs[i].corner != st->corner)
            continue;
        double c = us > runs[i].us ? us - runs[i].us : 0;
        if (us > runs[i].us)
            runs[i].us = us;
        return c;
    }
    runs[(*n)++] = (Run){st->kind, st->corner, us};
    return us;
}

/* Runs every stage alone on one open case and adds its schedule and
 * oracle costs (beyond `before`, the time spent before the stages). */
static void stages_case(Totals *t, const Board *b, int winner, CanMateScratch *scratch,
                        double before, const char *label, bool verbose, bool matrix)
{
    int n = canmate_stage_count();
    CanMate got[STAGES_MAX];
    double us[STAGES_MAX];
    for (int i = 0; i < n; i++) {
        double t0 = now_us();
        got[i] = canmate_stage_run(b, winner, i, scratch);
        us[i] = now_us() - t0;
    }
    /* The schedule: walk stages resume, so each adds only its growth. */
    int order[STAGES_MAX];
    int len = canmate_stage_order(b, winner, order);
    double cost = before, walked = 0, carried = before;
    Run runs[STAGES_MAX];
    int nruns = 0;
    bool decided = false;
    for (int k = 0; k < len && !decided; k++) {
        int i = order[k];
        CanMateStage st;
        canmate_stage_info(i, &st);
        double c = schedule_cost(&st, us[i], &walked);
        cost += c;
        carried += carried_cost(&st, us[i], runs, &nruns);
        decided = got[i] != CANMATE_UNKNOWN;
        int ki = kind_index(t, st.kind);
        if (decided) {
            t->won[ki]++;
            t->won_us[ki] += c;
        } else {
            t->lost[ki]++;
            t->lost_us[ki] += c;
        }
    }
    int best = -1;
    for (int i = 0; i < n; i++)
        if (got[i] != CANMATE_UNKNOWN && (best < 0 || us[i] < us[best]))
            best = i;
    double oracle = best < 0 ? cost : before + us[best];
    t->staged++;
    t->undecided += best < 0;
    t->schedule += cost;
    t->oracle += oracle;
    t->carried += carried;
    if (verbose) {
        CanMateStage st = {"none", -1, 0, false};
        if (best >= 0)
            canmate_stage_info(best, &st);
        printf("staged: %s | oracle %s %u c%d | %.0f us | schedule %.0f us\n", label, st.kind,
               st.share, st.corner, oracle, cost);
    }
    if (matrix) {
        printf("matrix: %s | before %.0f | order", label, before);
        for (int k = 0; k < len; k++)
            printf("%c%d", k ? ',' : ' ', order[k]);
        printf(" |");
        for (int i = 0; i < n; i++)
            printf(" %c %.0f",
                   got[i] == CANMATE_YES  ? 'Y'
                   : got[i] == CANMATE_NO ? 'N'
                                          : 'U',
                   us[i]);
        printf("\n");
    }
}

/* --case: one position's stages in schedule order.  Exit 0, or 2 for a bad
 * FEN or side. */
static int one_case(const char *fen, const char *side, CanMateScratch *scratch)
{
    Board b;
    char err[160];
    int winner = strcmp(side, "white") == 0 ? WHITE : strcmp(side, "black") == 0 ? BLACK : -1;
    if (winner < 0 || board_from_fen(&b, fen, err, sizeof err) != 0) {
        fprintf(stderr, "bench_canmate_stages: --case wants a FEN and white or black\n");
        return 2;
    }
    double before;
    before_stages(&b, winner, scratch, &before); /* the second run is timed, as below */
    CanMate r = before_stages(&b, winner, scratch, &before);
    printf("case:      %s | %s | before the stages: %s, %.0f us\n", fen, side, canmate_name(r),
           before);
    if (r != CANMATE_UNKNOWN)
        return 0;
    int order[STAGES_MAX];
    int len = canmate_stage_order(&b, winner, order);
    double cost = before, walked = 0;
    bool decided = false;
    for (int k = 0; k < len; k++) {
        CanMateStage st;
        canmate_stage_info(order[k], &st);
        canmate_stage_run(&b, winner, order[k], scratch);
        double t0 = now_us();
        r = canmate_stage_run(&b, winner, order[k], scratch);
        double us = now_us() - t0, c = schedule_cost(&st, us, &walked);
        if (!decided)
            cost += c;
        printf("stage %2d:  %-12s %6u c%-2d %-7s %9.0f us  schedule %9.0f us%s\n", order[k],
               st.kind, st.share, st.corner, canmate_name(r), us, cost,
               r != CANMATE_UNKNOWN && !decided ? "  <- answers" : "");
        decided |= r != CANMATE_UNKNOWN;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (canmate_stage_count() > STAGES_MAX) {
        fprintf(stderr, "bench_canmate_stages: more than %d stages\n", STAGES_MAX);
        return 2;
    }
    if (argc >= 2 && strcmp(argv[1], "--case") == 0) {
        CanMateScratch *scratch = canmate_scratch_new();
        int rc = 2;
        if (argc != 4)
            fprintf(stderr, "bench_canmate_stages: --case FEN white|black\n");
        else if (scratch)
            rc = one_case(argv[2], argv[3], scratch);
        canmate_scratch_free(scratch);
        return rc;
    }
    char def[512];
    testutil_data_path(def, sizeof def, "canmate", "d3-test-vector.txt");
    const char *path = def;
    bool verbose = false, matrix = false;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--verbose") == 0)
            verbose = true;
        else if (strcmp(argv[i], "--matrix") == 0)
            matrix = true;
        else
            path = argv[i];
    }
    FILE *f = fopen(path, "r");
    CanMateScratch *scratch = canmate_scratch_new();
    if (!f || !scratch) {
        fprintf(stderr, "bench_canmate_stages: cannot open %s\n", path);
        if (f)
            fclose(f);
        canmate_scratch_free(scratch);
        return 2;
    }
    Totals t = {0};
    char line[512], err[160];
    Board b;
    int got;
    while ((got = testutil_labelled_next(f, line, sizeof line, &b, err, sizeof err)) != 0) {
        if (got < 0)
            continue; /* unreachable placements, as bench_canmate skips them */
        for (int c = WHITE; c <= BLACK; c++) {
            double before;
            CanMate r = before_stages(&b, c, scratch, &before);
            t.cases++;
            if (r != CANMATE_UNKNOWN) {
                t.schedule += before;
                t.oracle += before;
                t.carried += before;
                continue;
            }
            char label[600];
            snprintf(label, sizeof label, "%s | %s", line + 3, c == WHITE ? "white" : "black");
            stages_case(&t, &b, c, scratch, before, label, verbose, matrix);
        }
    }
    fclose(f);
    canmate_scratch_free(scratch);
    if (t.cases == 0) {
        fprintf(stderr, "bench_canmate_stages: no labelled positions in %s\n", path);
        return 2;
    }
    printf("stages:    %d cases (%s), %d reach the %d stages, %d decided by none\n", t.cases, path,
           t.staged, canmate_stage_count(), t.undecided);
    printf("           schedule %.1f us/case  oracle %.1f us/case  (ratio %.2f)\n",
           t.schedule / t.cases, t.oracle / t.cases, t.oracle / t.schedule);
    printf("           carried %.1f us/case  (every kind carrying on as the walk does)\n",
           t.carried / t.cases);
    printf("           by kind, in the schedule (us/case): answering / failing stages\n");
    for (int i = 0; i < t.nkinds; i++)
        printf("           %-12s %7.1f (%4d) / %7.1f (%5d)\n", t.kind[i], t.won_us[i] / t.cases,
               t.won[i], t.lost_us[i] / t.cases, t.lost[i]);
    return 0;
}
