/*
 * export_hall.h — the documents an arbiter prints for the playing hall:
 * the pairings of a round by board and alphabetical, one card per board
 * with its number, one result slip per board, and the standings in large
 * type for the wall.  Each is one standalone HTML page for A4 or US
 * Letter paper: its only style is the inline <style> whose text
 * export_hall_css gives (the route allows exactly that text by hash),
 * several cards or slips share a sheet and never split across two.
 * Words come from the pages' translations (export_word).  No I/O, no HTTP.
 *
 * Workload: one page per print, a few hundred players.
 */
#ifndef ARBITER_SERVER_EXPORT_HALL_H
#define ARBITER_SERVER_EXPORT_HALL_H

#include <jansson.h>
#include <stddef.h>

#include "export.h"

typedef enum HallDoc { HALL_BOARD = 0, HALL_ALPHA, HALL_CARDS, HALL_SLIPS } HallDoc;
typedef enum HallPaper { HALL_A4 = 0, HALL_LETTER } HallPaper;

/* "board", "alpha", "cards" or "slips" (NULL: board) into *OUT: 0, or -1
 * for anything else. */
int export_hall_doc_parse(const char *text, HallDoc *out);
/* "a4" or "letter" (NULL: A4) into *OUT: 0, or -1 for anything else. */
int export_hall_paper_parse(const char *text, HallPaper *out);

/* The exact text of the <style> element of a hall page on PAPER (static). */
const char *export_hall_css(HallPaper paper);

/*
 * Document DOC of the pairing list PL (tournament_lists_pairings) on PAPER,
 * its words in LANG.  Returns a malloc'd text (length in *LEN) or NULL when
 * out of memory.
 */
char *export_hall_round(json_t *pl, HallDoc doc, HallPaper paper, ExportLang lang, size_t *len);

/*
 * The wall standings of the crosstable CT (tournament_lists_crosstable):
 * rank, name, rating and points in large type.  As export_hall_round.
 */
char *export_hall_standings(json_t *ct, HallPaper paper, ExportLang lang, size_t *len);

#endif
