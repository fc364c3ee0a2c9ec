/*
 * ratings_json.h — the FIDE rating changes (rules/tournament/rating.h) and title norms
 * (rules/tournament/norms.h) of a tournament as JSON text, and the sentences that say
 * what a norm check lacks and what the player still needs.  One writer for
 * the `arbiter ratings` / `arbiter norms` commands and the daemon's
 * /ratings and /norms routes, so both answer the same bytes.
 *
 * Figures are exact decimals of the reports' hundredths and tenths ("6.5",
 * "-1.8"), never binary floating point, so a reader compares them as text.
 * Workload: one report per request, a few hundred players.
 */
#ifndef ARBITER_SERVER_RATINGS_JSON_H
#define ARBITER_SERVER_RATINGS_JSON_H

#include <stddef.h>
#include <stdint.h>

#include "norms.h"
#include "rating.h"

/* Hundredths V as a decimal into BUF ("7.6", "-12.25", "0"): exact, no
 * trailing zeros. */
void ratings_json_centi(long long v, char *buf, size_t len);

/* A change in hundredths rounded to a whole point, halves away from zero. */
long long ratings_json_rounded(long long v);

/* Tenths as points into BUF ("6.5", "7"). */
void ratings_json_points(int tenths, char *buf, size_t len);

/* "standard", "rapid" or "blitz". */
const char *ratings_json_kind(RatingKind kind);

/* Why an unrated player gets no first rating, in English ("" when rated). */
const char *ratings_json_initial(RatingInitial s);

/* The requirements check C misses, comma separated ("" when none), into BUF. */
void ratings_json_missing(const NormCheck *c, char *buf, size_t len);

/* The rounds of the games C leaves out (norms.h), comma-separated, ""
 * when none, into BUF (LEN bytes). */
void ratings_json_dropped(const NormCheck *c, char *buf, size_t len);

/*
 * What check C says after ROUNDS rounds, into BUF: "IM norm", "no GM norm",
 * "a draw in round 9 gives an IM norm", "GM norm needs 1.5 from rounds
 * 8-9, and: title holders 1/3".
 */
void ratings_json_outlook(const NormCheck *c, int rounds, char *buf, size_t len);

/*
 * The rating report R of T as a JSON array, one object per player (see
 * `arbiter help ratings`), ending in a line end.  With IDS (start rank - 1
 * -> player id, NULL for none) each object also holds "player_id".
 * Returns a malloc'd text (length in *LEN) or NULL when out of memory.
 */
char *ratings_json_ratings(const Tournament *t, const RatingReport *r, const int64_t *ids,
                           size_t *len);

/*
 * The norm report R of T as a JSON object {rounds, total_rounds,
 * swiss_exception, players[]}, ending in a line end; IDS as above.
 * Returns a malloc'd text (length in *LEN) or NULL when out of memory.
 */
char *ratings_json_norms(const Tournament *t, const NormReport *r, const int64_t *ids, size_t *len);

#endif
