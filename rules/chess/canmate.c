/*
 * canmate.c — can `winner` still checkmate by any series of legal moves?
 *
 * Layers, cheapest first (after M. Ambrona, FUN 2022; this code is our
 * own):
 *   1. Terminal positions and material rules (K v K, K+N v K, bishops of one
 *      colour only, a lone king, a lone bishop or bishops of one colour
 *      against a king with only heavy pieces, a lone knight against queens
 *      ...): answered without moving anything.
 *   2. A semi-static proof for frozen pawn structures (canmate_static.c,
 *      canmate_static_frozen_no): if every
 *      pawn is blocked head-on and, over-approximating where each piece can
 *      ever go, no pawn can ever capture or be captured, the structure never
 *      changes; then the winner cannot mate when none of his pieces can ever
 *      attack a square the loser's king can reach, or when his only pieces
 *      are bishops of one colour and every square they could check on keeps
 *      an escape of the other colour that nothing can ever cover.
 *   2b. The mobility proof (canmate_static.c): where every man can ever
 *      stand, for structures that still move a little; on the root, on
 *      every position one move away (children_no) and in the walk.
 *   3. A helpmate search (helpmate): iterative deepening, both sides
 *      cooperating, moves ordered to take flight squares from the loser's
 *      king (checks and promotions first, the loser's king to a corner), with
 *      a transposition table of positions already failed at a depth: the
 *      short mates.
 *   3b. A greedy best-first search (canmate_walk.c) on a "distance from
 *      mate" score for the long cooperative walks of minor-piece endings.
 *   3c. The guided deep search (canmate_guided.c): depth-first, with no
 *      depth spent on moves towards a pictured corner mate; it finds the
 *      long helpmates of blocked positions and can also prove NO.
 *   4. An exhaustive breadth-first walk of every reachable position
 *      (canmate_walk.c) for the small spaces left by blocked positions: if no reachable
 *      position is mate, the answer is NO; positions proven dead by layers 1
 *      and 2 are not expanded.
 *   5. The plan stage (canmate_plan.c), for YES only: the mate squares
 *      against a wall, and tempo plans where only kings and pawns move;
 *      its tempo search also takes turns in the schedule, one of them with
 *      the loser's king's steps to the edge free, one where pieces move.
 *   5b. Pictured mates with blockers (canmate_plan.c), for YES only:
 *      where the winner can never cover some squares (his only pieces
 *      bishops of one colour, his pawns and king fixed), the loser's king
 *      is mated only where its own men fill those flights; the greedy
 *      search (canmate_walk.c) is steered by the count of moves such a
 *      picture still needs.
 *   6. The milestone search (canmate_capture.c), for YES only: plans
 *      whose steps are captures (a king walled in by its own men is freed
 *      by their capture), walked layer by layer between irreversible
 *      moves; it gives up at once where the layers are large.
 * After the short mates, layers 3b-6 run as a portfolio of growing
 * budgets (the menu and its orders, before canmate_search), so a position
 * costs a small multiple of its cheapest successful search; the largest
 * turns of layers 5 and 6 and the guided search from each position one
 * move away come last.
 *
 * Soundness: NO comes only from layers 1, 2, 2b, a completed round of 3c and
 * a completed layer 4, each a
 * proof; YES always comes with a line of legal moves that mates.  Budgets
 * are counted in positions, never in time, so answers are reproducible.
 * Zobrist keys identify positions in the tables; a 64-bit collision could in
 * principle prune a position wrongly, with probability around 1e-10 per call.
 */
#include "canmate.h"
#include "canmate_capture.h"
#include "canmate_guided.h"
#include "canmate_plan.h"
#include "canmate_static.h"
#include "canmate_walk.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------------- */
/* Scratch memory                                                           */

/* The helpmate searches' table: a position failed from with `depth` plies. */
typedef CanMateTtEntry TtEntry;

enum { TT_BITS = 18, TT_SIZE = 1 << TT_BITS };

struct CanMateScratch {
    uint32_t gen; /* entries of older calls are ignored, so no clearing */
    TtEntry *tt;  /* tt_size entries, allocated on first need */
    size_t tt_size;
    CanMateWalks *walks;     /* the walks' memory (canmate_walk.c), on first need */
    CanMateCapture *capture; /* the milestone search's, on first need */
};

CanMateScratch *canmate_scratch_new(void)
{
    /* Tables are allocated on first need, sized to the budgets used. */
    return calloc(1, sizeof(CanMateScratch));
}

void canmate_scratch_free(CanMateScratch *s)
{
    if (!s)
        return;
    free(s->tt);
    canmate_walks_free(s->walks);
    canmate_capture_free(s->capture);
    free(s);
}

const char *canmate_name(CanMate r)
{
    switch (r) {
    case CANMATE_YES: return "yes";
    case CANMATE_NO: return "no";
    default: return "unknown";
    }
}

/* ---------------------------------------------------------------------- */
/* Bitboard helpers                                                         */

static int distance(int a, int b)
{
    int df = abs(SQ_FILE(a) - SQ_FILE(b)), dr = abs(SQ_RANK(a) - SQ_RANK(b));
    return (df > dr ? df : dr) * 2 + df + dr;
}

/* ---------------------------------------------------------------------- */
/* Layer 1: terminal positions and material                                */

/* The answer for positions where the game is already over, else UNKNOWN. */
static CanMate terminal(const Board *b, int winner, int nmoves)
{
    if (nmoves > 0)
        return CANMATE_UNKNOWN;
    if (board_in_check(b) && b->side != winner)
        return CANMATE_YES; /* the loser is mated already */
    return CANMATE_NO;      /* stalemate, or the winner is the one mated */
}

/* ---------------------------------------------------------------------- */
/* Layer 3: the helpmate search                                             */

typedef struct Search {
    int winner;
    bool aborted;
    uint64_t nodes, max_nodes;
    TtEntry *tt; /* NULL: no table (the quick test) */
    uint32_t tt_mask, gen;
    int line_len;
    Move line[CANMATE_LINE_MAX];
    uint64_t path[CANMATE_LINE_MAX + 1]; /* keys of the positions on the line */
} Search;

/*
 * The ordering heuristic: a mate is a check with no flight square left, so
 * prefer the moves that take flights away from the loser's king.  The
 * winner: checks, promotions (queen first, then knight for smothered
 * mates), pieces that come to cover squares around the loser's king, or at
 * least approach it.  The loser: keep the winner's material (no captures,
 * no checks), walk the king to a corner where it has few flights, and bring
 * the other men next to it to block them.
 */
static void order_moves(const Board *b, MoveList *list, int winner)
{
    int loser = winner ^ 1;
    int wk = board_king(b, winner), lk = board_king(b, loser);
    Bitboard occ = board_occupied(b);
    Bitboard zone = bb_king_attacks[lk] | BB(lk);
    Bitboard watt = 0;
    if (b->side == loser)
        watt = board_attacks(b, winner, occ & ~BB(lk));
    int scores[MOVES_MAX];
    for (int i = 0; i < list->count; i++) {
        Move m = list->moves[i];
        int from = move_from(m), to = move_to(m);
        int type = piece_type(b->squares[from]);
        bool capture = b->squares[to] != PIECE_NONE || move_kind(m) == MOVE_EN_PASSANT;
        Bitboard occ2 = (occ & ~BB(from)) | BB(to);
        int s = 0;
        if (b->side == winner) {
            if (movegen_gives_check(b, m, lk))
                s += 200;
            int newtype = type;
            if (move_kind(m) == MOVE_PROMOTION) {
                static const int promo[PIECE_TYPE_NB] = {0, 60, 30, 50, 90, 0};
                s += promo[move_promotion(m)];
                newtype = move_promotion(m);
            }
            if (type == PAWN) {
                s += 4 * (distance(from, lk) - distance(to, lk));
                if (newtype != PAWN)
                    s += 10 * bb_popcount(board_piece_attacks(newtype, to, occ2) & zone);
            } else {
                s += 10 * (bb_popcount(board_piece_attacks(type, to, occ2) & zone) -
                           bb_popcount(board_piece_attacks(type, from, occ) & zone));
                s += (type == KING ? 2 : 3) * (distance(from, lk) - distance(to, lk));
            }
            if (capture)
                s -= 5; /* the loser's men are the blockers a mate needs */
        } else {
            if (capture)
                s -= 1000;
            if (movegen_gives_check(b, m, wk))
                s -= 300;
            if (type == KING) {
                Bitboard own = (b->by_color[loser] & ~BB(from)) | BB(to);
                int flights = bb_popcount(bb_king_attacks[to] & ~own & ~watt);
                int before = bb_popcount(bb_king_attacks[from] & ~b->by_color[loser] & ~watt);
                s += 10 * (before - flights);
                s += 3 * (bb_corner_distance(from) - bb_corner_distance(to));
            } else {
                s += 10 * (((zone & BB(to)) != 0) - ((zone & BB(from)) != 0));
                s += distance(from, lk) - distance(to, lk);
            }
            if (move_kind(m) == MOVE_PROMOTION)
                s += move_promotion(m) == QUEEN ? 5 : 3;
        }
        scores[i] = s;
    }
    /* Insertion sort, stable so equal scores keep generation order. */
    for (int i = 1; i < list->count; i++) {
        int sc = scores[i];
        Move m = list->moves[i];
        int j = i - 1;
        while (j >= 0 && scores[j] < sc) {
            scores[j + 1] = scores[j];
            list->moves[j + 1] = list->moves[j];
            j--;
        }
        scores[j + 1] = sc;
        list->moves[j + 1] = m;
    }
}

static TtEntry *tt_slot(Search *s, uint64_t key)
{
    return &s->tt[key & s->tt_mask];
}

/* Is there a helpmate from b within `plies` plies?  Mates end on the
 * winner's move, so plies is odd exactly when the winner is to move.  "Within"
 * (not "exactly") makes a failure at depth d valid for every smaller depth,
 * which is what the transposition table relies on. */
static bool helpmate(Search *s, const Board *b, int plies, int ply)
{
    if (++s->nodes > s->max_nodes) {
        s->aborted = true;
        return false;
    }
    MoveList list;
    if (b->side == s->winner && plies < 3) {
        /* The last ply: only a mate in one counts, and that is one of
         * the moves that may give check. */
        movegen_checking_candidates(b, &list);
        Move m = movegen_mating_move(b, &list);
        if (m != MOVE_NONE) {
            s->line[ply] = m;
            s->line_len = ply + 1;
            return true;
        }
        return false;
    }
    movegen_legal_moves(b, &list);
    if (list.count == 0)
        return false;
    if (b->side == s->winner) {
        Move m = movegen_mating_move(b, &list);
        if (m != MOVE_NONE) {
            s->line[ply] = m;
            s->line_len = ply + 1;
            return true;
        }
        if (plies < 3)
            return false;
    }
    if (canmate_static_material_no(b, s->winner))
        return false;
    /* A position already on the line: the cycle cannot help. */
    s->path[ply] = b->key;
    for (int i = ply - 2; i >= 0; i -= 2)
        if (s->path[i] == b->key)
            return false;
    TtEntry *e = NULL;
    if (s->tt) {
        e = tt_slot(s, b->key);
        if (e->gen == s->gen && e->key == b->key && e->depth >= plies)
            return false;
    }
    order_moves(b, &list, s->winner);
    for (int i = 0; i < list.count; i++) {
        Board child = *b;
        board_make(&child, list.moves[i]);
        s->line[ply] = list.moves[i];
        if (helpmate(s, &child, plies - 1, ply + 1))
            return true;
        if (s->aborted)
            return false;
    }
    if (e && (e->gen != s->gen || e->depth <= plies)) {
        e->key = b->key;
        e->gen = s->gen;
        e->depth = plies;
    }
    return false;
}

enum { SHORT_PLIES = 5 };

/* Helpmates of growing length, the short mates of middlegames first.  YES
 * with the line in s, or UNKNOWN. */
static CanMate helpmate_deepen(Search *s, const Board *b, int max_depth)
{
    for (int d = b->side == s->winner ? 1 : 2; d <= max_depth; d += 2) {
        if (helpmate(s, b, d, 0))
            return CANMATE_YES;
        if (s->aborted)
            break;
    }
    return CANMATE_UNKNOWN;
}

/* ---------------------------------------------------------------------- */
/* The entry points                                                         */

/* Whether the exhaustive walk has a chance to complete: at most
 * DEAD_PIECES pieces besides kings and pawns, none of them a rook or
 * queen, and kings penned in by pawns (the product of the areas they can
 * ever reach is small).  Elsewhere the reachable positions are far too many. */
enum { DEAD_PIECES = 2, DEAD_KING_AREAS = 800, DEAD_EXHAUST = 4000 };
/* The guided search from each position one move away: that many
 * times the budget per search, and in all. */
enum { FIRST_MOVE_PER_NODE = 2, FIRST_MOVES_PER_NODE = 50 };
/* The dead-position check tries the small walk elsewhere only when the side
 * to move has at most this many moves. */
enum { FORCED_MOVES = 3, FORCED_DEAD_EXHAUST = 64 };

/* The guided search (canmate_guided.c) with the scratch's table. */
static CanMate guided(CanMateScratch *sc, const Board *b, int winner, int corner, uint64_t max,
                      Move *line, int *line_len)
{
    return canmate_guided_search_at(b, winner, corner, max, sc->tt, (uint32_t)(sc->tt_size - 1),
                                    &sc->gen, line, line_len);
}

/*
 * The guided search again from each position one move away, every corner
 * in turn (the chosen one first, then the winner's own back rank): where
 * a first move settles the structure, a search that starts after it
 * goes its own way.  Each search gets FIRST_MOVE_PER_NODE times `unit`
 * positions, all of them FIRST_MOVES_PER_NODE times it.  YES with the
 * line (the first move, then the child's line), else UNKNOWN.
 */
static CanMate first_moves(CanMateScratch *sc, const Board *b, int winner, uint64_t unit,
                           Move *line, int *line_len)
{
    static const int corners[5] = {SQ_NONE, SQ(0, 0), SQ(7, 0), SQ(0, 7), SQ(7, 7)};
    MoveList list;
    movegen_legal_moves(b, &list);
    uint64_t left = unit * FIRST_MOVES_PER_NODE, each = unit * FIRST_MOVE_PER_NODE;
    Move sub[CANMATE_LINE_MAX];
    for (int k = 0; k < 5; k++) {
        int corner = corners[k] == SQ_NONE ? SQ_NONE : corners[k] ^ (winner == BLACK ? 56 : 0);
        for (int i = 0; i < list.count; i++) {
            if (left < each)
                return CANMATE_UNKNOWN;
            left -= each;
            Board child = *b;
            board_make(&child, list.moves[i]);
            int len = 0;
            if (guided(sc, &child, winner, corner, each, sub, &len) != CANMATE_YES ||
                len >= CANMATE_LINE_MAX)
                continue;
            if (line) {
                line[0] = list.moves[i];
                memcpy(line + 1, sub, (size_t)len * sizeof *line);
            }
            if (line_len)
                *line_len = len + 1;
            return CANMATE_YES;
        }
    }
    return CANMATE_UNKNOWN;
}

static bool few_reachable(const Board *b)
{
    Bitboard pieces = board_occupied(b) & ~b->by_type[PAWN] & ~b->by_type[KING];
    if (bb_popcount(pieces) > DEAD_PIECES || (pieces & (b->by_type[ROOK] | b->by_type[QUEEN])))
        return false;
    Bitboard pawns = b->by_type[PAWN];
    int area = 1;
    for (int c = WHITE; c <= BLACK; c++) {
        Bitboard enemy_att = bb_pawns_attacks(board_pieces(b, c ^ 1, PAWN), c ^ 1);
        area *= bb_popcount(canmate_static_region(KING, board_king(b, c), pawns, enemy_att));
    }
    return area <= DEAD_KING_AREAS;
}

/* Layers 1, 2 and 2b: an answer without search, or UNKNOWN.  The cheap
 * callers (`always` false: the quick test, the every-move check) run the
 * mobility proof only where a pawn stands blocked head-on, the positions
 * where it usually succeeds; elsewhere it would mostly spend its rounds. */
static CanMate static_answer(const Board *b, int winner, bool always)
{
    CanMate t = terminal(b, winner, movegen_count_legal(b));
    if (t != CANMATE_UNKNOWN)
        return t;
    if (canmate_static_material_no(b, winner) || canmate_static_frozen_no(b, winner))
        return CANMATE_NO;
    bool locked = (board_pieces(b, WHITE, PAWN) << 8) & board_pieces(b, BLACK, PAWN);
    if ((always || locked) && canmate_static_no(b, winner))
        return CANMATE_NO;
    return CANMATE_UNKNOWN;
}

/* NO when every move from b leads to a position the static layers prove
 * dead for the winner: the proofs often fail only because of a man that
 * must move next (a king in check, a piece that is about to be taken). */
static bool children_no(const Board *b, int winner)
{
    MoveList list;
    movegen_legal_moves(b, &list);
    for (int i = 0; i < list.count; i++) {
        Board child = *b;
        board_make(&child, list.moves[i]);
        if (static_answer(&child, winner, true) != CANMATE_NO)
            return false;
    }
    return list.count > 0;
}

/* The quick test's search: short helpmates within a few hundred positions. */
enum { QUICK_NODES = 40, QUICK_DEPTH = 7 };

CanMate canmate_quick(const Board *b, int winner)
{
    if (winner != WHITE && winner != BLACK)
        return CANMATE_UNKNOWN;
    CanMate r = static_answer(b, winner, false);
    if (r != CANMATE_UNKNOWN)
        return r;
    Search s;
    s.winner = winner;
    s.aborted = false;
    s.nodes = 0;
    s.max_nodes = QUICK_NODES;
    s.tt = NULL;
    s.tt_mask = 0;
    s.gen = 0;
    s.line_len = 0;
    return helpmate_deepen(&s, b, QUICK_DEPTH);
}

/* The transposition table, allocated on first need.  Its size is fixed
 * rather than fitted to small budgets: callers that allocate a scratch per
 * call would otherwise see the allocator hand the memory back to the system
 * after each call and fault it in again, which costs more than the table. */
static bool tt_reserve(CanMateScratch *sc)
{
    if (sc->tt)
        return true;
    sc->tt = calloc(TT_SIZE, sizeof *sc->tt);
    sc->tt_size = TT_SIZE;
    return sc->tt != NULL;
}

/*
 * The searches after the short mates, as a portfolio of growing budgets:
 * each kind of search first runs small, and runs again with a budget some
 * four to eight times larger only after other kinds have had their turn
 * at a similar cost.  A case then costs a small multiple of its cheapest
 * successful search instead of the sum of every search that fails before
 * it.  A stage starts afresh, except the exhaustive walk, which carries on
 * where its previous stage stopped.  Budgets are per mille of a unit:
 * max_nodes for the guided and tempo searches, max_exhaust for the walk and
 * the best-first search.
 *
 * Every position runs all the stages of the menu, so what can be decided
 * does not depend on the order; the order only sets the cost.  Which
 * search pays depends on the kind of position, so there are eight
 * orders, chosen by cheap facts: whether the winner has a piece besides
 * king and pawns, and whether at least three pawns stand blocked head-on
 * (a wall); where the winner has neither, whether the loser has a piece
 * and, if not, whether eight pawns or more stand; where the winner has
 * pieces, whether four pieces or more stand (no wall) or whether he has
 * a knight (a wall).  Each order was found by measuring every stage alone
 * on every labelled case that reaches the schedule
 * (tests/bench/bench_canmate_stages.c) and moving stages while the summed
 * cost fell.  Tuned on half of the positions and measured on the other
 * half, the first four orders (by the first two facts) cost 0.76 and
 * 0.85 of the single order before them, so they are not just fitted to
 * the cases they were tuned on.  The plan stage, built for kings walled
 * in, has a small early turn where the winner has pieces and a wall stands
 * (tuned and checked the same way: 0.81 and 0.77 of that order's cost).
 * Where the winner has pieces, the one labelled case the largest plan
 * turn settled was a tempo plan found by its tempo third, after the
 * pictured squares; a turn of the tempo search alone where pieces move,
 * at a third of the cost, replaces it there (orders may leave turns out).
 * With many pawns, a tempo turn whose losing king walks to the edge for
 * free comes before the largest plan turn (some 40 us a case).
 * Against king and pawns alone, the tempo plans are the rule; against a
 * piece (often locked in, the plan to give up a promoted one), the short
 * walk comes before the tempo search: some 15 ms less on most of those
 * cases, some 5 ms more on a few, 0.89 of that kind's cost on each half
 * of the positions.  The last three splits were kept because orders
 * tuned on half of the positions of their kind, in six different
 * halvings, always cost less than the order before on the other half:
 * with many pawns, a long tempo search early (some 20 us a case of the
 * whole vector); with a knight behind a wall, the larger guided turns
 * first (some 10 us); with many pieces, the largest guided turn second
 * (some 10 us).  Other splits (who moves, heavy pieces, bishops of one
 * colour, the loser's pieces where the winner has some) failed that
 * test.
 * The menu holds only turns that pay: seven turns (guided searches at the
 * corners, the larger best-first ones) settled no labelled case that a
 * later turn does not settle as well; they cost some 0.07 ms a case and
 * were dropped, with no answer changed.  Where the winner has pieces and
 * no wall stands, the largest guided turn comes before the capture and
 * first-moves turns (some 10 and 20 ms where they fail): on the labelled
 * cases of that kind, what they settle the turns before them settle
 * already, and the guided turn settles five cases some 30 ms sooner.
 * With a wall they come first, as cheap turns should wherever the later
 * ones are rarely the ones that succeed; the walk's middle turn comes
 * after them there, just before its largest turn (some 25 us a case: it
 * settled nothing they do not).  Where the winner has pieces and no wall
 * stands, a larger best-first turn towards a8 comes before the largest
 * guided turn: it finds the long walks where the loser's king goes to
 * take what pens the winner's king in (24,000 positions, some 15 ms),
 * which no other turn settles within its budget.
 * The pictured mates with blockers come fifth in every order: where the
 * winner can cover every square they give up at once, and where he
 * cannot they settle the bishops-of-one-colour cases sooner than the
 * turns after them (one turn of 4,000 positions; tried at each place of
 * the orders on random halves of the positions, the fifth place cost less
 * than the end on the other half in five halvings of five).  They settle
 * the one labelled case no other turn does: eight bishops of one colour
 * against a king whose mate needs its own bishops beside it.
 */
typedef enum StageKind {
    STAGE_GUIDED,
    STAGE_EXHAUST,
    STAGE_BESTFIRST,
    STAGE_TEMPO,
    STAGE_EDGE,
    STAGE_TEMPO_PIECES,
    STAGE_FIRST_MOVES,
    STAGE_PLAN,
    STAGE_CAPTURE,
    STAGE_PICTURE,
} StageKind;

typedef struct Stage {
    uint8_t kind;   /* StageKind */
    int8_t corner;  /* 0..3: the corner of CORNERS, -1: chosen by the search */
    uint32_t share; /* the budget, per mille of the kind's unit */
} Stage;

/* a1, h1, a8, h8; for the guided search seen from White (mirrored when
 * Black mates), where the first two are the winner's own back rank. */
static const int CORNERS[4] = {SQ(0, 0), SQ(7, 0), SQ(0, 7), SQ(7, 7)};

enum { MENU_SIZE = 26 };

static const Stage menu[MENU_SIZE] = {
    {STAGE_GUIDED, 2, 250},        {STAGE_BESTFIRST, -1, 5},  {STAGE_EXHAUST, -1, 10},
    {STAGE_GUIDED, -1, 1000},      {STAGE_BESTFIRST, 3, 10},  {STAGE_GUIDED, 0, 2000},
    {STAGE_EXHAUST, -1, 80},       {STAGE_BESTFIRST, 3, 50},  {STAGE_GUIDED, -1, 4000},
    {STAGE_TEMPO, -1, 5000},       {STAGE_BESTFIRST, 2, 80},  {STAGE_GUIDED, -1, 16000},
    {STAGE_TEMPO, -1, 30000},      {STAGE_EXHAUST, -1, 640},  {STAGE_GUIDED, 1, 20000},
    {STAGE_EXHAUST, -1, 1000},     {STAGE_TEMPO, -1, 150000}, {STAGE_GUIDED, -1, 200000},
    {STAGE_FIRST_MOVES, -1, 1000}, {STAGE_PLAN, -1, 200000},  {STAGE_PLAN, -1, 10000},
    {STAGE_CAPTURE, -1, 100000},   {STAGE_EDGE, -1, 150000},  {STAGE_TEMPO_PIECES, -1, 70000},
    {STAGE_BESTFIRST, 2, 240},     {STAGE_PICTURE, -1, 40},
};

enum { SCHEDULES = 8, END = 0xff };

/* The orders of the menu, by schedule_of(); each holds an index at most
 * once (asserted in canmate_search) and ends at END or at MENU_SIZE, and
 * in each the walk's stages grow, so each carries on from the one before.
 * Where pieces move, the largest plan turn is left out: its tempo search
 * alone (the tempo turn with pieces) settles at a third of the cost what
 * it settles there. */
static const uint8_t schedules[SCHEDULES][MENU_SIZE] = {
    /* only king and pawns, no wall, the loser has only king and pawns */
    {1, 2, 5, 12, 25, 6, 3, 13, 16, 15, 11, 9, 4, 10, 7, 14, 0, 17, 8, 21, 18, 20, 19, 22, END},
    /* only king and pawns, a wall */
    {0, 4, 2, 8, 25, 6, 14, 1, 5, 11, 10, 7, 12, 9, 13, 3, 15, 16, 17, 21, 18, 20, 19, 22, END},
    /* pieces, no wall */
    {1, 2, 9, 11, 25, 6, 10, 5, 13, 12, 7, 24, 17, 21, 18, 14, 3, 15, 4, 16, 8, 0, 20, 23, 22, END},
    /* pieces and a wall */
    {1, 2, 3, 5, 25, 10, 20, 9, 14, 6, 4, 11, 7, 21, 18, 17, 13, 15, 16, 8, 0, 12, 23, 22, END},
    /* only king and pawns, no wall, the loser has a piece */
    {1, 2, 5, 6, 25, 12, 3, 13, 16, 15, 11, 9, 4, 10, 7, 14, 0, 17, 8, 21, 18, 20, 19, 22, END},
    /* only king and pawns, no wall, kings and eight pawns or more alone */
    {1, 2, 12, 6, 25, 22, 19, 5, 3, 13, 16, 15, 11, 9, 4, 10, 7, 14, 0, 17, 8, 21, 18, 20, END},
    /* pieces with a knight, and a wall */
    {1, 2, 5, 10, 25, 20, 9, 6, 11, 13, 4, 3, 14, 7, 21, 18, 17, 15, 16, 8, 0, 12, 23, 22, END},
    /* pieces, four or more on the board, no wall */
    {1, 17, 2, 9, 25, 11, 6, 10, 5, 13, 12, 7, 21, 18, 14, 3, 15, 4, 16, 8, 0, 20, 23, 22, END},
};

/* The length of order k of schedules[]. */
static int schedule_length(int k)
{
    int n = 0;
    while (n < MENU_SIZE && schedules[k][n] != END)
        n++;
    return n;
}

#ifndef NDEBUG /* used by assert() alone */
/* Whether every order holds stages of the menu, each at most once. */
static bool schedules_complete(void)
{
    for (int k = 0; k < SCHEDULES; k++) {
        uint32_t seen = 0;
        for (int i = 0, n = schedule_length(k); i < n; i++) {
            uint32_t bit = UINT32_C(1) << schedules[k][i];
            if (schedules[k][i] >= MENU_SIZE || (seen & bit))
                return false;
            seen |= bit;
        }
    }
    return true;
}
#endif

/* Which order of schedules[] suits b for `winner`. */
static int schedule_of(const Board *b, int winner)
{
    Bitboard men = ~(b->by_type[PAWN] | b->by_type[KING]);
    Bitboard pieces = b->by_color[winner] & men;
    Bitboard blocked =
        (b->by_color[WHITE] & b->by_type[PAWN]) << 8 & b->by_color[BLACK] & b->by_type[PAWN];
    int k = (pieces ? 2 : 0) + (bb_popcount(blocked) >= 3 ? 1 : 0);
    if (k == 0 && (b->by_color[winner ^ 1] & men))
        return 4;
    if (k == 0 && bb_popcount(b->by_type[PAWN]) >= 8)
        return 5;
    if (k == 3 && (pieces & b->by_type[KNIGHT]))
        return 6;
    if (k == 2 && bb_popcount(board_occupied(b) & men) >= 4)
        return 7;
    return k;
}

/* One stage of the schedule; YES with the line, NO, or UNKNOWN. */
static CanMate run_stage(CanMateScratch *sc, const Stage *st, const Board *b, int winner,
                         const CanMateLimits *l, Move *line, int *line_len)
{
    uint64_t unit =
        st->kind == STAGE_EXHAUST || st->kind == STAGE_BESTFIRST || st->kind == STAGE_PICTURE
            ? l->max_exhaust
            : l->max_nodes;
    uint64_t max = unit * st->share / 1000;
    if (max < 1)
        max = 1;
    int corner = st->corner < 0 ? SQ_NONE : CORNERS[st->corner];
    switch (st->kind) {
    case STAGE_GUIDED:
        if (corner != SQ_NONE && winner == BLACK)
            corner ^= 56;
        return guided(sc, b, winner, corner, max, line, line_len);
    case STAGE_EXHAUST:
        return canmate_walk_exhaust(&sc->walks, b, winner, (size_t)max, line, line_len);
    case STAGE_TEMPO:
        return canmate_plan_tempo_search(b, winner, max, sc->tt, (uint32_t)(sc->tt_size - 1),
                                         &sc->gen, line, line_len);
    case STAGE_TEMPO_PIECES:
        return canmate_plan_pieces_tempo_search(b, winner, max, sc->tt, (uint32_t)(sc->tt_size - 1),
                                                &sc->gen, line, line_len);
    case STAGE_EDGE:
        return canmate_plan_edge_search(b, winner, max, sc->tt, (uint32_t)(sc->tt_size - 1),
                                        &sc->gen, line, line_len);
    case STAGE_FIRST_MOVES: return first_moves(sc, b, winner, max, line, line_len);
    case STAGE_PLAN:
        return canmate_plan_search(b, winner, max, sc->tt, (uint32_t)(sc->tt_size - 1), &sc->gen,
                                   line, line_len);
    case STAGE_CAPTURE: return canmate_capture_search(b, winner, max, &sc->capture, line, line_len);
    case STAGE_PICTURE:
        return canmate_plan_picture_search(b, winner, max, &sc->walks, line, line_len);
    default:
        return canmate_walk_bestfirst(&sc->walks, b, winner, corner, (size_t)max, line, line_len);
    }
}

/* The limits of lim with the defaults filled in and capped. */
static CanMateLimits limits_of(const CanMateLimits *lim)
{
    CanMateLimits l = {CANMATE_DEFAULT_NODES, CANMATE_DEFAULT_DEPTH, CANMATE_DEFAULT_EXHAUST};
    if (lim) {
        if (lim->max_nodes)
            l.max_nodes = lim->max_nodes;
        if (lim->max_depth)
            l.max_depth = lim->max_depth;
        if (lim->max_exhaust)
            l.max_exhaust = lim->max_exhaust;
    }
    if (l.max_depth > CANMATE_LINE_MAX)
        l.max_depth = CANMATE_LINE_MAX;
    if (l.max_exhaust > CANMATE_EXHAUST_MAX)
        l.max_exhaust = CANMATE_EXHAUST_MAX; /* the walks index positions in 32 bits */
    return l;
}

/* What canmate_search() settles after the static layers and before its
 * schedule: the positions one move away, the short mates.  *ok is false
 * when memory ran out (the answer is then UNKNOWN). */
static CanMate prelude(const Board *b, int winner, const CanMateLimits *l, CanMateScratch *scratch,
                       Move *line, int *line_len, bool *ok)
{
    *ok = true;
    if (children_no(b, winner))
        return CANMATE_NO;
    scratch->gen++;
    if (scratch->gen == 0)
        scratch->gen = 1; /* 0 marks a never-used entry */
    Search *s = malloc(sizeof *s);
    if (!s || !tt_reserve(scratch)) {
        free(s);
        *ok = false;
        return CANMATE_UNKNOWN;
    }
    s->winner = winner;
    s->aborted = false;
    s->nodes = 0;
    s->max_nodes = l->max_nodes / 8;
    s->tt = scratch->tt;
    s->tt_mask = (uint32_t)(scratch->tt_size - 1);
    s->gen = scratch->gen;
    s->line_len = 0;
    /* Short mates first: cheap, and the usual case with heavy pieces. */
    CanMate r = helpmate_deepen(s, b, l->max_depth < SHORT_PLIES ? l->max_depth : SHORT_PLIES);
    if (r == CANMATE_YES) {
        if (line)
            memcpy(line, s->line, (size_t)s->line_len * sizeof *line);
        if (line_len)
            *line_len = s->line_len;
    }
    free(s);
    return r;
}

CanMate canmate_search(const Board *b, int winner, const CanMateLimits *lim,
                       CanMateScratch *scratch, Move *line, int *line_len)
{
    if (line_len)
        *line_len = 0;
    if (winner != WHITE && winner != BLACK)
        return CANMATE_UNKNOWN;
    CanMate r = static_answer(b, winner, true);
    if (r != CANMATE_UNKNOWN)
        return r; /* YES here means b is mate already: the empty line */
    CanMateLimits l = limits_of(lim);
    CanMateScratch *own = NULL;
    if (!scratch) {
        own = canmate_scratch_new();
        if (!own)
            return CANMATE_UNKNOWN;
        scratch = own;
    }
    bool ok;
    r = prelude(b, winner, &l, scratch, line, line_len, &ok);
    if (ok && r == CANMATE_UNKNOWN) {
        assert(schedules_complete());
        int k = schedule_of(b, winner), n = schedule_length(k);
        const uint8_t *order = schedules[k];
        for (int i = 0; i < n && r == CANMATE_UNKNOWN; i++)
            r = run_stage(scratch, &menu[order[i]], b, winner, &l, line, line_len);
    }
    canmate_scratch_free(own);
    return r;
}

/* ---------------------------------------------------------------------- */
/* The schedule, stage by stage, for measuring it                           */

int canmate_stage_count(void)
{
    return MENU_SIZE;
}

void canmate_stage_info(int stage, CanMateStage *out)
{
    static const char *const kinds[] = {
        [STAGE_GUIDED] = "guided",           [STAGE_EXHAUST] = "walk",
        [STAGE_BESTFIRST] = "best-first",    [STAGE_TEMPO] = "tempo",
        [STAGE_EDGE] = "tempo-edge",         [STAGE_TEMPO_PIECES] = "tempo-pieces",
        [STAGE_FIRST_MOVES] = "first-moves", [STAGE_PLAN] = "plan",
        [STAGE_CAPTURE] = "capture",         [STAGE_PICTURE] = "picture",
    };
    if (stage < 0 || stage >= MENU_SIZE) {
        *out = (CanMateStage){"none", -1, 0, false};
        return;
    }
    const Stage *st = &menu[stage];
    out->kind = kinds[st->kind];
    out->corner = st->corner;
    out->share = st->share;
    out->resumes = st->kind == STAGE_EXHAUST;
}

int canmate_stage_order(const Board *b, int winner, int *order)
{
    int k = schedule_of(b, winner), n = schedule_length(k);
    for (int i = 0; i < n; i++)
        order[i] = schedules[k][i];
    return n;
}

CanMate canmate_search_prelude(const Board *b, int winner, CanMateScratch *scratch)
{
    if ((winner != WHITE && winner != BLACK) || !scratch)
        return CANMATE_UNKNOWN;
    CanMate r = static_answer(b, winner, true);
    if (r != CANMATE_UNKNOWN)
        return r;
    CanMateLimits l = limits_of(NULL);
    bool ok;
    return prelude(b, winner, &l, scratch, NULL, NULL, &ok);
}

CanMate canmate_stage_run(const Board *b, int winner, int stage, CanMateScratch *scratch)
{
    if ((winner != WHITE && winner != BLACK) || stage < 0 || stage >= MENU_SIZE || !scratch ||
        !tt_reserve(scratch))
        return CANMATE_UNKNOWN;
    CanMateLimits l = limits_of(NULL);
    canmate_walk_forget(scratch->walks); /* alone: a walk starts from the root */
    return run_stage(scratch, &menu[stage], b, winner, &l, NULL, NULL);
}

CanMate canmate_analyse(const Board *b, int winner)
{
    CanMate r = canmate_quick(b, winner);
    if (r != CANMATE_UNKNOWN)
        return r;
    return canmate_search(b, winner, NULL, NULL, NULL, NULL);
}

/*
 * After every move, so it must stay cheap: no helpmate search at all (a
 * YES only says "not dead", which is also what an undecided answer says).
 * A NO comes from the static layers, or from a small exhaustive walk where
 * one can complete (few_reachable).
 */
bool canmate_is_dead(const Board *b)
{
    CanMate st[2];
    for (int c = WHITE; c <= BLACK; c++) {
        st[c] = static_answer(b, c, false);
        if (st[c] == CANMATE_YES)
            return false;
    }
    if (st[WHITE] == CANMATE_NO && st[BLACK] == CANMATE_NO)
        return true;
    size_t budget = DEAD_EXHAUST;
    if (!few_reachable(b)) {
        if (movegen_count_legal(b) > FORCED_MOVES)
            return false;
        budget = FORCED_DEAD_EXHAUST;
    }
    /* Only the walk's memory is needed: no transposition table. */
    CanMateWalks *walks = NULL;
    bool dead = true;
    for (int c = WHITE; c <= BLACK && dead; c++)
        if (st[c] == CANMATE_UNKNOWN &&
            canmate_walk_exhaust(&walks, b, c, budget, NULL, NULL) != CANMATE_NO)
            dead = false;
    canmate_walks_free(walks);
    return dead;
}
