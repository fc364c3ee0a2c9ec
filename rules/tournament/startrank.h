/*
 * startrank.h — the initial order of a tournament's players, which gives
 * each one a Tournament Pairing Number (TPN, the TRF start rank), as
 * C.04.2 Art. 2 orders it:
 *
 *   1. rating, highest first (one list for all players; an unrated player
 *      counts with the arbiter's estimate, or 0 and so last);
 *   2. title: GM, IM, WGM, FM, WIM, CM, WFM, WCM, then no title;
 *   3. name, alphabetically (collate_names_cmp: case and diacritics folded,
 *      so "Ödön" comes among the O's, before "Zoltan");
 *   4. registration order (earlier first), so the order is total and the
 *      pairing reproducible.
 *
 * Frozen numbers: once round 4 has been paired, corrections no longer
 * renumber anybody.  Entries that already carry a frozen number keep their
 * relative order and come first; the others (late entries after the
 * freeze) follow in the order above.  Numbers are always 1..n without gaps.
 *
 * Pure: no I/O, no allocation beyond what qsort does on the caller's array.
 * Workload: a few hundred entries, sorted once per request.
 */
#ifndef ARBITER_RULES_STARTRANK_H
#define ARBITER_RULES_STARTRANK_H

#include <stdint.h>

typedef struct StartEntry {
    int64_t key;       /* registration order, unique (the player id); also the caller's handle */
    int rating;        /* FIDE (or national) rating, 0 = unrated */
    int estimate;      /* the arbiter's estimate for an unrated player, 0 = none */
    const char *title; /* as registered ("GM", "wim", ...); NULL or "" = none */
    const char *name;  /* "Last, First"; NULL = "" */
    int frozen;        /* start rank fixed at the freeze, 0 = not frozen */
    int rank;          /* out: the TPN, 1..n */
} StartEntry;

/* Position of TITLE in the C.04.2 title order: 0 for GM ... 7 for WCM, 8
 * for no title or one outside the list.  Case does not matter. */
int startrank_title_order(const char *title);

/* The C.04.2 comparison of two entries that are not frozen: negative when
 * A comes before B.  Never 0 for entries with different keys. */
int startrank_compare(const StartEntry *a, const StartEntry *b);

/* Sorts E (N entries) into TPN order and sets each entry's rank to its
 * position + 1: frozen entries first by their frozen number (ties by key),
 * then the others by startrank_compare. */
void startrank_assign(StartEntry *e, int n);

#endif
