/*
 * routes_fide.c — the local register of FIDE's rating list for the desk:
 * name search as the arbiter types, and one player's card by FIDE ID
 * (db/fide.h).  The register is loaded with `arbiter fide import`.
 */
#include <stdlib.h>
#include <string.h>

#include "errors.h"
#include "fide.h"
#include "routes.h"

static const char *query(Req *r, const char *name)
{
    return r->conn ? MHD_lookup_connection_value(r->conn, MHD_GET_ARGUMENT_KIND, name) : NULL;
}

static Store *reader(Req *r)
{
    Store *s = http_reader(r->srv);
    if (!s)
        http_error(r, API_E_INTERNAL, "the store is not available");
    return s;
}

int route_fide_search(Req *r)
{
    const char *q = query(r, "q"), *l = query(r, "limit");
    if (!q || strlen(q) > 200)
        return http_error(r, API_E_INVALID_VALUE, "q: the text to search (up to 200 bytes)");
    long limit = 20;
    if (l) {
        char *end;
        limit = strtol(l, &end, 10);
        if (*end || limit < 1 || limit > 100)
            return http_error(r, API_E_INVALID_VALUE, "limit: a whole number from 1 to 100");
    }
    Store *s = reader(r);
    if (!s)
        return ROUTE_DONE;
    json_t *rows = fide_search(s, q, (int)limit);
    if (!rows)
        return http_error(r, API_E_INTERNAL, "the search failed");
    return http_json(r, 200, rows);
}

int route_fide_player(Req *r)
{
    Store *s = reader(r);
    if (!s)
        return ROUTE_DONE;
    json_t *p = fide_player(s, r->id[0]);
    if (!p)
        return http_error(r, STORE_E_NOT_FOUND, "FIDE ID %lld is not in the register",
                          (long long)r->id[0]);
    json_t *list = fide_list_info(s);
    json_object_set_new(p, "list_date",
                        json_incref(list ? json_object_get(list, "list_date") : json_null()));
    json_decref(list);
    return http_json(r, 200, p);
}
