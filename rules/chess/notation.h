/*
 * notation.h — chess moves as people write them: PGN SAN out (plain, in
 * national letters or figurines) and every common spelling in.
 *
 * Output follows the PGN standard's SAN exactly (piece letter, then the
 * least disambiguation that names one move: from-file, else from-rank, else
 * both; pawn captures as "exd5"; "O-O", "O-O-O"; "e8=Q"; "+" for check, "#"
 * for mate), so that any PGN reader accepts what we write.
 *
 * Input (notation_parse) accepts, case by case:
 *   SAN and long algebraic: Nf3 Ngf3 N1f3 Ng1f3 Ng1-f3 Nxe5 N:e5 e4 e2e4
 *     e2-e4 exd5 ed5 (only when one move fits) exd6 e.p. / exd6ep;
 *   castling: O-O O-O-O 0-0 0-0-0 o-o (also with Cyrillic O), and the
 *     king's two-square move (e1g1, Kg1);
 *   promotion: e8=Q e8Q e8/Q e8(Q) e7e8q, with or without capture;
 *   suffixes + ++ # ! ? !? ?! !! ?? (ignored: the position decides);
 *   piece letters: English K Q R B N (P optional for pawns; lowercase
 *     k q r n accepted), figurines of either colour (♔♕♖♗♘♙ ♚♛♜♝♞♟),
 *     Russian Кр Ф Л С К and Bulgarian Ц Д Т О К (in both, "К" alone is
 *     the KNIGHT; Russian "Кр" is the king);
 *   UCI: e2e4, e7e8q, castling as e1g1.
 * A lowercase "b" is a pawn file first: "bxc3" is the b-pawn's capture when
 * one exists, a bishop move only when no pawn move fits (as PGN readers do).
 * Whitespace inside the text is ignored.  Anything that names no move, or
 * more than one, is refused with a message that says why.
 *
 * All functions are pure and reentrant.  Workload: one call per move
 * entered or shown (thousands a second at most); clarity over speed.
 */
#ifndef ARBITER_RULES_NOTATION_H
#define ARBITER_RULES_NOTATION_H

#include <stddef.h>

#include "board.h"

/* Room for any SAN this module writes, national letters and figurines
 * (UTF-8) included, with its NUL. */
enum { NOTATION_SAN_MAX = 32 };

/* A size for the err buffer of notation_parse() that never truncates. */
enum { NOTATION_ERR_MAX = 200 };

/* Documented failures of notation_parse() and friends. */
enum {
    /* The text is not a move in any notation we know ("Nf9", "hello"),
     * or it names a pawn's legal move with the wrong capture mark ("x5d6"
     * for the push d5-d6): a slip of notation, not an illegal move. */
    NOTATION_E_MALFORMED = 1,
    /* The text fits more than one legal move ("Nd7" with two knights). */
    NOTATION_E_AMBIGUOUS = 2,
    /* The text names a move the rules do not allow: no such piece, the
     * piece cannot go there, or the move would leave the king in check. */
    NOTATION_E_ILLEGAL = 3,
    /* A pawn move to the last rank without a promotion piece ("e8",
     * "e7e8").  Kept apart from NOTATION_E_ILLEGAL because Art. 7.5.2 makes
     * this case special (the pawn becomes a queen). */
    NOTATION_E_NO_PROMOTION = 4,
    /* notation_san_localized(): a language we do not know. */
    NOTATION_E_LANG = 5,
};

/*
 * Writes the PGN SAN of m, which must be legal in b, into out.  Returns 0,
 * or NOTATION_E_ILLEGAL (out = "") when m is not a legal move of b.
 */
int notation_san(const Board *b, Move m, char out[NOTATION_SAN_MAX]);

/*
 * The same move for display: lang "en" (K Q R B N), "ru" (Кр Ф Л С К),
 * "bg" (Ц Д Т О К) or "figurine" (♔ ♕ ♖ ♗ ♘, the same glyphs for both
 * sides), all UTF-8; everything else as in notation_san().  Returns 0;
 * NOTATION_E_LANG for an unknown lang (out then holds the English form);
 * NOTATION_E_ILLEGAL (out = "") when m is not legal in b.
 */
int notation_san_localized(const Board *b, Move m, const char *lang, char out[NOTATION_SAN_MAX]);

/*
 * Reads the move the text names in position b.  Returns 0 with the legal
 * move in *out, or a positive NOTATION_E_* code with a one-line reason in
 * err (NUL-terminated, truncated to errlen; err may be NULL when errlen is
 * 0), e.g.
 *   "two knights can go to d7: say Nbd7 or Nfd7"            (AMBIGUOUS)
 *   "no knight can go to e5"                                 (ILLEGAL)
 *   "the knight on c3 is pinned: Nd5 would leave your king in check"
 *   "e7e8 needs a promotion piece: say e8=Q, e8=R, e8=B or e8=N"
 * What *out holds on failure is part of the contract, for the Laws engine:
 *   NOTATION_E_NO_PROMOTION: the legal promotion to a queen (Art. 7.5.2);
 *   NOTATION_E_ILLEGAL: when the text names one piece of the side to move
 *     and a target square, a Move with those from/to squares (kind
 *     MOVE_NORMAL) that is NOT legal and must never be given to
 *     board_make(): it says which piece the player tried to move
 *     (touch-move after an illegal move, Art. 7.5.1 / 4.3).  A castling
 *     names the king (4.4.3), with or without the right; a pawn's SAN
 *     ("e5", "exd6") names the only pawn it could start from.  Otherwise
 *     MOVE_NONE;
 *   other codes: MOVE_NONE.
 * text may be NULL (malformed).
 */
int notation_parse(const Board *b, const char *text, Move *out, char *err, size_t errlen);

#endif
