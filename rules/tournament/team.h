/*
 * team.h — the data model of a team competition (Olympiad, club league,
 * school team Swiss): teams with a fixed board order, the event's settings,
 * and rounds of matches whose board games carry the TRF result characters
 * of tournament.h.  The pairing engines (team_pairing.h) and the standings
 * (team_standings.h) read it; the store and the server fill it.
 *
 * Invariants:
 *  - A team's id is its pairing number, 1..n_teams, dense: teams[id - 1].
 *    team_event_rank_order() gives the order in which the organiser should
 *    number them; renumbering is the caller's business (before round 1).
 *  - A player's id is a start rank 1..TRN_MAX_PLAYERS (the TRF 001 number),
 *    unique in the event; every player belongs to exactly one team, whose
 *    roster lists it once.  The roster order is the board order fixed for
 *    the event; the first settings.boards entries are the regular boards,
 *    the rest are reserves (a reserve plays below the regulars it replaces).
 *  - Rounds are numbered from 1: rounds[r - 1].  A match names team_a, the
 *    first-named team (home side, left on the pairing list), and team_b; a
 *    match with team_b == 0 is a bye of team_a (kind in `bye`).  A team
 *    appears in at most one match of a round; a team in no match of a
 *    played round was absent (0 points).
 *  - board[k] is board k + 1.  colour_a is the colour of team_a's player
 *    on it (set from the settings by team_round_add_match); results are
 *    stored for each side, so a double forfeit is "-" / "-".
 *  - Points are in tenths (TRN_POINT), as in tournament.h.
 *
 * Workload: up to TEAM_MAX_TEAMS teams of TEAM_MAX_ROSTER players and
 * TRN_MAX_ROUNDS rounds; the arrays are allocated once by team_event_new()
 * and grown by the add functions; one team_event_free() releases all.
 * Pure: no I/O.
 */
#ifndef ARBITER_RULES_TEAM_H
#define ARBITER_RULES_TEAM_H

#include <stdbool.h>
#include <stdint.h>

#include "tournament.h"

enum {
    TEAM_MAX_TEAMS = 999, /* three columns of team number in TRF 310 */
    TEAM_MAX_BOARDS = 16, /* boards per match */
    TEAM_MAX_ROSTER = 32, /* regular boards plus reserves */
    TEAM_NAME_MAX = 136,  /* 32 columns of UTF-8 + NUL */
    TEAM_E_RANGE = 1,     /* id, board count or round out of range */
    TEAM_E_DUPLICATE = 2, /* id already used, or a team twice in a round */
    TEAM_E_UNKNOWN = 3,   /* no such team or player */
    TEAM_E_FULL = 4,      /* roster or boards full */
};

/* The score that makes the score groups (C.04.6 Art. 1.2); the other one is
 * the secondary score. */
typedef enum TeamPrimary {
    TEAM_PRIMARY_MATCH = 0, /* match points (default) */
    TEAM_PRIMARY_GAME = 1,  /* game points */
} TeamPrimary;

/* The colour-preference rules the regulations choose (C.04.6 Art. 1.7). */
typedef enum TeamPrefRule {
    TEAM_PREF_A = 0,    /* simple preferences (default) */
    TEAM_PREF_B = 1,    /* strong and mild preferences */
    TEAM_PREF_NONE = 2, /* colours play no part in the pairing */
} TeamPrefRule;

/* How a match's boards get their colours from the match colour. */
typedef enum TeamBoardScheme {
    TEAM_BOARDS_ODD_WHITE = 0,  /* first-named team White on odd boards (default) */
    TEAM_BOARDS_EVEN_WHITE = 1, /* first-named team White on even boards */
    TEAM_BOARDS_PATTERN = 2,    /* board_pattern[k] 'W'/'B' for the first-named team */
} TeamBoardScheme;

typedef struct TeamSettings {
    int boards;                         /* boards per match, 1..TEAM_MAX_BOARDS */
    TrnPoints mp_win, mp_draw, mp_loss; /* match points, default 20/10/0 */
    TrnPointSystem game;                /* game points per board, default 1/0.5/0 */
    TeamPrimary primary;
    TeamPrefRule pref;
    TeamBoardScheme scheme;
    char board_pattern[TEAM_MAX_BOARDS + 1]; /* TEAM_BOARDS_PATTERN only */
    /* Art. 4 (drawing of lots before round 1): the match colour of the
     * first team of the list when nobody has a history; TRN_WHITE default. */
    TrnColour initial_colour;
    /* Pairing-allocated bye (C.04.6 Art. 1.4): the match points and game
     * points it gives, by default those of a drawn match. */
    TrnPoints pab_mp, pab_gp;
    int n_rounds;      /* rounds planned, 0 = unknown (the last-rounds rules need it) */
    bool no_secondary; /* Art. 4.2.2 off: the secondary score does not decide colours */
} TeamSettings;

typedef struct TeamPlayer {
    int id;                  /* start rank, 1..TRN_MAX_PLAYERS */
    int team;                /* team id */
    char name[TRN_NAME_MAX]; /* "Last, First" */
    char title[4];
    char sex;   /* 'm', 'w' or '\0' */
    int rating; /* 0 = unrated */
    char federation[4];
    char fide_id[12];
    char birth[11];
} TeamPlayer;

typedef struct TeamEntry {
    int id; /* pairing number */
    char name[TEAM_NAME_MAX];
    char federation[4]; /* or club code; "" if none */
    char captain[TRN_NAME_MAX];
    int n_roster;
    int roster[TEAM_MAX_ROSTER]; /* player ids in board order */
    bool withdrawn;              /* not paired any more */
} TeamEntry;

/* One board of a match. */
typedef struct TeamBoardGame {
    int player_a, player_b; /* player ids; 0 = nobody on this board (forfeit) */
    uint8_t colour_a;       /* TrnColour of team_a's player */
    char result_a;          /* TrnResult for team_a's player, NONE = not yet */
    char result_b;          /* TrnResult for team_b's player */
} TeamBoardGame;

/* Whole-match forfeits (no line-up, or too late). */
typedef enum TeamForfeit {
    TEAM_FORFEIT_NONE = 0,
    TEAM_FORFEIT_A = 1,    /* team_a did not appear: team_b wins by forfeit */
    TEAM_FORFEIT_B = 2,    /* team_b did not appear */
    TEAM_FORFEIT_BOTH = 3, /* neither: both lose */
} TeamForfeit;

typedef struct TeamMatch {
    int team_a, team_b; /* team_b == 0: a bye of team_a */
    char bye;           /* with team_b == 0: TRN_RES_PAB, _FPB, _HPB or _ZPB */
    uint8_t forfeit;    /* TeamForfeit */
    uint8_t colour_a;   /* match colour of team_a (its colour on board 1) */
    TeamBoardGame board[TEAM_MAX_BOARDS];
} TeamMatch;

typedef struct TeamRound {
    int n_matches, cap_matches;
    TeamMatch *matches; /* pairing order (table 1 first) */
} TeamRound;

typedef struct TeamEvent {
    TeamSettings settings;
    int n_teams, cap_teams;
    TeamEntry *teams; /* teams[id - 1] */
    int n_players, cap_players;
    TeamPlayer *players; /* in the order added */
    int *player_index;   /* TRN_MAX_PLAYERS + 1: id -> index + 1, 0 = none */
    int n_rounds;        /* rounds created */
    TeamRound rounds[TRN_MAX_ROUNDS];
} TeamEvent;

/* The score of one match, from both sides. */
typedef struct TeamMatchScore {
    TrnPoints gp_a, gp_b; /* game points */
    TrnPoints mp_a, mp_b; /* match points */
    bool complete;        /* every board has results (or a forfeit/bye decides) */
} TeamMatchScore;

/*
 * Fills *s with the defaults for `boards` boards (clamped to 1..16):
 * match points 2/1/0, game points 1/0.5/0, match points primary, colour
 * rule A, first-named team White on odd boards, initial colour White, and
 * the pairing-allocated bye worth a drawn match: a draw's match points and
 * half the boards' game points (C.04.6 Art. 1.4, unless the regulations
 * say otherwise).
 */
void team_settings_default(TeamSettings *s, int boards);

/* A new empty event with a copy of *s (defaults for 4 boards if s is NULL);
 * NULL when out of memory.  Free with team_event_free(). */
TeamEvent *team_event_new(const TeamSettings *s);

/* Frees ev and everything it owns; NULL is a no-op. */
void team_event_free(TeamEvent *ev);

/*
 * Adds team number n_teams + 1 with the given name (copied, cut to fit).
 * Returns the team (owned by ev, valid until the next add) or NULL when
 * full or out of memory.
 */
TeamEntry *team_event_add_team(TeamEvent *ev, const char *name);

/*
 * Adds player `id` at the end of team `team`'s roster, all other fields
 * zero.  Returns the player (owned by ev, valid until the next add) or NULL
 * if the id is out of range or taken, the team unknown, its roster full,
 * or memory ran out.
 */
TeamPlayer *team_event_add_player(TeamEvent *ev, int team, int id);

/* The team with pairing number id, or NULL. */
const TeamEntry *team_event_team(const TeamEvent *ev, int id);
TeamEntry *team_event_team_mut(TeamEvent *ev, int id);

/* The player with start rank id, or NULL. */
const TeamPlayer *team_event_player(const TeamEvent *ev, int id);
TeamPlayer *team_event_player_mut(TeamEvent *ev, int id);

/*
 * Opens round n_rounds + 1 (empty) and returns it, or NULL when all
 * TRN_MAX_ROUNDS exist or memory ran out.
 */
TeamRound *team_event_add_round(TeamEvent *ev);

/*
 * Appends a match a (first-named) v b to round `round` with colour_a the
 * match colour of a (its colour on board 1); fills every
 * board's colour_a from the settings and, as a default line-up, the first
 * `boards` roster entries of each team.  b == 0 makes a bye of kind `bye`
 * (TRN_RES_PAB, _FPB, _HPB or _ZPB).  Returns the match or NULL (unknown
 * team, a team already in the round, bad round, out of memory).
 */
TeamMatch *team_event_add_match(TeamEvent *ev, int round, int a, int b, TrnColour colour_a);
TeamMatch *team_event_add_bye(TeamEvent *ev, int round, int team, char bye);

/* The match of team `team` in round `round`, or NULL (absent or no round). */
const TeamMatch *team_event_match_of(const TeamEvent *ev, int round, int team);

/*
 * Colour of the first-named team's player on board `board` (1-based) when
 * that team's match colour (its colour on board 1) is colour_a.  The
 * scheme fixes the first-named team's pattern (W B W B ... for odd boards
 * White, B W B W ... for even, or board_pattern); a colour_a other than the
 * pattern's board 1 inverts it.  TRN_COLOUR_NONE if board is out of range.
 */
TrnColour team_board_colour(const TeamSettings *s, TrnColour colour_a, int board);

/*
 * Score of match m under the settings: game points of each side (board
 * results through settings.game; a board with no result counts 0 and
 * clears `complete`), match points by comparing them; a whole-match
 * forfeit gives the present side all boards and a win; both forfeiting
 * gives 0 and a loss to each; a bye gives pab_mp/pab_gp for a PAB, a won
 * match by forfeit for an FPB, a draw's match points and half the boards
 * for an HPB, 0 for a ZPB.
 */
void team_match_score(const TeamSettings *s, const TeamMatch *m, TeamMatchScore *out);

/*
 * Match points and game points of team `team` over rounds 1..rounds
 * (absence = 0).  Either output may be NULL.
 */
void team_event_score(const TeamEvent *ev, int team, int rounds, TrnPoints *mp, TrnPoints *gp);

/*
 * Rating average for the initial ranking: the mean of the `top` highest
 * ratings of the roster (an unrated player counts 0; with fewer than `top`
 * players, over those there are), rounded half up; 0 for an empty roster.
 */
int team_rating_average(const TeamEvent *ev, int team, int top);

/*
 * The order in which to give pairing numbers (C.04.6 leaves it to the
 * regulations; the default here): rating average of the top `boards`
 * ratings, higher first; then the average of the whole roster; then the
 * best single rating; then name (byte order); then current id.  Writes
 * n_teams team ids to order[] (best first).
 */
void team_event_rank_order(const TeamEvent *ev, int *order);

#endif
