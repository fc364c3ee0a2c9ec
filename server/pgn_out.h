/*
 * pgn_out.h — PGN export of stored games for the download routes, through
 * the Laws engine's PGN writer, with the tags the store knows (event, round,
 * players, ratings, FIDE ids, board).
 */
#ifndef ARBITER_SERVER_PGN_OUT_H
#define ARBITER_SERVER_PGN_OUT_H

#include <jansson.h>
#include <stddef.h>

#include "game.h"
#include "strbuf.h"

/* Appends one game (state replayed from the store, its summary, tournament
 * and player objects; any of the objects may be NULL) to OUT, followed by
 * exactly one empty line. */
void pgn_out_write_game(StrBuf *out, const GameState *st, json_t *game, json_t *tournament,
                        json_t *white, json_t *black);

#endif
