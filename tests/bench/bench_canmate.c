/*
 * bench_canmate.c — correctness and speed of the "can this side still
 * mate?" analysis: on labelled positions, and on positions like those of
 * real timeouts against a move-generation reference measured in the same run.
 *
 *   bench_canmate [--labelled FILE] [EPD]
 *                               the labelled run, then the timing run
 *                               (FILE "-": no labelled run)
 *   bench_canmate --labelled-only [FILE]
 *                               the labelled run alone
 *   --repeat N                  the labelled run N times (1 to 64), each
 *                               case timed by its least time over them
 *   bench_canmate --generate N  write N timeout-like positions (EPD) to stdout
 *
 * The labelled file (default tests/data/canmate/d3-test-vector.txt, see the
 * README there) gives for each position which sides can mate ("WB", "W-",
 * "-B", "--").  Each side is analysed as the Laws engine does at a flag fall
 * (canmate_quick, then canmate_search with the default budgets when the
 * quick test cannot decide) and counted as correct, wrong (a YES that should
 * be NO or the reverse) or undecided; the worst and mean time per case are
 * CPU time.  A wrong answer makes the run fail.
 *
 * The committed set tests/data/canmate/timeouts.epd was written by
 * --generate; see generate() for how.  Absolute times drift on a shared
 * machine, so the figures that matter are the ratios to the reference:
 * for every position, movegen_count_legal() plus perft(2), i.e. about what a
 * move generator does to look two plies ahead.  Times are CPU time of the
 * process, less disturbed by other load than wall-clock time.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "board.h"
#include "canmate.h"
#include "testutil.h"

/* xorshift64*: a fixed-seed generator, so the set is reproducible. */
static uint64_t rng_state = 0x9E3779B97F4A7C15ULL;

static uint64_t rng(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545F4914F6CDD1DULL;
}

static int rng_below(int n)
{
    return (int)(rng() % (uint64_t)n);
}

/* A plausible-looking move: captures and promotions to a queen are
 * favoured, as in the scrambles that end in time trouble. */
static Move pick_move(const Board *b, const MoveList *list)
{
    Move caps[MOVES_MAX];
    int ncaps = 0;
    for (int i = 0; i < list->count; i++) {
        Move m = list->moves[i];
        if (move_kind(m) == MOVE_PROMOTION && move_promotion(m) == QUEEN)
            return m;
        if (b->squares[move_to(m)] != PIECE_NONE || move_kind(m) == MOVE_EN_PASSANT)
            caps[ncaps++] = m;
    }
    if (ncaps && rng_below(100) < 35)
        return caps[rng_below(ncaps)];
    Move m;
    do
        m = list->moves[rng_below(list->count)];
    while (move_kind(m) == MOVE_PROMOTION && move_promotion(m) != QUEEN && rng_below(4));
    return m;
}

/* Typical endgame material, placed at random (legal placements only). */
static const char *const endings[] = {
    "KQ/K",   "KR/K",  "KBN/K",  "KNN/K", "KB/KB", "KN/KN",  "KR/KB", "KR/KN", "KP/K",   "KBP/K",
    "KRP/KR", "KQ/KR", "KPP/KP", "KB/KP", "KN/KP", "KNN/KP", "KBB/K", "KQ/KQ", "KRB/KR", "KPPP/KPP",
};

static int random_ending(Board *b, const char *spec)
{
    for (int attempt = 0; attempt < 1000; attempt++) {
        char grid[64];
        memset(grid, 0, sizeof grid);
        int color = 0, ok = 1;
        for (const char *p = spec; *p && ok; p++) {
            if (*p == '/') {
                color = 1;
                continue;
            }
            int sq, tries = 0;
            do {
                sq = rng_below(64);
                tries++;
            } while ((grid[sq] || (*p == 'P' && (sq < 8 || sq >= 56))) && tries < 100);
            grid[sq] = color ? (char)(*p - 'A' + 'a') : *p;
        }
        char fen[FEN_MAX + 16];
        testutil_fen_placement(grid, fen);
        sprintf(fen + strlen(fen), " %c - - 0 60", rng_below(2) ? 'b' : 'w');
        char err[160];
        if (board_from_fen(b, fen, err, sizeof err) == 0 && movegen_count_legal(b) > 0)
            return 0;
    }
    return -1;
}

/*
 * The set: three in four positions come from games of random play with
 * captures favoured (seed fixed above), stopped at a random ply between
 * move 40 and move 120 or earlier when the game ends; the rest are the
 * endgame material sets above, placed at random.  The side to mate is the
 * side NOT to move (the player whose flag fell is the one to move).
 */
static int generate(int n)
{
    printf("# Timeout-like positions for bench_canmate, written by\n"
           "# `bench_canmate --generate %d` (fixed seed): 3/4 from random games with\n"
           "# captures favoured, stopped between move 40 and 120; 1/4 typical endgame\n"
           "# material placed at random.  Field 2: the side that would mate.\n",
           n);
    for (int i = 0; i < n; i++) {
        Board b;
        if (i % 4 == 3) {
            if (random_ending(&b, endings[rng_below((int)(sizeof endings / sizeof *endings))]))
                continue;
        } else {
            board_start(&b);
            int stop = 80 + rng_below(161);
            for (int ply = 0; ply < stop; ply++) {
                MoveList list;
                if (movegen_legal_moves(&b, &list) == 0)
                    break;
                Board next = b;
                board_make(&next, pick_move(&b, &list));
                if (movegen_count_legal(&next) == 0)
                    break; /* keep the last position before a mate or stalemate */
                b = next;
            }
        }
        char fen[FEN_MAX];
        board_to_fen(&b, fen);
        printf("%s | %s\n", fen, b.side == WHITE ? "black" : "white");
    }
    return 0;
}

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

typedef struct {
    Board b;
    int winner;
} Case;

/* A side-case of the labelled file: the position, the side asked about,
 * the label's answer, and what the runs gave. */
typedef struct {
    Board b;
    int winner;
    CanMate want, got;
    double best; /* least CPU time over the runs, ns */
    int line;    /* index of its text in the run's lines */
} Labelled;

typedef struct {
    Labelled *cases;
    char (*lines)[512];
    int n, n_lines, skipped;
} LabelledSet;

static void labelled_free(LabelledSet *set)
{
    free(set->cases);
    free(set->lines);
}

/* Reads the side-cases of path into set; false when it cannot be read or
 * holds none (said on stderr). */
static bool labelled_read(const char *path, bool verbose, LabelledSet *set)
{
    *set = (LabelledSet){0};
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "bench_canmate: cannot open %s\n", path);
        return false;
    }
    int cap = 0;
    char line[512], err[160];
    Board b;
    int read;
    while ((read = testutil_labelled_next(f, line, sizeof line, &b, err, sizeof err)) != 0) {
        if (read < 0) {
            /* Placements no game can reach (more promoted men than missing
             * pawns) are refused by the FEN reader, as in play. */
            set->skipped++;
            if (verbose)
                printf("skipped: %s: %s\n", line + 3, err);
            continue;
        }
        if (set->n_lines == cap) {
            cap = cap ? 2 * cap : 1024;
            void *cases = realloc(set->cases, 2 * (size_t)cap * sizeof *set->cases);
            void *lines = cases ? realloc(set->lines, (size_t)cap * sizeof *set->lines) : NULL;
            if (cases)
                set->cases = cases;
            if (!lines) {
                fclose(f);
                labelled_free(set);
                fprintf(stderr, "bench_canmate: out of memory\n");
                return false;
            }
            set->lines = lines;
        }
        snprintf(set->lines[set->n_lines], sizeof set->lines[0], "%s", line + 3);
        for (int c = WHITE; c <= BLACK; c++)
            set->cases[set->n++] =
                (Labelled){b, c, testutil_labelled_want(line, c), CANMATE_UNKNOWN, 0, set->n_lines};
        set->n_lines++;
    }
    fclose(f);
    if (set->n == 0) {
        labelled_free(set);
        fprintf(stderr, "bench_canmate: no labelled positions in %s\n", path);
        return false;
    }
    return true;
}

/* The labelled run, `repeat` times over: each case's time is its least
 * over the runs (the machine's own load only ever adds time), and every
 * run must give the same answers (the analysis is deterministic).
 * Returns the number of wrong answers, or -1 when the file cannot be
 * read. */
static int run_labelled(const char *path, bool verbose, int repeat)
{
    LabelledSet set;
    if (!labelled_read(path, verbose, &set))
        return -1;
    CanMateScratch *scratch = canmate_scratch_new();
    if (!scratch) {
        labelled_free(&set);
        return -1;
    }
    double run_mean[64];
    int unstable = 0;
    for (int r = 0; r < repeat; r++) {
        double total = 0;
        for (int i = 0; i < set.n; i++) {
            Labelled *k = &set.cases[i];
            double t0 = now_ns();
            CanMate got = canmate_quick(&k->b, k->winner);
            if (got == CANMATE_UNKNOWN)
                got = canmate_search(&k->b, k->winner, NULL, scratch, NULL, NULL);
            double e = now_ns() - t0;
            total += e;
            if (r == 0 || e < k->best)
                k->best = e;
            if (r > 0 && got != k->got) {
                unstable++;
                printf("UNSTABLE: %s | %s | %s, then %s\n", set.lines[k->line],
                       k->winner == WHITE ? "white" : "black", canmate_name(k->got),
                       canmate_name(got));
            }
            k->got = got;
        }
        run_mean[r] = total / set.n;
    }
    canmate_scratch_free(scratch);
    int correct = 0, wrong = 0, unknown = 0, worst = 0;
    double total = 0;
    for (int i = 0; i < set.n; i++) {
        const Labelled *k = &set.cases[i];
        const char *fen = set.lines[k->line], *side = k->winner == WHITE ? "white" : "black";
        total += k->best;
        if (k->best > set.cases[worst].best)
            worst = i;
        if (verbose)
            printf("case: %s | %s | %s | %s | %.0f us\n", fen, side, canmate_name(k->want),
                   canmate_name(k->got), k->best / 1e3);
        if (k->got == k->want) {
            correct++;
        } else if (k->got == CANMATE_UNKNOWN) {
            unknown++;
            if (verbose)
                printf("unknown: %s | %s | %s\n", fen, side, canmate_name(k->want));
        } else {
            wrong++;
            printf("WRONG: %s | %s | got %s\n", fen, side, canmate_name(k->got));
        }
    }
    const Labelled *w = &set.cases[worst];
    printf("labelled:  %d positions, %d cases (%s); %d unreachable positions skipped\n",
           set.n_lines, set.n, path, set.skipped);
    printf("           decided %d (%.2f%%)  correct %d  wrong %d  unknown %d\n", correct + wrong,
           100.0 * (correct + wrong) / set.n, correct, wrong, unknown);
    printf("           mean %.1f us/case  worst %.2f ms: %s (%s)\n", total / set.n / 1e3,
           w->best / 1e6, set.lines[w->line], w->winner == WHITE ? "white" : "black");
    if (repeat > 1) {
        printf("           (each case's least time over %d runs; the runs' means:", repeat);
        for (int r = 0; r < repeat; r++)
            printf(" %.1f", run_mean[r] / 1e3);
        printf(" us/case)\n");
    }
    labelled_free(&set);
    return wrong + unstable;
}

int main(int argc, char **argv)
{
    if (argc >= 2 && strcmp(argv[1], "--generate") == 0)
        return generate(argc >= 3 ? atoi(argv[2]) : 1000);
    char def[512], labelled_def[512];
    testutil_data_path(def, sizeof def, "canmate", "timeouts.epd");
    testutil_data_path(labelled_def, sizeof labelled_def, "canmate", "d3-test-vector.txt");
    const char *path = def, *labelled = labelled_def;
    bool only = false, verbose = false;
    int repeat = 1;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--labelled") == 0 && i + 1 < argc)
            labelled = argv[++i];
        else if (strcmp(argv[i], "--repeat") == 0 && i + 1 < argc)
            repeat = atoi(argv[++i]);
        else if (strcmp(argv[i], "--labelled-only") == 0)
            only = true;
        else if (strcmp(argv[i], "--verbose") == 0)
            verbose = true;
        else if (only)
            labelled = argv[i];
        else
            path = argv[i];
    }
    if (repeat < 1 || repeat > 64) {
        fprintf(stderr, "bench_canmate: --repeat takes 1 to 64 runs\n");
        return 2;
    }
    int wrong = strcmp(labelled, "-") == 0 ? 0 : run_labelled(labelled, verbose, repeat);
    if (wrong != 0)
        return wrong < 0 ? 2 : 1;
    if (only)
        return 0;
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "bench_canmate: cannot open %s\n", path);
        return 2;
    }
    static Case cases[5000];
    int n = 0;
    char line[512];
    while (fgets(line, sizeof line, f) && n < 5000) {
        char *bar = strchr(line, '|');
        if (line[0] == '#' || !bar)
            continue;
        *bar = '\0';
        char err[160];
        if (board_from_fen(&cases[n].b, line, err, sizeof err)) {
            fprintf(stderr, "bench_canmate: %s: %s\n", line, err);
            return 2;
        }
        cases[n].winner = strstr(bar + 1, "white") ? WHITE : BLACK;
        n++;
    }
    fclose(f);
    if (n == 0) {
        fprintf(stderr, "bench_canmate: no positions in %s\n", path);
        return 2;
    }

    CanMateScratch *scratch = canmate_scratch_new();
    if (!scratch)
        return 1;
    enum { ROUNDS = 5 };
    int counts[2][3] = {{0}};
    volatile uint64_t sink = 0;

    double t0 = now_ns();
    for (int r = 0; r < ROUNDS; r++)
        for (int i = 0; i < n; i++)
            sink += (uint64_t)movegen_count_legal(&cases[i].b) + movegen_perft(&cases[i].b, 2);
    double ref = (now_ns() - t0) / (ROUNDS * n);

    t0 = now_ns();
    for (int r = 0; r < ROUNDS; r++)
        for (int i = 0; i < n; i++) {
            CanMate q = canmate_quick(&cases[i].b, cases[i].winner);
            if (r == 0)
                counts[0][q]++;
        }
    double quick = (now_ns() - t0) / (ROUNDS * n);

    double worst = 0;
    t0 = now_ns();
    for (int i = 0; i < n; i++) {
        double s = now_ns();
        CanMate q = canmate_search(&cases[i].b, cases[i].winner, NULL, scratch, NULL, NULL);
        counts[1][q]++;
        double e = now_ns() - s;
        if (e > worst)
            worst = e;
    }
    double full = (now_ns() - t0) / n;

    /* What the Laws engine does at a flag fall: quick, full only if needed. */
    t0 = now_ns();
    for (int i = 0; i < n; i++) {
        CanMate q = canmate_quick(&cases[i].b, cases[i].winner);
        if (q == CANMATE_UNKNOWN)
            q = canmate_search(&cases[i].b, cases[i].winner, NULL, scratch, NULL, NULL);
        sink += q;
    }
    double both = (now_ns() - t0) / n;
    canmate_scratch_free(scratch);

    printf("positions: %d (%s)\n", n, path);
    printf("quick:     yes %d  no %d  unknown %d\n", counts[0][CANMATE_YES], counts[0][CANMATE_NO],
           counts[0][CANMATE_UNKNOWN]);
    printf("full:      yes %d  no %d  unknown %d\n", counts[1][CANMATE_YES], counts[1][CANMATE_NO],
           counts[1][CANMATE_UNKNOWN]);
    printf("reference (count_legal + perft 2): %10.2f us/position\n", ref / 1e3);
    printf("canmate_quick:                     %10.2f us/position  ratio %.2f\n", quick / 1e3,
           quick / ref);
    printf("canmate_search:                    %10.2f us/position  ratio %.2f  (worst %.2f ms)\n",
           full / 1e3, full / ref, worst / 1e6);
    printf("quick then search if unknown:      %10.2f us/position  ratio %.2f\n", both / 1e3,
           both / ref);
    return sink == 42 ? 1 : 0;
}
