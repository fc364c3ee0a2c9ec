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

/* The labelled run; returns the number of wrong answers, or -1 when the
 * file cannot be read. */
static int run_labelled(const char *path, bool verbose)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "bench_canmate: cannot open %s\n", path);
        return -1;
    }
    CanMateScratch *scratch = canmate_scratch_new();
    if (!scratch) {
        fclose(f);
        return -1;
    }
    int cases = 0, correct = 0, wrong = 0, unknown = 0, positions = 0, skipped = 0;
    double total = 0, worst = 0;
    char worst_fen[600] = "";
    char line[512], err[160];
    Board b;
    int read;
    while ((read = testutil_labelled_next(f, line, sizeof line, &b, err, sizeof err)) != 0) {
        if (read < 0) {
            /* Placements no game can reach (more promoted men than missing
             * pawns) are refused by the FEN reader, as in play. */
            skipped++;
            if (verbose)
                printf("skipped: %s: %s\n", line + 3, err);
            continue;
        }
        positions++;
        for (int c = WHITE; c <= BLACK; c++) {
            CanMate want = testutil_labelled_want(line, c);
            double t0 = now_ns();
            CanMate got = canmate_quick(&b, c);
            if (got == CANMATE_UNKNOWN)
                got = canmate_search(&b, c, NULL, scratch, NULL, NULL);
            double e = now_ns() - t0;
            total += e;
            if (e > worst) {
                worst = e;
                snprintf(worst_fen, sizeof worst_fen, "%s (%s)", line + 3,
                         c == WHITE ? "white" : "black");
            }
            cases++;
            if (verbose)
                printf("case: %s | %s | %s | %s | %.0f us\n", line + 3,
                       c == WHITE ? "white" : "black", canmate_name(want), canmate_name(got),
                       e / 1e3);
            if (got == want) {
                correct++;
            } else if (got == CANMATE_UNKNOWN) {
                unknown++;
                if (verbose)
                    printf("unknown: %s | %s | %s\n", line + 3, c == WHITE ? "white" : "black",
                           canmate_name(want));
            } else {
                wrong++;
                printf("WRONG: %s | %s | got %s\n", line + 3, c == WHITE ? "white" : "black",
                       canmate_name(got));
            }
        }
    }
    fclose(f);
    canmate_scratch_free(scratch);
    if (cases == 0) {
        fprintf(stderr, "bench_canmate: no labelled positions in %s\n", path);
        return -1;
    }
    printf("labelled:  %d positions, %d cases (%s); %d unreachable positions skipped\n", positions,
           cases, path, skipped);
    printf("           decided %d (%.2f%%)  correct %d  wrong %d  unknown %d\n", correct + wrong,
           100.0 * (correct + wrong) / cases, correct, wrong, unknown);
    printf("           mean %.1f us/case  worst %.2f ms: %s\n", total / cases / 1e3, worst / 1e6,
           worst_fen);
    return wrong;
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
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--labelled") == 0 && i + 1 < argc)
            labelled = argv[++i];
        else if (strcmp(argv[i], "--labelled-only") == 0)
            only = true;
        else if (strcmp(argv[i], "--verbose") == 0)
            verbose = true;
        else if (only)
            labelled = argv[i];
        else
            path = argv[i];
    }
    int wrong = strcmp(labelled, "-") == 0 ? 0 : run_labelled(labelled, verbose);
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
