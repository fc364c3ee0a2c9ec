/*
 * trf.h — the FIDE Tournament Report File: reader and writer.
 *
 * Reads TRF16 and TRF-2026 (header codes 012..222, 132 round dates, 240
 * byes, 250 acceleration, 260 forbidden pairs), JaVaFo's extensions (XXR,
 * XXC, XXS, XXZ, XXA, XXP) and bbpPairings' point lines (BBW BBD BBL BBZ
 * BBF BBU).  Lines may end in CR, LF or CRLF.  Columns are counted in
 * characters: UTF-8 sequences take one column, any other byte one column
 * (so Latin-1 files keep their columns too).  The 001 record is parsed
 * column-exact; the results are checked for consistency (both players of a
 * game name each other, opposite colours, results of one kind: both over
 * the board, rated or not, or both forfeits; each side keeps its own score,
 * as Laws 11.8 and 12.9 allow) and each player's points (cols 81-84)
 * against the sum of their results under the point system.  Lines the model does not interpret
 * (112, 172, 182, 299, NRS records, team records, ### comments, ...) are kept verbatim.
 *
 * The writer produces lines ending in CR, as the format requires, in one
 * of two flavours (TRF16 with XX extensions, or TRF-2026 codes).
 *
 * Pure: the reader takes a buffer, the writer returns one.
 */
#ifndef ARBITER_RULES_TRF_H
#define ARBITER_RULES_TRF_H

#include <stddef.h>

#include "tournament.h"
#include "trf_field.h"

enum {
    TRF_E_SYNTAX = 1, /* a line is not a TRF record, or a field is malformed */
    TRF_E_RANGE,      /* a number is out of its range (id, round, rating...) */
    TRF_E_DUPLICATE,  /* a start rank occurs twice */
    TRF_E_OPPONENT,   /* the two sides of a game disagree, or an unknown id */
    TRF_E_POINTS,     /* cols 81-84 differ from the sum of the results */
    TRF_E_EMPTY,      /* no 001 record at all */
    TRF_E_TOO_LARGE,  /* more than TRN_MAX_PLAYERS players or a line too long */
};

/* Where and why a file was rejected.  line and column are 1-based, 0 = n/a. */
typedef struct TrfError {
    int code;
    int line;
    int column;
    char message[200];
} TrfError;

enum {
    TRF_READ_NO_POINTS_CHECK = 1 << 0, /* accept points that differ from the results */
};

/*
 * Parses len bytes of text (need not be NUL-terminated) into a new
 * Tournament stored in *out (caller frees with tournament_free).  Returns 0,
 * a TRF_E_* code with *err filled in (line, column, message) and *out =
 * NULL, or -ENOMEM.  flags: TRF_READ_* bits.
 */
int trf_read(const char *text, size_t len, int flags, Tournament **out, TrfError *err);

typedef enum TrfFlavour {
    TRF_FLAVOUR_16 = 16, /* TRF16 + JaVaFo XX extensions (XXR XXC XXS XXA XXP XXZ);
                            240 and 260 records as they are, 192-222 left out */
    TRF_FLAVOUR_26 = 26, /* TRF-2026 codes (142 152 162 192 202 212 222 240 250 260) */
} TrfFlavour;

/*
 * Writes t as a TRF of the given flavour; every line ends in CR.  Returns a
 * NUL-terminated malloc'd buffer (caller frees) and its length in *len (if
 * len is not NULL), or NULL when out of memory.
 */
char *trf_write(const Tournament *t, TrfFlavour flavour, size_t *len);

#endif
