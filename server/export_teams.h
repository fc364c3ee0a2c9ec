/*
 * export_teams.h — the printed lists of a team competition: the team
 * crosstable in the chess-results form (one row per team, one cell per
 * round: the opponent's number, the colour on board 1 and the game
 * points) and the match sheet of one match (boards, players, results,
 * the captains' and arbiter's signature lines), as an HTML page or CSV.
 * Words come from the pages' translations (export_word).
 */
#ifndef ARBITER_SERVER_EXPORT_TEAMS_H
#define ARBITER_SERVER_EXPORT_TEAMS_H

#include <jansson.h>
#include <stddef.h>

#include "export.h"

/* CT as team_lists_crosstable gives it, in FORMAT (html or csv): the text
 * (caller frees) and its length in *LEN, or NULL when out of memory. */
char *export_teams_crosstable(json_t *ct, ExportFormat format, ExportLang lang, size_t *len);
/* Match M as matches_get gives it, of the tournament named TOURNAMENT. */
char *export_teams_match_sheet(json_t *m, const char *tournament, ExportFormat format,
                               ExportLang lang, size_t *len);

#endif
