/*
 * routes.c — the route table of /api/v1.  The OpenAPI document
 * (server/openapi.json, served at /api/v1/openapi.json) lists exactly these
 * methods and paths; a test keeps the two equal.
 */
#include "routes.h"

#define GET(p, f) {HTTP_GET, "GET", p, f}
#define POST(p, f) {HTTP_POST, "POST", p, f}
#define PATCH(p, f) {HTTP_PATCH, "PATCH", p, f}

const Route routes_table[] = {
    GET("/health", route_health),
    GET("/openapi.json", route_openapi),
    POST("/auth/login", route_login),
    POST("/auth/player", route_player_login),
    POST("/auth/logout", route_logout),
    GET("/auth/me", route_me),

    GET("/tournaments", route_tournaments_list),
    POST("/tournaments", route_tournament_create),
    GET("/tournaments/{tid}", route_tournament_get),
    PATCH("/tournaments/{tid}", route_tournament_update),
    GET("/tournaments/{tid}/players", route_players_list),
    POST("/tournaments/{tid}/players", route_player_create),
    GET("/tournaments/{tid}/players/{pid}", route_player_get),
    PATCH("/tournaments/{tid}/players/{pid}", route_player_update),
    POST("/tournaments/{tid}/players/{pid}/credentials", route_player_credentials),
    POST("/tournaments/{tid}/players/{pid}/byes", route_player_bye),
    GET("/tournaments/{tid}/byes", route_byes_list),
    GET("/tournaments/{tid}/forbidden", route_forbidden_list),
    POST("/tournaments/{tid}/forbidden", route_forbidden_add),
    POST("/tournaments/{tid}/forbidden/remove", route_forbidden_remove),
    GET("/tournaments/{tid}/rounds", route_rounds_list),
    POST("/tournaments/{tid}/rounds", route_round_create),
    GET("/tournaments/{tid}/rounds/{rn}", route_round_get),
    POST("/tournaments/{tid}/rounds/{rn}/games", route_round_add_game),
    POST("/tournaments/{tid}/rounds/{rn}/start", route_round_start),
    POST("/tournaments/{tid}/rounds/{rn}/pause", route_round_pause),
    POST("/tournaments/{tid}/rounds/{rn}/resume", route_round_resume),
    GET("/tournaments/{tid}/rounds/{rn}/check", route_round_check),
    POST("/tournaments/{tid}/rounds/{rn}/byes", route_round_bye),
    POST("/tournaments/{tid}/rounds/{rn}/swap", route_round_swap),
    GET("/tournaments/{tid}/rounds/{rn}/pgn", route_round_pgn),
    GET("/tournaments/{tid}/rounds/{rn}/pairings", route_round_pairings),
    GET("/tournaments/{tid}/pgn", route_tournament_pgn),
    GET("/tournaments/{tid}/standings", route_standings),
    GET("/tournaments/{tid}/crosstable", route_crosstable),
    GET("/tournaments/{tid}/trf", route_tournament_trf),
    GET("/tournaments/{tid}/stream", route_tournament_stream),
    GET("/tournaments/{tid}/alerts", route_alerts_list),
    GET("/tournaments/{tid}/alerts/stream", route_alerts_stream),
    PATCH("/tournaments/{tid}/alerts/{aid}", route_alert_update),

    GET("/games/{gid}", route_game_get),
    PATCH("/games/{gid}", route_game_update),
    GET("/games/{gid}/pgn", route_game_pgn),
    GET("/games/{gid}/stream", route_game_stream),
    POST("/games/{gid}/checkin", route_play_checkin),
    POST("/games/{gid}/move", route_play_move),
    POST("/games/{gid}/offer", route_play_offer),
    POST("/games/{gid}/accept", route_play_accept),
    POST("/games/{gid}/decline", route_play_decline),
    POST("/games/{gid}/claim", route_play_claim),
    POST("/games/{gid}/resign", route_play_resign),
    POST("/games/{gid}/flag", route_play_flag),
    POST("/games/{gid}/call", route_play_call),
    POST("/games/{gid}/confirm", route_play_confirm),
    POST("/games/{gid}/arbiter/pause", route_arb_pause),
    POST("/games/{gid}/arbiter/resume", route_arb_resume),
    POST("/games/{gid}/arbiter/accept", route_arb_accept),
    POST("/games/{gid}/arbiter/decline", route_arb_decline),
    POST("/games/{gid}/arbiter/adjust", route_arb_adjust),
    POST("/games/{gid}/arbiter/restore", route_arb_restore),
    POST("/games/{gid}/arbiter/illegal", route_arb_illegal),
    POST("/games/{gid}/arbiter/penalty", route_arb_penalty),
    POST("/games/{gid}/arbiter/result", route_arb_result),
    POST("/games/{gid}/arbiter/colours", route_arb_colours),
};

const int routes_count = sizeof routes_table / sizeof routes_table[0];
