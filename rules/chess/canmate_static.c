/*
 * canmate_static.c — the mobility proof that a side can never mate.
 *
 * Every man keeps its identity (the square it starts on).  For each the
 * proof grows the set of squares it may ever stand on (`reach`) and the
 * squares it may ever capture on (`hits`), together with two flags: it may
 * be captured (`taken`), and, for a pawn, it may capture and so leave its
 * file (`strays`).  A man that never moves and is never taken is "fixed":
 * its square is a wall for everyone for ever.  The rules:
 *   - pieces move as on an empty board whose only obstacles are the fixed
 *     men, and never onto a fixed man of their own colour;
 *   - a king never steps onto a square a fixed enemy man attacks whatever
 *     stands around it (a pawn's or knight's or king's attacks, a slider's
 *     next square along each line);
 *   - a pawn pushes onto squares no fixed man holds; it captures on a
 *     square only if an enemy man other than the king may stand there (or
 *     an enemy pawn may jump over it, for en passant);
 *   - two pawns facing each other on a file, both unable to leave it and
 *     the one in front never taken, can never pass each other;
 *   - a man only a king can take counts as never taken when, with that
 *     king on its square, the man's side could not move at all (its other
 *     men fixed, its king boxed in): the capture ends the game at once.
 * Each rule is a necessary condition of a real move given what may have
 * happened before, and the sets only grow (the conditions that forbid a
 * move only ever become false), so the iteration ends at a fixpoint that
 * holds every square of every continuation: induction over the moves of
 * any game.  The sets stop at the first promotion (the new piece could be
 * anything): they hold every game up to it, and a pawn that may promote
 * ends the proof unless the race below shows that no promotion comes.
 *
 * The race: when every man of one side but its pawns never moves (a king
 * walled in, its pieces locked), each of that side's moves before the
 * first promotion is a pawn move that gains a rank, so it has a count of
 * moves left (its pawns' reach).  The other side's first promotion needs
 * a number of moves of its own: the promoting pawn's pushes, and a capture
 * by another man of each enemy pawn ahead of it on its file (the two can
 * never pass each other), by the king walking there and off the file
 * again when only the king can take it.  If the walled side runs out
 * before that (counting the move it still owes after the promotion, when
 * nothing of it can take the new piece and the promotion gives no check),
 * the game ends with no promotion, and the sets hold every game.
 *
 * Then a mate needs the loser's king on some square k of its reach that a
 * man of the winner can attack (kings never check).  The flight squares of
 * k that no man of the winner can ever attack must be taken by the
 * winner's king (from a square two steps from k at least) or held by
 * distinct men of the loser (pigeonhole).  And when the loser's king is
 * his only mobile man, it came to k from a neighbour f a move before the
 * mate; if only the winner's king can cover f, the mating move is that
 * king's step with a discovered check (it could not stand next to f while
 * the loser's king was there).  When no k passes these tests, NO.
 *
 * The material rules (canmate_static_material_no) live here too: they are
 * the first static layer and the guided search needs them; and so does the
 * frozen-wall proof (canmate_static_frozen_no, the last section), the cheap
 * proof for structures where no pawn ever moves, and the regions it is
 * built on.
 *
 * Workload: the material rules are a few bit operations; the mobility
 * proof runs a few rounds over at most 32 men, each round a few hundred
 * bit operations per man (a piece's walk is followed to its end within a
 * round, a step of it for all its squares at once);
 * the race a king's distance map and a loop over the pawns, after each
 * round where a pawn may promote; the mate tests a few thousand bit
 * operations at most; microseconds.  The frozen-wall proof: a flood fill
 * per piece, a fraction of that.
 */
#include "canmate_static.h"

#include "movegen.h"

/*
 * Whether the winner's men can only mate with blockers the loser does not
 * have: a lone knight against nothing but queens, or bishops of one colour
 * against no knight and no bishop of the other colour.  For the bishops:
 * the loser's king always has an orthogonal neighbour of the other colour,
 * which the bishops never see; a queen or rook standing there can always
 * step onto the diagonal square next to the king to capture or block the
 * checking bishop (it cannot be pinned by bishops of the wrong colour, and
 * two bishops of one colour cannot give double check), and the winner's
 * king covers at most one of the two neighbours beside that diagonal square
 * without standing on it.  For the knight: the two squares between it and
 * the king are both neighbours of the king and of the knight, and a queen
 * on either takes the knight.  A loser's pawn could promote to what the
 * rules exclude, so callers also require that the loser has no pawn.
 */
bool canmate_static_needs_help(const Board *b, int winner)
{
    int loser = winner ^ 1;
    Bitboard wmen = b->by_color[winner] & ~b->by_type[KING];
    Bitboard lmen = b->by_color[loser] & ~b->by_type[KING];
    if (!wmen)
        return true;
    if (wmen == (wmen & b->by_type[KNIGHT]) && !bb_more_than_one(wmen) &&
        !(lmen & (b->by_type[KNIGHT] | b->by_type[BISHOP] | b->by_type[ROOK])))
        return true;
    if (wmen == (wmen & b->by_type[BISHOP]) && !(lmen & b->by_type[KNIGHT])) {
        Bitboard colour = (wmen & DARK_SQUARES_BB) ? DARK_SQUARES_BB : LIGHT_SQUARES_BB;
        if (!(b->by_type[BISHOP] & ~colour))
            return true;
    }
    return false;
}

bool canmate_static_minor_material_no(const Board *b, int winner)
{
    int loser = winner ^ 1;
    Bitboard wmat = b->by_color[winner] & ~b->by_type[KING];
    Bitboard lmat = b->by_color[loser] & ~b->by_type[KING];
    if (!(lmat & b->by_type[PAWN]) && canmate_static_needs_help(b, winner))
        return true;
    if (lmat & (b->by_type[PAWN] | b->by_type[ROOK] | b->by_type[QUEEN]))
        return false;
    /* K+N v K: one knight mates only against a king hemmed in by its own men. */
    if (wmat == (wmat & b->by_type[KNIGHT]) && !bb_more_than_one(wmat) && !lmat)
        return true;
    /* Only bishops on the board, all on one colour: the king always has a
     * flight square of the other colour that nothing can ever cover. */
    Bitboard minors = wmat | lmat;
    if (!(minors & b->by_type[KNIGHT]) &&
        (!(minors & LIGHT_SQUARES_BB) || !(minors & DARK_SQUARES_BB)))
        return true;
    return false;
}

enum { MEN_MAX = 32 };

typedef struct Men {
    int n;
    int king[2]; /* index of each side's king */
    uint8_t sq0[MEN_MAX], color[MEN_MAX], type[MEN_MAX];
    Bitboard reach[MEN_MAX];
    Bitboard hits[MEN_MAX];
    bool taken[MEN_MAX];
    bool strays[MEN_MAX];
    uint32_t men[2];    /* each side's men but the king, a bit per index */
    uint32_t pawns[2];  /* of those, the pawns */
    Bitboard jumped[2]; /* squares pawns of a colour may pass by a double step */
    Bitboard walls;     /* the squares of fixed men, at the fixpoint */
    /* The sets describe the games only up to their first promotion: a
     * pawn's squares on the last rank go to promo[], not to its reach
     * (see race_lost for the games beyond). */
    Bitboard promo[MEN_MAX];
} Men;

/* b shifted one square in direction dir (0..7: N, S, E, W, NE, NW, SE,
 * SW), the squares shifted off the board dropped. */
static Bitboard shift_dir(Bitboard b, int dir)
{
    switch (dir) {
    case 0: return b << 8;
    case 1: return b >> 8;
    case 2: return (b << 1) & ~FILE_A_BB;
    case 3: return (b >> 1) & ~FILE_H_BB;
    case 4: return (b << 9) & ~FILE_A_BB;
    case 5: return (b << 7) & ~FILE_H_BB;
    case 6: return (b >> 7) & ~FILE_A_BB;
    default: return (b >> 9) & ~FILE_H_BB;
    }
}

/* The squares a slider along direction dir attacks from any square of
 * `from` when occ is occupied: each ray up to and with its first blocker. */
static Bitboard slide_set(Bitboard from, Bitboard occ, int dir)
{
    Bitboard empty = ~occ, gen = from;
    for (int i = 0; i < 7; i++) {
        Bitboard next = gen | (shift_dir(gen, dir) & empty);
        if (next == gen)
            break;
        gen = next;
    }
    return shift_dir(gen, dir);
}

/* The union of board_piece_attacks() over the squares of `from`, computed for the
 * whole set at once: shifts for the leapers, a fill along each line for
 * the sliders.  The walks of grow_round() cover much of the board, so one
 * pass per step of a walk beats a look-up per square (same sets). */
static Bitboard reach_set(int type, Bitboard from, Bitboard occ)
{
    if (type == KING) {
        Bitboard side = ((from << 1) & ~FILE_A_BB) | ((from >> 1) & ~FILE_H_BB);
        Bitboard row = from | side;
        return side | (row << 8) | (row >> 8);
    }
    if (type == KNIGHT) {
        Bitboard l1 = (from >> 1) & ~FILE_H_BB, l2 = (from >> 2) & ~(FILE_H_BB | (FILE_H_BB >> 1));
        Bitboard r1 = (from << 1) & ~FILE_A_BB, r2 = (from << 2) & ~(FILE_A_BB | (FILE_A_BB << 1));
        Bitboard h1 = l1 | r1, h2 = l2 | r2;
        return (h1 << 16) | (h1 >> 16) | (h2 << 8) | (h2 >> 8);
    }
    Bitboard a = 0;
    if (type == BISHOP || type == QUEEN)
        for (int dir = 4; dir < 8; dir++)
            a |= slide_set(from, occ, dir);
    if (type == ROOK || type == QUEEN)
        for (int dir = 0; dir < 4; dir++)
            a |= slide_set(from, occ, dir);
    return a;
}

static bool is_fixed(const Men *m, int i)
{
    return m->reach[i] == BB(m->sq0[i]) && !m->taken[i];
}

/* Removes and returns the lowest index of a set of men; *x not empty. */
static int man_pop(uint32_t *x)
{
    int i = __builtin_ctz(*x);
    *x &= *x - 1;
    return i;
}

/* Whether every man of x is fixed. */
static bool all_fixed(const Men *m, uint32_t x)
{
    while (x)
        if (!is_fixed(m, man_pop(&x)))
            return false;
    return true;
}

/* The squares pawn i may not push onto because an enemy pawn in front of
 * it on its file can never let it pass: from the nearest such pawn on.
 * `firm` holds the squares of the enemy pawns that never leave their file
 * and are never taken. */
static Bitboard confronted(const Men *m, int i, Bitboard firm)
{
    if (m->strays[i])
        return 0;
    int sq = m->sq0[i];
    Bitboard file = FILE_A_BB << SQ_FILE(sq), below = BB(sq) - 1;
    if (m->color[i] == WHITE) {
        Bitboard ahead = firm & file & ~below & ~BB(sq);
        return ahead ? file & ~(BB(bb_lsb(ahead)) - 1) : 0;
    }
    Bitboard ahead = firm & file & below;
    if (!ahead)
        return 0;
    Bitboard near = BB(63 - __builtin_clzll(ahead));
    return file & (near | (near - 1));
}

/* The new squares of pawn i from one round's walls; sets strays and the
 * squares it can jump over.  As a piece's walk, the pawn's is followed to
 * its end within the round: each step is one the round's walls allow, so
 * its squares are those later rounds would add, in fewer rounds.  Every
 * step is taken from all the squares of a front at once: what a square
 * adds depends on that square and the round's sets alone. */
/* x one rank forward for pawns of colour c. */
static Bitboard pawn_push(Bitboard x, int c)
{
    return c == WHITE ? x << 8 : x >> 8;
}

static Bitboard pawn_round(Men *m, int i, Bitboard walls, const Bitboard stand[2],
                           const Bitboard firm[2])
{
    int c = m->color[i], them = c ^ 1, sq0 = m->sq0[i];
    Bitboard ends = RANK_1_BB | RANK_8_BB;
    Bitboard stop = walls | confronted(m, i, firm[them]), prey = stand[them] | m->jumped[them];
    Bitboard add = 0, from = m->reach[i], done = 0;
    if (SQ_RANK(sq0) == (c == WHITE ? 1 : 6)) {
        Bitboard f = pawn_push(BB(sq0), c) & ~stop;
        Bitboard f2 = pawn_push(f, c) & ~stop;
        if (f2) {
            add |= f2;
            m->jumped[c] |= f;
        }
    }
    while (from) {
        done |= from;
        Bitboard caps = bb_pawns_attacks(from, c);
        m->hits[i] |= caps;
        caps &= prey;
        if (caps)
            m->strays[i] = true;
        add |= caps | (pawn_push(from, c) & ~stop);
        from = add & ~ends & ~done;
    }
    m->promo[i] |= add & ends;
    return add & ~ends;
}

/*
 * Whether the enemy king taking man i on any square of `at` ends the game
 * at once: every other man of i's side is fixed and, with the enemy king on
 * the square taken, i's king can step nowhere, so that side, to move, is
 * stalemated (or mated, which the mate test sees: the king that took stands
 * in its reach).  Such a capture never leads anywhere, so i keeps counting
 * as never taken.  Fixed men cannot move after it either: the square taken
 * is still occupied (by the king), and lines through it are still cut.
 */
static bool capture_ends_game(const Men *m, int i, Bitboard at)
{
    int c = m->color[i];
    if (!all_fixed(m, m->men[c] & ~(UINT32_C(1) << i)))
        return false;
    Bitboard region = m->reach[m->king[c]];
    while (at) {
        int s = bb_pop(&at);
        Bitboard near = bb_king_attacks[s] | BB(s), from = region & ~near;
        while (from)
            if (bb_king_attacks[bb_pop(&from)] & region & ~near)
                return false;
    }
    return true;
}

/* One round of the rules over every man; true when anything grew.  *same
 * says whether the round left everything the race judgement reads as the
 * round before left it: the sets, the promotions and the walls. */
static bool grow_round(Men *m, bool *same)
{
    /* guard: squares a fixed man attacks whatever else stands around it
     * (for a slider, the next square along each line), where no enemy
     * king can ever step. */
    Bitboard perm[2] = {0, 0}, guard[2] = {0, 0}, stand[2] = {0, 0}, firm[2] = {0, 0};
    for (int i = 0; i < m->n; i++) {
        int c = m->color[i];
        if (m->type[i] != KING)
            stand[c] |= m->reach[i];
        if (m->type[i] == PAWN && !m->strays[i] && !m->taken[i])
            firm[c] |= BB(m->sq0[i]);
        if (!is_fixed(m, i))
            continue;
        perm[c] |= BB(m->sq0[i]);
        if (m->type[i] == PAWN)
            guard[c] |= bb_pawn_attacks[c][m->sq0[i]];
        else
            guard[c] |= board_piece_attacks(m->type[i], m->sq0[i], ~(Bitboard)0);
    }
    Bitboard walls = perm[WHITE] | perm[BLACK];
    /* The fixed men, and so the guards, are what the walls say: when they
     * stand as in the last round, the pieces' walks (followed to their
     * end below) have nothing new to find. */
    bool same_walls = walls == m->walls;
    m->walls = walls;
    bool grew = false, promo_grew = false;
    for (int i = 0; i < m->n; i++) {
        int c = m->color[i], them = c ^ 1, type = m->type[i];
        Bitboard add = 0, hits_before = m->hits[i];
        if (type == PAWN) {
            Bitboard promo_before = m->promo[i];
            add = pawn_round(m, i, walls, stand, firm);
            promo_grew |= m->promo[i] != promo_before;
        } else if (!same_walls) {
            /* Within a round the walls stand still, so a piece's walk is
             * followed to its end at once: the rules are the same, the
             * rounds fewer (a king crossing the board took one a step). */
            Bitboard from = m->reach[i], seen = m->reach[i];
            while (from) {
                Bitboard next = 0;
                next = reach_set(type, from, walls) & ~perm[c];
                if (type == KING)
                    next &= ~guard[them];
                add |= next;
                from = next & ~seen;
                seen |= next;
            }
            m->hits[i] |= add;
        }
        if ((add & ~m->reach[i]) || m->hits[i] != hits_before) {
            m->reach[i] |= add;
            grew = true;
        }
    }
    Bitboard hits[2] = {0, 0}, king_hits[2] = {m->hits[m->king[WHITE]], m->hits[m->king[BLACK]]};
    for (int c = WHITE; c <= BLACK; c++)
        for (uint32_t x = m->men[c]; x;)
            hits[c] |= m->hits[man_pop(&x)];
    for (uint32_t x = m->men[WHITE] | m->men[BLACK]; x;) {
        int i = man_pop(&x);
        if (m->taken[i])
            continue;
        int them = m->color[i] ^ 1;
        Bitboard exposed = m->reach[i];
        if (m->type[i] == PAWN) /* taken en passant on the square it jumps */
            exposed |= m->jumped[m->color[i]] & BB(m->sq0[i] + (m->color[i] == WHITE ? 8 : -8)) &
                       (RANK_3_BB | RANK_6_BB);
        if ((exposed & hits[them]) ||
            ((exposed & king_hits[them]) && !capture_ends_game(m, i, exposed & king_hits[them]))) {
            m->taken[i] = true;
            grew = true;
        }
    }
    *same = same_walls && !grew && !promo_grew;
    return grew;
}

static bool race_lost(const Men *m, const Board *b, int f, int winner);

/* Whether side f may still be one whose men but pawns never move and
 * whose pawns never promote (race_lost); the sets only grow, so once
 * false it stays false. */
static bool may_freeze(const Men *m, int f)
{
    if (m->reach[m->king[f]] != BB(m->sq0[m->king[f]]))
        return false;
    for (uint32_t x = m->men[f]; x;) {
        int i = man_pop(&x);
        if (m->type[i] == PAWN ? m->promo[i] != 0 : m->reach[i] != BB(m->sq0[i]))
            return false;
    }
    return true;
}

/* Builds the men of b and runs the rules to their fixpoint, where the sets
 * hold every game up to its first promotion and promo[] says which pawns
 * may promote.  False (the proof gives up) when a pawn may promote and
 * neither side can be shown to run out of moves first (race_lost, for the
 * mate of `winner`).  The race is judged after every round: the sets only
 * grow, and each thing that grows only makes the race easier for the side
 * that promotes, so a race lost to the promotion stays lost. */
static bool men_fixpoint(Men *m, const Board *b, int winner)
{
    m->n = 0;
    m->men[WHITE] = m->men[BLACK] = m->pawns[WHITE] = m->pawns[BLACK] = 0;
    m->jumped[WHITE] = m->jumped[BLACK] = 0;
    m->walls = ~(Bitboard)0; /* no round yet */
    Bitboard occ = board_occupied(b);
    while (occ) {
        int sq = bb_pop(&occ), i = m->n++;
        int piece = b->squares[sq];
        m->sq0[i] = (uint8_t)sq;
        m->color[i] = (uint8_t)piece_color(piece);
        m->type[i] = (uint8_t)piece_type(piece);
        m->reach[i] = BB(sq);
        m->hits[i] = 0;
        m->taken[i] = false;
        m->strays[i] = false;
        m->promo[i] = 0;
        if (m->type[i] == KING)
            m->king[m->color[i]] = i;
        else
            m->men[m->color[i]] |= UINT32_C(1) << i;
        if (m->type[i] == PAWN)
            m->pawns[m->color[i]] |= UINT32_C(1) << i;
    }
    for (;;) {
        bool same, grew = grow_round(m, &same), promotes = false;
        if (same)
            return true; /* the race was judged on this very state */
        for (uint32_t x = m->pawns[WHITE] | m->pawns[BLACK]; x;)
            promotes |= m->promo[man_pop(&x)] != 0;
        if (promotes && !race_lost(m, b, WHITE, winner) && !race_lost(m, b, BLACK, winner))
            return false;
        if (!grew)
            return true;
    }
}

/* The squares a flight of k must stay empty of: what the winner's men
 * other than the king may attack.  What they may stand on does not count:
 * an unprotected man next to the king is taken. */
typedef struct MateMaterial {
    Bitboard attacks;    /* squares the winner's men may ever attack */
    Bitboard line_reach; /* squares sliders of each kind may stand on: */
    Bitboard diag_reach; /* rooks and queens, bishops and queens */
} MateMaterial;

/* Whether the loser's king could be mated on k: every flight square the
 * winner's men never attack must be taken by the winner's king or held by
 * a distinct man of the loser (pigeonhole). */
static bool flights_coverable(const Men *m, int winner, int k, Bitboard attacks)
{
    int loser = winner ^ 1;
    Bitboard flights = bb_king_attacks[k] & ~attacks;
    Bitboard wk = m->reach[m->king[winner]] & ~bb_king_attacks[k] & ~BB(k);
    /* The winner's king helping from nowhere is the case of an empty wk. */
    for (int pass = 0; pass == 0 || wk; pass++) {
        Bitboard need = flights;
        if (wk)
            need &= ~bb_king_attacks[bb_pop(&wk)];
        int blockers = 0;
        Bitboard covered = 0;
        for (uint32_t x = m->men[loser]; x;) {
            Bitboard r = m->reach[man_pop(&x)] & need;
            blockers += r != 0;
            covered |= r;
        }
        if (covered == need && blockers >= bb_popcount(need))
            return true;
    }
    return false;
}

/* Whether a slider behind w1, seen from k, could give check when the
 * winner's king steps off w1: a line from k through w1 that no fixed man
 * cuts, with a slider of its kind able to stand beyond w1. */
static bool discovers_check(const Men *m, const MateMaterial *mm, int k, int w1)
{
    Bitboard line = bb_line[k][w1];
    if (!line || (bb_between[k][w1] & m->walls))
        return false;
    bool diag = SQ_FILE(k) != SQ_FILE(w1) && SQ_RANK(k) != SQ_RANK(w1);
    Bitboard sliders = diag ? mm->diag_reach : mm->line_reach;
    /* Beyond w1: the squares of the line w1 sees on the side away from k. */
    Bitboard seen =
        (diag ? bb_bishop_attacks(w1, m->walls) : bb_rook_attacks(w1, m->walls)) & line & sliders;
    while (seen) {
        int s = bb_pop(&seen);
        if (bb_between[k][s] & BB(w1))
            return true;
    }
    return false;
}

/*
 * The last moves before a mate on k.  When every man of the loser but the
 * king is fixed, the loser's last move brought the king to k from a
 * neighbour f, and f must be covered at the mate.  When no man of the
 * winner but the king can ever attack f, the king covers it; it was not
 * next to f a move before (the loser's king stood there), so the mating
 * move is the king's own step w1 -> w2, next to f, and the check it gives
 * is discovered from w1 (which was next to neither f nor k).  True when
 * no such last moves exist, whichever neighbour f the king came from.
 * The root, when the loser's king stands on k, has no last move: the
 * caller looks at it and its moves instead.
 */
static bool last_moves_impossible(const Men *m, const MateMaterial *mm, int winner, int k)
{
    int loser = winner ^ 1;
    if (!all_fixed(m, m->men[loser]))
        return false;
    Bitboard wk = m->reach[m->king[winner]];
    Bitboard from = bb_king_attacks[k] & m->reach[m->king[loser]];
    while (from) {
        int f = bb_pop(&from);
        if (mm->attacks & BB(f))
            return false;
        Bitboard near_k = bb_king_attacks[k] | BB(k), near_f = bb_king_attacks[f] | BB(f);
        Bitboard w2s = wk & bb_king_attacks[f] & ~near_k;
        while (w2s) {
            Bitboard w1s = wk & bb_king_attacks[bb_pop(&w2s)] & ~near_k & ~near_f;
            while (w1s)
                if (discovers_check(m, mm, k, bb_pop(&w1s)))
                    return false;
        }
    }
    return true;
}

/* Whether a move of the side to move mates at once. */
static bool mates_in_one(const Board *b)
{
    MoveList list;
    movegen_legal_moves(b, &list);
    for (int i = 0; i < list.count; i++) {
        Board child = *b;
        board_make(&child, list.moves[i]);
        if (board_in_check(&child) && movegen_count_legal(&child) == 0)
            return true;
    }
    return false;
}

/* ---------------------------------------------------------------------- */
/* The race to the first promotion                                          */

/* Moves a pawn makes at most before the first promotion: each of its moves
 * gains a rank, and its reach holds every square it can stand on. */
static int pawn_supply(const Men *m, int i)
{
    int r0 = SQ_RANK(m->sq0[i]);
    Bitboard r = m->reach[i]; /* never empty: it holds the pawn's square */
    if (m->color[i] == WHITE)
        return SQ_RANK(63 - __builtin_clzll(r)) - r0;
    return r0 - SQ_RANK(bb_lsb(r));
}

/* King steps from the king's square to every square of its reach, through
 * its reach (UINT8_MAX elsewhere): a king's walk never leaves its reach, so
 * no walk is shorter. */
static void king_steps(const Men *m, int king, uint8_t dist[64])
{
    for (int s = 0; s < 64; s++)
        dist[s] = UINT8_MAX;
    Bitboard seen = BB(m->sq0[king]), frontier = seen;
    for (uint8_t d = 0; frontier; d++) {
        Bitboard f = frontier, next = 0;
        while (f) {
            int s = bb_pop(&f);
            dist[s] = d;
            next |= bb_king_attacks[s];
        }
        frontier = next & m->reach[king] & ~seen;
        seen |= frontier;
    }
}

/*
 * Whether `f`, to make one more move after the other side's promotion on a
 * square of qs, needs a pawn move of its supply.  Nothing of f can take
 * the new piece: f's pawns never attack their own first rank, f's king
 * stands away from it, f's pieces (which never move) do not see it even
 * through the men that do move.  Nothing else of f is freed: the pawn that
 * promoted stood on no square of f's walls and in front of no pawn of f
 * (that pawn would stand on f's first rank).  So f's next move is a pawn
 * move along the sets, one more of its count.  And when f is the loser,
 * the promotion cannot be the mate: the new piece on q does not attack
 * f's king whatever it is, and the other side has no slider whose check
 * the pawn could discover.
 */
static bool promotion_needs_reply(const Men *m, int f, int winner, Bitboard qs)
{
    int kf = m->sq0[m->king[f]];
    Bitboard seen = bb_king_attacks[kf];
    for (uint32_t x = f != winner ? m->men[f ^ 1] & ~m->pawns[f ^ 1] : 0; x;) {
        int t = m->type[man_pop(&x)];
        if (t == BISHOP || t == ROOK || t == QUEEN)
            return false;
    }
    for (uint32_t x = m->men[f] & ~m->pawns[f]; x;) {
        int j = man_pop(&x);
        seen |= board_piece_attacks(m->type[j], m->sq0[j], m->walls);
    }
    if (qs & seen)
        return false;
    while (qs && f != winner) {
        int q = bb_pop(&qs);
        if ((bb_queen_attacks(q, m->walls) | bb_knight_attacks[q]) & BB(kf))
            return false;
    }
    return true;
}

/*
 * The fewest moves side r needs before pawn i promotes, and the most moves
 * side f (whose men but pawns never move) can make meanwhile, compared:
 * true when f runs out first.  i moves at least once per rank to go, one
 * less from its first rank (the double step).  When i never leaves its
 * file, an enemy pawn ahead of it that never leaves its file either can
 * only go by being taken by another man of r: one more move each.  When
 * that man can only be r's king, it walks to the square s of the capture
 * and off it again (s is on i's way); then f's supply counts that pawn's
 * moves only up to s.  Several such pawns: the king walks to the nearest
 * first, takes each of them with a move, and steps off after the last.  `spare` is what f may still
 * play after the promotion plus one when r moves first.
 */
static bool promotion_too_late(const Men *m, int f, int i, Bitboard others, uint8_t kdist[65],
                               int supply, int spare)
{
    int c = m->color[i], sq = m->sq0[i];
    int togo = c == WHITE ? 7 - SQ_RANK(sq) : SQ_RANK(sq);
    int pushes = togo - (SQ_RANK(sq) == (c == WHITE ? 1 : 6) ? 1 : 0);
    int blockers = 0, only = -1, kings = 0;
    Bitboard taken_at = 0; /* where the blockers only the king can take stand */
    for (uint32_t x = m->strays[i] ? 0 : m->pawns[f]; x;) {
        int j = man_pop(&x);
        if (m->strays[j] || SQ_FILE(m->sq0[j]) != SQ_FILE(sq))
            continue;
        if (c == WHITE ? m->sq0[j] < sq : m->sq0[j] > sq)
            continue; /* behind i */
        blockers++;
        /* Where it can be taken: its squares, and the square it may jump
         * over (en passant). */
        Bitboard exposed = m->reach[j];
        if (SQ_RANK(m->sq0[j]) == (f == WHITE ? 1 : 6))
            exposed |= BB(m->sq0[j] + (f == WHITE ? 8 : -8));
        only = (exposed & others) ? -2 : j;
        if (only >= 0) {
            kings++;
            taken_at |= m->reach[j];
        }
    }
    if (kings > 0 && !kdist[64]) {
        king_steps(m, m->king[c], kdist);
        kdist[64] = 1;
    }
    if (blockers > 1 && kings == blockers) {
        /* The king takes them all, one move each after the first, and
         * steps off the file after the last. */
        int nearest = UINT8_MAX;
        while (taken_at) {
            int s = bb_pop(&taken_at);
            if (kdist[s] < nearest)
                nearest = kdist[s];
        }
        return pushes + nearest + blockers > supply + spare;
    }
    if (blockers != 1 || only < 0)
        return pushes + blockers > supply + spare;
    /* One blocker that only r's king can take: at each square it may be
     * taken on. */
    int span = pawn_supply(m, only);
    Bitboard at = m->reach[only];
    while (at) {
        int s = bb_pop(&at);
        if (kdist[s] == UINT8_MAX)
            continue;
        int advanced = SQ_RANK(s) - SQ_RANK(m->sq0[only]);
        if (advanced < 0)
            advanced = -advanced;
        if (pushes + kdist[s] + 1 <= supply - span + advanced + spare)
            return false;
    }
    return true;
}

/*
 * Whether side f runs out of moves before any pawn promotes, so that every
 * game from b stays within the capped sets.  f qualifies when none of its
 * men but pawns ever move and none of its pawns can promote before the
 * first promotion: then every move of f before the first promotion is a
 * pawn move and f has at most `supply` of them (pawn_supply).  A game in
 * which f has no move left ends there.  The first promotion is then r's:
 * if r needs more moves for it than f can answer (promotion_too_late), f
 * runs out before it; with promotion_needs_reply, f must also answer the
 * promotion itself, from the same supply, before r can mate or f can use
 * the new position.
 */
static bool race_lost(const Men *m, const Board *b, int f, int winner)
{
    if (!may_freeze(m, f))
        return false;
    int r = f ^ 1, supply = 0;
    for (uint32_t x = m->pawns[f]; x;)
        supply += pawn_supply(m, man_pop(&x));
    /* r's king's distances, filled on first need (kdist[64] says so). */
    uint8_t kdist[65];
    kdist[64] = 0;
    Bitboard others = 0; /* squares r's men but the king may take on */
    for (uint32_t x = m->men[r]; x;)
        others |= m->hits[man_pop(&x)];
    for (uint32_t x = m->pawns[r]; x;) {
        int i = man_pop(&x);
        if (!m->promo[i])
            continue;
        /* f's moves before r's k-th move: k when f moves first, else k - 1;
         * and one more when f must answer the promotion. */
        int spare = (b->side == r) - promotion_needs_reply(m, f, winner, m->promo[i]);
        if (!promotion_too_late(m, f, i, others, kdist, supply, spare))
            return false;
    }
    return true;
}

bool canmate_static_no(const Board *b, int winner)
{
    if (b->castling || b->ep != SQ_NONE)
        return false;
    Men m;
    if (!men_fixpoint(&m, b, winner))
        return false;
    int loser = winner ^ 1;
    Bitboard kreg = m.reach[m.king[loser]];
    MateMaterial mm = {0, 0, 0};
    for (uint32_t x = m.men[winner]; x;) {
        int i = man_pop(&x);
        Bitboard from = m.reach[i];
        mm.attacks |= m.type[i] == PAWN ? bb_pawns_attacks(from, winner)
                                        : reach_set(m.type[i], from, m.walls);
        if (m.type[i] == BISHOP || m.type[i] == QUEEN)
            mm.diag_reach |= m.reach[i];
        if (m.type[i] == ROOK || m.type[i] == QUEEN)
            mm.line_reach |= m.reach[i];
    }
    /* A mate needs a check (kings never give one) and no flight left. */
    Bitboard checks = mm.attacks & kreg;
    while (checks) {
        int k = bb_pop(&checks);
        if (!flights_coverable(&m, winner, k, mm.attacks))
            continue;
        /* The root has no last moves: it may be the mate, or the
         * position the mating move is played from. */
        if (k == board_king(b, loser) &&
            (b->side == winner ? mates_in_one(b)
                               : board_in_check(b) && movegen_count_legal(b) == 0))
            return false;
        if (!last_moves_impossible(&m, &mm, winner, k))
            return false;
    }
    return true;
}

/* ---------------------------------------------------------------------- */
/* The frozen-wall proof                                                    */

/* Squares orthogonally adjacent to sq. */
static Bitboard orth_neighbours(int sq)
{
    Bitboard x = BB(sq);
    return ((x << 1) & ~FILE_A_BB) | ((x >> 1) & ~FILE_H_BB) | (x << 8) | (x >> 8);
}

Bitboard canmate_static_region(int type, int sq, Bitboard pawns, Bitboard forbidden)
{
    Bitboard reg = BB(sq), frontier = reg;
    while (frontier) {
        Bitboard next = 0;
        if (type == KING) {
            next = bb_king_spread(frontier);
        } else {
            while (frontier) {
                int s = bb_pop(&frontier);
                next |= board_piece_attacks(type, s, pawns);
            }
        }
        next &= ~pawns & ~forbidden & ~reg;
        reg |= next;
        frontier = next;
    }
    return reg;
}

/* Squares a piece of `type` attacks from some square of reg. */
static Bitboard attacks_from(int type, Bitboard reg, Bitboard pawns)
{
    if (type == KING)
        return bb_king_spread(reg) & ~reg;
    Bitboard att = 0;
    while (reg) {
        int s = bb_pop(&reg);
        att |= board_piece_attacks(type, s, pawns);
    }
    return att;
}

/*
 * The proof under the invariant that the pawns never move and are never
 * captured, assumed and then checked to be inductive: under it each piece
 * stays inside its region (computed with pawns as the only obstacles; kings
 * also avoid squares enemy pawns attack), so the invariant holds for ever
 * when no pawn is free to advance, no pawn ever has something to capture
 * and no piece can ever capture a pawn.
 */
bool canmate_static_frozen_no(const Board *b, int winner)
{
    Bitboard pawns = b->by_type[PAWN];
    Bitboard wp = board_pieces(b, WHITE, PAWN), bp = board_pieces(b, BLACK, PAWN);
    if (((wp << 8) & ~pawns) || ((bp >> 8) & ~pawns))
        return false; /* some pawn can advance */
    if (b->ep != SQ_NONE)
        return false;
    Bitboard patt[2] = {bb_pawns_attacks(wp, WHITE), bb_pawns_attacks(bp, BLACK)};
    Bitboard cpawns[2] = {wp, bp};
    if ((patt[WHITE] & bp) || (patt[BLACK] & wp))
        return false; /* a pawn can capture a pawn */

    int loser = winner ^ 1;
    Bitboard king_reg[2] = {0, 0};
    Bitboard win_attacks = 0, lose_piece_regs = 0;
    Bitboard win_types = 0; /* bit per piece type the winner has (not king) */
    Bitboard win_bishop_sq = 0;
    Bitboard pieces = board_occupied(b) & ~pawns;
    while (pieces) {
        int sq = bb_pop(&pieces);
        int piece = b->squares[sq];
        int c = piece_color(piece), type = piece_type(piece), them = c ^ 1;
        if (type == KING) {
            Bitboard reg = canmate_static_region(KING, sq, pawns, patt[them]);
            /* An enemy pawn not defended by a pawn could be taken by the king. */
            if (bb_king_spread(reg) & cpawns[them] & ~patt[them])
                return false;
            king_reg[c] = reg;
            continue;
        }
        Bitboard reg = canmate_static_region(type, sq, pawns, 0);
        if (reg & patt[them])
            return false; /* an enemy pawn could capture it */
        Bitboard att = attacks_from(type, reg, pawns);
        if (att & cpawns[them])
            return false; /* it could capture a pawn */
        if (c == winner) {
            win_attacks |= att;
            win_types |= BB(type);
            if (type == BISHOP)
                win_bishop_sq |= BB(sq);
        } else {
            lose_piece_regs |= reg;
        }
    }

    /* Pawns never check (the loser's king avoids their squares), kings
     * never check: only the winner's pieces could. */
    Bitboard checkable = win_attacks & king_reg[loser];
    if (!checkable)
        return true;

    /* Bishops of one colour only: on every square they could check, the
     * king must keep an orthogonal neighbour (the other colour, which the
     * bishops never see) that no pawn occupies or attacks, the winner's king
     * never reaches and no piece of the loser's can ever block. */
    bool one_colour = !(win_bishop_sq & LIGHT_SQUARES_BB) || !(win_bishop_sq & DARK_SQUARES_BB);
    if (win_types != BB(BISHOP) || !one_colour)
        return false;
    Bitboard blocked = pawns | patt[winner] | bb_king_spread(king_reg[winner]) | lose_piece_regs;
    while (checkable) {
        int k = bb_pop(&checkable);
        if (!(orth_neighbours(k) & ~blocked))
            return false;
    }
    return true;
}
