/*
 * notation.c — SAN out (plain, national, figurine) and tolerant move input.
 *
 * Input works in three steps: the text is normalised to plain ASCII (piece
 * glyphs and national letters become K Q R B N P, spaces go, suffixes such
 * as "+", "!?" and "e.p." are dropped), the ASCII is read into a Spec (piece,
 * from-file/rank, target, promotion, capture mark), and the Spec is matched
 * against the legal moves.  When nothing matches, explain() works out why,
 * looking at the moves the pieces could make if the king's safety did not
 * count, so the message names the real obstacle (no such piece, blocked
 * way, pin, check, castling condition).
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "error.h"
#include "notation.h"

/* Piece letters per type (PAWN first, as in bitboard.h). */
static const char *const letters_en[PIECE_TYPE_NB] = {"", "N", "B", "R", "Q", "K"};
static const char *const letters_ru[PIECE_TYPE_NB] = {"", "К", "С", "Л", "Ф", "Кр"};
static const char *const letters_bg[PIECE_TYPE_NB] = {"", "К", "О", "Т", "Д", "Ц"};
static const char *const letters_fig[PIECE_TYPE_NB] = {"", "♘", "♗", "♖", "♕", "♔"};

static const char *const piece_names[PIECE_TYPE_NB] = {"pawn", "knight", "bishop",
                                                       "rook", "queen",  "king"};
static const char *const piece_plurals[PIECE_TYPE_NB] = {"pawns", "knights", "bishops",
                                                         "rooks", "queens",  "kings"};
static const char *const color_names[2] = {"White", "Black"};

static void sq_name(int sq, char out[3])
{
    out[0] = (char)('a' + SQ_FILE(sq));
    out[1] = (char)('1' + SQ_RANK(sq));
    out[2] = '\0';
}

static bool in_list(const MoveList *l, Move m)
{
    for (int i = 0; i < l->count; i++)
        if (l->moves[i] == m)
            return true;
    return false;
}

/* ---- SAN out ------------------------------------------------------------- */

static void write_san(const Board *b, const MoveList *legal, Move m,
                      const char *const letters[PIECE_TYPE_NB], char *out)
{
    int from = move_from(m), to = move_to(m), kind = move_kind(m);
    int type = piece_type(b->squares[from]);
    char *p = out;
    char sq[3];

    if (kind == MOVE_CASTLING) {
        strcpy(p, to > from ? "O-O" : "O-O-O");
        p += strlen(p);
    } else {
        if (type == PAWN) {
            if (SQ_FILE(from) != SQ_FILE(to)) {
                *p++ = (char)('a' + SQ_FILE(from));
                *p++ = 'x';
            }
        } else {
            strcpy(p, letters[type]);
            p += strlen(p);
            /* Disambiguation (PGN 8.2.3.4): file if it suffices, else rank,
             * else both. */
            bool others = false, same_file = false, same_rank = false;
            for (int i = 0; i < legal->count; i++) {
                Move o = legal->moves[i];
                int of = move_from(o);
                if (of == from || move_to(o) != to || piece_type(b->squares[of]) != type)
                    continue;
                others = true;
                same_file |= SQ_FILE(of) == SQ_FILE(from);
                same_rank |= SQ_RANK(of) == SQ_RANK(from);
            }
            if (others) {
                if (!same_file || same_rank)
                    *p++ = (char)('a' + SQ_FILE(from));
                if (same_file)
                    *p++ = (char)('1' + SQ_RANK(from));
            }
            if (b->squares[to] != PIECE_NONE)
                *p++ = 'x';
        }
        sq_name(to, sq);
        *p++ = sq[0];
        *p++ = sq[1];
        if (kind == MOVE_PROMOTION) {
            *p++ = '=';
            strcpy(p, letters[move_promotion(m)]);
            p += strlen(p);
        }
    }
    Board after = *b;
    board_make(&after, m);
    if (board_in_check(&after))
        *p++ = movegen_count_legal(&after) == 0 ? '#' : '+';
    *p = '\0';
}

int notation_san(const Board *b, Move m, char out[NOTATION_SAN_MAX])
{
    return notation_san_localized(b, m, "en", out);
}

int notation_san_localized(const Board *b, Move m, const char *lang, char out[NOTATION_SAN_MAX])
{
    const char *const *letters = letters_en;
    int rc = 0;
    if (!lang || strcmp(lang, "en") == 0)
        letters = letters_en;
    else if (strcmp(lang, "ru") == 0)
        letters = letters_ru;
    else if (strcmp(lang, "bg") == 0)
        letters = letters_bg;
    else if (strcmp(lang, "figurine") == 0)
        letters = letters_fig;
    else
        rc = NOTATION_E_LANG;
    MoveList legal;
    movegen_legal_moves(b, &legal);
    if (!in_list(&legal, m)) {
        out[0] = '\0';
        return NOTATION_E_ILLEGAL;
    }
    write_san(b, &legal, m, letters, out);
    return rc;
}

/* ---- Input: normalisation ------------------------------------------------ */

/* Multi-byte spellings and their ASCII meaning.  '@' stands for the
 * Cyrillic letter O, which is a castling "O" or the Bulgarian bishop. */
static const struct {
    const char *utf8;
    char ascii;
} glyphs[] = {
    {"♔", 'K'}, {"♕", 'Q'}, {"♖", 'R'},  {"♗", 'B'},  {"♘", 'N'},
    {"♙", 'P'}, {"♚", 'K'}, {"♛", 'Q'},  {"♜", 'R'},  {"♝", 'B'},
    {"♞", 'N'}, {"♟", 'P'}, {"Кр", 'K'}, {"КР", 'K'}, {"кр", 'K'}, /* Russian king: before К */
    {"К", 'N'}, {"Ф", 'Q'}, {"Л", 'R'},  {"С", 'B'},               /* Russian */
    {"Ц", 'K'}, {"Д", 'Q'}, {"Т", 'R'},  {"О", '@'},               /* Bulgarian */
    {"о", '@'}, {"×", 'x'}, {"–", '-'},  {"—", '-'},  {"‐", '-'},
    {"−", '-'}, {"‼", '!'}, {"⁇", '?'},  {"⁈", '?'},  {"⁉", '!'},
};

enum { TEXT_MAX = 48 };

typedef struct Spec {
    int piece;     /* piece type, or -1 when the from square decides */
    int from_file; /* -1 when not given */
    int from_rank;
    int to;
    int promo;    /* piece type, or -1 when not given */
    bool capture; /* an "x" or ":" was written */
    bool lower_b; /* a leading lowercase "b" that may also mean a bishop */
} Spec;

/* Normalises text into s (ASCII, no spaces).  Returns false on an
 * unknown character, with its position in *bad. */
static bool normalise(const char *text, char *s, size_t smax, const char **bad)
{
    size_t n = 0;
    const char *t = text;
    while (*t) {
        unsigned char c = (unsigned char)*t;
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
            t++;
            continue;
        }
        char a = 0;
        size_t len = 1;
        if (c < 0x80) {
            if (c < 0x21 || c == 0x7f) {
                *bad = t;
                return false;
            }
            a = (char)c;
        } else {
            for (size_t i = 0; i < sizeof glyphs / sizeof glyphs[0]; i++) {
                size_t gl = strlen(glyphs[i].utf8);
                if (strncmp(t, glyphs[i].utf8, gl) == 0) {
                    a = glyphs[i].ascii;
                    len = gl;
                    break;
                }
            }
            if (!a) {
                *bad = t;
                return false;
            }
        }
        if (n + 1 >= smax) {
            *bad = NULL;
            return false;
        }
        s[n++] = a;
        t += len;
    }
    s[n] = '\0';
    return true;
}

/* Drops trailing check marks, annotation glyphs and the e.p. mark. */
static void strip_suffixes(char *s)
{
    size_t n = strlen(s);
    for (int pass = 0; pass < 2; pass++) {
        while (n > 0 && strchr("+#!?", s[n - 1]))
            s[--n] = '\0';
        static const char *const eps[] = {"e.p.", "e.p", "ep.", "ep", "(ep)", "(e.p.)"};
        for (size_t i = 0; i < sizeof eps / sizeof eps[0]; i++) {
            size_t el = strlen(eps[i]);
            /* "ep" must follow a rank digit, so a move ending in 'e' or a
             * piece letter is not mistaken for the mark. */
            if (n > el && strcmp(s + n - el, eps[i]) == 0 && s[n - el - 1] >= '1' &&
                s[n - el - 1] <= '8') {
                n -= el;
                s[n] = '\0';
                break;
            }
        }
    }
}

/* 0 not castling, 1 kingside (O-O), 2 queenside (O-O-O). */
static int castling_side(const char *s)
{
    int os = 0;
    bool need_o = true;
    for (const char *p = s; *p; p++) {
        if (*p == 'O' || *p == '0' || *p == 'o' || *p == '@') {
            os++;
            need_o = false;
        } else if (*p == '-' && !need_o && os > 0) {
            need_o = true;
        } else {
            return 0;
        }
    }
    if (need_o)
        return 0;
    return os == 2 ? 1 : os == 3 ? 2 : 0;
}

static int letter_type(char c)
{
    switch (c) {
    case 'P': return PAWN;
    case 'N': return KNIGHT;
    case 'B': return BISHOP;
    case 'R': return ROOK;
    case 'Q': return QUEEN;
    case 'K': return KING;
    default: return -1;
    }
}

static int lower_letter_type(char c)
{
    switch (c) {
    case 'n': return KNIGHT;
    case 'b': return BISHOP;
    case 'r': return ROOK;
    case 'q': return QUEEN;
    case 'k': return KING;
    case 'p': return PAWN;
    default: return -1;
    }
}

/* Reads the ASCII form into sp.  Returns 0 or NOTATION_E_MALFORMED. */
static int read_spec(const char *s, const char *orig, Spec *sp, char *err, size_t errlen)
{
    memset(sp, 0, sizeof *sp);
    sp->piece = sp->from_file = sp->from_rank = sp->to = sp->promo = -1;
    const char *p = s;
    if (letter_type(*p) >= 0) {
        sp->piece = letter_type(*p++);
    } else if (*p != 'b' && lower_letter_type(*p) >= 0 && p[1]) {
        sp->piece = lower_letter_type(*p++);
    }
    /* Up to two coordinates: [from] to, each a file, a rank or a square. */
    int files[3], ranks[3], ncoord = 0;
    bool sep_seen = false;
    while (*p) {
        char c = *p;
        if (c >= 'a' && c <= 'h') {
            if (sp->promo >= 0)
                goto malformed;
            /* A lowercase b after a complete target square is the UCI
             * promotion to a bishop ("a7b8b"). */
            if (c == 'b' && p[1] == '\0' && ncoord > 0 && files[ncoord - 1] >= 0 &&
                ranks[ncoord - 1] >= 0) {
                sp->promo = BISHOP;
                p++;
                continue;
            }
            if (ncoord == 3)
                goto malformed;
            files[ncoord] = c - 'a';
            ranks[ncoord] = -1;
            p++;
            if (*p >= '1' && *p <= '8')
                ranks[ncoord] = *p++ - '1';
            ncoord++;
        } else if (c >= '1' && c <= '8') {
            if (ncoord == 3 || sp->promo >= 0)
                goto malformed;
            files[ncoord] = -1;
            ranks[ncoord] = c - '1';
            ncoord++;
            p++;
        } else if (c == 'x' || c == ':') {
            if (sp->capture || sp->promo >= 0)
                goto malformed;
            sp->capture = true;
            p++;
        } else if (c == '-') {
            if (sep_seen || ncoord == 0 || sp->promo >= 0)
                goto malformed;
            sep_seen = true;
            p++;
        } else if (c == '=' || c == '/') {
            int t = letter_type(p[1]) >= 0 ? letter_type(p[1]) : lower_letter_type(p[1]);
            if (t < 0 || sp->promo >= 0 || ncoord == 0)
                goto malformed;
            sp->promo = t;
            p += 2;
        } else if (c == '(') {
            int t = letter_type(p[1]) >= 0 ? letter_type(p[1]) : lower_letter_type(p[1]);
            if (t < 0 || p[2] != ')' || sp->promo >= 0 || ncoord == 0)
                goto malformed;
            sp->promo = t;
            p += 3;
        } else if ((letter_type(c) >= 0 || lower_letter_type(c) >= 0) && ncoord > 0 &&
                   sp->promo < 0) {
            sp->promo = letter_type(c) >= 0 ? letter_type(c) : lower_letter_type(c);
            p++;
        } else {
            goto malformed;
        }
    }
    if (ncoord == 0 || files[ncoord - 1] < 0 || ranks[ncoord - 1] < 0) {
        return error_set(err, errlen, NOTATION_E_MALFORMED,
                         "'%s' is not a move: it names no target square", orig);
    }
    if (ncoord == 3)
        goto malformed;
    sp->to = SQ(files[ncoord - 1], ranks[ncoord - 1]);
    if (ncoord == 2) {
        sp->from_file = files[0];
        sp->from_rank = ranks[0];
    }
    bool full_from = sp->from_file >= 0 && sp->from_rank >= 0;
    if (sp->piece < 0 && !full_from) {
        sp->piece = PAWN;
        sp->lower_b = s[0] == 'b' && sp->from_file == 1 && sp->from_rank < 0;
    }
    return 0;

malformed:
    return error_set(err, errlen, NOTATION_E_MALFORMED,
                     "'%s' is not a move: write it like Nf3, exd5, e8=Q, O-O or e2e4", orig);
}

/* ---- Input: matching --------------------------------------------------- */

static bool fits(const Board *b, Move m, const Spec *sp, bool ignore_promo)
{
    int from = move_from(m), to = move_to(m);
    if (to != sp->to)
        return false;
    int type = piece_type(b->squares[from]);
    if (sp->piece >= 0 && type != sp->piece)
        return false;
    if (sp->from_file >= 0 && SQ_FILE(from) != sp->from_file)
        return false;
    if (sp->from_rank >= 0 && SQ_RANK(from) != sp->from_rank)
        return false;
    /* "e4" is a push, never a capture: a pawn without a from-file keeps
     * its file unless a capture was written. */
    if (type == PAWN && sp->from_file < 0 && (SQ_FILE(from) != SQ_FILE(to)) != sp->capture)
        return false;
    if (move_kind(m) == MOVE_PROMOTION)
        return ignore_promo || sp->promo < 0 || move_promotion(m) == sp->promo;
    return sp->promo < 0;
}

/* The target squares a piece on from could reach if its own king's
 * safety did not count (castling aside). */
static Bitboard pseudo_targets(const Board *b, int from)
{
    int piece = b->squares[from];
    int us = piece_color(piece), type = piece_type(piece);
    Bitboard occ = board_occupied(b), own = b->by_color[us];
    switch (type) {
    case PAWN: {
        Bitboard t = 0;
        int dir = us == WHITE ? 8 : -8;
        int one = from + dir;
        if (one >= 0 && one < 64 && !(occ & BB(one))) {
            t |= BB(one);
            int start_rank = us == WHITE ? 1 : 6;
            if (SQ_RANK(from) == start_rank && !(occ & BB(one + dir)))
                t |= BB(one + dir);
        }
        Bitboard caps = bb_pawn_attacks[us][from] & b->by_color[us ^ 1];
        if (b->ep != SQ_NONE)
            caps |= bb_pawn_attacks[us][from] & BB(b->ep);
        return t | caps;
    }
    case KNIGHT: return bb_knight_attacks[from] & ~own;
    case BISHOP: return bb_bishop_attacks(from, occ) & ~own;
    case ROOK: return bb_rook_attacks(from, occ) & ~own;
    case QUEEN: return bb_queen_attacks(from, occ) & ~own;
    default: return bb_king_attacks[from] & ~own;
    }
}

/*
 * Whether the pawn on from, capturing en passant on the empty square to,
 * would leave its own king in check, in a position where the opponent's
 * pawn could just have made the double step past to.  The board keeps the
 * en passant square only when the capture is legal (Art. 9.2.3), so an
 * en passant capture refused for a pin is recognised here by its shape:
 * their pawn beside ours, the squares it would have crossed empty.
 */
static bool ep_exposes_king(const Board *b, int from, int to)
{
    int us = b->side, them = us ^ 1;
    int capsq = us == WHITE ? to - 8 : to + 8;
    int origin = us == WHITE ? to + 8 : to - 8;
    if (SQ_RANK(to) != (us == WHITE ? 5 : 2) || b->squares[capsq] != piece_make(them, PAWN) ||
        b->squares[origin] != PIECE_NONE)
        return false;
    int ksq = board_king(b, us);
    Bitboard occ = (board_occupied(b) ^ BB(from) ^ BB(capsq)) | BB(to);
    return (board_attackers(b, ksq, them, occ) & ~BB(capsq)) != 0;
}

/* Explains why castling to one side is not legal. */
static int explain_castling(const Board *b, int side, Move *out, char *err, size_t errlen)
{
    int us = b->side, them = us ^ 1;
    const char *wing = side == 1 ? "kingside" : "queenside";
    int home = us == WHITE ? 4 : 60;
    int right =
        side == 1 ? (us == WHITE ? CASTLE_WK : CASTLE_BK) : (us == WHITE ? CASTLE_WQ : CASTLE_BQ);
    int rook = side == 1 ? home + 3 : home - 4;
    int dest = side == 1 ? home + 2 : home - 2;
    char sq[3];
    /* The king is the piece a castling names (4.3, 4.4.3), wherever it
     * stands: an illegal castling binds it even when the right was lost
     * long ago.  *OUT names an illegal move of it; where the king's plain
     * step to the castling square is legal (a king beside it), no such
     * move is at hand and nothing is bound. */
    Bitboard king = board_pieces(b, us, KING);
    if (king && bb_lsb(king) != dest) {
        Move step = move_new(bb_lsb(king), dest, MOVE_NORMAL, KNIGHT);
        if (!movegen_is_legal(b, step))
            *out = step;
    }
    if (!(b->castling & right)) {
        sq_name(rook, sq);
        return error_set(err, errlen, NOTATION_E_ILLEGAL,
                         "%s can no longer castle %s: the king or the %s rook has moved",
                         color_names[us], wing, sq);
    }
    Bitboard occ = board_occupied(b);
    if (bb_between[home][rook] & occ) {
        return error_set(
            err, errlen, NOTATION_E_ILLEGAL,
            "cannot castle %s: the squares between the king and the rook must be empty", wing);
    }
    if (board_in_check(b))
        return error_set(err, errlen, NOTATION_E_ILLEGAL, "cannot castle while in check");
    int step = side == 1 ? 1 : -1;
    if (board_attackers(b, home + step, them, occ)) {
        sq_name(home + step, sq);
        return error_set(err, errlen, NOTATION_E_ILLEGAL,
                         "cannot castle %s: the king would cross %s, which is attacked", wing, sq);
    }
    sq_name(dest, sq);
    return error_set(err, errlen, NOTATION_E_ILLEGAL,
                     "cannot castle %s: the king would be in check on %s", wing, sq);
}

/* Nothing legal fits sp: say why. */
static int explain(const Board *b, const Spec *sp, const char *orig, Move *out, char *err,
                   size_t errlen)
{
    int us = b->side, them = us ^ 1;
    char tosq[3], fsq[3];
    sq_name(sp->to, tosq);
    bool full_from = sp->from_file >= 0 && sp->from_rank >= 0;
    *out = MOVE_NONE;

    if (sp->promo == PAWN || sp->promo == KING)
        return error_set(err, errlen, NOTATION_E_ILLEGAL,
                         "a pawn promotes to a queen, rook, bishop or knight, not a %s",
                         piece_names[sp->promo]);

    Bitboard cands;
    int type = sp->piece;
    if (full_from) {
        int from = SQ(sp->from_file, sp->from_rank);
        int piece = b->squares[from];
        sq_name(from, fsq);
        if (piece == PIECE_NONE)
            return error_set(err, errlen, NOTATION_E_ILLEGAL, "there is no piece on %s", fsq);
        if (piece_color(piece) != us)
            return error_set(
                err, errlen, NOTATION_E_ILLEGAL, "the %s on %s is %s's, and %s is to move",
                piece_names[piece_type(piece)], fsq, color_names[them], color_names[us]);
        if (type >= 0 && piece_type(piece) != type)
            return error_set(err, errlen, NOTATION_E_ILLEGAL, "the piece on %s is a %s, not a %s",
                             fsq, piece_names[piece_type(piece)], piece_names[type]);
        type = piece_type(piece);
        if (type == KING && b->squares[sp->to] == piece_make(us, ROOK) &&
            SQ_RANK(sp->to) == SQ_RANK(from)) {
            *out = move_new(from, sp->to, MOVE_NORMAL, KNIGHT);
            return error_set(err, errlen, NOTATION_E_ILLEGAL,
                             "the king cannot take its own rook: castling is written as the king's "
                             "move of two squares (%s%c%c) or as %s",
                             fsq, sp->to > from ? 'g' : 'c', fsq[1],
                             sp->to > from ? "O-O" : "O-O-O");
        }
        cands = BB(from);
    } else {
        cands = board_pieces(b, us, type);
        Bitboard all = cands;
        if (type == PAWN && sp->from_file < 0 && !sp->capture) {
            /* A pawn push stays on its file. */
            cands &= FILE_A_BB << SQ_FILE(sp->to);
            if (all && !cands)
                return error_set(err, errlen, NOTATION_E_ILLEGAL, "no pawn can go to %s", tosq);
        }
        if (sp->from_file >= 0)
            cands &= FILE_A_BB << sp->from_file;
        if (sp->from_rank >= 0)
            cands &= RANK_1_BB << (8 * sp->from_rank);
        if (!all)
            return error_set(err, errlen, NOTATION_E_ILLEGAL, "%s has no %s", color_names[us],
                             piece_names[type]);
        if (!cands) {
            if (sp->from_file >= 0 && sp->from_rank < 0)
                return error_set(err, errlen, NOTATION_E_ILLEGAL, "%s has no %s on the %c-file",
                                 color_names[us], piece_names[type], 'a' + sp->from_file);
            return error_set(err, errlen, NOTATION_E_ILLEGAL, "%s has no %s on rank %d",
                             color_names[us], piece_names[type], sp->from_rank + 1);
        }
    }

    /* Castling written as the king's two-square move. */
    int home = us == WHITE ? 4 : 60;
    if (type == KING && (cands & BB(home)) && (sp->to == home + 2 || sp->to == home - 2))
        return explain_castling(b, sp->to == home + 2 ? 1 : 2, out, err, errlen);

    if (sp->promo >= 0 && (type != PAWN || SQ_RANK(sp->to) != (us == WHITE ? 7 : 0)))
        return error_set(err, errlen, NOTATION_E_ILLEGAL,
                         "only a pawn reaching the last rank promotes: '%s' names no promotion",
                         orig);

    int own = b->squares[sp->to];
    if (own != PIECE_NONE && piece_color(own) == us)
        return error_set(err, errlen, NOTATION_E_ILLEGAL, "%s is occupied by your own %s", tosq,
                         piece_names[piece_type(own)]);

    Bitboard reach = 0;
    for (Bitboard c = cands; c;) {
        int from = bb_pop(&c);
        if (!(pseudo_targets(b, from) & BB(sp->to)))
            continue;
        if (type == PAWN && sp->from_file < 0 && (SQ_FILE(from) != SQ_FILE(sp->to)) != sp->capture)
            continue;
        reach |= BB(from);
    }
    if (!reach) {
        /* The piece the player meant, when the text names one (4.3 after an
         * illegal move, 7.5.1): the only candidate, or of several pawns
         * the one a pawn move from the typed file would start from. */
        Bitboard meant = cands;
        if (type == PAWN && bb_more_than_one(meant)) {
            int back = us == WHITE ? -8 : 8;
            Bitboard pawn_from = 0;
            for (Bitboard c = cands; c;) {
                int from = bb_pop(&c);
                if (sp->capture ? (bb_pawn_attacks[us][from] & BB(sp->to)) != 0
                                : (from == sp->to + back || from == sp->to + 2 * back))
                    pawn_from |= BB(from);
            }
            meant = pawn_from;
        }
        if (meant && !bb_more_than_one(meant)) {
            Move m = move_new(bb_lsb(meant), sp->to, MOVE_NORMAL, KNIGHT);
            /* A pawn's push written with a capture mark and a rank
             * ("x5d6") reaches here with the pawn that may push there: a
             * slip of the pen, not an illegal move, so the text is refused
             * as notation, with no penalty and nothing bound.  (Other
             * pieces never get here with a legal move: they reached no
             * candidate.) */
            char san[NOTATION_SAN_MAX];
            if (movegen_is_legal(b, m) && notation_san(b, m, san) == 0) {
                sq_name(bb_lsb(meant), fsq);
                return error_set(err, errlen, NOTATION_E_MALFORMED,
                                 "the pawn on %s can go to %s, but not as written: write %s", fsq,
                                 tosq, san);
            }
            *out = m;
        }
        /* One slider that would get there on an empty board: blocked. */
        Bitboard line_up = 0;
        for (Bitboard c = cands; c;) {
            int from = bb_pop(&c);
            Bitboard empty_board = type == BISHOP  ? bb_bishop_attacks(from, 0)
                                   : type == ROOK  ? bb_rook_attacks(from, 0)
                                   : type == QUEEN ? bb_queen_attacks(from, 0)
                                                   : 0;
            if (empty_board & BB(sp->to))
                line_up |= BB(from);
        }
        if (line_up && !bb_more_than_one(line_up)) {
            sq_name(bb_lsb(line_up), fsq);
            return error_set(err, errlen, NOTATION_E_ILLEGAL,
                             "the %s on %s cannot go to %s: the way is blocked", piece_names[type],
                             fsq, tosq);
        }
        if (!bb_more_than_one(cands)) {
            int from = bb_lsb(cands);
            sq_name(from, fsq);
            if (type == PAWN && SQ_FILE(from) != SQ_FILE(sp->to) &&
                (bb_pawn_attacks[us][from] & BB(sp->to)) && own == PIECE_NONE &&
                ep_exposes_king(b, from, sp->to))
                return error_set(err, errlen, NOTATION_E_ILLEGAL,
                                 "the pawn on %s cannot capture en passant on %s: it would leave "
                                 "the king in check",
                                 fsq, tosq);
            if (type == PAWN && SQ_FILE(from) != SQ_FILE(sp->to) &&
                (bb_pawn_attacks[us][from] & BB(sp->to)) && own == PIECE_NONE)
                return error_set(
                    err, errlen, NOTATION_E_ILLEGAL,
                    "the pawn on %s cannot go to %s: there is nothing to capture there", fsq, tosq);
            if (type == PAWN && (sp->to == from + 16 || sp->to == from - 16) &&
                b->squares[(from + sp->to) / 2] != PIECE_NONE)
                return error_set(err, errlen, NOTATION_E_ILLEGAL,
                                 "the pawn on %s cannot go to %s: the way is blocked", fsq, tosq);
            if (type == PAWN && SQ_FILE(from) == SQ_FILE(sp->to) && own != PIECE_NONE &&
                (sp->to == from + 8 || sp->to == from - 8))
                return error_set(
                    err, errlen, NOTATION_E_ILLEGAL,
                    "the pawn on %s cannot go to %s: pawns do not capture straight ahead", fsq,
                    tosq);
            if (full_from || sp->from_file >= 0 || sp->from_rank >= 0)
                return error_set(err, errlen, NOTATION_E_ILLEGAL, "the %s on %s cannot go to %s",
                                 piece_names[type], fsq, tosq);
        }
        return error_set(err, errlen, NOTATION_E_ILLEGAL, "no %s can go to %s", piece_names[type],
                         tosq);
    }
    if (bb_more_than_one(reach))
        return error_set(err, errlen, NOTATION_E_ILLEGAL,
                         "no %s can go to %s without leaving the king in check", piece_names[type],
                         tosq);
    int from = bb_lsb(reach);
    sq_name(from, fsq);
    *out = move_new(from, sp->to, MOVE_NORMAL, KNIGHT);
    if (type == KING)
        return error_set(err, errlen, NOTATION_E_ILLEGAL,
                         "the king cannot go to %s: it would be in check there", tosq);
    if (board_in_check(b))
        return error_set(err, errlen, NOTATION_E_ILLEGAL,
                         "the king is in check and '%s' does not get it out of check", orig);
    return error_set(err, errlen, NOTATION_E_ILLEGAL,
                     "the %s on %s is pinned: '%s' would leave the king in check",
                     piece_names[type], fsq, orig);
}

static const char *count_word(int n)
{
    static const char *const words[] = {"no",  "one",   "two",   "three", "four", "five",
                                        "six", "seven", "eight", "nine",  "ten"};
    return n >= 0 && n <= 10 ? words[n] : "several";
}

static int ambiguous(const Board *b, const MoveList *legal, const Move *found, int nfound,
                     char *err, size_t errlen)
{
    /* One suggestion per from square (a promotion shows its queen). */
    char msg[NOTATION_ERR_MAX], to[3];
    Bitboard froms = 0;
    Move pick[16];
    int n = 0;
    for (int i = 0; i < nfound && n < 16; i++) {
        Move m = found[i];
        if (froms & BB(move_from(m)))
            continue;
        if (move_kind(m) == MOVE_PROMOTION)
            m = move_new(move_from(m), move_to(m), MOVE_PROMOTION, QUEEN);
        froms |= BB(move_from(m));
        pick[n++] = m;
    }
    char sans[16][NOTATION_SAN_MAX];
    for (int i = 0; i < n; i++)
        write_san(b, legal, pick[i], letters_en, sans[i]);
    for (int i = 1; i < n; i++) /* alphabetical, for a stable message */
        for (int j = i; j > 0 && strcmp(sans[j], sans[j - 1]) < 0; j--) {
            char t[NOTATION_SAN_MAX];
            strcpy(t, sans[j]);
            strcpy(sans[j], sans[j - 1]);
            strcpy(sans[j - 1], t);
        }
    int type = piece_type(b->squares[move_from(pick[0])]);
    sq_name(move_to(pick[0]), to);
    int len = snprintf(msg, sizeof msg, "%s %s can go to %s: say ", count_word(n),
                       n == 1 ? piece_names[type] : piece_plurals[type], to);
    for (int i = 0; i < n && len > 0 && (size_t)len < sizeof msg; i++)
        len += snprintf(msg + len, sizeof msg - (size_t)len, "%s%s",
                        i == 0       ? ""
                        : i == n - 1 ? " or "
                                     : ", ",
                        sans[i]);
    return error_set(err, errlen, NOTATION_E_AMBIGUOUS, "%s", msg);
}

/* Matches sp against the legal moves: 0 with *out, or a failure. */
static int resolve(const Board *b, const MoveList *legal, const Spec *sp, const char *orig,
                   Move *out, char *err, size_t errlen)
{
    Move found[MOVES_MAX];
    int n = 0;
    for (int i = 0; i < legal->count; i++)
        if (fits(b, legal->moves[i], sp, false))
            found[n++] = legal->moves[i];
    if (n == 0)
        return explain(b, sp, orig, out, err, errlen);
    bool one_from_to = true;
    for (int i = 1; i < n; i++)
        if (move_from(found[i]) != move_from(found[0]) || move_to(found[i]) != move_to(found[0]))
            one_from_to = false;
    if (!one_from_to)
        return ambiguous(b, legal, found, n, err, errlen);
    if (n > 1 || (move_kind(found[0]) == MOVE_PROMOTION && sp->promo < 0)) {
        /* Promotions differing only in the piece: Art. 7.5.2's case. */
        char u[6], to[3], cap[3] = "";
        board_move_to_uci(found[0], u);
        u[4] = '\0';
        sq_name(move_to(found[0]), to);
        if (SQ_FILE(move_from(found[0])) != SQ_FILE(move_to(found[0]))) {
            cap[0] = (char)('a' + SQ_FILE(move_from(found[0])));
            cap[1] = 'x';
        }
        *out = move_new(move_from(found[0]), move_to(found[0]), MOVE_PROMOTION, QUEEN);
        return error_set(err, errlen, NOTATION_E_NO_PROMOTION,
                         "%s needs a promotion piece: say %s%s=Q, %s%s=R, %s%s=B or %s%s=N", u, cap,
                         to, cap, to, cap, to, cap, to);
    }
    *out = found[0];
    return 0;
}

int notation_parse(const Board *b, const char *text, Move *out, char *err, size_t errlen)
{
    Move dummy;
    if (!out)
        out = &dummy;
    *out = MOVE_NONE;
    if (err && errlen)
        err[0] = '\0';
    if (!text)
        return error_set(err, errlen, NOTATION_E_MALFORMED, "no move given");

    /* The text as typed, trimmed and bounded, for the messages. */
    char orig[TEXT_MAX + 4];
    while (*text == ' ' || *text == '\t' || *text == '\r' || *text == '\n')
        text++;
    size_t tl = strlen(text);
    while (tl > 0 && strchr(" \t\r\n", text[tl - 1]))
        tl--;
    if (tl == 0)
        return error_set(err, errlen, NOTATION_E_MALFORMED, "no move given");
    if (tl > TEXT_MAX)
        return error_set(err, errlen, NOTATION_E_MALFORMED,
                         "a move is a few characters, like Nf3 or e2e4; this text has %zu", tl);
    memcpy(orig, text, tl);
    orig[tl] = '\0';

    char s[TEXT_MAX + 1];
    const char *bad = NULL;
    if (!normalise(orig, s, sizeof s, &bad)) {
        if (bad) {
            size_t bl = 1;
            while (bad[bl] && ((unsigned char)bad[bl] & 0xC0) == 0x80)
                bl++;
            return error_set(err, errlen, NOTATION_E_MALFORMED,
                             "'%s' is not a move: '%.*s' means nothing in chess notation", orig,
                             (int)bl, bad);
        }
        return error_set(err, errlen, NOTATION_E_MALFORMED, "'%s' is not a move", orig);
    }
    strip_suffixes(s);
    if (!s[0])
        return error_set(err, errlen, NOTATION_E_MALFORMED, "'%s' is not a move", orig);

    MoveList legal;
    movegen_legal_moves(b, &legal);

    int side = castling_side(s);
    if (side) {
        int home = b->side == WHITE ? 4 : 60;
        int dest = side == 1 ? home + 2 : home - 2;
        for (int i = 0; i < legal.count; i++) {
            Move m = legal.moves[i];
            if (move_kind(m) == MOVE_CASTLING && move_to(m) == dest) {
                *out = m;
                return 0;
            }
        }
        return explain_castling(b, side, out, err, errlen);
    }
    for (char *p = s; *p; p++)
        if (*p == '@')
            *p = 'B';

    Spec sp;
    int rc = read_spec(s, orig, &sp, err, errlen);
    if (rc)
        return rc;
    if (sp.lower_b) {
        /* "bxc3": the b-pawn first; a bishop only if no pawn move fits. */
        bool pawn_fits = false;
        for (int i = 0; i < legal.count; i++)
            pawn_fits |= fits(b, legal.moves[i], &sp, true);
        if (!pawn_fits) {
            Spec bishop = sp;
            bishop.piece = BISHOP;
            bishop.from_file = -1;
            bishop.lower_b = false;
            bool bishop_fits = false;
            for (int i = 0; i < legal.count; i++)
                bishop_fits |= fits(b, legal.moves[i], &bishop, true);
            if (bishop_fits)
                sp = bishop;
        }
    }
    return resolve(b, &legal, &sp, orig, out, err, errlen);
}
