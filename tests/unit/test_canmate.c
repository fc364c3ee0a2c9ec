/*
 * test_canmate.c — "can this side still mate?" (rules/chess/canmate.c) against
 * chess facts in tests/data/canmate/cases.txt, grouped in sections named
 * after the corner cases.  Every YES must come with a line that this test
 * replays move by move (legality from the move generator, mate checked at
 * the end), independently of the search that produced it.  A property
 * test plays pseudo-random games (fixed seed) and checks that a side that
 * still has a queen or a rook is never declared unable to mate.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "canmate.h"
#include "canmate_guided.h"
#include "canmate_static.h"
#include "testutil.h"

typedef struct {
    char section[48];
    char fen[128];
    int winner;
    CanMate expected;
} Case;

static Case cases[200];
static int n_cases;

static void load_cases(void)
{
    FILE *f = testutil_open_at_start("canmate", "cases.txt", "r");
    char line[512], section[48] = "";
    while (fgets(line, sizeof line, f) && n_cases < 200) {
        if (line[0] == '#') {
            /* "# name: text" starts a section; other comments do not. */
            char name[48];
            if (sscanf(line, "# %47[a-z_0-9]:", name) == 1 && strchr(line, ':'))
                snprintf(section, sizeof section, "%s", name);
            continue;
        }
        char fen[128], who[16], want[16];
        if (sscanf(line, " %127[^|]| %15s | %15s", fen, who, want) != 3)
            continue;
        Case *c = &cases[n_cases++];
        snprintf(c->section, sizeof c->section, "%s", section);
        snprintf(c->fen, sizeof c->fen, "%s", fen);
        c->winner = strcmp(who, "white") == 0 ? WHITE : BLACK;
        c->expected = strcmp(want, "yes") == 0 ? CANMATE_YES : CANMATE_NO;
    }
    fclose(f);
}

/* The independent check of a YES: every move legal, and at the end the
 * loser is to move, in check, with no legal move. */
static void verify_line(const Board *start, int winner, const Move *line, int len, const char *fen)
{
    Board b = *start;
    ck_assert_msg(len >= 0 && len <= CANMATE_LINE_MAX, "%s: line length %d", fen, len);
    for (int i = 0; i < len; i++) {
        char uci[6];
        board_move_to_uci(line[i], uci);
        ck_assert_msg(movegen_is_legal(&b, line[i]), "%s: move %d (%s) is illegal", fen, i, uci);
        board_make(&b, line[i]);
    }
    ck_assert_msg(b.side != winner && board_in_check(&b) && movegen_count_legal(&b) == 0,
                  "%s: the line of %d plies does not end in mate by %s", fen, len,
                  winner == WHITE ? "white" : "black");
}

static void check_case(const Case *c, CanMateScratch *scratch)
{
    Board b = testutil_board(c->fen);
    Move line[CANMATE_LINE_MAX];
    int len = -1;
    /* Generous budgets here; the defaults are checked through
     * canmate_analyse() below. */
    CanMateLimits generous = {100000, 9, 30000};
    CanMate full = canmate_search(&b, c->winner, &generous, scratch, line, &len);
    ck_assert_msg(full == c->expected, "%s (%s to mate): got %s, expected %s", c->fen,
                  c->winner == WHITE ? "white" : "black", canmate_name(full),
                  canmate_name(c->expected));
    if (full == CANMATE_YES)
        verify_line(&b, c->winner, line, len, c->fen);
    else
        ck_assert_int_eq(len, 0);
    CanMate quick = canmate_quick(&b, c->winner);
    ck_assert_msg(quick == c->expected || quick == CANMATE_UNKNOWN,
                  "%s: quick says %s, the truth is %s", c->fen, canmate_name(quick),
                  canmate_name(c->expected));
    /* With the default budgets every case must be decided, except the
     * "harder" ones, where a YES may stay undecided (never a NO). */
    CanMate an = canmate_analyse(&b, c->winner);
    if (strcmp(c->section, "harder") == 0 && c->expected == CANMATE_YES)
        ck_assert_msg(an != CANMATE_NO, "%s: analyse says no", c->fen);
    else
        ck_assert_msg(an == c->expected, "%s: analyse says %s", c->fen, canmate_name(an));
}

static void run_section(const char *name)
{
    CanMateScratch *scratch = canmate_scratch_new();
    ck_assert_ptr_nonnull(scratch);
    int run = 0;
    for (int i = 0; i < n_cases; i++)
        if (!name || strcmp(cases[i].section, name) == 0) {
            check_case(&cases[i], scratch);
            run++;
        }
    ck_assert_msg(run > 0, "no cases in section %s", name ? name : "(all)");
    canmate_scratch_free(scratch);
}

#define SECTION_TEST(name)                                                                         \
    START_TEST(name)                                                                               \
    {                                                                                              \
        run_section(#name);                                                                        \
    }                                                                                              \
    END_TEST

SECTION_TEST(k_n_v_k)
SECTION_TEST(k_b_v_k)
SECTION_TEST(k_b_v_k_b_same_colour)
SECTION_TEST(opposite_colour_bishops)
SECTION_TEST(k_n_v_k_n)
SECTION_TEST(k_nn_v_k)
SECTION_TEST(k_nn_v_k_p)
SECTION_TEST(k_v_k_q)
SECTION_TEST(k_p_v_k)
SECTION_TEST(blocked_wall_dead)
SECTION_TEST(blocked_wall_king_breaks_in)
SECTION_TEST(capture_first)
SECTION_TEST(mate_now)
SECTION_TEST(as_given_mated)
SECTION_TEST(as_given_stalemate)
SECTION_TEST(k_b_n_v_k)
SECTION_TEST(forced_capture)

START_TEST(every_case)
{
    ck_assert_int_ge(n_cases, 40);
    run_section(NULL);
}
END_TEST

START_TEST(dead_position_needs_both_sides)
{
    Board wall = testutil_board("8/8/8/1k6/p1p1p1p1/P1P1P1P1/8/4K3 w - - 0 1");
    ck_assert(canmate_is_dead(&wall));
    Board start = testutil_board(BOARD_START_FEN);
    ck_assert(!canmate_is_dead(&start));
    /* White cannot mate with a lone king, but Black can: not dead. */
    Board kq = testutil_board("8/8/8/4k3/8/8/4K3/4q3 w - - 0 1");
    ck_assert(!canmate_is_dead(&kq));
    Board kk = testutil_board("8/8/8/4k3/8/8/4K3/8 w - - 0 1");
    ck_assert(canmate_is_dead(&kk));
    /* Black must take the queen: dead although White has a queen now. */
    Board forced = testutil_board("kQ6/8/8/4K3/8/8/8/8 b - - 0 60");
    ck_assert(canmate_is_dead(&forced));
    Board opp = testutil_board("8/8/2b5/4k3/8/8/3BK3/8 w - - 0 1");
    ck_assert(!canmate_is_dead(&opp));
}
END_TEST

START_TEST(bad_arguments_are_harmless)
{
    canmate_scratch_free(NULL);
    Board b = testutil_board(BOARD_START_FEN);
    ck_assert_int_eq(canmate_quick(&b, 2), CANMATE_UNKNOWN);
    int len = 7;
    ck_assert_int_eq(canmate_search(&b, -1, NULL, NULL, NULL, &len), CANMATE_UNKNOWN);
    ck_assert_int_eq(len, 0);
    ck_assert_str_eq(canmate_name(CANMATE_YES), "yes");
    ck_assert_str_eq(canmate_name(CANMATE_NO), "no");
    ck_assert_str_eq(canmate_name(CANMATE_UNKNOWN), "unknown");
    /* A tiny budget may give up, but never claims NO for an open position. */
    CanMateLimits tiny = {1, 1, 1};
    ck_assert_int_ne(canmate_search(&b, WHITE, &tiny, NULL, NULL, NULL), CANMATE_NO);
}
END_TEST

START_TEST(answers_are_deterministic)
{
    CanMateScratch *a = canmate_scratch_new(), *b2 = canmate_scratch_new();
    Board b = testutil_board("8/8/3n4/4k3/8/8/3NK3/8 w - - 0 1");
    Move l1[CANMATE_LINE_MAX], l2[CANMATE_LINE_MAX];
    int n1, n2;
    /* A used scratch and a fresh one give the same line. */
    canmate_search(&b, BLACK, NULL, a, l1, &n1);
    CanMate r1 = canmate_search(&b, WHITE, NULL, a, l1, &n1);
    CanMate r2 = canmate_search(&b, WHITE, NULL, b2, l2, &n2);
    ck_assert_int_eq(r1, r2);
    ck_assert_int_eq(n1, n2);
    ck_assert_mem_eq(l1, l2, (size_t)n1 * sizeof *l1);
    canmate_scratch_free(a);
    canmate_scratch_free(b2);
}
END_TEST

/* A blocked position that only a long exhaustive walk proves dead for
 * Black (some 26,000 positions, from the labelled vector): the walk runs
 * out in the smaller stages and carries on in the larger ones, and must
 * reach the same proof as a walk on a fresh scratch, also after a search
 * with other budgets left a walk of this position paused in the scratch. */
START_TEST(walk_carries_on)
{
    CanMateScratch *used = canmate_scratch_new(), *fresh = canmate_scratch_new();
    Board b = testutil_board("rnb1b3/pk1p4/p1pPp1p1/P1P1P1Pp/RBP4P/P7/5B2/7K w - - 0 1");
    CanMateLimits small = {CANMATE_DEFAULT_NODES, CANMATE_DEFAULT_DEPTH, 5000};
    ck_assert_int_eq(canmate_search(&b, BLACK, &small, used, NULL, NULL), CANMATE_UNKNOWN);
    ck_assert_int_eq(canmate_search(&b, BLACK, NULL, used, NULL, NULL), CANMATE_NO);
    ck_assert_int_eq(canmate_search(&b, BLACK, NULL, fresh, NULL, NULL), CANMATE_NO);
    canmate_scratch_free(used);
    canmate_scratch_free(fresh);
}
END_TEST

/* The schedule stage by stage (what bench_canmate_stages measures): the
 * order holds stages of the menu, each at most once, the prelude leaves
 * open what needs the stages, and every stage that answers alone agrees
 * with the labels of the D3 test vector (the first position: neither side can mate; the
 * second: White can). */
START_TEST(stages_alone_agree)
{
    static const struct {
        const char *fen;
        int winner;
        CanMate want;
    } open_cases[] = {
        {"Bb1k1b2/bKp1p1p1/1pP1P1P1/1P6/p5P1/P7/8/8 w - - 0 1", WHITE, CANMATE_NO},
        {"Bb1k1b2/bKp1p1p1/1pP1P1P1/1P6/p5P1/P7/8/8 w - - 0 1", BLACK, CANMATE_NO},
        {"Bb1k1b2/bKp1p1p1/1pP1P1P1/pP6/6P1/P7/8/8 w - - 0 1", WHITE, CANMATE_YES},
    };
    CanMateScratch *scratch = canmate_scratch_new();
    int n = canmate_stage_count(), order[64];
    ck_assert_int_gt(n, 0);
    ck_assert_int_le(n, 64);
    Board start = testutil_board("start");
    ck_assert_int_eq(canmate_stage_run(&start, WHITE, n, scratch), CANMATE_UNKNOWN);
    ck_assert_int_eq(canmate_stage_run(&start, WHITE, -1, scratch), CANMATE_UNKNOWN);
    ck_assert_int_eq(canmate_stage_run(&start, WHITE, 0, NULL), CANMATE_UNKNOWN);
    ck_assert_int_eq(canmate_search_prelude(&start, WHITE, NULL), CANMATE_UNKNOWN);
    CanMateStage none;
    canmate_stage_info(n, &none);
    ck_assert_str_eq(none.kind, "none");
    for (size_t c = 0; c < sizeof open_cases / sizeof open_cases[0]; c++) {
        Board b = testutil_board(open_cases[c].fen);
        ck_assert_int_eq(canmate_search_prelude(&b, open_cases[c].winner, scratch),
                         CANMATE_UNKNOWN);
        int len = canmate_stage_order(&b, open_cases[c].winner, order);
        ck_assert_int_gt(len, n / 2);
        ck_assert_int_le(len, n);
        uint64_t seen = 0;
        for (int i = 0; i < len; i++) {
            ck_assert_int_ge(order[i], 0);
            ck_assert_int_lt(order[i], n);
            ck_assert_msg(!(seen & UINT64_C(1) << order[i]), "stage %d twice", order[i]);
            seen |= UINT64_C(1) << order[i];
        }
        int answered = 0;
        for (int i = 0; i < n; i++) {
            CanMateStage st;
            canmate_stage_info(i, &st);
            ck_assert_ptr_nonnull(st.kind);
            CanMate r = canmate_stage_run(&b, open_cases[c].winner, i, scratch);
            if (r == CANMATE_UNKNOWN)
                continue;
            ck_assert_msg(r == open_cases[c].want, "%s: stage %d (%s) answers %s",
                          open_cases[c].fen, i, st.kind, canmate_name(r));
            answered++;
        }
        ck_assert_int_gt(answered, 0);
        ck_assert_int_eq(canmate_search(&b, open_cases[c].winner, NULL, scratch, NULL, NULL),
                         open_cases[c].want);
    }
    canmate_scratch_free(scratch);
}
END_TEST

static uint64_t rng_state;

static uint64_t rng(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545F4914F6CDD1DULL;
}

/* Over positions of pseudo-random games, a side with a queen or a rook is
 * never declared unable to mate, and every line found is a real mate. */
START_TEST(queen_or_rook_never_no)
{
    rng_state = 0x5DEECE66DULL;
    CanMateScratch *scratch = canmate_scratch_new();
    CanMateLimits small = {3000, 7, 3000};
    int checked = 0;
    for (int game = 0; game < 30; game++) {
        Board b;
        board_start(&b);
        for (int ply = 0; ply < 200; ply++) {
            MoveList list;
            if (movegen_legal_moves(&b, &list) == 0)
                break;
            /* Favour captures so that games reach thin endgames. */
            Move m = list.moves[rng() % (uint64_t)list.count];
            for (int i = 0; i < list.count; i++)
                if (b.squares[move_to(list.moves[i])] != PIECE_NONE && rng() % 3 == 0)
                    m = list.moves[i];
            board_make(&b, m);
            if (ply % 7 != 0)
                continue;
            for (int c = WHITE; c <= BLACK; c++) {
                if (!(board_pieces(&b, c, QUEEN) | board_pieces(&b, c, ROOK)))
                    continue;
                char fen[FEN_MAX];
                board_to_fen(&b, fen);
                CanMate q = canmate_quick(&b, c);
                ck_assert_msg(q != CANMATE_NO, "%s: quick says %s cannot mate", fen,
                              c == WHITE ? "white" : "black");
                if (q == CANMATE_YES && movegen_count_legal(&b) > 0)
                    continue;
                Move line[CANMATE_LINE_MAX];
                int len;
                CanMate r = canmate_search(&b, c, &small, scratch, line, &len);
                ck_assert_msg(r != CANMATE_NO, "%s: search says %s cannot mate", fen,
                              c == WHITE ? "white" : "black");
                if (r == CANMATE_YES)
                    verify_line(&b, c, line, len, fen);
                checked++;
            }
        }
    }
    ck_assert_int_gt(checked, 20);
    canmate_scratch_free(scratch);
}
END_TEST

/* Blocked walls with kings and minor pieces placed at random (fixed seed):
 * whenever the analysis says NO, brute force finds no short helpmate
 * either, and whenever it says YES, the line mates. */
START_TEST(no_answers_survive_brute_force)
{
    static const char *const walls[] = {
        "8/8/8/p1p1p1p1/P1P1P1P1/8/8/8", "8/8/8/1p1p1p1p/1P1P1P1P/8/8/8",
        "8/8/p1p1p1p1/P1P1P1P1/8/8/8/8", "8/8/8/pp1p1p1p/1P1P1P1P/8/8/8",
        "8/8/8/p1p1p3/P1P1P3/8/8/8",
    };
    static const char pieces[] = "BbNn";
    rng_state = 0x2545F4914F6CDD1DULL;
    CanMateScratch *scratch = canmate_scratch_new();
    int nos = 0, tried = 0;
    for (int attempt = 0; attempt < 400 && tried < 60; attempt++) {
        char grid[64];
        memset(grid, 0, sizeof grid);
        const char *w = walls[rng() % 5];
        for (int r = 7, f = 0; *w; w++) {
            if (*w == '/') {
                r--, f = 0;
            } else if (*w >= '1' && *w <= '8') {
                f += *w - '0';
            } else {
                grid[SQ(f, r)] = *w;
                f++;
            }
        }
        int wk = (int)(rng() % 24), bk = 40 + (int)(rng() % 24);
        if (grid[wk] || grid[bk])
            continue;
        grid[wk] = 'K';
        grid[bk] = 'k';
        for (int i = 0; i < 2; i++) {
            int sq = (int)(rng() % 64);
            if (!grid[sq] && rng() % 2)
                grid[sq] = pieces[rng() % 4];
        }
        char fen[100];
        testutil_fen_placement(grid, fen);
        strcat(fen, rng() % 2 ? " w - - 0 1" : " b - - 0 1");
        Board b;
        char err[160];
        if (board_from_fen(&b, fen, err, sizeof err) != 0)
            continue;
        tried++;
        for (int c = WHITE; c <= BLACK; c++) {
            Move line[CANMATE_LINE_MAX];
            int len;
            CanMate r = canmate_search(&b, c, NULL, scratch, line, &len);
            if (r == CANMATE_YES) {
                verify_line(&b, c, line, len, fen);
            } else if (r == CANMATE_NO) {
                nos++;
                ck_assert_msg(!testutil_mate_within(&b, c, 4),
                              "%s: NO for %s, but brute force mates", fen,
                              c == WHITE ? "white" : "black");
            }
        }
    }
    ck_assert_int_ge(tried, 40);
    ck_assert_int_ge(nos, 20);
    canmate_scratch_free(scratch);
}
END_TEST

/* The positions of the issue: a K+R that resigns against K+B, a K+Q whose
 * flag falls against K+B, a K+Q with a second illegal move against K+B.
 * The lone bishop can never mate (the heavy piece beside the king always
 * reaches the square next to it on the checking diagonal): NO, for the
 * quick test and the full analysis alike, while the heavy side can mate. */
START_TEST(lone_bishop_against_heavy_piece)
{
    static const char *const fens[] = {
        "8/8/8/4k3/2b5/8/8/R3K3 w - - 0 1",
        "8/8/8/4k3/2b5/8/8/Q3K3 b - - 0 1",
        "3bk3/8/8/8/8/8/8/3QK3 w - - 0 40",
        "7K/6R1/8/8/8/8/1b6/k7 w - - 0 70",
    };
    CanMateScratch *scratch = canmate_scratch_new();
    for (size_t i = 0; i < sizeof fens / sizeof *fens; i++) {
        Board b = testutil_board(fens[i]);
        ck_assert_msg(canmate_quick(&b, BLACK) == CANMATE_NO, "%s: quick", fens[i]);
        ck_assert_msg(canmate_analyse(&b, BLACK) == CANMATE_NO, "%s: analyse", fens[i]);
        ck_assert_msg(!testutil_mate_within(&b, BLACK, 4), "%s: brute force mates", fens[i]);
        Move line[CANMATE_LINE_MAX];
        int len;
        ck_assert_msg(canmate_search(&b, WHITE, NULL, scratch, line, &len) == CANMATE_YES,
                      "%s: white", fens[i]);
        verify_line(&b, WHITE, line, len, fens[i]);
    }
    /* With a pawn the lone bishop's side may still get a blocker (it can
     * promote to a knight): no proof from material then. */
    Board p = testutil_board("8/8/8/4k3/2b5/8/P7/R3K3 w - - 0 1");
    ck_assert_int_ne(canmate_quick(&p, BLACK), CANMATE_NO);
    canmate_scratch_free(scratch);
}
END_TEST

/* Every LABELLED_STEP-th position of the labelled set of Ambrona's Chess
 * Unwinnability Analyzer (tests/data/canmate/README.md), analysed as at a
 * flag fall: never a wrong answer, every YES line a real mate, and at least
 * LABELLED_MIN_PERCENT of the cases decided. */
enum { LABELLED_STEP = 25, LABELLED_MIN_PERCENT = 90 };

/* The mobility proof (canmate_static.c) on side-cases of the labelled
 * vector (tests/data/canmate/d3-test-vector.txt) that the frozen-wall proof
 * could not decide: pawn walls that still move, a knight that is captured
 * before it can leave its corner, kings penned in by pawns.  Bishops of
 * both colours are never proven unable to mate: they can cover each
 * other's flight squares (two such positions from the same vector). */
START_TEST(mobility_proof)
{
    static const struct {
        const char *fen;
        int winner;
    } no[] =
        {
            {"8/1k5B/7b/8/1p1p1p1p/1PpP1P1P/2P3K1/N3b3 b - - 0 1", WHITE},
            {"8/1k5B/7b/8/1p1p1p1p/1PpP1P1P/2P3K1/N3b3 b - - 0 1", BLACK},
            {"1k6/p1p1p1p1/P1P1P1P1/p1p1p1p1/8/8/P1P1P1P1/4K3 w - - 0 1", WHITE},
            {"8/4kb2/8/1p1p1p1p/1P1P1P1P/1b6/3B1K2/8 b - - 0 1", BLACK},
            {"8/b1k3b1/5b2/p1p1p1p1/P1P1P1P1/2K5/5bB1/8 w - - 0 1", WHITE},
            {"8/1p3k2/pPp3p1/P1Pp1pPp/2bP1P1P/4BK2/8/8 b - - 0 1", BLACK},
        },
      yes[] = {
          {"1k2bb2/8/8/8/3K4/8/8/8 w - - 0 1", BLACK},
          {"3k1B2/8/8/8/8/8/3KB3/8 b - - 0 1", WHITE},
      };
    for (size_t i = 0; i < sizeof no / sizeof *no; i++) {
        Board b = testutil_board(no[i].fen);
        ck_assert_msg(canmate_static_no(&b, no[i].winner), "%s: not proven", no[i].fen);
        ck_assert_int_eq(canmate_quick(&b, no[i].winner), CANMATE_NO);
    }
    CanMateScratch *scratch = canmate_scratch_new();
    for (size_t i = 0; i < sizeof yes / sizeof *yes; i++) {
        Board b = testutil_board(yes[i].fen);
        ck_assert_msg(!canmate_static_no(&b, yes[i].winner), "%s: proven", yes[i].fen);
        Move line[CANMATE_LINE_MAX];
        int len = 0;
        ck_assert_int_eq(canmate_search(&b, yes[i].winner, NULL, scratch, line, &len), CANMATE_YES);
        verify_line(&b, yes[i].winner, line, len, yes[i].fen);
    }
    canmate_scratch_free(scratch);
}
END_TEST

/* The guided search (canmate_guided.c) alone finds the long helpmates of
 * blocked positions labelled YES in the vector, with lines that replay;
 * and where every line ends quickly a round sees everything and proves NO. */
START_TEST(guided_search)
{
    static const struct {
        const char *fen;
        int winner;
    } yes[] = {
        {"6kR/4p1p1/1p2P1P1/1P2p3/1P2P3/1P2p1p1/4P1P1/5BK1 b - - 0 1", BLACK},
        {"1b1k4/p1p1p1p1/P1P1P1P1/p1p1pBp1/8/8/P1P1P1P1/3K4 w - - 0 1", BLACK},
        {"BkB5/pBp5/P1P5/4b3/8/8/8/5K2 w - - 0 1", BLACK},
    };
    enum { BITS = 16 };
    CanMateTtEntry *tt = calloc((size_t)1 << BITS, sizeof *tt);
    ck_assert_ptr_nonnull(tt);
    uint32_t gen = 0;
    for (size_t i = 0; i < sizeof yes / sizeof *yes; i++) {
        Board b = testutil_board(yes[i].fen);
        Move line[CANMATE_LINE_MAX];
        int len = 0;
        ck_assert_int_eq(canmate_guided_search(&b, yes[i].winner, 1000000, tt,
                                               ((uint32_t)1 << BITS) - 1, &gen, line, &len),
                         CANMATE_YES);
        verify_line(&b, yes[i].winner, line, len, yes[i].fen);
    }
    /* Labelled "--": the few reachable positions are all seen. */
    Board b = testutil_board("Bb1k1b2/bKp1p1p1/1pP1P1P1/1P6/p5P1/P7/8/8 w - - 0 1");
    ck_assert_int_eq(
        canmate_guided_search(&b, WHITE, 1000000, tt, ((uint32_t)1 << BITS) - 1, &gen, NULL, NULL),
        CANMATE_NO);
    free(tt);
}
END_TEST

/* The last labelled case the analysis decided: eight White bishops, all
 * on dark squares, against a Black king on a8 (Ambrona's analyzer leaves
 * it open after ten million positions).  Its mate needs Black's own light
 * bishops beside the king, on the flights no White man can ever cover: on
 * h8 (g8 and h7 filled; a3, walled by Black's own pawns, is covered for
 * good by the pawn on b2) or on c1 (d1 and c2 filled, b1 covered by White's
 * king).  The hand-made line to h8 replays, so the label is right, and the
 * analysis finds a mate of its own. */
START_TEST(bishops_of_one_colour_mate_beside_blockers)
{
    static const char fen[] = "k6B/1b4B1/2b2B2/4B3/3B4/1pB1B3/pP1B4/K7 w - - 0 1";
    static const char *const uci[] = {
        "g7h6", "b7a6", "h8g7", "a8b7", "g7f8", "b7c8", "f6g5", "c8d7", "e5f4",
        "d7e8", "d4c5", "e8f7", "c3b4", "f7g8", "d2c1", "g8h8", "c1d2", "c6e4",
        "d2c1", "e4h7", "c1d2", "a6c8", "d2c1", "c8e6", "c1d2", "e6g8", "b4c3",
    };
    enum { PLIES = sizeof uci / sizeof *uci };
    Board b = testutil_board(fen);
    Move line[PLIES];
    for (int i = 0; i < PLIES; i++) {
        line[i] = testutil_uci(&b, uci[i]);
        board_make(&b, line[i]);
    }
    testutil_assert_mates(fen, WHITE, line, PLIES);
    testutil_assert_search_mates(fen, WHITE, NULL);
}
END_TEST

START_TEST(labelled_sample)
{
    const char *dir = getenv("ARBITER_TEST_DATA");
    char path[512];
    snprintf(path, sizeof path, "%s/canmate/d3-test-vector.txt", dir ? dir : "tests/data");
    FILE *f = fopen(path, "r");
    ck_assert_msg(f != NULL, "cannot open %s", path);
    CanMateScratch *scratch = canmate_scratch_new();
    char line[512], err[160];
    Board b;
    int n = 0, total = 0, decided = 0, read;
    while ((read = testutil_labelled_next(f, line, sizeof line, &b, err, sizeof err)) != 0) {
        if (n++ % LABELLED_STEP || read < 0)
            continue; /* not sampled, or an unreachable placement refused as in play */
        for (int c = WHITE; c <= BLACK; c++) {
            CanMate want = testutil_labelled_want(line, c);
            Move mv[CANMATE_LINE_MAX];
            int len = 0;
            CanMate got = canmate_quick(&b, c);
            if (got == CANMATE_UNKNOWN) {
                got = canmate_search(&b, c, NULL, scratch, mv, &len);
                if (got == CANMATE_YES)
                    verify_line(&b, c, mv, len, line + 3);
            }
            ck_assert_msg(got == want || got == CANMATE_UNKNOWN, "%s (%s to mate): got %s",
                          line + 3, c == WHITE ? "white" : "black", canmate_name(got));
            total++;
            decided += got != CANMATE_UNKNOWN;
        }
    }
    fclose(f);
    canmate_scratch_free(scratch);
    ck_assert_int_ge(total, 100);
    ck_assert_msg(decided * 100 >= total * LABELLED_MIN_PERCENT, "decided %d of %d", decided,
                  total);
}
END_TEST

int main(void)
{
    load_cases();
    Suite *s = suite_create("canmate");
    TCase *tc = tcase_create("canmate");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, k_n_v_k);
    tcase_add_test(tc, k_b_v_k);
    tcase_add_test(tc, k_b_v_k_b_same_colour);
    tcase_add_test(tc, opposite_colour_bishops);
    tcase_add_test(tc, k_n_v_k_n);
    tcase_add_test(tc, k_nn_v_k);
    tcase_add_test(tc, k_nn_v_k_p);
    tcase_add_test(tc, k_v_k_q);
    tcase_add_test(tc, k_p_v_k);
    tcase_add_test(tc, blocked_wall_dead);
    tcase_add_test(tc, blocked_wall_king_breaks_in);
    tcase_add_test(tc, capture_first);
    tcase_add_test(tc, mate_now);
    tcase_add_test(tc, as_given_mated);
    tcase_add_test(tc, as_given_stalemate);
    tcase_add_test(tc, k_b_n_v_k);
    tcase_add_test(tc, forced_capture);
    tcase_add_test(tc, every_case);
    tcase_add_test(tc, dead_position_needs_both_sides);
    tcase_add_test(tc, bad_arguments_are_harmless);
    tcase_add_test(tc, answers_are_deterministic);
    tcase_add_test(tc, walk_carries_on);
    tcase_add_test(tc, stages_alone_agree);
    tcase_add_test(tc, queen_or_rook_never_no);
    tcase_add_test(tc, lone_bishop_against_heavy_piece);
    tcase_add_test(tc, labelled_sample);
    tcase_add_test(tc, bishops_of_one_colour_mate_beside_blockers);
    tcase_add_test(tc, mobility_proof);
    tcase_add_test(tc, guided_search);
    tcase_add_test(tc, no_answers_survive_brute_force);
    suite_add_tcase(s, tc);
    return testutil_run(s);
}
