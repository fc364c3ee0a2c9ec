/*
 * errors.c — the single map from error codes to HTTP statuses and codes.
 */
#include "errors.h"

#include "game.h"
#include "games.h"
#include "store.h"

#define G(c) (GAMES_E_BASE + (c))

static const struct {
    int code, status;
    const char *name;
} map[] = {
    {STORE_E_NOT_FOUND, 404, "not_found"},
    {STORE_E_CONFLICT, 409, "conflict"},
    {STORE_E_INVALID, 400, "invalid_value"},
    {STORE_E_STATE, 409, "illegal_state"},
    {STORE_E_STALE, 409, "stale_ply"},
    {STORE_E_ILLEGAL, 409, "illegal_move"},
    {STORE_E_FORBIDDEN, 403, "forbidden"},
    {API_E_BAD_JSON, 400, "bad_json"},
    {API_E_UNKNOWN_FIELD, 400, "unknown_field"},
    {API_E_WRONG_TYPE, 400, "wrong_type"},
    {API_E_MISSING_FIELD, 400, "missing_field"},
    {API_E_INVALID_VALUE, 400, "invalid_value"},
    {API_E_UNAUTHORIZED, 401, "unauthorized"},
    {API_E_FORBIDDEN, 403, "forbidden"},
    {API_E_CSRF, 403, "csrf"},
    {API_E_TOO_LARGE, 413, "too_large"},
    {API_E_MEDIA_TYPE, 415, "unsupported_media_type"},
    {API_E_NO_ROUTE, 404, "no_route"},
    {API_E_METHOD, 405, "method_not_allowed"},
    {API_E_UNAVAILABLE, 503, "unavailable"},
    {API_E_RATE, 429, "too_many_attempts"},
    {API_E_RATE_LIMITED, 429, "rate_limited"},
    {API_E_INTERNAL, 500, "internal"},
    {API_E_BAD_REQUEST, 400, "bad_request"},
    {API_E_NOT_IMPLEMENTED, 501, "not_implemented"},
    {API_E_STREAMS, 429, "too_many_streams"},
    /* The Laws engine's refusals (rules/laws/game.h). */
    {G(GAME_E_ORDER), 409, "out_of_order"},
    {G(GAME_E_ACTOR), 409, "not_your_action"},
    {G(GAME_E_NOT_STARTED), 409, "not_started"},
    {G(GAME_E_STARTED), 409, "already_started"},
    {G(GAME_E_OVER), 409, "game_over"},
    {G(GAME_E_NOT_OVER), 409, "game_not_over"},
    {G(GAME_E_TURN), 409, "not_your_turn"},
    {G(GAME_E_NOTATION), 400, "notation"},
    {G(GAME_E_ILLEGAL), 409, "illegal_move"},
    {G(GAME_E_TOUCH), 409, "touch_move"},
    {G(GAME_E_PAUSED), 409, "paused"},
    {G(GAME_E_FLAG_FELL), 409, "flag_fell"},
    {G(GAME_E_NO_FLAG), 409, "no_flag"},
    {G(GAME_E_NO_OFFER), 409, "no_offer"},
    {G(GAME_E_OFFER_RULE), 409, "offer_not_allowed"},
    {G(GAME_E_PAYLOAD), 400, "invalid_value"},
    {G(GAME_E_LIMIT), 409, "limit"},
    {G(GAME_E_SCORE), 409, "illegal_state"},
};

static int find(int code)
{
    for (unsigned i = 0; i < sizeof map / sizeof map[0]; i++)
        if (map[i].code == code)
            return (int)i;
    return -1;
}

int errors_status(int code)
{
    int i = find(code);
    return i < 0 ? 500 : map[i].status;
}

const char *errors_code(int code)
{
    int i = find(code);
    return i < 0 ? "internal" : map[i].name;
}
