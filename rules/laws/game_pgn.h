/*
 * game_pgn.h — a game's scoresheet as PGN: builds rules/pgn's PgnGame from
 * the folded state and lets pgn_write() print it.
 *
 * What goes in: the Seven Tag Roster (from the caller's tags, defaults "?"),
 * the caller's other tags in order (WhiteFideId, WhiteElo, Board, ...),
 * TimeControl and Termination from the game, FEN/SetUp when it did not
 * start from the initial position; after every move the mover's clock
 * {[%clk H:MM:SS]}, (=) for a draw offer made with the move, and the
 * scoresheet notes made after it (offers, claims, penalties, arbiter
 * actions).  Notes made before the first move open the first move's
 * comment; in a game without moves they go to an ArbiterNotes tag.  Where
 * the scores are no PGN result (1/2-0, -/-), the result is "*" and a
 * closing remark gives the scores.
 *
 * Pure: the text is malloc'd, nothing is printed.
 */
#ifndef ARBITER_RULES_GAME_PGN_H
#define ARBITER_RULES_GAME_PGN_H

#include <stddef.h>

#include "game.h"

enum { GAME_PGN_TAGS_MAX = 32 };

/* Tags given by the caller, in order.  Result, FEN, SetUp, TimeControl and
 * Termination come from the game and are ignored here. */
typedef struct GamePgnTags {
    int count;
    char name[GAME_PGN_TAGS_MAX][32];
    char value[GAME_PGN_TAGS_MAX][256];
} GamePgnTags;

/* 0 when name is a PGN tag name (letters, digits, underscore, starting
 * with a letter) and value holds no control characters; else 1. */
int game_pgn_tag_check(const char *name, const char *value);

/* Writes the PGN of st (tags may be NULL) into *out (malloc'd, the caller
 * frees it).  Returns 0; a positive PGN_E_* (rules/laws/pgn.h) with err filled;
 * or -ENOMEM.  *out is NULL on failure. */
int game_pgn(const GameState *st, const GamePgnTags *tags, char **out, char *err, size_t errlen);

/* The same text into a caller's buffer, as snprintf does: writes at most cap
 * bytes with the NUL (out may be NULL when cap is 0) and returns the full
 * length without the NUL; 0 (and out = "") when the text cannot be made. */
size_t game_pgn_write(const GameState *st, const GamePgnTags *tags, char *out, size_t cap);

#endif
