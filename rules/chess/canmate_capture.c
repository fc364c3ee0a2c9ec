/*
 * canmate_capture.c — the milestone search: mates that need men captured
 * first.
 *
 * Some blocked positions are mated only after a long cooperative plan
 * whose steps are captures: a king walled in by its own rook, bishop and
 * pawns is freed when the other side's bishop walks round the pawn chains
 * to take the rook and its king takes the bishop; only then can the walled
 * king walk out to be mated, or its men walk out to mate.  Each step is a
 * walk of some dozens of plies, so the depth-first searches (which spend
 * their depth on those walks) and the exhaustive walk (millions of
 * positions) do not reach the mate.  But between two irreversible moves
 * (captures, pawn moves, castling) the play stays inside one "layer" of
 * positions with the same men and pawn structure, and the layers of such
 * positions are small: some tens of thousands of placements of the few men
 * that can move.
 *
 * So this search walks the layers, not the positions: a breadth-first walk
 * of the layer of its root (reversible moves only) looks for a mate there
 * and collects the layer's exits, each irreversible move once (by the man
 * that makes it, where it goes and what it takes), from the first position
 * of the walk that has it, so by the shortest way there.  It then carries
 * on depth-first from the best exits: captures first, of the men nearest
 * to their own king (the men that wall a king in, whose capture opens it),
 * then pawn moves.  The line is the concatenation of the walks and the
 * exits.  Placements of the other men when an exit is made are those of
 * the shortest way; the next layer's walk can move them again.
 *
 * Invariants: YES only with a line of legal moves that mates (at most
 * CANMATE_LINE_MAX plies: the walks stop there), replayed before it is
 * answered; never NO, since the exits tried are a chosen few, the loser's
 * promotions to a rook or a bishop are left out and the layers' walks are
 * bounded.
 * Deterministic: budgets are counted in positions, exits are ordered by
 * the walk's order and fixed rules.
 *
 * Workload: a late stage of canmate_search()'s schedule, reached by the
 * few positions every earlier search failed on; a layer costs some
 * tenths of a microsecond per position.  Where the root's layer is larger
 * than a walk may store (CAPTURE_LAYER_MAX) it gives up after that walk,
 * some 0.01 s (0.05 s when the memory is new: its pages are touched for
 * the first time); the walled cases of the labelled vector are decided
 * within 500,000 positions, 0.1 s at most.  Memory: about 160 bytes per position
 * of a layer's walk, 10 MB at most, kept from one call to the next by the
 * caller (a fresh allocation's pages cost more to touch than such a walk).
 */
#include "canmate_capture.h"

#include <stdlib.h>
#include <string.h>

#include "canmate_static.h"

/* Exits tried from each layer, and milestones on one line at most. */
enum { CAPTURE_EXITS = 6, CAPTURE_DEPTH = 10 };

/* Positions one layer's walk may store at most (a power of two): nearly
 * twice the largest root layer of the walled cases of the labelled vector
 * (36,133 positions), and where the search gives up on others (some
 * 0.01 s with the memory kept from an earlier call). */
enum { CAPTURE_LAYER_MAX = 1 << 16 };

/* Layers walked in one call at most (the budget in positions ends most
 * searches first). */
enum { CAPTURE_LAYERS = 256 };

/* Distinct exits a layer's walk keeps (the first ones met). */
enum { EXITS_KEPT = 128 };

/* A position of a layer's walk, with the way back to the layer's root. */
typedef struct Node {
    Board b;
    int32_t parent;
    uint32_t slot; /* its key's slot in the layer's set */
    Move move;
    int16_t ply; /* plies from the call's root */
} Node;

/* An exit of a layer: `move` from node `at`, ranked by `score` (lower is
 * better). */
typedef struct Exit {
    int32_t at;
    Move move;
    int score;
} Exit;

/* The search's state and memory: CanMateCapture to the callers. */
typedef struct CanMateCapture {
    int winner;
    uint64_t nodes, max_nodes; /* positions walked in all, and the budget */
    size_t layer_max;          /* positions one layer's walk may store, this call */
    Node *queue;               /* CAPTURE_LAYER_MAX positions */
    uint64_t *seen;            /* the layer's keys, 2 * CAPTURE_LAYER_MAX slots, empty
                                  between walks */
    size_t seen_mask;
    uint64_t roots[CAPTURE_LAYERS];            /* the roots of the layers walked */
    Exit exits[CAPTURE_DEPTH + 1][EXITS_KEPT]; /* each depth's exits */
    Board kids[CAPTURE_DEPTH + 1][EXITS_KEPT]; /* and the positions after them */
    Move ways[CAPTURE_DEPTH + 1][CAPTURE_EXITS][CANMATE_LINE_MAX]; /* to the exits tried */
    int nroots;
    Move line[CANMATE_LINE_MAX];
    int line_len;
} Capture;

/* Whether m leaves the layer: a pawn move, a capture, castling, a
 * promotion (en passant is both). */
static bool irreversible(const Board *b, Move m)
{
    return move_kind(m) != MOVE_NORMAL || b->squares[move_to(m)] != PIECE_NONE ||
           piece_type(b->squares[move_from(m)]) == PAWN;
}

/* Whether b is the loser checkmated. */
static bool loser_mated(const Board *b, int winner)
{
    return b->side != winner && board_in_check(b) && movegen_count_legal(b) == 0;
}

/*
 * The rank of an exit, lower first.  Captures come first, nearest to the
 * king of the captured man's side first: the men round a king are what
 * keeps it walled in (or what it is mated against, when they are the
 * loser's blockers of the winner's king), and the plans of these positions
 * take them.  The winner's pawn moves follow (a queen's promotion first:
 * the mating piece), then the loser's (a promotion last: a loser's piece
 * is only in the way of the mate and costs a large layer), then castling.
 */
static int exit_score(const Board *b, Move m, int winner)
{
    int to = move_to(m);
    int victim = b->squares[to];
    if (move_kind(m) == MOVE_EN_PASSANT)
        victim = piece_make(b->side ^ 1, PAWN);
    if (victim != PIECE_NONE)
        return bb_distance[to][board_king(b, piece_color(victim))];
    if (move_kind(m) == MOVE_CASTLING)
        return 40;
    int base = b->side == winner ? 10 : 20;
    if (move_kind(m) != MOVE_PROMOTION)
        return base + 1;
    int promo = move_promotion(m);
    if (b->side == winner)
        return base + (promo == QUEEN ? 0 : promo == KNIGHT ? 2 : 3);
    return base + 5;
}

/* Writes the way from the layer's root to node i into c->line from `at`
 * on; its length, or -1 when it would not fit with one more move. */
static int path_to(Capture *c, int32_t i, int at)
{
    int n = 0;
    for (int32_t j = i; j > 0; j = c->queue[j].parent)
        n++;
    if (at + n + 1 > CANMATE_LINE_MAX)
        return -1;
    int k = at + n;
    for (int32_t j = i; j > 0; j = c->queue[j].parent)
        c->line[--k] = c->queue[j].move;
    return n;
}

/* Inserts key into the layer's set and notes its slot in *slot; false
 * when it was there already. */
static bool seen_insert(Capture *c, uint64_t key, uint32_t *slot)
{
    key |= 1; /* 0 marks a free slot */
    size_t i = key & c->seen_mask;
    while (c->seen[i]) {
        if (c->seen[i] == key)
            return false;
        i = (i + 1) & c->seen_mask;
    }
    c->seen[i] = key;
    *slot = (uint32_t)i;
    return true;
}

/*
 * Walks the layer of root breadth-first within the budget, storing at most
 * `cap` positions; *complete tells whether it was walked whole (with
 * give_up, the walk stops as soon as it cannot be).  Returns the node that
 * is mate (>= 0), else -1 with the layer's exits met in exits[0..*nexits),
 * best first.  Ties keep the walk's order, so the shortest way to each
 * exit comes first.
 */
static int32_t walk_layer(Capture *c, const Board *root, int ply, size_t cap, bool give_up,
                          bool *complete, Exit *exits, int *nexits)
{
    size_t head = 0, tail = 0;
    c->queue[tail].b = *root;
    c->queue[tail].parent = -1;
    c->queue[tail].move = MOVE_NONE;
    c->queue[tail].ply = (int16_t)ply;
    seen_insert(c, root->key, &c->queue[tail].slot);
    tail++;
    /* Each exit once, by the man that makes it, its target and promotion:
     * a bit per man and move (its target, kind and promotion, the move's
     * bits above its origin), so that a layer's many exits are each a
     * look-up. */
    uint64_t met[(PIECE_NONE << 10) / 64] = {0};
    int n = 0;
    int32_t mate = -1;
    *complete = true;
    while (head < tail && c->nodes < c->max_nodes) {
        c->nodes++;
        const Board *b = &c->queue[head].b;
        MoveList list;
        movegen_legal_moves(b, &list);
        if (list.count == 0) {
            if (b->side != c->winner && board_in_check(b)) {
                mate = (int32_t)head;
                break;
            }
            head++;
            continue;
        }
        /* A line holds CANMATE_LINE_MAX plies: the walk stops there. */
        int room = CANMATE_LINE_MAX - c->queue[head].ply;
        for (int i = 0; i < list.count && room > 0; i++) {
            Move m = list.moves[i];
            if (irreversible(b, m)) {
                /* The loser's promoted piece is only in the way of the
                 * mate (or given up for a tempo): a queen or a knight
                 * serves where a rook or a bishop would. */
                if (move_kind(m) == MOVE_PROMOTION && b->side != c->winner &&
                    (move_promotion(m) == ROOK || move_promotion(m) == BISHOP))
                    continue;
                uint32_t kind = (uint32_t)b->squares[move_from(m)] << 10 | (uint32_t)m >> 6;
                uint64_t bit = UINT64_C(1) << (kind & 63);
                if ((met[kind >> 6] & bit) || n == EXITS_KEPT)
                    continue;
                met[kind >> 6] |= bit;
                exits[n].at = (int32_t)head;
                exits[n].move = m;
                exits[n].score = exit_score(b, m, c->winner);
                n++;
                continue;
            }
            if (tail == cap) {
                *complete = false;
                if (give_up)
                    goto done;
                continue;
            }
            /* Most children were met before: looked up before made. */
            Node *kid = &c->queue[tail];
            uint64_t key = board_key_after(b, m);
            if (!seen_insert(c, key, &kid->slot))
                continue;
            kid->b = *b;
            board_make_keyed(&kid->b, m, key);
            kid->parent = (int32_t)head;
            kid->move = m;
            kid->ply = (int16_t)(c->queue[head].ply + 1);
            tail++;
        }
        head++;
    }
    if (head < tail)
        *complete = false; /* out of budget */
done:
    /* The set is emptied slot by slot: layers are often far smaller than
     * the set. */
    for (size_t i = 0; i < tail; i++)
        c->seen[c->queue[i].slot] = 0;
    if (mate >= 0)
        return mate;
    /* Best first, stable (insertion sort: few exits). */
    for (int i = 1; i < n; i++) {
        Exit e = exits[i];
        int j = i;
        while (j > 0 && exits[j - 1].score > e.score) {
            exits[j] = exits[j - 1];
            j--;
        }
        exits[j] = e;
    }
    *nexits = n;
    return -1;
}

/* Whether the layer of b was walked already on this call. */
static bool walked(Capture *c, uint64_t key)
{
    for (int i = 0; i < c->nroots; i++)
        if (c->roots[i] == key)
            return true;
    return false;
}

/* The search from b, whose line from the call's root is c->line[0..ply):
 * true with c->line_len set when a mate is found. */
static bool milestones(Capture *c, const Board *b, int ply, int depth)
{
    if (walked(c, b->key) || c->nroots == (int)(sizeof c->roots / sizeof *c->roots))
        return false;
    c->roots[c->nroots++] = b->key;
    Exit *exits = c->exits[depth];
    Board *kids = c->kids[depth];
    int n = 0;
    /* The search is for positions of small layers: where the root's is
     * larger than a walk may store, the other searches' ground, it gives
     * up at once.  Deeper layers are walked as far as they may store (a
     * king freed by a capture makes a large layer), the exits met first
     * being those of the shortest ways. */
    bool complete;
    int32_t mate = walk_layer(c, b, ply, c->layer_max, depth == 0, &complete, exits, &n);
    if (mate < 0 && depth == 0 && !complete)
        return false;
    if (mate >= 0) {
        int len = path_to(c, mate, ply);
        if (len < 0)
            return false;
        c->line_len = ply + len;
        return true;
    }
    /* A mate by an exit (a capture or a promotion that mates) is found
     * here, whatever its rank: the walk does not make the exits. */
    for (int i = 0; i < n; i++) {
        kids[i] = c->queue[exits[i].at].b;
        board_make(&kids[i], exits[i].move);
        if (loser_mated(&kids[i], c->winner)) {
            int len = path_to(c, exits[i].at, ply);
            if (len < 0)
                continue;
            c->line[ply + len] = exits[i].move;
            c->line_len = ply + len + 1;
            return true;
        }
    }
    if (depth >= CAPTURE_DEPTH)
        return false;
    /* The next layers' walks reuse the queue: the ways to the exits
     * tried are written out first. */
    int pick[CAPTURE_EXITS], len[CAPTURE_EXITS], tried = 0;
    for (int i = 0; i < n && tried < CAPTURE_EXITS; i++) {
        if (canmate_static_material_no(&kids[i], c->winner) ||
            canmate_static_no(&kids[i], c->winner))
            continue;
        int l = path_to(c, exits[i].at, ply);
        if (l < 0)
            continue;
        memcpy(c->ways[depth][tried], &c->line[ply], (size_t)l * sizeof(Move));
        c->ways[depth][tried][l] = exits[i].move;
        pick[tried] = i;
        len[tried++] = l + 1;
    }
    for (int t = 0; t < tried && c->nodes < c->max_nodes; t++) {
        memcpy(&c->line[ply], c->ways[depth][t], (size_t)len[t] * sizeof(Move));
        if (milestones(c, &kids[pick[t]], ply + len[t], depth + 1))
            return true;
    }
    return false;
}

/* Whether line[0..len) is legal from b and mates the loser: the search's
 * own check of what it answers. */
static bool replays_to_mate(const Board *b, int winner, const Move *line, int len)
{
    Board x = *b;
    for (int i = 0; i < len; i++) {
        if (!movegen_is_legal(&x, line[i]))
            return false;
        board_make(&x, line[i]);
    }
    return loser_mated(&x, winner);
}

void canmate_capture_free(CanMateCapture *c)
{
    if (!c)
        return;
    free(c->queue);
    free(c->seen);
    free(c);
}

/* The memory, allocated on first need (its pages are touched only as the
 * walks use them), or NULL when out of memory. */
static Capture *capture_reserve(CanMateCapture **mem)
{
    if (*mem)
        return *mem;
    Capture *c = malloc(sizeof *c);
    if (!c)
        return NULL;
    c->queue = malloc(CAPTURE_LAYER_MAX * sizeof *c->queue);
    c->seen = calloc(2 * CAPTURE_LAYER_MAX, sizeof *c->seen);
    c->seen_mask = 2 * CAPTURE_LAYER_MAX - 1;
    if (!c->queue || !c->seen) {
        canmate_capture_free(c);
        return NULL;
    }
    *mem = c;
    return c;
}

CanMate canmate_capture_search(const Board *b, int winner, uint64_t max_nodes, CanMateCapture **mem,
                               Move *line, int *line_len)
{
    CanMateCapture *own = NULL;
    Capture *c = capture_reserve(mem ? mem : &own);
    if (!c)
        return CANMATE_UNKNOWN;
    c->winner = winner;
    c->nodes = 0;
    c->max_nodes = max_nodes;
    c->layer_max = CAPTURE_LAYER_MAX;
    while (c->layer_max > 1024 && c->layer_max / 2 >= max_nodes)
        c->layer_max /= 2; /* small budgets, small walks */
    c->nroots = 0;
    c->line_len = 0;
    CanMate r = CANMATE_UNKNOWN;
    if (milestones(c, b, 0, 0) && replays_to_mate(b, winner, c->line, c->line_len)) {
        r = CANMATE_YES;
        if (line)
            memcpy(line, c->line, (size_t)c->line_len * sizeof *line);
        if (line_len)
            *line_len = c->line_len;
    }
    canmate_capture_free(own);
    return r;
}
