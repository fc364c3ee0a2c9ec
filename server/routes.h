/*
 * routes.h — the handlers of the API routes (one per method and path; the
 * table is in routes.c and the OpenAPI document must list exactly it).
 */
#ifndef ARBITER_SERVER_ROUTES_H
#define ARBITER_SERVER_ROUTES_H

#include <stdbool.h>

#include "http.h"

/* routes_auth.c */
int route_health(Req *r);
int route_openapi(Req *r);
int route_login(Req *r);
int route_player_login(Req *r);
int route_logout(Req *r);
int route_me(Req *r);

/* routes_admin.c */
int route_tournaments_list(Req *r);
int route_tournament_create(Req *r);
int route_tournament_get(Req *r);
int route_tournament_update(Req *r);
/* True when tournament r->id[0] exists in s; otherwise answers 404 (the
 * route then returns ROUTE_DONE) and returns false. */
bool route_tournament_exists(Req *r, Store *s);

int route_players_list(Req *r);
int route_player_create(Req *r);
int route_player_get(Req *r);
int route_player_update(Req *r);
int route_player_credentials(Req *r);
int route_rounds_list(Req *r);
int route_round_create(Req *r);
int route_round_get(Req *r);
int route_round_add_game(Req *r);
int route_round_start(Req *r);
int route_round_pause(Req *r);
int route_round_resume(Req *r);
int route_standings(Req *r);
int route_alerts_list(Req *r);
int route_alert_update(Req *r);

/* routes_games.c */
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

/* routes_tournament.c */
int route_tournament_trf(Req *r);
int route_player_bye(Req *r);
int route_byes_list(Req *r);
int route_forbidden_list(Req *r);
int route_forbidden_add(Req *r);
int route_forbidden_remove(Req *r);

/* routes_export.c */
int route_crosstable(Req *r);
/* The standings for ?format= (html, csv or json); route_standings hands
 * over to it when the query names a format. */
int route_standings_export(Req *r);
int route_round_pairings(Req *r);

/* live.c */
int route_game_stream(Req *r);
int route_tournament_stream(Req *r);
int route_alerts_stream(Req *r);

/* routes_round_edit.c */
int route_round_check(Req *r);
int route_round_bye(Req *r);
int route_round_swap(Req *r);

#endif
