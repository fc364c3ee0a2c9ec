/*
 * team_event.h — a team competition of the store as the rules see it
 * (rules/tournament/team.h): the adapter that loads teams, rosters,
 * matches and board results into a TeamEvent, with the maps between the
 * rules' numbers and the store's ids.
 *
 * The rules number teams by pairing number (1..n) and players 1..n in the
 * order of the teams and their rosters; before round 1 is paired the teams
 * have no pairing numbers and are numbered by id.  Board results come from
 * games.result as the store's public view shows them (rounds.h), so a
 * delayed result stays "*" for the public here too.
 *
 * Workload: a few hundred teams, a few thousand games: a handful of
 * queries per round.
 */
#ifndef ARBITER_DB_TEAM_EVENT_H
#define ARBITER_DB_TEAM_EVENT_H

#include <stdint.h>

#include "store.h"
#include "team.h"

typedef struct TeamLoad {
    TeamEvent *ev;
    int64_t tid;
    int64_t *team_ids;                  /* rules team id - 1 -> teams.id */
    int64_t *player_ids;                /* rules player id - 1 -> players.id */
    int64_t *match_ids[TRN_MAX_ROUNDS]; /* per round, in the rules' match order */
    int64_t *game_ids[TRN_MAX_ROUNDS];  /* per round: match index * boards + board - 1 */
} TeamLoad;

/* Loads tournament TID with its first ROUNDS rounds (all when negative).
 * 0 with *OUT (free with team_event_load_free), STORE_E_NOT_FOUND, or
 * -ENOMEM. */
int team_event_load(Store *s, int64_t tid, int rounds, TeamLoad **out);
/* Frees L; NULL is a no-op. */
void team_event_load_free(TeamLoad *l);
/* The rules' number of store team TEAM / store player PID, or 0. */
int team_event_team_num(const TeamLoad *l, int64_t team);
int team_event_player_num(const TeamLoad *l, int64_t pid);

/* The two sides' TRF result characters of a games.result text ("1-0",
 * "1/2-1/2", "+/-", "*", ...) into *W and *B (TRN_RES_NONE when open). */
void team_event_result_chars(const char *result, char *w, char *b);

#endif
