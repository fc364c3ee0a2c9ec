/*
 * office.c — the event data and officials of a tournament, checked, stored
 * and written to the rating report's header.  See office.h.
 */
#include "office.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "jsonget.h"

const char *const office_rating_types[] = {"standard", "rapid", "blitz", NULL};

/* ---- checks ---- */

static int digits(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isdigit((unsigned char)s[i]))
            return 0;
    return 1;
}

/* "" or a calendar date YYYY-MM-DD (the day checked against the month). */
static int date_ok(const char *s)
{
    static const int days[12] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (!*s)
        return 1;
    if (strlen(s) != 10 || s[4] != '-' || s[7] != '-' || !digits(s, 4) || !digits(s + 5, 2) ||
        !digits(s + 8, 2))
        return 0;
    int y = atoi(s), m = atoi(s + 5), d = atoi(s + 8);
    int leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    return y >= 1900 && m >= 1 && m <= 12 && d >= 1 && d <= days[m - 1] &&
           !(m == 2 && d == 29 && !leap);
}

/* "" or a time of day HH:MM. */
static int time_ok(const char *s)
{
    if (!*s)
        return 1;
    return strlen(s) == 5 && s[2] == ':' && digits(s, 2) && digits(s + 3, 2) && atoi(s) < 24 &&
           atoi(s + 3) < 60;
}

static const char *str_or_empty(json_t *o, const char *k)
{
    const char *v = jsonget_str(o, k);
    return v ? v : "";
}

/* A report line ends at a control character, so no text may hold one. */
static int plain(const char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || *s == 0x7f)
            return 0;
    return 1;
}

/* A person {name, fide_id}: the ID is digits (at most 11, TRF's columns). */
static int person_check(json_t *p, const char *where, char *err, size_t n)
{
    if (!json_is_object(p))
        return error_set(err, n, STORE_E_INVALID, "office.%s must be an object {name, fide_id}",
                         where);
    const char *id = str_or_empty(p, "fide_id");
    if (strlen(id) > 11 || !digits(id, strlen(id)))
        return error_set(err, n, STORE_E_INVALID, "office.%s.fide_id must be up to 11 digits",
                         where);
    const char *name = str_or_empty(p, "name");
    if (strlen(name) > 80 || !plain(name))
        return error_set(err, n, STORE_E_INVALID,
                         "office.%s.name must be one line of up to 80 bytes", where);
    return 0;
}

static int round_dates_check(json_t *a, char *err, size_t n)
{
    if (!json_is_array(a) || json_array_size(a) > TRN_MAX_ROUNDS)
        return error_set(err, n, STORE_E_INVALID,
                         "office.round_dates must be an array of up to %d {date, time}",
                         TRN_MAX_ROUNDS);
    size_t i;
    json_t *d;
    json_array_foreach(a, i, d)
    {
        if (!json_is_object(d) || !date_ok(str_or_empty(d, "date")))
            return error_set(err, n, STORE_E_INVALID,
                             "office.round_dates[%zu].date must be YYYY-MM-DD", i);
        if (!time_ok(str_or_empty(d, "time")))
            return error_set(err, n, STORE_E_INVALID, "office.round_dates[%zu].time must be HH:MM",
                             i);
    }
    return 0;
}

int office_check(json_t *in, char *err, size_t n)
{
    const char *rt = jsonget_str(in, "rating_type");
    if (json_object_get(in, "rating_type")) {
        int known = 0;
        for (int i = 0; rt && office_rating_types[i]; i++)
            known |= strcmp(rt, office_rating_types[i]) == 0;
        if (!known)
            return error_set(err, n, STORE_E_INVALID,
                             "rating_type must be standard, rapid or blitz");
    }
    json_t *o = json_object_get(in, "office");
    if (!o)
        return 0;
    if (!json_is_object(o))
        return error_set(err, n, STORE_E_INVALID, "office must be an object");
    const char *fed = str_or_empty(o, "federation");
    if (*fed && (strlen(fed) != 3 || !isupper((unsigned char)fed[0]) ||
                 !isupper((unsigned char)fed[1]) || !isupper((unsigned char)fed[2])))
        return error_set(err, n, STORE_E_INVALID,
                         "office.federation must be FIDE's three capital letters");
    static const char *const TEXTS[] = {"time_control_text", "event_code"};
    for (int i = 0; i < 2; i++) {
        const char *t = str_or_empty(o, TEXTS[i]);
        if (strlen(t) > 100 || !plain(t))
            return error_set(err, n, STORE_E_INVALID,
                             "office.%s must be one line of up to 100 bytes", TEXTS[i]);
    }
    if (!date_ok(str_or_empty(o, "end_date")))
        return error_set(err, n, STORE_E_INVALID, "office.end_date must be YYYY-MM-DD");
    json_t *v = json_object_get(o, "round_dates");
    if (v && round_dates_check(v, err, n))
        return STORE_E_INVALID;
    static const char *const PEOPLE[] = {"chief_arbiter", "chief_organiser"};
    for (int i = 0; i < 2; i++) {
        v = json_object_get(o, PEOPLE[i]);
        if (v && person_check(v, PEOPLE[i], err, n))
            return STORE_E_INVALID;
    }
    v = json_object_get(o, "deputies");
    if (v && (!json_is_array(v) || json_array_size(v) > OFFICE_MAX_DEPUTIES))
        return error_set(err, n, STORE_E_INVALID,
                         "office.deputies must be an array of up to %d {name, fide_id}",
                         OFFICE_MAX_DEPUTIES);
    size_t i;
    json_t *d;
    json_array_foreach(v, i, d) if (person_check(d, "deputies[]", err, n)) return STORE_E_INVALID;
    return 0;
}

/* ---- store ---- */

int office_store(Store *s, int64_t tid, json_t *in)
{
    const char *rt = jsonget_str(in, "rating_type");
    if (rt) {
        int rc = store_run(s, NULL, "UPDATE tournaments SET rating_type = ?2 WHERE id = ?1", "is",
                           tid, rt);
        if (rc)
            return rc;
    }
    json_t *given = json_object_get(in, "office");
    if (!json_is_object(given))
        return 0;
    json_t *row =
        store_row(s, "SELECT office AS office_json FROM tournaments WHERE id = ?1", "i", tid);
    json_t *cur = json_object_get(row, "office");
    json_t *merged = json_is_object(cur) ? json_deep_copy(cur) : json_object();
    json_decref(row);
    if (!merged)
        return -ENOMEM;
    json_object_update(merged, given);
    char *text = json_dumps(merged, JSON_COMPACT | JSON_SORT_KEYS);
    json_decref(merged);
    int rc = text ? store_run(s, NULL, "UPDATE tournaments SET office = ?2 WHERE id = ?1", "is",
                              tid, text)
                  : -ENOMEM;
    free(text);
    return rc;
}

/* ---- the report ---- */

static void copy(char *dst, size_t cap, const char *src)
{
    snprintf(dst, cap, "%s", src ? src : "");
}

/* "Name (FIDE ID)", or the name alone, or "" when P names nobody. */
static void person_text(json_t *p, char *out, size_t cap)
{
    const char *name = str_or_empty(p, "name"), *id = str_or_empty(p, "fide_id");
    if (*name && *id)
        snprintf(out, cap, "%s (%s)", name, id);
    else
        copy(out, cap, name);
}

/* Adds the header line CODE TEXT (kept in the writer's other lines). */
static int add_line(Tournament *t, const char *code, const char *text)
{
    char line[TRN_TEXT_MAX + 40];
    snprintf(line, sizeof line, "%s %s", code, text);
    return tournament_add_other(t, line);
}

int office_trf_fill(json_t *tour, Tournament *t)
{
    json_t *o = json_object_get(tour, "office");
    copy(t->federation, sizeof t->federation, str_or_empty(o, "federation"));
    copy(t->end_date, sizeof t->end_date, str_or_empty(o, "end_date"));
    /* The report writes dates as YYYY/MM/DD. */
    if (strlen(t->end_date) == 10)
        t->end_date[4] = t->end_date[7] = '/';
    person_text(json_object_get(o, "chief_arbiter"), t->chief_arbiter, sizeof t->chief_arbiter);
    const char *tc = str_or_empty(o, "time_control_text");
    if (*tc)
        copy(t->time_control, sizeof t->time_control, tc);
    const char *sys = str_or_empty(tour, "system");
    const char *rt = str_or_empty(tour, "rating_type");
    snprintf(t->type, sizeof t->type, "%s, %s",
             strcmp(sys, "roundrobin") == 0 ? "Round robin"
             : strcmp(sys, "swiss") == 0    ? "Swiss system"
                                            : "Individual",
             *rt ? rt : "standard");
    json_t *dates = json_object_get(o, "round_dates");
    size_t i;
    json_t *d;
    t->n_round_dates = 0;
    json_array_foreach(dates, i, d)
    {
        const char *date = str_or_empty(d, "date");
        if (i >= TRN_MAX_ROUNDS)
            break;
        /* YY/MM/DD from YYYY-MM-DD; an undated round stays blank. */
        snprintf(t->round_dates[i], sizeof t->round_dates[i], "%s",
                 strlen(date) == 10 ? date + 2 : "");
        if (strlen(date) == 10)
            t->round_dates[i][2] = t->round_dates[i][5] = '/';
        t->n_round_dates = (int)i + 1;
    }
    int rated = 0;
    for (int k = 0; k < t->n_players; k++)
        rated += t->players[k].rating > 0;
    t->declared_players = t->n_players;
    t->declared_rated = rated;
    char text[TRN_TEXT_MAX];
    json_array_foreach(json_object_get(o, "deputies"), i, d)
    {
        person_text(d, text, sizeof text);
        if (*text && add_line(t, "112", text))
            return -ENOMEM;
    }
    /* No header line holds these; a comment keeps them with the report. */
    const char *code = str_or_empty(o, "event_code");
    if (*code) {
        char line[TRN_TEXT_MAX + 32];
        snprintf(line, sizeof line, "FIDE event code: %s", code);
        if (add_line(t, "###", line))
            return -ENOMEM;
    }
    person_text(json_object_get(o, "chief_organiser"), text, sizeof text);
    if (*text) {
        char line[TRN_TEXT_MAX + 32];
        snprintf(line, sizeof line, "Chief organiser: %s", text);
        if (add_line(t, "###", line))
            return -ENOMEM;
    }
    return 0;
}

int office_card_rating(json_t *card, const char *type)
{
    static const char *const COLUMNS[] = {"std_rating", "rapid_rating", "blitz_rating"};
    int k = 0;
    for (int i = 0; type && office_rating_types[i]; i++)
        if (strcmp(type, office_rating_types[i]) == 0)
            k = i;
    return (int)jsonget_int(card, COLUMNS[k]);
}
