/*
 * routes.c — the route table of /api/v1 and its dispatcher.  Each entry
 * names who may call the route and the fields its body accepts (see
 * routes.h); the OpenAPI document (server/openapi.json, served at
 * /api/v1/openapi.json) lists exactly these methods and paths, with the
 * same roles (x-role) and body schemas, and a test keeps the two equal.
 *
 * A request goes: the route whose pattern matches (a literal segment wins
 * over a parameter that is no id), 413 / 415 for the body, the session
 * (auth.h), 404 for an unknown id in the path, the route's role, and only
 * then the handler.
 */
#include "routes.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "tournaments.h"
#include "auth.h"
#include "cache.h"
#include "errors.h"
#include "exportcache.h"
#include "gamecache.h"
#include "bitboard.h"
#include "security.h"
#include "sse.h"
#include "webfiles.h"

#define PUB ROUTE_PUBLIC
#define ARB ROUTE_ARBITER
#define PLY ROUTE_PLAYER
#define CAP ROUTE_CAPTAIN
#define CHF ROUTE_CHIEF
#define GET(role, p, body, f)                                                                      \
    {                                                                                              \
        HTTP_GET, "GET", p, role, body, f, 0                                                       \
    }
#define HEAVY(role, p, f)                                                                          \
    {                                                                                              \
        HTTP_GET, "GET", p, role, NULL, f, 1                                                       \
    }
#define POST(role, p, body, f)                                                                     \
    {                                                                                              \
        HTTP_POST, "POST", p, role, body, f, 0                                                     \
    }
#define PATCH(role, p, body, f)                                                                    \
    {                                                                                              \
        HTTP_PATCH, "PATCH", p, role, body, f, 0                                                   \
    }

const Route routes_table[] = {
    GET(PUB, "/health", NULL, route_health),
    GET(PUB, "/openapi.json", NULL, route_openapi),
    POST(PUB, "/auth/login", route_login_fields, route_login),
    POST(PUB, "/auth/player", route_player_login_fields, route_player_login),
    POST(PUB, "/auth/logout", jsonin_none, route_logout),
    GET(PUB, "/auth/me", NULL, route_me),
    POST(PUB, "/auth/captain", route_captain_login_fields, route_captain_login),
    POST(ARB, "/auth/password", route_password_fields, route_password),

    GET(PUB, "/tournaments", NULL, route_tournaments_list),
    POST(ARB, "/tournaments", route_tournament_fields, route_tournament_create),
    POST(ARB, "/tournaments/import", route_tournament_import_fields, route_tournament_import),
    GET(PUB, "/tournaments/{tid}", NULL, route_tournament_get),
    PATCH(ARB, "/tournaments/{tid}", route_tournament_fields, route_tournament_update),
    GET(ARB, "/tournaments/{tid}/arbiters", NULL, route_arbiters_list),
    POST(CHF, "/tournaments/{tid}/arbiters", route_arbiter_fields, route_arbiter_grant),
    POST(CHF, "/tournaments/{tid}/arbiters/remove", route_arbiter_fields, route_arbiter_revoke),
    GET(PUB, "/tournaments/{tid}/players", NULL, route_players_list),
    POST(ARB, "/tournaments/{tid}/players", route_player_fields, route_player_create),
    POST(ARB, "/tournaments/{tid}/players/fide", route_player_fide_fields, route_player_add_fide),
    POST(ARB, "/tournaments/{tid}/players/refresh", route_players_refresh_fields,
         route_players_refresh),
    GET(PUB, "/tournaments/{tid}/players/{pid}", NULL, route_player_get),
    PATCH(ARB, "/tournaments/{tid}/players/{pid}", route_player_fields, route_player_update),
    POST(ARB, "/tournaments/{tid}/players/{pid}/credentials", jsonin_none,
         route_player_credentials),
    POST(ARB, "/tournaments/{tid}/credentials", route_pins_fields, route_pins_issue),
    POST(ARB, "/tournaments/{tid}/players/{pid}/byes", route_bye_fields, route_player_bye),
    GET(PUB, "/tournaments/{tid}/byes", NULL, route_byes_list),
    GET(ARB, "/tournaments/{tid}/forbidden", NULL, route_forbidden_list),
    POST(ARB, "/tournaments/{tid}/forbidden", route_forbidden_fields, route_forbidden_add),
    POST(ARB, "/tournaments/{tid}/forbidden/remove", route_forbidden_remove_fields,
         route_forbidden_remove),
    GET(PUB, "/tournaments/{tid}/rounds", NULL, route_rounds_list),
    POST(ARB, "/tournaments/{tid}/rounds", route_round_fields, route_round_create),
    GET(PUB, "/tournaments/{tid}/rounds/{rn}", NULL, route_round_get),
    POST(ARB, "/tournaments/{tid}/rounds/{rn}/games", route_pairing_fields, route_round_add_game),
    POST(ARB, "/tournaments/{tid}/rounds/{rn}/start", jsonin_none, route_round_start),
    POST(ARB, "/tournaments/{tid}/rounds/{rn}/publish", jsonin_none, route_round_publish),
    POST(ARB, "/tournaments/{tid}/rounds/{rn}/unpublish", jsonin_none, route_round_unpublish),
    POST(ARB, "/tournaments/{tid}/rounds/{rn}/pause", jsonin_none, route_round_pause),
    POST(ARB, "/tournaments/{tid}/rounds/{rn}/resume", jsonin_none, route_round_resume),
    GET(ARB, "/tournaments/{tid}/rounds/{rn}/check", NULL, route_round_check),
    POST(ARB, "/tournaments/{tid}/rounds/{rn}/byes", route_round_bye_fields, route_round_bye),
    POST(ARB, "/tournaments/{tid}/rounds/{rn}/swap", route_swap_fields, route_round_swap),
    HEAVY(PUB, "/tournaments/{tid}/rounds/{rn}/pgn", route_round_pgn),
    HEAVY(PUB, "/tournaments/{tid}/rounds/{rn}/pairings", route_round_pairings),
    HEAVY(ARB, "/tournaments/{tid}/rounds/{rn}/hall", route_round_hall),
    HEAVY(PUB, "/tournaments/{tid}/hall", route_hall),
    HEAVY(PUB, "/tournaments/{tid}/pgn", route_tournament_pgn),
    HEAVY(PUB, "/tournaments/{tid}/standings", route_standings),
    HEAVY(PUB, "/tournaments/{tid}/crosstable", route_crosstable),
    HEAVY(ARB, "/tournaments/{tid}/trf", route_tournament_trf),
    HEAVY(PUB, "/tournaments/{tid}/ratings", route_ratings),
    HEAVY(PUB, "/tournaments/{tid}/norms", route_norms),
    GET(PUB, "/tournaments/{tid}/stream", NULL, route_tournament_stream),
    GET(ARB, "/tournaments/{tid}/alerts", NULL, route_alerts_list),
    GET(ARB, "/tournaments/{tid}/alerts/stream", NULL, route_alerts_stream),
    PATCH(ARB, "/tournaments/{tid}/alerts/{aid}", route_alert_fields, route_alert_update),
    GET(PUB, "/tournaments/{tid}/team-settings", NULL, route_team_settings_get),
    PATCH(ARB, "/tournaments/{tid}/team-settings", route_team_settings_fields,
          route_team_settings_update),
    GET(PUB, "/tournaments/{tid}/teams", NULL, route_teams_list),
    POST(ARB, "/tournaments/{tid}/teams", route_team_fields, route_team_create),
    GET(PUB, "/tournaments/{tid}/teams/{team}", NULL, route_team_get),
    PATCH(ARB, "/tournaments/{tid}/teams/{team}", route_team_fields, route_team_update),
    POST(ARB, "/tournaments/{tid}/teams/{team}/credentials", jsonin_none, route_team_credentials),
    GET(CAP, "/tournaments/{tid}/teams/{team}/lineup", NULL, route_lineup_get),
    POST(CAP, "/tournaments/{tid}/teams/{team}/lineup", route_lineup_fields, route_lineup_submit),
    POST(ARB, "/tournaments/{tid}/lineup-deadlines", route_deadline_fields, route_lineup_deadline),
    POST(ARB, "/tournaments/{tid}/matches", jsonin_none, route_matches_pair),
    GET(PUB, "/tournaments/{tid}/rounds/{rn}/matches", NULL, route_round_matches),
    GET(PUB, "/tournaments/{tid}/matches/{mid}", NULL, route_match_get),
    POST(ARB, "/tournaments/{tid}/matches/{mid}/forfeit", route_forfeit_fields,
         route_match_forfeit),
    GET(PUB, "/tournaments/{tid}/team-standings", NULL, route_team_standings),
    GET(PUB, "/tournaments/{tid}/team-crosstable", NULL, route_team_crosstable),
    GET(PUB, "/tournaments/{tid}/team-players", NULL, route_team_players),
    GET(PUB, "/tournaments/{tid}/board-prizes", NULL, route_board_prizes),
    GET(ARB, "/tournaments/{tid}/team-trf", NULL, route_team_trf),

    GET(ARB, "/fide/search", NULL, route_fide_search),
    GET(ARB, "/fide/players/{fideid}", NULL, route_fide_player),

    GET(PUB, "/games/{gid}", NULL, route_game_get),
    PATCH(ARB, "/games/{gid}", route_game_update_fields, route_game_update),
    GET(PUB, "/games/{gid}/pgn", NULL, route_game_pgn),
    GET(PUB, "/games/{gid}/stream", NULL, route_game_stream),
    POST(PLY, "/games/{gid}/checkin", route_ply_fields, route_play_checkin),
    POST(PLY, "/games/{gid}/move", route_move_fields, route_play_move),
    POST(PLY, "/games/{gid}/offer", route_ply_fields, route_play_offer),
    POST(PLY, "/games/{gid}/accept", route_ply_fields, route_play_accept),
    POST(PLY, "/games/{gid}/decline", route_ply_fields, route_play_decline),
    POST(PLY, "/games/{gid}/claim", route_claim_fields, route_play_claim),
    POST(PLY, "/games/{gid}/resign", route_ply_fields, route_play_resign),
    POST(PLY, "/games/{gid}/flag", route_ply_fields, route_play_flag),
    POST(PLY, "/games/{gid}/call", route_note_fields, route_play_call),
    POST(PLY, "/games/{gid}/confirm", route_ply_fields, route_play_confirm),
    POST(ARB, "/games/{gid}/arbiter/pause", route_note_fields, route_arb_pause),
    POST(ARB, "/games/{gid}/arbiter/resume", route_note_fields, route_arb_resume),
    POST(ARB, "/games/{gid}/arbiter/accept", route_note_fields, route_arb_accept),
    POST(ARB, "/games/{gid}/arbiter/decline", route_note_fields, route_arb_decline),
    POST(ARB, "/games/{gid}/arbiter/adjust", route_adjust_fields, route_arb_adjust),
    POST(ARB, "/games/{gid}/arbiter/restore", route_restore_fields, route_arb_restore),
    POST(ARB, "/games/{gid}/arbiter/illegal", route_illegal_fields, route_arb_illegal),
    POST(ARB, "/games/{gid}/arbiter/penalty", route_penalty_fields, route_arb_penalty),
    POST(ARB, "/games/{gid}/arbiter/result", route_result_fields, route_arb_result),
    POST(ARB, "/games/{gid}/arbiter/colours", route_note_fields, route_arb_colours),
    POST(ARB, "/games/{gid}/arbiter/touch", route_touch_fields, route_arb_touch),
    POST(ARB, "/games/{gid}/arbiter/press", route_press_fields, route_arb_press),
    POST(ARB, "/games/{gid}/arbiter/illegal_act", route_illegal_act_fields, route_arb_illegal_act),
    POST(ARB, "/games/{gid}/arbiter/displaced", route_displaced_fields, route_arb_displaced),
    POST(ARB, "/games/{gid}/arbiter/setup", route_setup_fields, route_arb_setup),
    POST(ARB, "/games/{gid}/arbiter/dead_position", route_dead_fields, route_arb_dead),
};

const int routes_count = sizeof routes_table / sizeof routes_table[0];

int routes_authorize(Req *r, const Route *route)
{
    if (route->role == ROUTE_PUBLIC)
        return 0;
    if (route->role == ROUTE_CAPTAIN) {
        if (auth_require_captain(r, r->id[0], r->id[1]))
            return -1;
        /* An arbiter submitting a line-up changes the tournament. */
        bool read = r->method == HTTP_GET || r->method == HTTP_HEAD;
        return r->auth.role == ROLE_ARBITER && !read ? auth_require_change(r, r->id[0], 0) : 0;
    }
    if (route->role == ROUTE_CHIEF)
        return auth_require_chief(r, r->id[0]);
    if (route->role == ROUTE_ARBITER) {
        if (auth_require_arbiter(r))
            return -1;
        /* Every arbiter reads; a change to a tournament or one of its
         * games needs a right on it. */
        if (r->method == HTTP_GET || r->method == HTTP_HEAD)
            return 0;
        if (strncmp(route->pattern, "/tournaments/{tid}", 18) == 0)
            return auth_require_change(r, r->id[0], 0);
        if (strncmp(route->pattern, "/games/{gid}", 12) == 0)
            return auth_require_change(r, 0, r->id[0]);
        return 0;
    }
    /* A game's player: signed in as a player, and one of the two. */
    if (auth_require_player(r))
        return -1;
    Store *s = http_reader(r->srv);
    if (!s)
        return http_error(r, API_E_INTERNAL, "the store is not available"), -1;
    int64_t w = 0, b = 0;
    if (gamecache_players(s, r->id[0], &w, &b))
        return http_error(r, STORE_E_NOT_FOUND, "no game %lld", (long long)r->id[0]), -1;
    if (r->auth.player_id == w)
        return r->colour = WHITE, 0;
    if (r->auth.player_id == b)
        return r->colour = BLACK, 0;
    return http_error(r, API_E_FORBIDDEN, "you do not play in game %lld", (long long)r->id[0]), -1;
}

/* Matches PATH against PATTERN; integer parameters go to ID.  Returns 1 on
 * a match, 0 otherwise; *BAD_ID is set when only a parameter failed to be
 * a positive integer. */
static int match(const char *pattern, const char *path, int64_t *id, int *bad_id)
{
    int n = 0;
    const char *p = pattern, *s = path;
    while (*p && *s) {
        if (*p == '{') {
            const char *pe = strchr(p, '}');
            const char *se = s;
            int digits = 1;
            while (*se && *se != '/') {
                if (*se < '0' || *se > '9')
                    digits = 0;
                se++;
            }
            if (se == s)
                return 0;
            int64_t v = 0;
            if (digits && se - s <= 15)
                for (const char *q = s; q < se; q++)
                    v = v * 10 + (*q - '0');
            else
                v = -1;
            if (v <= 0)
                *bad_id = 1;
            if (n < 4)
                id[n++] = v;
            p = pe + 1;
            s = se;
            continue;
        }
        if (*p != *s)
            return 0;
        p++;
        s++;
    }
    return *p == 0 && *s == 0;
}

/* Unknown ids are 404 before anything else is looked at (the body
 * included), whatever the route. */
static int check_ids(Req *r, const char *pattern)
{
    static const char *const names[] = {"{tid}", "{pid}", "{rn}", "{gid}", "{aid}"};
    static const char kinds[] = "tprga";
    static const char *const what[] = {"tournament", "player", "round", "game", "alert"};
    Store *s = NULL;
    int n = 0;
    for (const char *p = strchr(pattern, '{'); p && n < 4; p = strchr(p + 1, '{'), n++)
        for (int k = 0; k < 5; k++)
            if (strncmp(p, names[k], strlen(names[k])) == 0) {
                if (!s && !(s = http_reader(r->srv)))
                    return http_error(r, API_E_INTERNAL, "the store is not available"), -1;
                /* Players, rounds and alerts live in the tournament given
                 * first in the path. */
                int64_t w, b;
                /* A draft round and its games are not there for the
                 * public, the players and their tablets. */
                if ((kinds[k] == 'g' ? gamecache_players(s, r->id[n], &w, &b) != 0
                                     : !tournaments_exists(s, kinds[k], r->id[0], r->id[n])) ||
                    route_round_hidden(r, s, kinds[k], r->id[0], r->id[n]))
                    return http_error(r, STORE_E_NOT_FOUND, "no %s %lld", what[k],
                                      (long long)r->id[n]),
                           -1;
            }
    return 0;
}

/* The handler of the route r->heavy_arg, on whichever thread serves R
 * (a polling thread, or the heavy-read pool). */
static int run_handler(Req *r)
{
    const Route *route = r->heavy_arg;
    int get = route->method == HTTP_GET;
    /* Reads for anyone but an arbiter see results as the public does
     * (the tournament's delay holds back a game's end). */
    Store *view = get && r->auth.role != ROLE_ARBITER ? http_reader(r->srv) : NULL;
    /* The key (and its store version) is read before rendering. */
    char key[EXPORTCACHE_KEY];
    int keyed = get && route->heavy && exportcache_key(r, key);
    int first_hdr = r->nhdr;
    store_public_view(view, store_now_ms());
    int done = route->fn(r);
    store_public_view(view, 0);
    if (keyed && done == ROUTE_DONE)
        exportcache_put(r, key, first_hdr);
    if (done == ROUTE_DONE && get)
        cache_finish(r, route->role == ROUTE_PUBLIC);
    return done;
}

int routes_dispatch(Req *r, const char *path)
{
    int path_found = 0, bad_id = 0;
    for (int i = 0; i < routes_count; i++) {
        int64_t id[4] = {0};
        int bad = 0;
        if (!match(routes_table[i].pattern, path, id, &bad))
            continue;
        if (bad) {
            /* "/alerts/stream" may look like "/alerts/{aid}": a literal
             * route of the path wins over a parameter that is no id. */
            bad_id = 1;
            continue;
        }
        path_found = 1;
        int m = r->method == HTTP_HEAD ? HTTP_GET : r->method;
        if (routes_table[i].method != m)
            continue;
        r->route = routes_table[i].pattern;
        memcpy(r->id, id, sizeof id);
        if (r->too_large)
            return http_error(r, API_E_TOO_LARGE, "the body is larger than %d bytes",
                              HTTP_MAX_BODY);
        if (r->method == HTTP_POST || r->method == HTTP_PATCH) {
            const char *ct = http_header(r, MHD_HTTP_HEADER_CONTENT_TYPE);
            if ((ct || r->body_len) && (!ct || strncasecmp(ct, "application/json", 16) != 0 ||
                                        (ct[16] && ct[16] != ';' && ct[16] != ' ')))
                return http_error(r, API_E_MEDIA_TYPE,
                                  "the body must be sent as Content-Type: application/json");
        }
        int rc = auth_resolve(r);
        if (rc)
            return ROUTE_DONE;
        if (check_ids(r, routes_table[i].pattern) || routes_authorize(r, &routes_table[i]))
            return ROUTE_DONE;
        r->heavy_arg = &routes_table[i];
        if (!routes_table[i].heavy)
            return run_handler(r);
        /* A kept answer is served here, without the heavy-read pool. */
        char key[EXPORTCACHE_KEY];
        if (r->method == HTTP_GET || r->method == HTTP_HEAD) {
            if (exportcache_key(r, key) && exportcache_serve(r, key)) {
                cache_finish(r, routes_table[i].role == ROUTE_PUBLIC);
                return ROUTE_DONE;
            }
        }
        return http_offload(r, run_handler);
    }
    if (path_found)
        return http_error(r, API_E_METHOD, "%s is not allowed on %s", r->method_name, path);
    if (bad_id)
        return http_error(r, STORE_E_NOT_FOUND,
                          "no such object: '%s' (ids are positive whole "
                          "numbers)",
                          path);
    return http_error(r, API_E_NO_ROUTE, "there is no API route %s", path);
}

/* ---- the hooks of the HTTP layer ---- */

/* After a write that may touch sessions or pairings: both caches forget. */
static void write_committed(void)
{
    auth_cache_forget();
    gamecache_forget();
}

static void stopping(Server *srv)
{
    sse_close_all(srv->hub);
}

const HttpHooks routes_hooks = {
    .admit = security_rate_check,
    .api = routes_dispatch,
    .write_committed = write_committed,
    .headers = security_headers,
    .page_headers = security_page_policy,
    .files = webfiles_serve,
    .stopping = stopping,
};
