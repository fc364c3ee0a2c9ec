/*
 * canmate_walk.c — the walks of canmate_search().
 *
 * The exhaustive walk stores every position reachable from the root once
 * (a seen set of keys) in breadth-first order, each with the way back to
 * the root, so a mate found is found by a shortest line and a walk that
 * completes without one proves NO.  Positions the static proofs show dead
 * are stored but not expanded; only a pawn move or a capture can make a
 * position newly provable, so only those are asked about.
 *
 * The best-first search keeps the positions it expanded the same way and
 * an open list of moves not yet made, a bucket per "distance from mate"
 * score (mate_distance), first in first out among equal scores: it can leave a branch that stalls
 * for a better one anywhere in the tree, which the long cooperative walks of minor-piece endings
 * need and a depth-first search cannot do.  Steered by a pictured mate
 * instead (canmate_walk_picture), the score is the count of moves the
 * picture still needs (canmate_walk_picture_distance), which each move of
 * its plan lowers by one.
 *
 * Deterministic: budgets are counted in positions.  Zobrist keys identify
 * positions in the seen sets (a 64-bit collision could in principle drop
 * a position).
 *
 * Workload: up to some hundred thousand positions a call in
 * canmate_search()'s schedule (tens of milliseconds), a few thousand in
 * the dead-position check after a move.
 */
#include "canmate_walk.h"

#include <stdlib.h>
#include <string.h>

#include "canmate_static.h"
#include "movegen.h"

/* A position waiting in the exhaustive walk, with the way back to the root. */
typedef struct QueueEntry {
    Board b;
    int32_t parent;
    Move move;
    int16_t depth;
} QueueEntry;

/*
 * The memory of one breadth- or best-first walk: its positions in the order
 * stored, and the set of positions met, by key.  A walk uses only the first
 * seen_mask + 1 slots of the set, sized to its own budget, which keeps
 * small walks in cache and their clearing cheap.
 */
typedef struct Walk {
    QueueEntry *queue;
    size_t queue_cap;
    uint64_t *seen;
    size_t seen_cap; /* a power of two, at least twice queue_cap */
    size_t seen_mask;
    /* The exhaustive walk's place when its budget ran out, for the next
     * stage on the same root and winner to carry on from (the walk is
     * deterministic, so carrying on gives what a fresh, larger walk would):
     * queue[0..tail) are stored, queue[head] is the next to expand. */
    bool paused;
    int winner;
    size_t head, tail;
} Walk;

/*
 * The best-first search's open list: moves waiting to be made, the least
 * score first and, among equal scores, in the order queued (parents in the
 * order expanded, a parent's moves in generation order).  A bucket per
 * score chained through the entries, a bit per bucket saying which hold
 * entries: taking out the least and queueing cost a few steps, not the
 * logarithm of the list's length a heap costs.
 */
enum { OPEN_SCORES = 1 << 16, OPEN_NONE = UINT32_MAX };
typedef struct Open {
    uint64_t *val;         /* parent << 16 | move, per entry */
    uint32_t *next;        /* the next entry of its bucket, or free */
    uint32_t *head, *tail; /* per score, valid where used[] says so */
    uint64_t used[OPEN_SCORES / 64];
    uint32_t cap, fresh, spare; /* entries; never used from fresh on; freed */
    uint32_t n;                 /* entries waiting */
    uint32_t low;               /* no word of used[] below holds a bit */
} Open;

/* Room for cap waiting entries, the list emptied.  False when out of
 * memory. */
static bool open_begin(Open *o, size_t cap)
{
    if (!o->head)
        o->head = malloc(OPEN_SCORES * sizeof *o->head);
    if (!o->tail)
        o->tail = malloc(OPEN_SCORES * sizeof *o->tail);
    if (!o->head || !o->tail)
        return false; /* what was allocated stays, for the next call */
    if (!o->val || o->cap < cap) {
        free(o->val);
        free(o->next);
        o->val = malloc(cap * sizeof *o->val);
        o->next = malloc(cap * sizeof *o->next);
        if (!o->val || !o->next) {
            o->cap = 0;
            return false;
        }
        o->cap = (uint32_t)cap;
    }
    memset(o->used, 0, sizeof o->used);
    o->fresh = 0;
    o->spare = OPEN_NONE;
    o->n = 0;
    o->low = OPEN_SCORES / 64;
    return true;
}

static void open_free(Open *o)
{
    free(o->val);
    free(o->next);
    free(o->head);
    free(o->tail);
}

/* Queues v with `score` (at most 0xffff); the caller keeps n below cap. */
static void open_push(Open *o, uint32_t score, uint64_t v)
{
    uint32_t at = o->spare;
    if (at != OPEN_NONE)
        o->spare = o->next[at];
    else
        at = o->fresh++;
    o->val[at] = v;
    o->next[at] = OPEN_NONE;
    uint64_t bit = UINT64_C(1) << (score & 63);
    if (o->used[score >> 6] & bit) {
        o->next[o->tail[score]] = at;
    } else {
        o->used[score >> 6] |= bit;
        o->head[score] = at;
        if (score >> 6 < o->low)
            o->low = score >> 6;
    }
    o->tail[score] = at;
    o->n++;
}

/* Takes out the first entry of the least score; the list is not empty. */
static uint64_t open_pop(Open *o)
{
    while (!o->used[o->low])
        o->low++;
    uint32_t score = o->low << 6 | (uint32_t)bb_lsb(o->used[o->low]);
    uint32_t at = o->head[score];
    uint64_t v = o->val[at];
    o->head[score] = o->next[at];
    if (o->next[at] == OPEN_NONE)
        o->used[score >> 6] &= ~(UINT64_C(1) << (score & 63));
    o->next[at] = o->spare;
    o->spare = at;
    o->n--;
    return v;
}

struct CanMateWalks {
    /* The exhaustive walk keeps its own memory, so that the best-first
     * searches between its stages leave it intact. */
    Walk walk, bf;
    Open open; /* the best-first search's waiting moves, BF_FANOUT per bf entry */
};

void canmate_walks_free(CanMateWalks *w)
{
    if (!w)
        return;
    free(w->walk.queue);
    free(w->walk.seen);
    free(w->bf.queue);
    free(w->bf.seen);
    open_free(&w->open);
    free(w);
}

void canmate_walk_forget(CanMateWalks *w)
{
    if (w)
        w->walk.paused = false;
}

/* *walks, allocated (empty) on first need; NULL when out of memory. */
static CanMateWalks *walks_get(CanMateWalks **walks)
{
    if (!*walks)
        *walks = calloc(1, sizeof **walks);
    return *walks;
}

/* The best-first search stores up to `want` expanded positions and
 * BF_FANOUT times as many waiting moves. */
enum { BF_FANOUT = 4 };

/* Room for `want` positions in w; with `keep`, the positions stored so
 * far stay (the walk carries on), else the memory is reused as it is. */
static bool walk_reserve(Walk *w, size_t want, bool keep)
{
    if (want < 16)
        want = 16;
    if (w->queue && w->queue_cap >= want)
        return true;
    size_t seen_cap = 1024;
    while (seen_cap < (want + MOVES_MAX) * 2)
        seen_cap *= 2;
    QueueEntry *q = keep ? realloc(w->queue, want * sizeof *q) : malloc(want * sizeof *q);
    if (q && keep)
        w->queue = q; /* the old block is gone now */
    uint64_t *seen = calloc(seen_cap, sizeof *seen);
    if (!q || !seen) {
        if (!keep)
            free(q);
        free(seen);
        w->paused = false;
        return false;
    }
    if (!keep)
        free(w->queue);
    free(w->seen);
    w->queue = q;
    w->queue_cap = want;
    w->seen = seen;
    w->seen_cap = seen_cap;
    return true;
}

/* Starts a walk of at most max positions: the seen set is sized to it and
 * cleared (a fraction of the walk's own cost). */
static void seen_begin(Walk *w, size_t max)
{
    size_t cap = 1024;
    while (cap < (max + MOVES_MAX) * 2 && cap < w->seen_cap)
        cap *= 2;
    w->seen_mask = cap - 1;
    memset(w->seen, 0, cap * sizeof *w->seen);
}

static uint64_t *seen_slot_first(const Walk *w, uint64_t key)
{
    return &w->seen[key & w->seen_mask];
}

/* The slot of the seen set that holds key, or the empty slot where it
 * would go.  Slots hold whole keys, 0 marking an empty one (a key of 0 is
 * stored as 1). */
static uint64_t *seen_slot(const Walk *w, uint64_t key)
{
    size_t mask = w->seen_mask;
    uint64_t want = key ? key : 1;
    size_t i = key & mask;
    while (w->seen[i] && w->seen[i] != want)
        i = (i + 1) & mask;
    return &w->seen[i];
}

/* Inserts key into the seen set; false when it was there already. */
static bool seen_insert(Walk *w, uint64_t key)
{
    uint64_t *slot = seen_slot(w, key);
    if (*slot)
        return false;
    *slot = key ? key : 1;
    return true;
}

/* Writes the moves from the root to queue entry at, then m, into line. */
static int queue_line(const Walk *w, int32_t at, Move m, Move *line)
{
    int len = w->queue[at].depth + (m != MOVE_NONE);
    if (line) {
        int k = len;
        if (m != MOVE_NONE)
            line[--k] = m;
        for (int32_t i = at; w->queue[i].parent >= 0; i = w->queue[i].parent)
            line[--k] = w->queue[i].move;
    }
    return len;
}

/* Whether the walk may leave out child, reached from parent: the static
 * layers prove it dead for the winner.  Only a move that changed the pawns
 * or the material can make a position newly provable, so the proofs (the
 * mobility proof some microseconds a call) are tried after those alone.
 * After a pawn move the move count of the walled-in side is what changes:
 * the race to the first promotion can be lost one push later, and pruning
 * there is what lets the walks of the walled-king races complete. */
static bool walk_dead(const Board *parent, const Board *child, int winner)
{
    bool capture = bb_popcount(board_occupied(parent)) != bb_popcount(board_occupied(child));
    if (!capture && parent->by_type[PAWN] == child->by_type[PAWN])
        return false;
    return canmate_static_frozen_no(child, winner) || canmate_static_no(child, winner);
}

/* Whether the exhaustive walk paused in w can carry on for root and
 * winner; then its seen set is rebuilt for a budget of max positions. */
static bool walk_resume(Walk *w, const Board *root, int winner, size_t max)
{
    if (!w->paused || w->winner != winner || w->tail > max ||
        !board_same_position(&w->queue[0].b, root))
        return false;
    if (!walk_reserve(w, max, true))
        return false;
    seen_begin(w, max);
    for (size_t i = 0; i < w->tail; i++)
        seen_insert(w, w->queue[i].b.key);
    return true;
}

/*
 * Breadth-first over every position reachable from root.  NO when none is
 * a mate of the loser and the walk completes within max positions; YES with
 * the (shortest) line when one is; UNKNOWN when the budget runs out.  A
 * walk that ran out pauses: the next call for the same root and winner
 * with a larger budget carries on where it stopped instead of walking the
 * same positions again (the schedule's stages grow by steps of 1.5 to 8).
 */
CanMate canmate_walk_exhaust(CanMateWalks **walks, const Board *root, int winner, size_t max,
                             Move *line, int *line_len)
{
    CanMateWalks *ws = walks_get(walks);
    if (!ws)
        return CANMATE_UNKNOWN;
    Walk *w = &ws->walk;
    size_t head = 0, tail = 0;
    if (walk_resume(w, root, winner, max)) {
        head = w->head;
        tail = w->tail;
    } else {
        if (!walk_reserve(w, max, false))
            return CANMATE_UNKNOWN;
        seen_begin(w, max);
        w->queue[tail++] = (QueueEntry){*root, -1, MOVE_NONE, 0};
        seen_insert(w, root->key);
    }
    w->paused = false;
    while (head < tail) {
        size_t at = head++;
        const Board *b = &w->queue[at].b;
        MoveList list;
        movegen_legal_moves(b, &list);
        if (list.count == 0) {
            if (b->side == winner || !board_in_check(b))
                continue;
            /* A mate: the line is the way back to the root. */
            if (w->queue[at].depth > CANMATE_LINE_MAX)
                return CANMATE_UNKNOWN;
            int len = queue_line(w, (int32_t)at, MOVE_NONE, line);
            if (line_len)
                *line_len = len;
            return CANMATE_YES;
        }
        if (at > 0 && canmate_static_material_no(b, winner))
            continue;
        if (at > 0 && walk_dead(&w->queue[w->queue[at].parent].b, b, winner))
            continue;
        /* The children's keys first, their slots in the seen set fetched
         * ahead (random accesses into a table larger than the cache); only
         * the children not seen before are made, in place at the tail. */
        if (tail + (size_t)list.count > max) {
            w->paused = true;
            w->winner = winner;
            w->head = at;
            w->tail = tail;
            return CANMATE_UNKNOWN;
        }
        int16_t depth = w->queue[at].depth < INT16_MAX ? w->queue[at].depth + 1 : INT16_MAX;
        uint64_t keys[MOVES_MAX];
        for (int i = 0; i < list.count; i++) {
            keys[i] = board_key_after(b, list.moves[i]);
            __builtin_prefetch(seen_slot_first(w, keys[i]));
        }
        for (int i = 0; i < list.count; i++) {
            if (!seen_insert(w, keys[i]))
                continue;
            QueueEntry *q = &w->queue[tail++];
            q->b = w->queue[at].b;
            board_make_keyed(&q->b, list.moves[i], keys[i]);
            q->parent = (int32_t)at;
            q->move = list.moves[i];
            q->depth = depth;
        }
    }
    return CANMATE_NO;
}

/* ---------------------------------------------------------------------- */
/* The best-first search                                                    */

/*
 * How far b looks from a mate of the loser (smaller is nearer): flight
 * squares left to the loser's king weigh most, then its distance from a
 * corner (a corner of the bishops' colour when bishops of one colour are
 * all the winner has), the winner's men away from the king (his king wants
 * to stand two squares off, pawns want to promote) and the loser's men away
 * from their king, whose flights they can block.
 */
static uint32_t mate_distance(const Board *b, int winner, int target)
{
    int loser = winner ^ 1;
    int lk = board_king(b, loser);
    Bitboard occ = board_occupied(b);
    Bitboard watt = board_attacks(b, winner, occ & ~BB(lk));
    int flights = bb_popcount(bb_king_attacks[lk] & ~b->by_color[loser] & ~watt);
    int h = 12 * flights;
    Bitboard wmen = b->by_color[winner] & ~b->by_type[KING];
    Bitboard bishops = board_pieces(b, winner, BISHOP);
    int cd;
    if (target != SQ_NONE) {
        cd = 2 * bb_distance[lk][target];
    } else if (wmen == bishops && !((bishops & LIGHT_SQUARES_BB) && (bishops & DARK_SQUARES_BB))) {
        /* a1 and h8 are dark, a8 and h1 light. */
        bool dark = (bishops & DARK_SQUARES_BB) != 0;
        int c1 = dark ? 0 : 56, c2 = dark ? 63 : 7;
        int d1 = bb_distance[lk][c1], d2 = bb_distance[lk][c2];
        cd = 2 * (d1 < d2 ? d1 : d2);
    } else {
        cd = bb_corner_distance(lk);
    }
    h += 3 * cd;
    h += 2 * abs(bb_distance[board_king(b, winner)][lk] - 2);
    Bitboard x = wmen;
    while (x) {
        int sq = bb_pop(&x);
        int type = piece_type(b->squares[sq]);
        if (type == PAWN) {
            int r = SQ_RANK(sq);
            h += 2 * (winner == WHITE ? 7 - r : r);
        } else if (type == KNIGHT) {
            h += 2 * abs(bb_distance[sq][lk] - 2);
        } else if (!(board_piece_attacks(type, sq, occ) & (bb_king_attacks[lk] | BB(lk)))) {
            h += 2;
        }
    }
    x = b->by_color[loser] & ~b->by_type[KING] & ~b->by_type[PAWN];
    while (x)
        h += bb_distance[bb_pop(&x)][lk] - 1;
    /* Pawns alone do not mate: first promote the most advanced one. */
    Bitboard wpawns = board_pieces(b, winner, PAWN);
    if (wmen == wpawns && wpawns) {
        int best = 7;
        while (wpawns) {
            int r = SQ_RANK(bb_pop(&wpawns));
            int togo = winner == WHITE ? 7 - r : r;
            if (togo < best)
                best = togo;
        }
        h += 40 + 10 * best;
    }
    /* The loser to move is in check when the winner attacks his king's
     * square (lifting the king changes no attack on it). */
    if (b->side == loser ? (watt & BB(lk)) != 0 : board_in_check(b))
        h -= 4;
    return (uint32_t)(h + 1000);
}

/* Whether the loser's king has at most two squares to go to, the
 * situations in which a mate is likely to be near. */
static bool few_flights(const Board *b, int winner)
{
    int loser = winner ^ 1, lk = board_king(b, loser);
    Bitboard watt = board_attacks(b, winner, board_occupied(b) & ~BB(lk));
    return bb_popcount(bb_king_attacks[lk] & ~b->by_color[loser] & ~watt) <= 2;
}

/* Moves a loser's man of `type` on sq needs to stand on f, on an empty
 * board (9: never, as a bishop of the other colour or a pawn behind it). */
static int man_steps(int type, int sq, int f, int color)
{
    int df = abs(SQ_FILE(sq) - SQ_FILE(f)), dr = abs(SQ_RANK(sq) - SQ_RANK(f));
    if (sq == f)
        return 0;
    switch (type) {
    case BISHOP: return (df + dr) & 1 ? 9 : df == dr ? 1 : 2;
    case ROOK: return df == 0 || dr == 0 ? 1 : 2;
    case QUEEN: return df == 0 || dr == 0 || df == dr ? 1 : 2;
    case KNIGHT: return bb_knight_distance(sq, f);
    case PAWN: {
        int ahead = color == WHITE ? SQ_RANK(f) - SQ_RANK(sq) : SQ_RANK(sq) - SQ_RANK(f);
        return df == 0 && ahead > 0 ? ahead : 9;
    }
    default: return 9;
    }
}

/*
 * How many moves b looks from a pictured mate: the loser's king on
 * `target`, its own men on the squares of `blocks` (the flights the winner
 * can never cover), and the target cleared of the winner's men that stand
 * on it or bear on it through one another (each must move away before the
 * king can step in).  Each move of the plan lowers it by one, so a greedy
 * search on it follows the plan and spends only the waiting moves beside.
 */
uint32_t canmate_walk_picture_distance(const Board *b, int winner, int target, Bitboard blocks)
{
    int loser = winner ^ 1;
    int lk = board_king(b, loser);
    int n = bb_distance[lk][target];
    if (lk != target) {
        Bitboard sliders = b->by_type[BISHOP] | b->by_type[ROOK] | b->by_type[QUEEN];
        Bitboard occ = board_occupied(b) & ~(b->by_color[winner] & sliders);
        n += bb_popcount(board_attackers(b, target, winner, occ));
        n += (b->by_color[winner] & BB(target)) != 0;
    }
    Bitboard men = b->by_color[loser] & ~b->by_type[KING], free_men = men & ~blocks;
    Bitboard todo = blocks & ~men;
    while (todo) {
        int f = bb_pop(&todo), best = 9, best_sq = SQ_NONE;
        for (Bitboard x = free_men; x;) {
            int sq = bb_pop(&x);
            int d = man_steps(piece_type(b->squares[sq]), sq, f, loser);
            if (d < best) {
                best = d;
                best_sq = sq;
            }
        }
        n += best;
        if (best_sq != SQ_NONE)
            free_men &= ~BB(best_sq);
    }
    return (uint32_t)(n + 1000);
}

/* An open-list entry: the expanded parent (32 bits) and the move (16);
 * the child's Board is made only when the entry is taken out. */
static uint64_t bf_entry(size_t parent, Move m)
{
    return (uint64_t)parent << 16 | m;
}

/* A score as the open list keeps it. */
static uint32_t bf_score(uint32_t score)
{
    return score > 0xffff ? 0xffff : score;
}

/*
 * Greedy best-first search: always expand the waiting position that looks
 * nearest to a mate.  Unlike the depth-first search it can leave a branch
 * that stalls for a better one anywhere in the tree, which is what the long
 * cooperative walks of minor-piece endings need.  target is the square the
 * loser's king is steered to (SQ_NONE: the nearest suitable corner).  YES
 * with the line, or UNKNOWN after max expanded positions.
 */
static CanMate bestfirst(CanMateWalks **walks, const Board *root, int winner, int target,
                         bool picture, Bitboard blocks, size_t max, Move *line, int *line_len)
{
    CanMateWalks *ws = walks_get(walks);
    if (!ws)
        return CANMATE_UNKNOWN;
    Walk *w = &ws->bf;
    size_t open_cap = max * BF_FANOUT;
    if (!walk_reserve(w, max, false) || !open_begin(&ws->open, open_cap))
        return CANMATE_UNKNOWN;
    Open *open = &ws->open;
    seen_begin(w, max);
    size_t count = 0;
    /* The root is the child of no move. */
    open_push(open, 0, bf_entry((size_t)0xffffffffu, MOVE_NONE));
    while (open->n > 0 && count < max) {
        uint64_t top = open_pop(open);
        uint32_t parent = (uint32_t)(top >> 16);
        Move mv = (Move)(top & 0xffff);
        /* A position is marked seen when it is taken out, by key, before
         * it is made: copies of it still waiting are dropped here. */
        bool is_root = parent == 0xffffffffu;
        uint64_t key = is_root ? root->key : board_key_after(&w->queue[parent].b, mv);
        if (!seen_insert(w, key))
            continue;
        QueueEntry *q = &w->queue[count];
        if (is_root) {
            *q = (QueueEntry){*root, -1, MOVE_NONE, 0};
        } else {
            q->b = w->queue[parent].b;
            board_make_keyed(&q->b, mv, key);
            q->parent = (int32_t)parent;
            q->move = mv;
            q->depth = (int16_t)(w->queue[parent].depth + 1);
        }
        int32_t at = (int32_t)count++;
        const Board *b = &q->b;
        if (q->depth >= CANMATE_LINE_MAX - 2)
            continue;
        MoveList list;
        movegen_legal_moves(b, &list);
        if (b->side == winner) {
            Move m = movegen_mating_move(b, &list);
            if (m != MOVE_NONE) {
                int len = queue_line(w, at, m, line);
                if (line_len)
                    *line_len = len;
                return CANMATE_YES;
            }
        }
        /* Near a mate, widen the goal: a loser's move that allows a mate
         * at once.  Each child is made once, for that test and for the
         * queue: the first such move wins whatever was queued before it.
         * Elsewhere a child already taken out is not made nor scored (by
         * key, before the make): it would only be dropped again. */
        bool widen = b->side != winner && few_flights(b, winner);
        for (int i = 0; i < list.count && (widen || open->n < open_cap); i++) {
            if (!widen && *seen_slot(w, board_key_after(b, list.moves[i])))
                continue;
            Board child = *b;
            board_make(&child, list.moves[i]);
            if (widen) {
                MoveList replies;
                movegen_checking_candidates(&child, &replies);
                Move m = movegen_mating_move(&child, &replies);
                if (m != MOVE_NONE) {
                    int len = queue_line(w, at, list.moves[i], line);
                    if (line)
                        line[len] = m;
                    if (line_len)
                        *line_len = len + 1;
                    return CANMATE_YES;
                }
                if (open->n >= open_cap)
                    continue;
            }
            if (canmate_static_material_no(&child, winner) ||
                (q->parent >= 0 && child.key == w->queue[q->parent].b.key))
                continue; /* a move straight back gains nothing */
            uint32_t score = picture ? canmate_walk_picture_distance(&child, winner, target, blocks)
                                     : mate_distance(&child, winner, target);
            open_push(open, bf_score(score), bf_entry((size_t)at, list.moves[i]));
        }
    }
    return CANMATE_UNKNOWN;
}

CanMate canmate_walk_bestfirst(CanMateWalks **walks, const Board *root, int winner, int target,
                               size_t max, Move *line, int *line_len)
{
    return bestfirst(walks, root, winner, target, false, 0, max, line, line_len);
}

CanMate canmate_walk_picture(CanMateWalks **walks, const Board *root, int winner, int target,
                             Bitboard blocks, size_t max, Move *line, int *line_len)
{
    return bestfirst(walks, root, winner, target, true, blocks, max, line, line_len);
}
