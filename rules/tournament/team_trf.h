/*
 * team_trf.h — a team event as a TRF-2026 file: the individual part (the
 * 001 records of every player's board games, for the rating report) read
 * and written by trf.h, and the team section:
 *
 *   352  board colour sequence of the first-named team ("WBWB"): the board
 *        count and the board scheme
 *   362  match points TW TD TL (written as 162 writes its codes: a code,
 *        then its value in the next four columns, every nine columns)
 *   192  FIDE_TEAM[_TYPEA|_TYPEB]_MP|GP[_GP|_MP]: colour rule and primary
 *        score (a header line already naming a system is kept)
 *   310  one per team: number, name, nickname (the federation), strength
 *        factor (rating average), match and game points, rank, players in
 *        board order (at most 14: longer rosters are cut in the file)
 *   320  the PAB's match and game points and the PAB team of each round
 *   330  matches forfeited as a whole (+- -+ --, White team, Black team)
 *   300  line-ups out of the default order (or with an empty board)
 *   240  the teams' requested byes (F H Z) by round
 *
 * Individual games of a match forfeited as a whole are not written (the
 * 330 record says it); a board left empty gives the player facing it a
 * forfeit with opponent 0000.  The reader takes the team records out,
 * reads the rest with trf_read, then rebuilds the matches from the
 * players' games, the 310 board order and the 300 line-ups.  The file
 * names no first team: the first-named team is read as the one whose
 * board 1 has the 352 sequence's first colour (what the pairing produces;
 * a match entered the other way round comes back with its teams swapped).
 * Writing what was read gives the same text.
 *
 * Pure: text in, text out.
 */
#ifndef ARBITER_RULES_TEAM_TRF_H
#define ARBITER_RULES_TEAM_TRF_H

#include <stddef.h>

#include "team.h"
#include "trf.h"

/*
 * Builds the individual tournament of ev (one player per roster entry,
 * games from the boards, points under settings.game), with the header
 * fields of head (name, place, dates, arbiters, system, tie-breaks...; may
 * be NULL).  Returns 0 with *out (tournament_free), or -ENOMEM.
 */
int team_trf_tournament(const TeamEvent *ev, const Tournament *head, Tournament **out);

/*
 * Writes ev as a TRF-2026 file with its team section (lines end in CR).
 * Returns a malloc'd NUL-terminated text (caller frees) and its length in
 * *len (if not NULL), or NULL when out of memory.
 */
char *team_trf_write(const TeamEvent *ev, const Tournament *head, size_t *len);

/*
 * Reads a TRF-2026 team file.  Returns 0 with *ev (team_event_free) and,
 * if indiv is not NULL, the individual part as *indiv (tournament_free);
 * a TRF_E_* code with *err filled in; or -ENOMEM.
 */
int team_trf_read(const char *text, size_t len, TeamEvent **ev, Tournament **indiv, TrfError *err);

#endif
