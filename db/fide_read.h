/*
 * fide_read.h — reading FIDE's published rating list files, one player at a
 * time: the XML lists (the combined players_list_xml_foa.xml, or one rating
 * type's list) and the fixed-width TXT lists (combined, or standard / rapid
 * / blitz), each plain, gzipped or in a .zip with the list as its first
 * member.
 *
 * Streaming: memory stays bounded whatever the file size (a 64 KB input
 * buffer, the inflater's window, one player).  The XML list is flat
 * (<playerslist><player><fideid>..</fideid>..</player>..), so a small
 * tokenizer of its own reads it: elements, text, the five named entities
 * and numeric references; comments, processing instructions and a
 * DOCTYPE are skipped.  The TXT list's columns are found from the labels
 * of its header line (a field runs from its label to the next one).
 *
 * Rows come out normalised so that the XML and the TXT list of one month
 * give the same rows: a rating of 0 or none means unrated (no games, no
 * K), a K of 0 means none, text is UTF-8 (a TXT list in Latin-1 is
 * converted).
 */
#ifndef ARBITER_DB_FIDE_READ_H
#define ARBITER_DB_FIDE_READ_H

#include <stddef.h>
#include <stdint.h>

/* The rating types, also the bits of FideRow.types. */
enum { FIDE_STANDARD, FIDE_RAPID, FIDE_BLITZ, FIDE_TYPES };

/* A value that fide_read_file refuses (the message says FILE:LINE). */
enum { FIDE_READ_E_FILE = 1 };

typedef struct FideRating {
    int rating; /* 0 = unrated; then games and k are 0 too */
    int games;
    int k; /* 0 = not given */
} FideRating;

typedef struct FideRow {
    int64_t id;
    char name[160];
    char federation[8];
    char sex[4];
    char title[8];
    char w_title[8];
    char o_title[64]; /* arbiter and trainer titles, comma-separated */
    char foa_title[8];
    FideRating r[FIDE_TYPES];
    int birth_year; /* 0 = not given */
    int inactive;
    unsigned types; /* bit t set: the file carries ratings of type t */
    long line;      /* where the player's record ends in the file */
} FideRow;

typedef struct FideReadInfo {
    char list_date[16]; /* YYYY-MM-01 from a TXT header's month column, else "" */
    long rows;
    unsigned types; /* the rating types the file carries */
} FideReadInfo;

/* Called for every player; a nonzero result stops the reading and is
 * returned by fide_read_file. */
typedef int (*FideRowFn)(void *ctx, const FideRow *row);

/*
 * Reads the list at PATH and calls FN(CTX, row) for each player.  TYPE is
 * the rating type of a single-type list (FIDE_STANDARD..FIDE_BLITZ) or -1
 * to take it from the file name as FIDE names them (standard_..., rapid_...,
 * blitz_...; otherwise the list is the combined one).  Returns 0 with
 * *INFO filled, FIDE_READ_E_FILE with "PATH:LINE: why" in ERR (N bytes) for
 * a file that cannot be read or is not such a list, or FN's result.
 */
int fide_read_file(const char *path, int type, FideRowFn fn, void *ctx, FideReadInfo *info,
                   char *err, size_t n);

#endif
