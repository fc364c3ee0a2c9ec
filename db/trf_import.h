/*
 * trf_import.h — a whole tournament created from a Tournament Report File
 * (rules/tournament/trf.h's model of a TRF16 or TRF-2026 file, as
 * Swiss-Manager, Sharly Chess or bbpPairings write them), to take an event
 * over mid-way: the event data and officials, the players in start-rank
 * order, each round's games with their results (played through the game
 * log as arbiter results), the byes and the forbidden pairs.
 *
 * Mapping: a game is a pairing of the round (White the player written with
 * w; a forfeit without colours White the lower start rank); results 1 = 0
 * and the forfeits + - become arbiter results (W D L, a game shorter than
 * a move, are stored as played and reported in the warnings); U is the
 * pairing-allocated bye, H a half-point bye, Z (or blank) a zero-point bye,
 * + without opponent a forfeit win.  A round whose games all lack a result
 * stays pending (published), for the arbiter to start.  The 192 code
 * (TRF-2026's table, older spellings too) gives a Swiss its pairing
 * system and Baku acceleration.  What the store
 * cannot hold (a full-point bye F) refuses the file with its line; what it
 * does not keep (acceleration) is named in the warnings.
 *
 * Runs inside one writer job: a refused file writes nothing.  Workload: a
 * few hundred players and rounds' games per import.
 */
#ifndef ARBITER_DB_TRF_IMPORT_H
#define ARBITER_DB_TRF_IMPORT_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "games.h"
#include "store.h"
#include "tournament.h"

/*
 * Creates a tournament from T with the games cache G of the writer thread.
 * TIME_CONTROL (may be NULL) replaces the file's 222 line.  Returns 0 with
 * *OUT {tournament, players, rounds, warnings: [text]}, or STORE_E_INVALID
 * with ERR (naming the file's line where there is one), or the store's
 * error.  On failure every game it touched is evicted from G.
 */
int trf_import_create(Store *s, Games *g, const Tournament *t, const char *time_control,
                      int64_t user, json_t **out, char *err, size_t n);

#endif
