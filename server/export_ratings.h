/*
 * export_ratings.h — the printable rating-change list, norm list and FIDE
 * norm certificate (the fields of the IT1 report form) of a tournament, as
 * HTML or CSV, from the reports of rules/tournament/rating.h and rules/tournament/norms.h.  No
 * I/O, no HTTP.
 *
 * The same conventions as export.h: an HTML page is standalone UTF-8 whose
 * only style is export_css, its words from web/i18n/<lang>.json (embedded
 * at build time), every stored string escaped; CSV is RFC 4180 with a byte
 * order mark, a header row of the JSON's field names, formula-like text
 * defused.  Figures are printed by ratings_json.h, so a page shows exactly
 * the numbers the JSON answers.
 *
 * Workload: one page per download, a few hundred rows.
 */
#ifndef ARBITER_SERVER_EXPORT_RATINGS_H
#define ARBITER_SERVER_EXPORT_RATINGS_H

#include <stddef.h>

#include "export.h"
#include "norms.h"
#include "rating.h"

/*
 * The rating changes R of T as FORMAT (html or csv), an HTML page's words
 * in LANG.  Returns a malloc'd text (length in *LEN) or NULL when out of
 * memory.
 */
char *export_ratings_list(const Tournament *t, const RatingReport *r, ExportFormat format,
                          ExportLang lang, size_t *len);

/* The norm checks R of T as FORMAT (html or csv); as export_ratings_list. */
char *export_ratings_norms(const Tournament *t, const NormReport *r, ExportFormat format,
                           ExportLang lang, size_t *len);

/*
 * The norm certificate of start rank PLAYER for the check C (one of R's
 * rows for that player) as an HTML page in LANG: event, place, dates,
 * federation and arbiters (blank lines to fill by hand where the
 * tournament does not record them), the player, every round's opponent
 * with rating, title, federation and FIDE ID, the result, and the norm's
 * figures.  Returns a malloc'd text (length in *LEN) or NULL.
 */
char *export_ratings_certificate(const Tournament *t, const NormReport *r, int player,
                                 const NormCheck *c, ExportLang lang, size_t *len);

#endif
