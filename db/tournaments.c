/*
 * tournaments.c — tournament rows and their settings.  See tournaments.h.
 * Every write checks its preconditions inside the caller's transaction, so
 * a refused request writes nothing.
 */
#include "tournaments.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alerts.h"
#include "berger.h"
#include "error.h"
#include "event_json.h"
#include "jsonget.h"
#include "office.h"
#include "tiebreak.h"

int tournaments_exists(Store *s, char kind, int64_t parent, int64_t id)
{
    switch (kind) {
    case 't': return store_int(s, 0, "SELECT count(*) FROM tournaments WHERE id = ?1", "i", id) > 0;
    case 'p':
        return store_int(s, 0, "SELECT count(*) FROM players WHERE tournament_id = ?1 AND id = ?2",
                         "ii", parent, id) > 0;
    case 'r':
        return store_int(s, 0,
                         "SELECT count(*) FROM rounds WHERE tournament_id = ?1 AND "
                         "number = ?2",
                         "ii", parent, id) > 0;
    case 'g': return store_int(s, 0, "SELECT count(*) FROM games WHERE id = ?1", "i", id) > 0;
    case 'a':
        return store_int(s, 0, "SELECT count(*) FROM alerts WHERE tournament_id = ?1 AND id = ?2",
                         "ii", parent, id) > 0;
    }
    return 0;
}

json_t *tournaments_settings_default(void)
{
    GameSettings gs;
    game_settings_default(&gs);
    json_t *o = event_json_settings_to_json(&gs);
    /* The time control is the tournament's own field; the start position
     * is given only when it is not the standard one. */
    json_object_del(o, "time_control");
    json_object_del(o, "fen");
    json_object_del(o, "type");
    return o;
}

int tournaments_settings_check(json_t *settings, const char *time_control, char *err, size_t n)
{
    json_t *o = settings ? json_deep_copy(settings) : json_object();
    if (time_control)
        json_object_set_new(o, "time_control", json_string(time_control));
    GameSettings gs;
    int rc = event_json_settings_from_json(o, &gs, err, n);
    json_decref(o);
    return rc ? STORE_E_INVALID : 0;
}

/* ---- tournaments ---- */

static const char SQL_T_LIST[] =
    "SELECT id, name, time_control, system, rounds, place, start_date, settings AS settings_json, "
    "points AS points_json, tiebreaks AS tiebreaks_json, bye_limit, bye_last_rounds, status, "
    "office AS office_json, rating_type, pairing_system, acceleration, created_ms AS created_at "
    "FROM tournaments ORDER BY id";
static const char SQL_T_GET[] =
    "SELECT id, name, time_control, system, rounds, place, start_date, settings AS settings_json, "
    "points AS points_json, tiebreaks AS tiebreaks_json, bye_limit, bye_last_rounds, status, "
    "office AS office_json, rating_type, pairing_system, acceleration, created_ms AS created_at "
    "FROM tournaments WHERE id = ?1";

/* T's "status" from its rounds and games, not from its stored column
 * (which nothing moves on): "setup" until a round starts, "finished" once
 * the planned rounds have started and every game has a result, else
 * "running".  A round robin plans its Berger table's rounds (both cycles
 * when its round count asks for them); a Swiss without a round count is
 * never finished by itself. */
static void set_status(Store *s, json_t *t)
{
    int64_t tid = jsonget_int(t, "id");
    json_t *c = store_row(s,
                          "SELECT (SELECT count(*) FROM rounds WHERE tournament_id = ?1"
                          " AND status <> 'pending') AS started,"
                          " (SELECT count(*) FROM games WHERE tournament_id = ?1"
                          " AND result = '*') AS open,"
                          " (SELECT count(*) FROM players WHERE tournament_id = ?1) AS players",
                          "i", tid);
    if (!c)
        return;
    int64_t started = jsonget_int(c, "started"), open = jsonget_int(c, "open");
    int np = (int)jsonget_int(c, "players");
    json_decref(c);
    const char *system = jsonget_str(t, "system");
    int64_t planned = jsonget_int(t, "rounds");
    if (system && strcmp(system, "roundrobin") == 0 && np >= BERGER_MIN_PLAYERS &&
        np <= BERGER_MAX_PLAYERS)
        planned =
            berger_rounds(np, planned >= berger_rounds(np, BERGER_DOUBLE) ? BERGER_DOUBLE : 0);
    const char *st = started == 0                                     ? "setup"
                     : planned > 0 && started >= planned && open == 0 ? "finished"
                                                                      : "running";
    json_object_set_new(t, "status", json_string(st));
}

json_t *tournaments_list(Store *s)
{
    json_t *list = store_rows(s, SQL_T_LIST, "");
    size_t i;
    json_t *t;
    json_array_foreach(list, i, t) set_status(s, t);
    return list;
}

json_t *tournaments_get(Store *s, int64_t tid)
{
    json_t *t = store_row(s, SQL_T_GET, "i", tid);
    if (t)
        set_status(s, t);
    return t;
}

int tournaments_create(Store *s, json_t *in, int64_t user, json_t **out, char *err, size_t n)
{
    json_t *settings = tournaments_settings_default();
    json_t *given = json_object_get(in, "settings");
    if (given)
        json_object_update(settings, given);
    char *st = json_dumps(settings, JSON_COMPACT);
    json_decref(settings);
    int rc = store_run(
        s, NULL,
        "INSERT INTO tournaments(name, time_control, system, rounds, place, start_date,"
        " settings, created_ms) VALUES (?1, ?2, coalesce(?3, 'swiss'), ?4,"
        " coalesce(?5, ''), coalesce(?6, ''), ?7, ?8)",
        "sss"
        "i"
        "sssi",
        jsonget_str(in, "name"), jsonget_str(in, "time_control"), jsonget_str(in, "system"),
        jsonget_has_int(in, "rounds") ? jsonget_int(in, "rounds") : (int64_t)0,
        jsonget_str(in, "place"), jsonget_str(in, "start_date"), st, store_now_ms());
    free(st);
    if (rc)
        return rc > 0 ? error_set(err, n, rc, "the tournament was refused by the store") : rc;
    int64_t id = sqlite3_last_insert_rowid(store_db(s));
    if (!jsonget_has_int(in, "rounds"))
        store_run(s, NULL, "UPDATE tournaments SET rounds = NULL WHERE id = ?1", "i", id);
    rc = tournaments_options_store(s, id, in);
    if (!rc)
        rc = office_store(s, id, in);
    if (rc)
        return rc > 0 ? error_set(err, n, rc, "the points or tie-breaks were refused by the store")
                      : rc;
    /* Its creator is its chief arbiter (db/users.h). */
    store_run(s, NULL, "UPDATE tournaments SET created_by = nullif(?2, 0) WHERE id = ?1", "ii", id,
              user);
    alerts_audit_add(s, user, 0, "tournament.create", "tournament", in);
    *out = tournaments_get(s, id);
    return 0;
}

int tournaments_update(Store *s, int64_t tid, json_t *in, int64_t user, json_t **out, char *err,
                       size_t n)
{
    json_t *t = tournaments_get(s, tid);
    if (!t)
        return error_set(err, n, STORE_E_NOT_FOUND, "no tournament %lld", (long long)tid);
    json_t *settings = json_deep_copy(json_object_get(t, "settings"));
    if (!json_is_object(settings)) {
        json_decref(settings);
        settings = tournaments_settings_default();
    }
    json_t *given = json_object_get(in, "settings");
    if (given)
        json_object_update(settings, given);
    char *st = json_dumps(settings, JSON_COMPACT);
    json_decref(settings);
    json_decref(t);
    int rc = store_run(s, NULL,
                       "UPDATE tournaments SET name = coalesce(?2, name), time_control = "
                       "coalesce(?3, time_control), system = coalesce(?4, system), rounds = "
                       "CASE WHEN ?5 > 0 THEN ?5 ELSE rounds END, place = coalesce(?6, place), "
                       "start_date = coalesce(?7, start_date), settings = ?8 WHERE id = ?1",
                       "i"
                       "sss"
                       "i"
                       "sss",
                       tid, jsonget_str(in, "name"), jsonget_str(in, "time_control"),
                       jsonget_str(in, "system"),
                       jsonget_has_int(in, "rounds") ? jsonget_int(in, "rounds") : (int64_t)0,
                       jsonget_str(in, "place"), jsonget_str(in, "start_date"), st);
    free(st);
    if (rc)
        return rc > 0 ? error_set(err, n, rc, "the change was refused by the store") : rc;
    rc = tournaments_options_store(s, tid, in);
    if (!rc)
        rc = office_store(s, tid, in);
    if (rc)
        return rc > 0 ? error_set(err, n, rc, "the points or tie-breaks were refused by the store")
                      : rc;
    json_t *d = json_pack("{s:I,s:O}", "id", (json_int_t)tid, "changes", in);
    alerts_audit_add(s, user, 0, "tournament.update", "tournament", d);
    json_decref(d);
    *out = tournaments_get(s, tid);
    return 0;
}

/* ---- points, tie-breaks and bye rules ---- */

static const char *const POINT_KEYS[] = {"win", "draw", "loss", "bye"};

/* A number of points as tenths: 0 and *TENTHS, or -1 when it is not a
 * multiple of 0.1 between 0 and 10. */
static int tenths_of(json_t *v, TrnPoints *tenths)
{
    if (!json_is_number(v))
        return -1;
    double x = json_number_value(v) * TRN_POINT;
    if (!(x >= 0 && x <= 10 * TRN_POINT))
        return -1;
    double r = (double)(long)(x + 0.5);
    if (x - r > 1e-6 || r - x > 1e-6)
        return -1;
    *tenths = (TrnPoints)r;
    return 0;
}

/* The tie-break list of a body as one comma-separated string, or NULL
 * (absent); *BAD is set when it has the wrong type. */
static char *tiebreak_text(json_t *v, int *bad)
{
    *bad = 0;
    if (!v)
        return NULL;
    if (json_is_string(v))
        return strdup(json_string_value(v));
    if (!json_is_array(v)) {
        *bad = 1;
        return NULL;
    }
    size_t len = 1, i;
    json_t *e;
    json_array_foreach(v, i, e)
    {
        if (!json_is_string(e)) {
            *bad = 1;
            return NULL;
        }
        len += strlen(json_string_value(e)) + 1;
    }
    char *s = calloc(1, len);
    if (!s)
        return NULL;
    json_array_foreach(v, i, e)
    {
        if (i)
            strcat(s, ",");
        strcat(s, json_string_value(e));
    }
    return s;
}

/* True for an empty or all-blank list: the system's default. */
static int blank(const char *s)
{
    return s[strspn(s, " \t,;")] == 0;
}

/* Parses a tie-break list into SPECS; 0, or STORE_E_INVALID with ERR. */
static int tiebreaks_parse(const char *text, TbSpec *specs, int *count, char *err, size_t n)
{
    char why[160] = "";
    if (tiebreak_parse(text, specs, TB_MAX_SPECS - 1, count, why, sizeof why))
        return error_set(err, n, STORE_E_INVALID, "tiebreaks: %s", why);
    return 0;
}

int tournaments_options_check(json_t *in, char *err, size_t n)
{
    json_t *pts = json_object_get(in, "points");
    if (pts) {
        if (!json_is_object(pts))
            return error_set(err, n, STORE_E_INVALID,
                             "points must be an object {win, draw, loss, bye}");
        const char *k;
        json_t *v;
        json_object_foreach(pts, k, v)
        {
            int known = 0;
            for (int i = 0; i < 4; i++)
                known |= strcmp(k, POINT_KEYS[i]) == 0;
            if (!known)
                return error_set(err, n, STORE_E_INVALID,
                                 "points: unknown field '%s' (win, draw, loss, bye)", k);
            TrnPoints t;
            if (tenths_of(v, &t))
                return error_set(
                    err, n, STORE_E_INVALID,
                    "points.%s must be a number of points from 0 to 10 in steps of 0.1", k);
        }
    }
    int bad;
    char *text = tiebreak_text(json_object_get(in, "tiebreaks"), &bad);
    if (bad)
        return error_set(err, n, STORE_E_INVALID,
                         "tiebreaks must be a string such as \"BH/C1,BH,SB,DE\" "
                         "or an array of tie-break names");
    int rc = 0;
    if (text && !blank(text)) {
        TbSpec specs[TB_MAX_SPECS];
        int count = 0;
        rc = tiebreaks_parse(text, specs, &count, err, n);
    }
    free(text);
    return rc;
}

int tournaments_options_store(Store *s, int64_t tid, json_t *in)
{
    /* The requested-bye rules; the server checked the ranges. */
    static const char *const BYE_SQL[2] = {
        "UPDATE tournaments SET bye_limit = ?2 WHERE id = ?1",
        "UPDATE tournaments SET bye_last_rounds = ?2 WHERE id = ?1"};
    static const char *const BYE_KEYS[2] = {"bye_limit", "bye_last_rounds"};
    for (int i = 0; i < 2; i++) {
        json_t *v = json_object_get(in, BYE_KEYS[i]);
        int rc = json_is_integer(v)
                     ? store_run(s, NULL, BYE_SQL[i], "ii", tid, (int64_t)json_integer_value(v))
                     : 0;
        if (rc)
            return rc;
    }
    /* How a Swiss is paired; the server checked the names. */
    static const char *const SWISS_SQL[2] = {
        "UPDATE tournaments SET pairing_system = ?2 WHERE id = ?1",
        "UPDATE tournaments SET acceleration = ?2 WHERE id = ?1"};
    static const char *const SWISS_KEYS[2] = {"pairing_system", "acceleration"};
    for (int i = 0; i < 2; i++) {
        const char *v = jsonget_str(in, SWISS_KEYS[i]);
        int rc = v ? store_run(s, NULL, SWISS_SQL[i], "is", tid, v) : 0;
        if (rc)
            return rc;
    }
    json_t *pts = json_object_get(in, "points");
    if (json_is_object(pts)) {
        json_t *cur =
            store_row(s, "SELECT points AS points_json FROM tournaments WHERE id = ?1", "i", tid);
        json_t *merged = json_object();
        for (int i = 0; i < 4; i++) {
            json_t *v = json_object_get(pts, POINT_KEYS[i]);
            if (!v)
                v = json_object_get(json_object_get(cur, "points"), POINT_KEYS[i]);
            TrnPoints t = 0;
            if (v && tenths_of(v, &t) == 0)
                json_object_set_new(merged, POINT_KEYS[i], json_real((double)t / TRN_POINT));
        }
        json_decref(cur);
        char *text = json_dumps(merged, JSON_COMPACT);
        json_decref(merged);
        int rc = text ? store_run(s, NULL, "UPDATE tournaments SET points = ?2 WHERE id = ?1", "is",
                                  tid, text)
                      : -ENOMEM;
        free(text);
        if (rc)
            return rc;
    }
    int bad;
    char *text = tiebreak_text(json_object_get(in, "tiebreaks"), &bad);
    if (!text)
        return 0;
    TbSpec specs[TB_MAX_SPECS];
    int count = 0;
    char err[160];
    int rc = blank(text) ? 0 : tiebreaks_parse(text, specs, &count, err, sizeof err);
    free(text);
    if (rc)
        return rc;
    json_t *arr = json_array();
    for (int i = 0; i < count; i++) {
        char name[32];
        tiebreak_spec_name(&specs[i], name, sizeof name);
        json_array_append_new(arr, json_string(name));
    }
    char *js = json_dumps(arr, JSON_COMPACT);
    json_decref(arr);
    rc = js ? store_run(s, NULL, "UPDATE tournaments SET tiebreaks = ?2 WHERE id = ?1", "is", tid,
                        js)
            : -ENOMEM;
    free(js);
    return rc;
}

void tournaments_point_system(json_t *points, TrnPointSystem *ps)
{
    tournament_points_default(ps);
    TrnPoints v[4] = {ps->win_white, ps->draw_white, ps->loss_white, ps->pab};
    for (int i = 0; i < 4; i++)
        tenths_of(json_object_get(points, POINT_KEYS[i]), &v[i]);
    ps->win_white = ps->win_black = ps->forfeit_win = ps->fpb = v[0];
    ps->draw_white = ps->draw_black = ps->hpb = v[1];
    ps->loss_white = ps->loss_black = v[2];
    ps->pab = v[3];
}
