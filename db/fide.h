/*
 * fide.h — the local register of FIDE's rating list (tables fide_players,
 * fide_names, fide_list of schema 005): importing FIDE's published files,
 * and finding players by FIDE ID or by name as the arbiter types it.
 *
 * Invariants: the register holds exactly one list (the last import) or is
 * empty; an import replaces it in one transaction or not at all.
 * Workload: one import a month (~1.7 M players: the longest job of the
 * store, written in short transactions with pauses between them, so it may
 * run beside a round: moves wait at most a few hundred milliseconds); many
 * small searches while the desk types a name.
 */
#ifndef ARBITER_DB_FIDE_H
#define ARBITER_DB_FIDE_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "fide_read.h"
#include "store.h"
#include "tournament.h"

/* Expected failures of an import. */
enum {
    FIDE_E_FILE = FIDE_READ_E_FILE, /* a file unreadable or not a FIDE list (FILE:LINE) */
    FIDE_E_EMPTY,                   /* the files hold no player */
};

typedef struct FideImportOptions {
    int type;              /* FIDE_STANDARD..FIDE_BLITZ for every file, -1 = from each name */
    const char *list_date; /* YYYY-MM-DD, or NULL to take it from the files */
    /* Called every 100,000 players read (may be NULL). */
    void (*progress)(void *ctx, long players);
    void *ctx;
} FideImportOptions;

typedef struct FideImportResult {
    long players;       /* in the new register */
    long rows;          /* read from the files */
    char list_date[16]; /* "" when unknown */
} FideImportResult;

/*
 * Replaces the register with the players of the NPATHS files at PATHS,
 * merged by FIDE ID (so the standard, rapid and blitz TXT lists of one
 * month make one register; a file's ratings of the types it carries win).
 * Reading happens before the write transaction; nothing changes unless all
 * files are read.  Returns 0 with *RES, FIDE_E_FILE ("FILE:LINE: why" in
 * ERR), FIDE_E_EMPTY, or a negative value (the store failed; message in
 * ERR).  S must be the read-write connection and outside a transaction.
 */
int fide_import(Store *s, const char *const *paths, int npaths, const FideImportOptions *opt,
                FideImportResult *res, char *err, size_t n);

/*
 * The players whose name matches TEXT as typed so far, in alphabetical
 * order, at most LIMIT (1..100): every word of TEXT must begin a word of
 * the name, case and accents aside; a word in Cyrillic letters is matched
 * through the transliteration of fide_text.h.  TEXT made of digits only is
 * a FIDE ID.  Returns an array of players as fide_player() shows them
 * (empty when nothing matches or TEXT has no word); NULL only when out of
 * memory or the store fails.
 */
json_t *fide_search(Store *s, const char *text, int limit);

/* The player FIDE_ID: {fide_id, name, federation, sex, title, w_title,
 * o_title, foa_title, std_rating, std_games, std_k, rapid_*, blitz_*,
 * birth_year, inactive (bool)}, NULL when not in the register. */
json_t *fide_player(Store *s, int64_t fide_id);

/*
 * The K factor of each player of T in the register for the rating TYPE
 * (FIDE_STANDARD..FIDE_BLITZ): k_of[start rank] = the list's K of the
 * player whose TRF FIDE ID matches, left 0 for a player without a FIDE ID,
 * not in the register or without a K of that type.  K_OF has
 * TRN_MAX_PLAYERS + 1 entries, zeroed by the caller.  Returns the number
 * of players found, or a negative value when the store fails.
 */
int fide_k_of(Store *s, int type, const Tournament *t, int *k_of);

/* The list the register holds: {list_date, files, players, imported_at},
 * or NULL when nothing was imported. */
json_t *fide_list_info(Store *s);

#endif
