/*
 * routes_service.c — the service itself: liveness (/health) and the
 * OpenAPI document (/openapi.json, embedded in the binary at build time
 * from server/openapi.json).  Public; nothing is read from the store.
 */
#include <stdlib.h>
#include <string.h>

#include "errors.h"
#include "nchan.h"
#include "routes.h"

extern const unsigned char openapi_json[];
extern const size_t openapi_json_len;

int route_health(Req *r)
{
    json_t *j = json_pack("{s:b,s:s,s:I}", "ok", 1, "version", "0.1.0", "now_ms",
                          (json_int_t)store_now_ms());
    if (j && r->srv->nchan) {
        /* The publisher's counters: a growing "dropped" or "queued" says
         * nginx is slow or gone. */
        NchanCounts c;
        nchan_counts(r->srv->nchan, &c);
        json_object_set_new(j, "nchan",
                            json_pack("{s:I,s:I,s:I,s:I,s:I,s:b}", "sent", (json_int_t)c.sent,
                                      "dropped", (json_int_t)c.dropped, "rejected",
                                      (json_int_t)c.rejected, "reconnects",
                                      (json_int_t)c.reconnects, "queued", (json_int_t)c.queued,
                                      "connected", c.connected));
    }
    return http_json(r, 200, j);
}

int route_openapi(Req *r)
{
    char *copy = malloc(openapi_json_len + 1);
    if (!copy)
        return http_error(r, API_E_INTERNAL, "out of memory");
    memcpy(copy, openapi_json, openapi_json_len + 1);
    return http_text(r, 200, "application/json", copy, openapi_json_len);
}
