/*
 * office.h — the tournament office: the event data and officials a FIDE
 * rating report needs (column tournaments.office, schema 009), the rating
 * type a tournament is rated on (tournaments.rating_type), and how both
 * reach the report's header (TRF lines 022-132).
 *
 * The office object, as the API sends and reads it (every field optional):
 *   federation       "" or three capital letters (TRF 032)
 *   end_date         "" or YYYY-MM-DD (TRF 052)
 *   round_dates      [{date: YYYY-MM-DD|"", time: HH:MM|""}], round 1 first (TRF 132)
 *   chief_arbiter    {name, fide_id} (TRF 102)
 *   deputies         [{name, fide_id}], at most OFFICE_MAX_DEPUTIES (TRF 112, one line each)
 *   chief_organiser  {name, fide_id}
 *   time_control_text  the time control as printed (TRF 122)
 *   event_code       FIDE's code of the registered event
 * A body's office is merged into the stored one field by field: a field
 * given replaces the stored one whole, a field absent keeps it.
 *
 * Invariant: what is stored passed office_check.  Workload: one small
 * object per tournament, read with the tournament row.
 */
#ifndef ARBITER_DB_OFFICE_H
#define ARBITER_DB_OFFICE_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "store.h"
#include "tournament.h"

enum {
    OFFICE_MAX_DEPUTIES = 20,
};

/* The rating types, in the order of the register's columns. */
extern const char *const office_rating_types[];

/*
 * Checks the "office" object and the "rating_type" of a tournament body IN
 * (either may be absent): formats of the dates, times, federation and FIDE
 * IDs, and the count of round dates and deputies.  0, or STORE_E_INVALID
 * with the field and the reason in ERR.
 */
int office_check(json_t *in, char *err, size_t n);

/*
 * Merges IN's "office" into tournament TID's stored one and sets its
 * "rating_type" (both already checked); absent fields are kept.  Runs in
 * the caller's writer job.  0 or the store's error.
 */
int office_store(Store *s, int64_t tid, json_t *in);

/*
 * Fills the report header of T from the tournament row TOUR (its "office"
 * object parsed, "system" and "rating_type"): federation, end date, chief
 * arbiter and deputies (name, then the FIDE ID in parentheses), the printed
 * time control, the round dates, the type line, the player counts (T's
 * players must be in already), and comment lines for the event code and the
 * chief organiser, which the format has no line for.  Returns 0 or -ENOMEM.
 */
int office_trf_fill(json_t *tour, Tournament *t);

/*
 * The rating of a register card CARD (db/fide.h's fide_player) for rating
 * type TYPE ("standard", "rapid", "blitz"; NULL = standard): the rating, or 0
 * when the player has none of that type.
 */
int office_card_rating(json_t *card, const char *type);

#endif
