/*
 * office_players.c — players from the FIDE register.  See office_players.h.
 */
#include "office_players.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alerts.h"
#include "error.h"
#include "fide.h"
#include "jsonget.h"
#include "office.h"

/* The titles a player of a tournament may carry (players' titles). */
static const char *const TITLES[] = {"GM", "IM", "FM", "CM", "WGM", "WIM", "WFM", "WCM", NULL};

static const char *known_title(const char *t)
{
    for (int i = 0; t && TITLES[i]; i++)
        if (strcmp(t, TITLES[i]) == 0)
            return TITLES[i];
    return NULL;
}

/* The open title if any, else the women's title. */
static const char *card_title(json_t *card)
{
    const char *t = known_title(jsonget_str(card, "title"));
    return t ? t : known_title(jsonget_str(card, "w_title"));
}

/* The rating of TYPE, or 0 when the player has none FIDE counts. */
static int card_rating(json_t *card, const char *type)
{
    int r = office_card_rating(card, type);
    return r >= 1000 && r <= 3500 ? r : 0;
}

json_t *office_players_body(json_t *card, const char *type)
{
    const char *sex = jsonget_str(card, "sex");
    const char *title = card_title(card);
    char id[24], birth[8] = "";
    snprintf(id, sizeof id, "%lld", (long long)jsonget_int(card, "fide_id"));
    if (jsonget_int(card, "birth_year") > 0)
        snprintf(birth, sizeof birth, "%04d", (int)jsonget_int(card, "birth_year") % 10000);
    const char *fed = jsonget_str(card, "federation");
    return json_pack("{s:s,s:s,s:s,s:s,s:s,s:s,s:i}", "name", jsonget_str(card, "name"), "title",
                     title ? title : "", "federation", fed && strlen(fed) == 3 ? fed : "",
                     "fide_id", id, "sex",
                     sex && (sex[0] == 'F' || sex[0] == 'f' || sex[0] == 'w') ? "w" : "m", "birth",
                     birth, "rating", card_rating(card, type));
}

void office_players_rating_type(Store *s, int64_t tid, char *out, size_t cap)
{
    json_t *row = store_row(s, "SELECT rating_type FROM tournaments WHERE id = ?1", "i", tid);
    const char *t = jsonget_str(row, "rating_type");
    snprintf(out, cap, "%s", t ? t : "standard");
    json_decref(row);
}

/* Adds {player_id, name, fide_id, field, from, to} to CHANGES. */
static void change(json_t *changes, json_t *p, const char *field, json_t *from, json_t *to)
{
    json_array_append_new(
        changes, json_pack("{s:O,s:O,s:O,s:s,s:o,s:o}", "player_id", json_object_get(p, "id"),
                           "name", json_object_get(p, "name"), "fide_id",
                           json_object_get(p, "fide_id"), "field", field, "from", from, "to", to));
}

/* The differences between player P and the register's card, into CHANGES;
 * with APPLY also into the store. */
static int compare(Store *s, json_t *p, json_t *card, const char *type, int apply, json_t *changes)
{
    int64_t pid = jsonget_int(p, "id");
    int rating = card_rating(card, type);
    const char *title = card_title(card);
    const char *fed = jsonget_str(card, "federation");
    int rc = 0;
    if (rating != jsonget_int(p, "rating")) {
        change(changes, p, "rating", json_integer(jsonget_int(p, "rating")), json_integer(rating));
        if (apply)
            rc = store_run(s, NULL, "UPDATE players SET rating = ?2 WHERE id = ?1", "ii", pid,
                           (int64_t)rating);
    }
    if (!rc && strcmp(title ? title : "", jsonget_str(p, "title"))) {
        change(changes, p, "title", json_string(jsonget_str(p, "title")),
               json_string(title ? title : ""));
        if (apply)
            rc = store_run(s, NULL, "UPDATE players SET title = ?2 WHERE id = ?1", "is", pid,
                           title ? title : "");
    }
    if (!rc && fed && strlen(fed) == 3 && strcmp(fed, jsonget_str(p, "federation"))) {
        change(changes, p, "federation", json_string(jsonget_str(p, "federation")),
               json_string(fed));
        if (apply)
            rc = store_run(s, NULL, "UPDATE players SET federation = ?2 WHERE id = ?1", "is", pid,
                           fed);
    }
    return rc;
}

int office_players_refresh(Store *s, int64_t tid, int apply, int64_t user, json_t **out, char *err,
                           size_t n)
{
    if (store_int(s, 0, "SELECT count(*) FROM rounds WHERE tournament_id = ?1", "i", tid) > 0)
        return error_set(err, n, STORE_E_STATE,
                         "round 1 is paired: the ratings of the event are fixed");
    char type[16];
    office_players_rating_type(s, tid, type, sizeof type);
    json_t *players = store_rows(s,
                                 "SELECT id, name, rating, title, federation, fide_id FROM "
                                 "players WHERE tournament_id = ?1 AND fide_id <> '' ORDER BY id",
                                 "i", tid);
    json_t *changes = json_array(), *missing = json_array();
    int rc = players && changes && missing ? 0 : -ENOMEM;
    size_t i;
    json_t *p;
    json_array_foreach(players, i, p)
    {
        if (rc)
            break;
        const char *id = jsonget_str(p, "fide_id");
        json_t *card = fide_player(s, strtoll(id, NULL, 10));
        if (!card)
            json_array_append_new(missing,
                                  json_pack("{s:O,s:O,s:s}", "player_id", json_object_get(p, "id"),
                                            "name", json_object_get(p, "name"), "fide_id", id));
        else
            rc = compare(s, p, card, type, apply, changes);
        json_decref(card);
    }
    json_decref(players);
    if (!rc && apply && json_array_size(changes)) {
        json_t *d = json_pack("{s:I,s:O}", "tournament", (json_int_t)tid, "changes", changes);
        alerts_audit_add(s, user, 0, "players.refresh", "tournament", d);
        json_decref(d);
    }
    if (rc) {
        json_decref(changes);
        json_decref(missing);
        return rc > 0 ? error_set(err, n, rc, "the new ratings were refused by the store") : rc;
    }
    json_t *list = fide_list_info(s);
    json_t *date = list ? json_object_get(list, "list_date") : NULL;
    *out = json_pack("{s:s,s:O,s:b,s:o,s:o}", "rating_type", type, "list_date",
                     date ? date : json_null(), "applied", apply, "changes", changes, "missing",
                     missing);
    json_decref(list);
    return 0;
}
