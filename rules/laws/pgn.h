/*
 * pgn.h — PGN text out (export format) and in (tolerant import).
 *
 * One struct, PgnGame, describes a game both ways: the Laws engine fills
 * one from a game's event log and calls pgn_write(); pgn_read() returns
 * PgnGames that own their memory (free them with pgn_games_free()).
 *
 * Writer (PGN standard, section 8, export format): the Seven Tag Roster
 * first (Event, Site, Date, Round, White, Black, Result; "?" or
 * "????.??.??" for any not given), then the other tags in the order given,
 * then SetUp "1" and FEN when the game does not start from the initial
 * position; a blank line; the movetext with move numbers, "N... move" for
 * Black after a comment or at the start, SAN from notation_san(), each
 * ply's clock reading as {[%clk H:MM:SS]}, a draw offer and any comment in
 * braces; the result; lines of at most 79 characters.  Tag values escape
 * '"' and '\'; a comment's braces become square brackets.  The output
 * passes pgn-extract without a warning.  On reading, "[%clk H:MM:SS]" in a
 * comment is the clock and "(=)" the draw offer, so comment text should not
 * spell them for other purposes.
 *
 * Reader: several games per text, UTF-8 BOM, CRLF, "%" escape lines,
 * comments {...} and ;..., variations (...) (skipped, nested), NAGs $n,
 * move numbers "12." and "12...", annotation marks, missing tags, a missing
 * result (taken as "*").  Moves go through notation_parse() from the
 * position of the FEN tag (or the initial position), so the usual spellings
 * are accepted.  Errors name the line: "line 12: 'Nf9' is not a move: ...".
 *
 * Pure C (malloc for the results; no I/O).  Workload: exports and imports
 * of whole tournaments, a few thousand games at most: not a hot path.
 */
#ifndef ARBITER_RULES_PGN_H
#define ARBITER_RULES_PGN_H

#include <stdbool.h>
#include <stddef.h>

#include "board.h"

typedef struct PgnTag {
    const char *name;  /* a PGN symbol: letters, digits, '_' */
    const char *value; /* any text; escaped on output */
} PgnTag;

typedef struct PgnPly {
    Move move;           /* legal in the position before it */
    long clock_ms;       /* the mover's clock after the move, or -1 if unknown */
    bool draw_offer;     /* the mover offered a draw with this move: "(=)" */
    const char *comment; /* free text after the move, or NULL */
} PgnPly;

typedef struct PgnGame {
    const PgnTag *tags; /* in order; FEN and SetUp here are ignored by the
                         * writer (it writes them from fen) */
    int ntags;
    const char *fen; /* the starting position, or NULL for the initial one */
    const PgnPly *plies;
    int nplies;
    const char *result; /* "1-0", "0-1", "1/2-1/2" or "*"; NULL: the Result
                         * tag if given, else "*" */
    int line;           /* pgn_read(): line where the game starts; else 0 */
} PgnGame;

/* Documented failures. */
enum {
    PGN_E_SYNTAX = 1, /* reader: text that is not PGN (unclosed comment...) */
    PGN_E_MOVE = 2,   /* a move that is not legal or not readable */
    PGN_E_FEN = 3,    /* a FEN that is not a position */
    PGN_E_TAG = 4,    /* writer: a tag name that is not a PGN symbol;
                       * reader: a malformed tag pair */
    PGN_E_RESULT = 5, /* writer: a result that is none of the four */
};

/*
 * Writes g as export-format PGN into *out (NUL-terminated, malloc'd; the
 * caller frees it), ending with a blank line so games can be concatenated.
 * Returns 0; a positive PGN_E_* with a reason in err (and *out = NULL);
 * -ENOMEM.
 */
int pgn_write(const PgnGame *g, char **out, char *err, size_t errlen);

/*
 * Reads every game of text (len bytes; it need not be NUL-terminated).
 * Returns 0 with a malloc'd array of *count games in *games (NULL when
 * there are none), to be freed by pgn_games_free(); or a positive PGN_E_*
 * with "line N: ..." in err, or -ENOMEM, and then *games = NULL, *count = 0.
 */
int pgn_read(const char *text, size_t len, PgnGame **games, int *count, char *err, size_t errlen);

/* Frees what pgn_read() returned; pgn_games_free(NULL, 0) is a no-op. */
void pgn_games_free(PgnGame *games, int count);

#endif
