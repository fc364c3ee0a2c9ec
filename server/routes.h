/*
 * routes.h — the route table of /api/v1 and the handlers it names.
 *
 * Each entry of routes_table carries the method, the path pattern, who may
 * call it (RouteRole), the fields its JSON body accepts and the handler.
 * routes_dispatch (the HTTP layer's api hook) matches a request against the
 * table, resolves the session, answers 404 for unknown ids and checks the
 * role, all before the handler runs: handlers do not check roles.  The
 * handlers check their bodies against the very field tables named here, so
 * the table describes them exactly; the OpenAPI document
 * (server/openapi.json) must agree with the table in paths, methods, roles
 * (x-role) and body schemas, which tests/http/test_http_routes.c checks.
 *
 * Handlers live in routes_<resource>.c, one file per resource; they are
 * named route_<resource>_<verb> (route_play_* and route_arb_* are a game's
 * player and arbiter actions).
 */
#ifndef ARBITER_SERVER_ROUTES_H
#define ARBITER_SERVER_ROUTES_H

#include <stdbool.h>

#include "export.h"
#include "http.h"
#include "jsonin.h"

/* Who may call a route.  ROUTE_PLAYER: only a player of the game {gid}
 * (the first path parameter); the dispatcher puts his colour in r->colour.
 * ROUTE_ARBITER: any arbiter may read, but a change to a tournament {tid}
 * or to a game {gid} needs a right on that tournament (db/users.h).
 * ROUTE_CHIEF: only the chief arbiter of tournament {tid} or an
 * administrator.
 * ROUTE_CAPTAIN: an arbiter with a right on tournament {tid} or the captain
 * of the team {team} (the second path parameter) of that tournament. */
typedef enum {
    ROUTE_PUBLIC = 0,
    ROUTE_ARBITER,
    ROUTE_PLAYER,
    ROUTE_CHIEF,
    ROUTE_CAPTAIN
} RouteRole;

typedef int (*RouteFn)(Req *r);
typedef struct Route {
    int method;
    const char *method_name;
    const char *pattern; /* under /api/v1, integer parameters as {name} */
    RouteRole role;
    /* The body's fields (the handler checks the body against this very
     * table); jsonin_none: only {} or nothing; NULL: no body is read. */
    const JsonField *body;
    RouteFn fn;
    /* A heavy read (an export that renders a whole tournament): the handler
     * runs on the heavy-read pool (http_offload), never on a polling
     * thread that moves need. */
    int heavy;
} Route;

/* The route table (routes.c). */
extern const Route routes_table[];
extern const int routes_count;
/* The hooks of the HTTP layer for `serve` (http.h): rate limit, dispatch,
 * caches forgotten after writes, security headers, streams closed. */
extern const HttpHooks routes_hooks;

/* The api hook: matches PATH (after /api/v1) and runs its route. */
int routes_dispatch(Req *r, const char *path);
/* The role check of ROUTE for r->auth (and r->id for player routes): 0 when
 * allowed (r->colour set for player routes), else -1 after answering 401
 * (nobody signed in), 403 (the wrong role or another game's player) or 404
 * (no such game). */
int routes_authorize(Req *r, const Route *route);

/* routes_service.c */
int route_health(Req *r);
int route_openapi(Req *r);

/* routes_auth.c */
int route_login(Req *r);
int route_player_login(Req *r);
int route_logout(Req *r);
int route_me(Req *r);
extern const JsonField route_login_fields[];
extern const JsonField route_player_login_fields[];

/* routes_users.c */
int route_arbiters_list(Req *r);
int route_arbiter_grant(Req *r);
int route_arbiter_revoke(Req *r);
int route_password(Req *r);
extern const JsonField route_arbiter_fields[];
extern const JsonField route_password_fields[];

/* routes_tournaments.c */
int route_tournaments_list(Req *r);
int route_tournament_get(Req *r);
int route_tournament_create(Req *r);
int route_tournament_update(Req *r);
/* True when tournament r->id[0] exists in s; otherwise answers 404 (the
 * route then returns ROUTE_DONE) and returns false. */
bool route_tournament_exists(Req *r, Store *s);
/* The request's reader when tournament r->id[0] exists; otherwise NULL
 * after answering 500 or 404 (the route then returns ROUTE_DONE). */
Store *route_tournament_reader(Req *r);
int route_tournament_trf(Req *r);
/* Answers TEXT (taken, LEN bytes), a TRF report of tournament r->id[0], as
 * the attachment STEM-<id>.trf; when TEXT is NULL, answers 500 with ERR. */
int route_tournament_trf_reply(Req *r, const char *stem, char *text, size_t len, const char *err);
extern const JsonField route_settings_fields[];
extern const JsonField route_tournament_fields[];

/* routes_players.c */
int route_players_list(Req *r);
int route_player_get(Req *r);
int route_player_create(Req *r);
int route_player_update(Req *r);
int route_player_credentials(Req *r);
int route_player_bye(Req *r);
int route_byes_list(Req *r);
extern const JsonField route_player_fields[];
/* Creates the player of the checked body r->in with new credentials
 * (201 {player, credentials}). */
int route_player_submit(Req *r);

/* routes_office.c */
int route_player_add_fide(Req *r);
int route_players_refresh(Req *r);
extern const JsonField route_player_fide_fields[];
extern const JsonField route_players_refresh_fields[];
int route_tournament_import(Req *r);
extern const JsonField route_tournament_import_fields[];
extern const JsonField route_bye_fields[];

/* routes_pins.c */
int route_pins_issue(Req *r);
extern const JsonField route_pins_fields[];

/* routes_forbidden.c */
int route_forbidden_list(Req *r);
int route_forbidden_add(Req *r);
int route_forbidden_remove(Req *r);
extern const JsonField route_forbidden_fields[];
extern const JsonField route_forbidden_remove_fields[];

/* routes_publish.c: publishing a round, withdrawing it to a draft. */
int route_round_publish(Req *r);
int route_round_unpublish(Req *r);
/* Whether the object a path names (KIND 'r' round ID of tournament TID,
 * 'g' game ID) belongs to a draft round, which only an arbiter may see. */
bool route_round_hidden(Req *r, Store *s, char kind, int64_t tid, int64_t id);

/* routes_rounds.c */
int route_rounds_list(Req *r);
int route_round_get(Req *r);
int route_round_create(Req *r);
int route_round_add_game(Req *r);
int route_round_start(Req *r);
int route_round_pause(Req *r);
int route_round_resume(Req *r);
int route_round_check(Req *r);
int route_round_bye(Req *r);
int route_round_swap(Req *r);
extern const JsonField route_pairing_fields[];
extern const JsonField route_round_fields[];
extern const JsonField route_round_bye_fields[];
extern const JsonField route_swap_fields[];

/* routes_games.c */
/* The full GameState of GID: summary, players, state at now, scoresheet.
 * NULL with *CODE set (STORE_E_NOT_FOUND, ...) and r->err. */
json_t *route_game_state(Req *r, Store *s, int64_t gid, int *code);
int route_game_get(Req *r);
int route_game_update(Req *r);
int route_game_pgn(Req *r);
int route_round_pgn(Req *r);
int route_tournament_pgn(Req *r);
int route_play_checkin(Req *r);
int route_play_move(Req *r);
int route_play_offer(Req *r);
int route_play_accept(Req *r);
int route_play_decline(Req *r);
int route_play_claim(Req *r);
int route_play_resign(Req *r);
int route_play_flag(Req *r);
int route_play_call(Req *r);
int route_play_confirm(Req *r);
int route_arb_pause(Req *r);
int route_arb_resume(Req *r);
int route_arb_accept(Req *r);
int route_arb_decline(Req *r);
int route_arb_adjust(Req *r);
int route_arb_restore(Req *r);
int route_arb_illegal(Req *r);
int route_arb_penalty(Req *r);
int route_arb_result(Req *r);
int route_arb_colours(Req *r);
int route_arb_touch(Req *r);
int route_arb_press(Req *r);
int route_arb_illegal_act(Req *r);
int route_arb_displaced(Req *r);
int route_arb_setup(Req *r);
int route_arb_dead(Req *r);
extern const JsonField route_touch_fields[];
extern const JsonField route_press_fields[];
extern const JsonField route_illegal_act_fields[];
extern const JsonField route_displaced_fields[];
extern const JsonField route_setup_fields[];
extern const JsonField route_dead_fields[];
extern const JsonField route_game_update_fields[];
extern const JsonField route_ply_fields[];
extern const JsonField route_move_fields[];
extern const JsonField route_claim_fields[];
extern const JsonField route_note_fields[];
extern const JsonField route_adjust_fields[];
extern const JsonField route_restore_fields[];
extern const JsonField route_illegal_fields[];
extern const JsonField route_penalty_fields[];
extern const JsonField route_result_fields[];

/* routes_alerts.c */
int route_alerts_list(Req *r);
int route_alert_update(Req *r);
extern const JsonField route_alert_fields[];

/* routes_exports.c */
int route_crosstable(Req *r);
/* The standings for ?format= (html, csv or json); route_standings hands
 * over to it when the query names a format. */
int route_standings_export(Req *r);
int route_round_pairings(Req *r);
int route_standings(Req *r);
/* The hall documents of a round (?doc=board|alpha|cards|slips) and the
 * wall standings (?doc=standings), ?paper=a4|letter, ?lang=. */
int route_round_hall(Req *r);
int route_hall(Req *r);
/* The ?format= and ?lang= of R into *F and *L: 0, or -1 after answering 400. */
int route_export_format(Req *r, ExportFormat *f, ExportLang *l);
/* Answers TEXT (taken; NULL answers 500) in format F, to be saved as
 * NAME.<ext>; an HTML page gets the policy that allows its one style. */
int route_export_reply(Req *r, ExportFormat f, char *text, size_t len, const char *name);

/* routes_ratings.c */
/* FIDE rating changes: JSON as `arbiter ratings --format json` plus
 * player_id, or ?format=html|csv. */
int route_ratings(Req *r);
/* FIDE title norms: JSON as `arbiter norms --format json` plus player_id,
 * ?format=html|csv, or with ?player=PID&format=html the norm certificate. */
int route_norms(Req *r);

/* routes_fide.c */
int route_fide_search(Req *r);
int route_fide_player(Req *r);

/* routes_teams.c */
int route_team_settings_get(Req *r);
int route_team_settings_update(Req *r);
int route_teams_list(Req *r);
int route_team_create(Req *r);
int route_team_get(Req *r);
int route_team_update(Req *r);
int route_team_credentials(Req *r);
int route_captain_login(Req *r);
int route_lineup_get(Req *r);
int route_lineup_submit(Req *r);
int route_lineup_deadline(Req *r);
int route_matches_pair(Req *r);
int route_round_matches(Req *r);
/* One match (JSON), or with ?format=html|csv its match sheet. */
int route_match_get(Req *r);
int route_match_forfeit(Req *r);
int route_team_standings(Req *r);
/* The team crosstable: JSON, or ?format=html|csv. */
int route_team_crosstable(Req *r);
int route_team_players(Req *r);
int route_board_prizes(Req *r);
/* The TRF-2026 report with its team section (arbiter). */
int route_team_trf(Req *r);
extern const JsonField route_team_settings_fields[];
extern const JsonField route_team_fields[];
extern const JsonField route_captain_login_fields[];
extern const JsonField route_lineup_fields[];
extern const JsonField route_deadline_fields[];
extern const JsonField route_forfeit_fields[];

/* routes_streams.c */
int route_game_stream(Req *r);
int route_tournament_stream(Req *r);
int route_alerts_stream(Req *r);

#endif
