/*
 * game_pgn.h — a game's scoresheet as PGN, built from its folded state:
 * the Seven Tag Roster plus TimeControl, Termination, FEN/SetUp and any
 * tags the caller gives (WhiteFideId, WhiteElo, Board, ...); after every
 * move a comment {[%clk H:MM:SS]} with the mover's clock; draw offers
 * marked (=), claims, penalties and arbiter actions as comments.
 *
 * The text is meant to pass pgn-extract without a warning: comments never
 * contain braces, lines are at most 79 characters, and the Result tag and
 * the termination marker agree ("*" where the scores are not a PGN result,
 * e.g. 1/2-0 or -/-, with the scores in a final comment).
 *
 * Pure: writes into a caller's buffer, like snprintf.
 */
#ifndef ARBITER_RULES_GAME_PGN_H
#define ARBITER_RULES_GAME_PGN_H

#include <stddef.h>

#include "game.h"

enum { GAME_PGN_TAGS_MAX = 32 };

/* Extra tags, in order.  A tag of the Seven Tag Roster given here replaces
 * its default ("?", "????.??.??"); Result, FEN, SetUp, TimeControl and
 * Termination come from the game and are ignored here. */
typedef struct GamePgnTags {
    int count;
    char name[GAME_PGN_TAGS_MAX][32];
    char value[GAME_PGN_TAGS_MAX][256];
} GamePgnTags;

/* 0 when name is a PGN tag name (letters, digits, underscore, starting
 * with a letter) and value holds no control characters; else 1. */
int game_pgn_tag_check(const char *name, const char *value);

/* Writes the PGN of st (tags may be NULL) into out, at most cap bytes with
 * the NUL (out may be NULL when cap is 0).  Returns the full length the text
 * needs, without the NUL, as snprintf does. */
size_t game_pgn_write(const GameState *st, const GamePgnTags *tags, char *out, size_t cap);

#endif
