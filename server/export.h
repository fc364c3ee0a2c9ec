/*
 * export.h — the printed lists of a tournament as text: crosstable,
 * standings and pairing lists (by board and alphabetical) in HTML, CSV or
 * JSON, from the data db/tournament_lists.h gives.  No I/O, no HTTP.
 *
 * HTML: one standalone UTF-8 page, its only style the inline <style> whose
 * text is export_css (the route allows exactly that text by hash in the
 * page's Content-Security-Policy), no scripts, every stored string escaped.
 * CSV: RFC 4180 (CRLF line ends, fields with a comma, quote or line end
 * quoted, quotes doubled), UTF-8 with a byte order mark so spreadsheets
 * read names in Cyrillic right, a header row; text that a spreadsheet would
 * take for a formula is defused (see csv_text in export.c).
 *
 * Workload: one page per download, a few hundred rows.
 */
#ifndef ARBITER_SERVER_EXPORT_H
#define ARBITER_SERVER_EXPORT_H

#include <jansson.h>
#include <stddef.h>

#include "strbuf.h"

typedef enum ExportFormat { EXPORT_JSON = 0, EXPORT_HTML, EXPORT_CSV } ExportFormat;

/* The language of an HTML page's words, which are those of web/i18n/<lang>.json
 * (CSV and JSON keep English keys). */
typedef enum ExportLang { EXPORT_EN = 0, EXPORT_RU, EXPORT_BG, EXPORT_LANGS } ExportLang;

/* The exact text of the <style> element of every HTML export. */
extern const char export_css[];

/* "json", "html" or "csv" (NULL: JSON) into *OUT: 0, or -1 for anything else. */
int export_format_parse(const char *text, ExportFormat *out);

/* "en", "ru" or "bg" (NULL: English) into *OUT: 0, or -1 for anything else. */
int export_lang_parse(const char *text, ExportLang *out);

/*
 * The crosstable CT (tournament_lists_crosstable) as FORMAT, an HTML page's words in
 * LANG; with ROUNDS zero, the
 * standings table (no round columns; JSON is then the caller's business and
 * this answers the rows).  Returns a malloc'd text (length in *LEN) or NULL
 * when out of memory.
 */
char *export_crosstable(json_t *ct, ExportFormat format, ExportLang lang, int rounds, size_t *len);

/*
 * The players of the pairing list PL (tournament_lists_pairings) in alphabetical order
 * (collate_names_cmp: case and diacritics folded, Latin before Cyrillic;
 * then start rank), each once: [{player{...}, board, colour ("w"/"b"/null),
 * opponent{...}|null, bye (kind or null), result}].  A new array (caller
 * owns) or NULL.
 */
json_t *export_pairings_alpha(json_t *pl);

/*
 * The pairing list PL as FORMAT, by board or (ALPHA) alphabetical.
 * Returns a malloc'd text (length in *LEN) or NULL when out of memory.
 */
char *export_pairings(json_t *pl, ExportFormat format, ExportLang lang, int alpha, size_t *len);

/* The word KEY of the pages' translations in LANG (English, else KEY, when
 * missing); owned by the module. */
const char *export_word(ExportLang lang, const char *key);
/* TEXT escaped for HTML / as one CSV field (after a comma unless FIRST,
 * guarded against formulas) onto B. */
void export_html(StrBuf *b, const char *text);
void export_csv_field(StrBuf *b, const char *text, int first);
/* The printable page's head (title: TOUR's name and WHAT, the style) and
 * its end, onto B. */
void export_page_open(StrBuf *b, json_t *tour, const char *what, ExportLang lang);
void export_page_close(StrBuf *b);

#endif
